/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Selection of the evt module (a walk over the candidates), and its
 * installation: started, its kit built, made the engine's delivery, the
 * kit's drain registered with opal_progress.
 *
 * evt components use the select-one shape of ORTE's frameworks (as in
 * orte/mca/routed/routed.h: evtc_init returns a module and a priority),
 * not mca_query_component, so the walk is ours
 * rather than mca_base_select()'s; it follows mca_base_select: highest
 * priority wins, ties go to the first found, the losers are closed.
 */

#include "ompi_config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/base/evt_base_report.h"
#include "ompi/mca/evt/evt.h"
#include "opal/class/opal_list.h"
#include "opal/mca/base/base.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"

/* The engine's delivery flags and the framework's own share evtm_flags. */
_Static_assert(0
                   == ((MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE | MCA_BASE_EVENT_DELIVERY_DEFERRED
                        | MCA_BASE_EVENT_DELIVERY_EXPORTS)
                       & OMPI_EVT_MODULE_OWN_FLAGS),
               "delivery flags outside the framework's bits");

/* The engine's view of the installed deferred module: the kit's delivery.
 * Its functions are the kit's for every deferred module, so they are set
 * here once and never written again: a thread still flushing through the
 * previous installation (a flush runs outside delivery sections, since it
 * dispatches to callbacks) may read them while a module is installed
 * again. What depends on the module is written only when it differs from
 * the last installation's. */
static mca_base_event_delivery_t evt_base_delivery = {
    .deliver = ompi_evt_base_kit_deliver,
    .flush = ompi_evt_base_kit_flush,
    .withdraw = ompi_evt_base_kit_withdraw,
    .call_return = ompi_evt_base_kit_call_return,
};

/* Is the evt selection variable an explicit include list ("sync,ring")?
 * Then finding nothing usable is the user's problem and gets a help
 * message; with the default or an exclude list it is only verbose output.
 * Context: INIT. */
static bool evt_base_selection_is_explicit(void)
{
    const char *sel = ompi_evt_base_framework.framework_selection;

    return NULL != sel && '\0' != sel[0] && '^' != sel[0];
}

/* @p told: the user has had a help message about it already (one cause,
 * one message). Context: INIT. */
static void evt_base_no_module(const char *reason, bool told)
{
    const char *sel = ompi_evt_base_framework.framework_selection;

    ompi_evt_base.inline_reason = reason;
    opal_output_verbose(1, ompi_evt_base_framework.framework_output,
                        "evt:base:select: no evt component selected: %s (evt = \"%s\"); "
                        "events are dispatched at the raise (sync semantics)",
                        reason, NULL == sel ? "" : sel);
    if (evt_base_selection_is_explicit() && !told) {
        opal_show_help("help-mca-evt-base.txt", "no-component", true, sel, reason);
    }
}

/* Context: INIT. */
int ompi_evt_base_install(const char *name, const ompi_evt_base_module_t *module, int priority)
{
    const int output = ompi_evt_base_framework.framework_output;
    bool deferred = 0 != (module->evtm_flags & MCA_BASE_EVENT_DELIVERY_DEFERRED);
    int rc;

    if (NULL != ompi_evt_base.module) {
        return OPAL_ERR_BAD_PARAM; /* one at a time */
    }
    if (0 != (module->evtm_flags & MCA_BASE_EVENT_DELIVERY_EXPORTS) && !deferred) {
        opal_output_verbose(1, output,
                            "evt:base: component %s exports without the kit (EXPORTS needs "
                            "DEFERRED): refused",
                            name);
        return OPAL_ERR_BAD_PARAM;
    }
    if (NULL != module->evtm_init) {
        rc = module->evtm_init();
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
    }
    if (deferred) {
        rc = ompi_evt_base_kit_open(module, name);
        if (OMPI_SUCCESS != rc) {
            opal_output_verbose(1, output,
                                "evt:base: component %s: the kit cannot be built with its "
                                "parameters (ring size %zu bytes: a power of two >= %d; pool "
                                "%d rings; drain budget %d) (%d)",
                                name, module->evtm_kit.ring_size, OMPI_EVT_KIT_MIN_RING_SIZE,
                                module->evtm_kit.pool_size, module->evtm_kit.drain_budget, rc);
            if (NULL != module->evtm_finalize) {
                (void) module->evtm_finalize();
            }
            return rc;
        }
        if (evt_base_delivery.name != name) {
            evt_base_delivery.name = name;
        }
        if (evt_base_delivery.exports != module->evtm_exports) {
            evt_base_delivery.exports = module->evtm_exports;
        }
        /* the kit's raise path is async-signal-safe; the framework's own
         * bits are not the engine's */
        uint32_t flags = (module->evtm_flags & ~OMPI_EVT_MODULE_OWN_FLAGS)
                         | MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE;
        if (evt_base_delivery.flags != flags) {
            evt_base_delivery.flags = flags;
        }
        (void) mca_base_event_delivery_set(&evt_base_delivery);
    } else {
        /* dispatch at the raise: the engine needs no delivery */
        (void) mca_base_event_delivery_set(NULL);
    }
    ompi_evt_base.module = module;
    ompi_evt_base.name = name;
    ompi_evt_base.priority = priority;
    ompi_evt_base.inline_reason = NULL;
    /* a deferring module drains at every progress call */
    ompi_evt_base_progress_attach();
    return OMPI_SUCCESS;
}

/* Context: INIT. */
void ompi_evt_base_uninstall(void)
{
    const ompi_evt_base_module_t *module = ompi_evt_base.module;

    if (NULL == module) {
        return;
    }
    /* no raise reaches the kit after this returns */
    (void) mca_base_event_delivery_set(NULL);
    ompi_evt_base_progress_detach();
    if (0 != (module->evtm_flags & MCA_BASE_EVENT_DELIVERY_DEFERRED)) {
        /* no drain calls the module after this returns */
        ompi_evt_base_kit_detach_module();
    }
    if (NULL != module->evtm_finalize) {
        (void) module->evtm_finalize();
    }
    if (0 != (module->evtm_flags & MCA_BASE_EVENT_DELIVERY_DEFERRED)) {
        ompi_evt_base_kit_close();
    }
    opal_output_verbose(10, ompi_evt_base_framework.framework_output,
                        "evt:base: component %s uninstalled", ompi_evt_base.name);
    ompi_evt_base.module = NULL;
    ompi_evt_base.name = NULL;
    ompi_evt_base.priority = -1;
}

/* Components of priority <= 0 the last walk left out: not named. */
static int evt_base_unnamed;

/* Context: INIT. */
bool ompi_evt_base_named(const char *name)
{
    const char *sel = ompi_evt_base_framework.framework_selection;
    size_t len = strlen(name);

    if (NULL == sel || '^' == sel[0]) {
        return false;
    }
    for (const char *p = sel; '\0' != *p;) {
        const char *end = strchr(p, ',');
        size_t n = (NULL == end) ? strlen(p) : (size_t) (end - p);
        if (n == len && 0 == strncmp(p, name, len)) {
            return true;
        }
        if (NULL == end) {
            break;
        }
        p = end + 1;
    }
    return false;
}

/* Ask every opened component; record what each says in the candidates and
 * @p modules. Returns the index of the winner, -1 when none is usable.
 * Context: INIT. */
static int evt_base_walk(const ompi_evt_base_module_t **modules,
                         const ompi_evt_base_component_t **components)
{
    const int output = ompi_evt_base_framework.framework_output;
    mca_base_component_list_item_t *cli;
    int best = -1, n = 0;

    OPAL_LIST_FOREACH (cli, &ompi_evt_base_framework.framework_components,
                       mca_base_component_list_item_t) {
        const ompi_evt_base_component_t *component = (const ompi_evt_base_component_t *)
                                                         cli->cli_component;
        ompi_evt_base_candidate_t *cand;
        const ompi_evt_base_module_t *module = NULL;
        int priority = -1;

        if (OMPI_EVT_BASE_MAX_CANDIDATES == n) {
            opal_output_verbose(1, output,
                                "evt:base:select: more than %d components: the rest are ignored",
                                OMPI_EVT_BASE_MAX_CANDIDATES);
            break;
        }
        if (NULL != component->evtc_init) {
            module = component->evtc_init(&priority);
        }
        if (NULL != module && priority <= 0
            && !ompi_evt_base_named(component->evtc_version.mca_component_name)) {
            /* a recorder or an exporter writes files or talks to PMIx: the
             * user asks for it by name, it never wins by elimination */
            opal_output_verbose(10, output,
                                "evt:base:select: component %s (priority %d) is used only when "
                                "asked for by name (--mca evt %s)",
                                component->evtc_version.mca_component_name, priority,
                                component->evtc_version.mca_component_name);
            ++evt_base_unnamed;
            if (NULL != module->evtm_finalize) {
                (void) module->evtm_finalize();
            }
            module = NULL;
        }
        if (NULL == module) {
            opal_output_verbose(10, output, "evt:base:select: component %s is not available here",
                                component->evtc_version.mca_component_name);
            priority = -1;
        } else {
            opal_output_verbose(10, output, "evt:base:select: component %s available, priority %d",
                                component->evtc_version.mca_component_name, priority);
        }
        cand = &ompi_evt_base.candidates[n];
        (void) snprintf(cand->name, sizeof(cand->name), "%s",
                        component->evtc_version.mca_component_name);
        cand->priority = priority;
        cand->available = NULL != module;
        cand->selected = false;
        modules[n] = module;
        components[n] = component;
        if (NULL != module && (0 > best || priority > ompi_evt_base.candidates[best].priority)) {
            best = n;
        }
        ++n;
    }
    ompi_evt_base.num_candidates = n;
    return best;
}

/* Context: INIT. */
int ompi_evt_base_select(void)
{
    const int output = ompi_evt_base_framework.framework_output;
    const ompi_evt_base_module_t *modules[OMPI_EVT_BASE_MAX_CANDIDATES];
    const ompi_evt_base_component_t *components[OMPI_EVT_BASE_MAX_CANDIDATES];
    const char *reason = NULL;
    bool told = false;
    int best, rc = OPAL_ERR_NOT_FOUND;

    if (NULL != ompi_evt_base.module) {
        return OMPI_SUCCESS;
    }
    ompi_evt_base.num_candidates = 0;
    evt_base_unnamed = 0;
    ompi_evt_base_report_clear();
    best = evt_base_walk(modules, components);

    /* Finalize every loser that gave a module. */
    for (int i = 0; i < ompi_evt_base.num_candidates; ++i) {
        if (NULL != modules[i] && i != best && NULL != modules[i]->evtm_finalize) {
            (void) modules[i]->evtm_finalize();
        }
    }
    if (0 == ompi_evt_base.num_candidates) {
        reason = "no evt component was found or every one was excluded";
    } else if (0 > best && 0 < evt_base_unnamed) {
        reason = "no evt component was found or every one was excluded (those of priority 0 "
                 "or less are used only when asked for by name)";
    } else if (0 > best) {
        /* a component the user named says why it cannot run */
        reason = ompi_evt_base_report_reason();
        if (NULL == reason) {
            reason = "no evt component is usable here (every evtc_init returned NULL)";
        }
    } else {
        const char *name = components[best]->evtc_version.mca_component_name;

        /* Close the losing components, as mca_base_select() does. */
        (void) mca_base_components_close(output, &ompi_evt_base_framework.framework_components,
                                         &components[best]->evtc_version);
        rc = ompi_evt_base_install(name, modules[best], ompi_evt_base.candidates[best].priority);
        if (OMPI_SUCCESS != rc) {
            reason = ompi_evt_base_report_reason();
            opal_show_help("help-mca-evt-base.txt", "module-init-failed", true, name, rc,
                           NULL != reason ? reason : "evt_base_verbose=1 says why");
            told = true;
            if (NULL == reason) {
                reason = "the selected component's module failed to start";
            }
        } else {
            ompi_evt_base.candidates[best].selected = true;
            opal_output_verbose(10, output, "evt:base:select: selected component %s (priority %d)",
                                name, ompi_evt_base.priority);
        }
    }
    if (NULL != reason) {
        evt_base_no_module(reason, told);
        (void) mca_base_components_close(output, &ompi_evt_base_framework.framework_components,
                                         NULL);
        return OPAL_ERR_NOT_FOUND;
    }
    return OMPI_SUCCESS;
}

/* Context: ANY, TOOL. */
int ompi_evt_base_flush(void)
{
    return mca_base_event_flush();
}

/* Context: INIT. */
void ompi_evt_base_progress_attach(void)
{
    const ompi_evt_base_module_t *module = ompi_evt_base.module;
    int rc;

    if (NULL == module || 0 == (module->evtm_flags & MCA_BASE_EVENT_DELIVERY_DEFERRED)
        || ompi_evt_base.progress_registered) {
        return;
    }
    /* Registered for the module's whole life, not per event or handle:
     * (un)registering is expensive (opal_progress.h). */
    rc = ompi_evt_base_progress_register(ompi_evt_base_kit_progress, false);
    ompi_evt_base.progress_registered = OPAL_SUCCESS == rc;
    if (OPAL_SUCCESS != rc) {
        opal_output_verbose(1, ompi_evt_base_framework.framework_output,
                            "evt:base: opal_progress_register failed (%d): %s drains only "
                            "at drain points",
                            rc, ompi_evt_base.name);
    }
}

/* Context: INIT. */
void ompi_evt_base_progress_detach(void)
{
    if (ompi_evt_base.progress_registered) {
        (void) ompi_evt_base_progress_unregister(ompi_evt_base_kit_progress);
        opal_output_verbose(10, ompi_evt_base_framework.framework_output,
                            "evt:base: %s progress unregistered", ompi_evt_base.name);
    }
    ompi_evt_base.progress_registered = false;
}

/* Test-only. */
const mca_base_event_delivery_t *ompi_evt_base_test_delivery(void)
{
    return &evt_base_delivery;
}
