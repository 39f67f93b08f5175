/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/ring component: the component struct and the MCA callbacks only, so
 * an info tool can query it without the module (as reachable/weighted does).
 * Register never allocates; the kit allocates the ring pool when the base
 * installs the module.
 */

#include "ompi_config.h"

#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/evt.h"
#include "ompi/mca/evt/ring/evt_ring.h"

static int ring_register(void);
static ompi_evt_base_module_t *ring_init(int *priority);

ompi_evt_ring_component_t mca_evt_ring_component = {
    .super = {
        .evtc_version = {
            OMPI_EVT_BASE_VERSION_2_0_0,
            .mca_component_name = "ring",
            MCA_BASE_MAKE_VERSION(component, 2, 0, 0),
            .mca_register_component_params = ring_register,
        },
        .evtc_data = {
            /* The component is checkpoint ready */
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .evtc_init = ring_init,
    },
    .priority = OMPI_EVT_RING_DEFAULT_PRIORITY,
};
MCA_BASE_COMPONENT_INIT(ompi, evt, ring)

static const mca_base_var_enum_value_t ring_overflow_values[] = {
    {OMPI_EVT_OVERFLOW_DROP_NEW, "drop-new"},
    {OMPI_EVT_OVERFLOW_DRAIN, "drain"},
    {OMPI_EVT_OVERFLOW_OVERWRITE, "overwrite-oldest"},
    {0, NULL},
};
/* Register the evt_ring_* variables. No allocation but the enumerator
 * object, which mca_base_var keeps. Context: INIT. */
static int ring_register(void)
{
    mca_base_component_t *v = &mca_evt_ring_component.super.evtc_version;
    mca_base_var_enum_t *overflow_enum = NULL;
    int rc;

    (void) mca_base_var_group_component_register(v, "MPI_T event delivery through per-thread "
                                                    "lock-free rings drained at progress");

    mca_evt_ring_component.priority = OMPI_EVT_RING_DEFAULT_PRIORITY;
    rc = mca_base_component_var_register(v, "priority",
                                         "Priority of the ring delivery component (below sync "
                                         "by default: select it with --mca evt ring)",
                                         MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_4,
                                         MCA_BASE_VAR_SCOPE_READONLY,
                                         &mca_evt_ring_component.priority);
    if (0 > rc) {
        return rc;
    }

    mca_evt_ring_component.ring_size = OMPI_EVT_RING_DEFAULT_RING_SIZE;
    rc = mca_base_component_var_register(v, "ring_size",
                                         "Bytes of each thread's ring (a power of two, at least "
                                         "4096); a record takes 40 bytes plus its payload "
                                         "rounded up to 8",
                                         MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5,
                                         MCA_BASE_VAR_SCOPE_READONLY,
                                         &mca_evt_ring_component.ring_size);
    if (0 > rc) {
        return rc;
    }

    mca_evt_ring_component.pool_size = OMPI_EVT_RING_DEFAULT_POOL_SIZE;
    rc = mca_base_component_var_register(v, "pool_size",
                                         "Rings allocated at open: at most this many threads "
                                         "raise at once (more are counted as dropped); rings "
                                         "of exited threads are reused",
                                         MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5,
                                         MCA_BASE_VAR_SCOPE_READONLY,
                                         &mca_evt_ring_component.pool_size);
    if (0 > rc) {
        return rc;
    }

    mca_evt_ring_component.drain_budget = OMPI_EVT_RING_DEFAULT_DRAIN_BUDGET;
    rc = mca_base_component_var_register(v, "drain_budget",
                                         "Most records one progress call delivers (bounds the "
                                         "time a drain adds to opal_progress)",
                                         MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5,
                                         MCA_BASE_VAR_SCOPE_READONLY,
                                         &mca_evt_ring_component.drain_budget);
    if (0 > rc) {
        return rc;
    }

    rc = mca_base_var_enum_create("evt_ring_overflow", ring_overflow_values, &overflow_enum);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    mca_evt_ring_component.overflow = OMPI_EVT_OVERFLOW_DROP_NEW;
    rc = mca_base_component_var_register(v, "overflow_policy",
                                         "What a raise does when its ring is full: drop-new "
                                         "(count the event as dropped for every registration "
                                         "that would have received it), drain (deliver "
                                         "everything pending in the raising thread, then store; "
                                         "drop-new where that is impossible: signal handlers, "
                                         "another thread draining) or overwrite-oldest (keep "
                                         "the newest; an overwritten event is counted dropped)",
                                         MCA_BASE_VAR_TYPE_INT, overflow_enum, 0, 0,
                                         OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                         &mca_evt_ring_component.overflow);
    OBJ_RELEASE(overflow_enum);
    if (0 > rc) {
        return rc;
    }

    mca_evt_ring_component.drain_interval = 0;
    rc = mca_base_component_var_register(v, "drain_interval",
                                         "Microseconds between drains by a timer thread, for "
                                         "processes that do not call MPI "
                                         "for long (0: no timer). The timer delivers only to "
                                         "callbacks registered at MPI_T_CB_REQUIRE_THREAD_SAFE "
                                         "or stricter",
                                         MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6,
                                         MCA_BASE_VAR_SCOPE_READONLY,
                                         &mca_evt_ring_component.drain_interval);
    return 0 > rc ? rc : OMPI_SUCCESS;
}

/* Usable when the parameters make a kit; the reason goes to
 * evt_base_verbose otherwise. Context: INIT. */
static ompi_evt_base_module_t *ring_init(int *priority)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;
    ompi_evt_base_kit_params_t *kit = &ompi_evt_ring_module.evtm_kit;
    const char *reason;

    kit->ring_size = 0 < c->ring_size ? (size_t) c->ring_size : 0;
    kit->pool_size = c->pool_size;
    kit->drain_budget = c->drain_budget;
    kit->overflow = c->overflow;
    kit->drain_interval = c->drain_interval;
    kit->storage = NULL;
    reason = ompi_evt_base_kit_check_params(kit);
    if (NULL != reason) {
        opal_output_verbose(1, ompi_evt_base_framework.framework_output,
                            "evt:ring: not usable: %s", reason);
        return NULL;
    }
    *priority = c->priority;
    return &ompi_evt_ring_module;
}
