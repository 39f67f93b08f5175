/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Table-driven registration of an evt component's MCA variables, and the
 * kit's variables (evt_base_var.h).
 */

#include "ompi_config.h"

#include <stdbool.h>
#include <stdio.h>

#include "ompi/mca/evt/base/evt_base_var.h"
#include "ompi/mca/evt/evt.h"
#include "opal/constants.h"

/* Context: INIT. */
static int evt_base_register_var(const mca_base_component_t *component,
                                 const ompi_evt_base_var_t *var)
{
    mca_base_var_enum_t *enumerator = NULL;
    int rc;

    switch (var->type) {
    case MCA_BASE_VAR_TYPE_INT:
        *(int *) var->storage = (int) var->def;
        break;
    case MCA_BASE_VAR_TYPE_SIZE_T:
        *(size_t *) var->storage = (size_t) var->def;
        break;
    case MCA_BASE_VAR_TYPE_BOOL:
        *(bool *) var->storage = 0 != var->def;
        break;
    case MCA_BASE_VAR_TYPE_STRING:
        *(char **) var->storage = NULL;
        break;
    default:
        return OPAL_ERR_BAD_PARAM;
    }
    if (NULL != var->values) {
        char enum_name[MCA_BASE_MAX_TYPE_NAME_LEN + MCA_BASE_MAX_COMPONENT_NAME_LEN + 64];

        (void) snprintf(enum_name, sizeof(enum_name), "%s_%s_%s", component->mca_type_name,
                        component->mca_component_name, var->name);
        rc = mca_base_var_enum_create(enum_name, var->values, &enumerator);
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    rc = mca_base_component_var_register(component, var->name, var->help, var->type, enumerator, 0,
                                         0, var->level, MCA_BASE_VAR_SCOPE_READONLY, var->storage);
    if (NULL != enumerator) {
        /* mca_base_var keeps its own reference */
        OBJ_RELEASE(enumerator);
    }
    return 0 > rc ? rc : OPAL_SUCCESS;
}

/* Context: INIT. */
int ompi_evt_base_register_vars(const mca_base_component_t *component,
                                const ompi_evt_base_var_t *vars, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        int rc = evt_base_register_var(component, &vars[i]);
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    return OPAL_SUCCESS;
}

/* Context: INIT. */
int ompi_evt_base_register_component(const mca_base_component_t *component, const char *description,
                                     int *priority, int def, mca_base_var_info_lvl_t level,
                                     const char *help)
{
    const ompi_evt_base_var_t var = {
        .name = "priority",
        .help = help,
        .type = MCA_BASE_VAR_TYPE_INT,
        .level = level,
        .storage = priority,
        .def = def,
    };

    (void) mca_base_var_group_component_register(component, description);
    return evt_base_register_var(component, &var);
}

static const mca_base_var_enum_value_t evt_base_overflow_values[] = {
    {OMPI_EVT_OVERFLOW_DROP_NEW, "drop-new"},
    {OMPI_EVT_OVERFLOW_DRAIN, "drain"},
    {OMPI_EVT_OVERFLOW_OVERWRITE, "overwrite-oldest"},
    {0, NULL},
};

/* Context: INIT. */
int ompi_evt_base_kit_register_params(const mca_base_component_t *component,
                                      const ompi_evt_base_kit_vars_t *kit)
{
    const ompi_evt_base_var_t all[] = {
        {"ring_size",
         "Bytes of each thread's ring (a power of two, at least 4096); a record takes 40 bytes "
         "plus its payload rounded up to 8",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, kit->ring_size.storage, kit->ring_size.def, NULL},
        {"pool_size",
         "Rings allocated at open: at most this many threads raise at once (more are counted "
         "as dropped); rings of exited threads are reused",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, kit->pool_size.storage, kit->pool_size.def, NULL},
        {"drain_budget",
         "Most records one progress call drains (bounds the time a drain adds to "
         "opal_progress)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, kit->drain_budget.storage, kit->drain_budget.def,
         NULL},
        {"overflow_policy",
         "What a raise does when its ring is full: drop-new (count the event as dropped for "
         "every registration that would have received it), drain (deliver everything pending "
         "in the raising thread, then store; drop-new where that is impossible: signal "
         "handlers, another thread draining) or overwrite-oldest (keep the newest; an "
         "overwritten event is counted dropped)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, kit->overflow.storage, kit->overflow.def,
         evt_base_overflow_values},
        {"drain_interval",
         "Microseconds between drains by a timer thread, for processes that do not call MPI "
         "for long (0: no timer). The timer delivers only to callbacks registered at "
         "MPI_T_CB_REQUIRE_THREAD_SAFE or stricter",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_6, kit->drain_interval.storage,
         kit->drain_interval.def, NULL},
    };

    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
        int rc;

        if (NULL == all[i].storage) {
            continue; /* not a variable of this component */
        }
        rc = ompi_evt_base_register_vars(component, &all[i], 1);
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    return OPAL_SUCCESS;
}
