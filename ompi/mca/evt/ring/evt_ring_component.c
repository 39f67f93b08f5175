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

#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/base/evt_base_var.h"
#include "ompi/mca/evt/evt.h"
#include "ompi/mca/evt/ring/evt_ring.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"

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

/* Register evt_ring_priority and the kit's variables. No allocation but
 * the enumerator mca_base_var keeps. Context: INIT. */
static int ring_register(void)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;
    const mca_base_component_t *v = &c->super.evtc_version;
    const ompi_evt_base_kit_vars_t kit = {
        .ring_size = {&c->ring_size, OMPI_EVT_RING_DEFAULT_RING_SIZE},
        .pool_size = {&c->pool_size, OMPI_EVT_RING_DEFAULT_POOL_SIZE},
        .drain_budget = {&c->drain_budget, OMPI_EVT_RING_DEFAULT_DRAIN_BUDGET},
        .overflow = {&c->overflow, OMPI_EVT_OVERFLOW_DROP_NEW},
        .drain_interval = {&c->drain_interval, 0},
    };
    int rc;

    rc = ompi_evt_base_register_component(
        v, "MPI_T event delivery through per-thread lock-free rings drained at progress",
        &c->priority, OMPI_EVT_RING_DEFAULT_PRIORITY, OPAL_INFO_LVL_4,
        "Priority of the ring delivery component (below sync by default: select it with --mca "
        "evt ring)");
    if (OPAL_SUCCESS == rc) {
        rc = ompi_evt_base_kit_register_params(v, &kit);
    }
    return rc;
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
        opal_output_verbose(1, ompi_evt_base_framework.framework_output, "evt:ring: not usable: %s",
                            reason);
        return NULL;
    }
    *priority = c->priority;
    return &ompi_evt_ring_module;
}
