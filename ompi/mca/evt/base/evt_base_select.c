/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Selection of the evt module, the adapter that installs it as the engine's
 * delivery, and its (un)registration with opal_progress.
 *
 * evt components use the select-one shape of seed 004 (evtc_init returns a
 * module and a priority), not mca_query_component, so the walk is ours
 * rather than mca_base_select()'s; it follows mca_base_select: highest
 * priority wins, ties go to the first found, the losers are closed.
 */

#include "ompi_config.h"

#include <stdio.h>
#include <string.h>

#include "opal/class/opal_list.h"
#include "opal/mca/base/base.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/evt.h"

/* The engine's view of the selected module. Filled once per selection in
 * INIT context, before mca_base_event_delivery_set() publishes it. */
static mca_base_event_delivery_t evt_base_delivery;

/* Module flags -> delivery flags. Context: INIT. */
static uint32_t evt_base_delivery_flags(uint32_t module_flags)
{
    uint32_t flags = 0;

    if (module_flags & OMPI_EVT_MODULE_FLAG_DEFERRED) {
        flags |= MCA_BASE_EVENT_DELIVERY_DEFERRED;
    }
    if (module_flags & OMPI_EVT_MODULE_FLAG_EXPORTS) {
        flags |= MCA_BASE_EVENT_DELIVERY_EXPORTS;
    }
    if (module_flags & OMPI_EVT_MODULE_FLAG_ASYNC_SIGNAL_RAISE) {
        flags |= MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE;
    }
    return flags;
}

/* Is the evt selection variable an explicit include list ("sync,ring")?
 * Then finding nothing usable is the user's problem and gets a help
 * message; with the default or an exclude list it is only verbose output.
 * Context: INIT. */
static bool evt_base_selection_is_explicit(void)
{
    const char *sel = ompi_evt_base_framework.framework_selection;

    return NULL != sel && '\0' != sel[0] && '^' != sel[0];
}

/* Context: INIT. */
static void evt_base_go_inline(const char *reason)
{
    const char *sel = ompi_evt_base_framework.framework_selection;

    ompi_evt_base.inline_reason = reason;
    opal_output_verbose(1, ompi_evt_base_framework.framework_output,
                        "evt:base:select: no evt component selected: %s (evt = \"%s\"); "
                        "events are delivered inline (sync semantics)",
                        reason, NULL == sel ? "" : sel);
    if (evt_base_selection_is_explicit()) {
        opal_show_help("help-mca-evt-base.txt", "no-component", true, sel, reason);
    }
}

/* Context: INIT. */
int ompi_evt_base_select(void)
{
    const int output = ompi_evt_base_framework.framework_output;
    const ompi_evt_base_component_t *best = NULL;
    const ompi_evt_base_module_t *best_module = NULL;
    const ompi_evt_base_module_t *modules[OMPI_EVT_BASE_MAX_CANDIDATES];
    mca_base_component_list_item_t *cli;
    int best_priority = -1;
    int n = 0;
    int rc;

    if (NULL != ompi_evt_base.module) {
        return OMPI_SUCCESS;
    }
    ompi_evt_base.num_candidates = 0;

    if (0 == opal_list_get_size(&ompi_evt_base_framework.framework_components)) {
        evt_base_go_inline("no evt component was found or every one was excluded");
        return OPAL_ERR_NOT_FOUND;
    }

    OPAL_LIST_FOREACH (cli, &ompi_evt_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        if (OMPI_EVT_BASE_MAX_CANDIDATES == n) {
            opal_output_verbose(1, output,
                                "evt:base:select: more than %d components: the rest are ignored",
                                OMPI_EVT_BASE_MAX_CANDIDATES);
            break;
        }
        const ompi_evt_base_component_t *component = (const ompi_evt_base_component_t *)
                                                         cli->cli_component;
        const ompi_evt_base_module_t *module = NULL;
        int priority = -1;

        if (NULL != component->evtc_init) {
            module = component->evtc_init(&priority);
        }
        if (NULL == module) {
            opal_output_verbose(10, output,
                                "evt:base:select: component %s is not available here",
                                component->evtc_version.mca_component_name);
            priority = -1;
        } else if (NULL == module->evtm_deliver || NULL == module->evtm_flush) {
            opal_output_verbose(1, output,
                                "evt:base:select: component %s returned a module without "
                                "deliver/flush: ignored",
                                component->evtc_version.mca_component_name);
            if (NULL != module->evtm_finalize) {
                (void) module->evtm_finalize();
            }
            module = NULL;
            priority = -1;
        } else {
            opal_output_verbose(10, output, "evt:base:select: component %s available, priority %d",
                                component->evtc_version.mca_component_name, priority);
        }

        {
            ompi_evt_base_candidate_t *cand = &ompi_evt_base.candidates[n];

            (void) snprintf(cand->name, sizeof(cand->name), "%s",
                            component->evtc_version.mca_component_name);
            cand->priority = priority;
            cand->available = NULL != module;
            cand->selected = false;
            modules[n] = module;
            ++n;
        }
        if (NULL != module && priority > best_priority) {
            best = component;
            best_module = module;
            best_priority = priority;
        }
    }
    ompi_evt_base.num_candidates = n;

    /* Finalize every recorded loser. */
    for (int i = 0; i < n; ++i) {
        if (NULL != modules[i] && modules[i] != best_module
            && NULL != modules[i]->evtm_finalize) {
            (void) modules[i]->evtm_finalize();
        }
    }

    if (NULL == best) {
        (void) mca_base_components_close(output, &ompi_evt_base_framework.framework_components,
                                         NULL);
        evt_base_go_inline("no evt component is usable here (every evtc_init returned NULL)");
        return OPAL_ERR_NOT_FOUND;
    }

    /* Close the losing components, as mca_base_select() does. */
    (void) mca_base_components_close(output, &ompi_evt_base_framework.framework_components,
                                     &best->evtc_version);

    if (NULL != best_module->evtm_init) {
        rc = best_module->evtm_init();
        if (OMPI_SUCCESS != rc) {
            opal_show_help("help-mca-evt-base.txt", "module-init-failed", true,
                           best->evtc_version.mca_component_name, rc);
            evt_base_go_inline("the selected component's module failed to start");
            (void) mca_base_components_close(output,
                                             &ompi_evt_base_framework.framework_components, NULL);
            return OPAL_ERR_NOT_FOUND;
        }
    }

    evt_base_delivery.name = best->evtc_version.mca_component_name;
    evt_base_delivery.deliver = best_module->evtm_deliver;
    evt_base_delivery.flush = best_module->evtm_flush;
    evt_base_delivery.progress = best_module->evtm_progress;
    evt_base_delivery.withdraw = best_module->evtm_withdraw;
    evt_base_delivery.flags = evt_base_delivery_flags(best_module->evtm_flags);
    rc = mca_base_event_delivery_set(&evt_base_delivery);
    if (OPAL_SUCCESS != rc) {
        opal_show_help("help-mca-evt-base.txt", "delivery-set-failed", true,
                       best->evtc_version.mca_component_name, rc);
        if (NULL != best_module->evtm_finalize) {
            (void) best_module->evtm_finalize();
        }
        evt_base_go_inline("the engine refused the selected component's delivery");
        (void) mca_base_components_close(output, &ompi_evt_base_framework.framework_components,
                                         NULL);
        return OPAL_ERR_NOT_FOUND;
    }

    ompi_evt_base.module = best_module;
    ompi_evt_base.component = best;
    ompi_evt_base.priority = best_priority;
    ompi_evt_base.inline_reason = NULL;
    for (int i = 0; i < n; ++i) {
        ompi_evt_base.candidates[i].selected = modules[i] == best_module;
    }

    /* Registered once for the module's whole life: (un)registering is
     * expensive (opal_progress.h), so never per event or per handle. */
    if (NULL != best_module->evtm_progress) {
        rc = opal_progress_register(best_module->evtm_progress);
        ompi_evt_base.progress_registered = OPAL_SUCCESS == rc;
        if (OPAL_SUCCESS != rc) {
            opal_output_verbose(1, output,
                                "evt:base:select: opal_progress_register failed (%d): %s "
                                "drains only at flush points",
                                rc, best->evtc_version.mca_component_name);
        }
    }

    opal_output_verbose(10, output, "evt:base:select: selected component %s (priority %d)",
                        best->evtc_version.mca_component_name, best_priority);
    return OMPI_SUCCESS;
}

/* Context: ANY, TOOL. */
int ompi_evt_base_flush(void)
{
    return mca_base_event_flush();
}

/* Context: INIT. */
void ompi_evt_base_progress_detach(void)
{
    if (ompi_evt_base.progress_registered && NULL != ompi_evt_base.module) {
        (void) opal_progress_unregister(ompi_evt_base.module->evtm_progress);
        opal_output_verbose(10, ompi_evt_base_framework.framework_output,
                            "evt:base: %s progress unregistered",
                            ompi_evt_base.component->evtc_version.mca_component_name);
    }
    ompi_evt_base.progress_registered = false;
}
