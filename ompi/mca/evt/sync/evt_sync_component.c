/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/sync component: the component struct and the MCA callbacks only, so
 * an info tool can query it without the module (as reachable/weighted does).
 */

#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_var.h"
#include "ompi/mca/evt/evt.h"
#include "ompi/mca/evt/sync/evt_sync.h"
#include "opal/mca/base/mca_base_var.h"

static int sync_register(void);
static ompi_evt_base_module_t *sync_init(int *priority);

ompi_evt_sync_component_t mca_evt_sync_component = {
    .super = {
        .evtc_version = {
            OMPI_EVT_BASE_VERSION_2_0_0,
            .mca_component_name = "sync",
            MCA_BASE_MAKE_VERSION(component, 2, 0, 0),
            .mca_register_component_params = sync_register,
        },
        .evtc_data = {
            /* The component is checkpoint ready */
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .evtc_init = sync_init,
    },
    .priority = OMPI_EVT_SYNC_DEFAULT_PRIORITY,
};
MCA_BASE_COMPONENT_INIT(ompi, evt, sync)

/* Register evt_sync_priority. No allocation. Context: INIT. */
static int sync_register(void)
{
    return ompi_evt_base_register_component(
        &mca_evt_sync_component.super.evtc_version,
        "Synchronous MPI_T event delivery: each event is delivered in the raising thread",
        &mca_evt_sync_component.priority, OMPI_EVT_SYNC_DEFAULT_PRIORITY, OPAL_INFO_LVL_3,
        "Priority of the sync delivery component (the highest priority usable component is "
        "selected)");
}

/* Always usable. Context: INIT. */
static ompi_evt_base_module_t *sync_init(int *priority)
{
    *priority = mca_evt_sync_component.priority;
    return (ompi_evt_base_module_t *) &ompi_evt_sync_module;
}
