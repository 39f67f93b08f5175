/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * hook/evt component (see hook_evt.h for why it exists).
 */

#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/hook/base/base.h"
#include "ompi/mca/hook/evt/hook_evt.h"
#include "ompi/mca/hook/hook.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/runtime/ompi_evt_init.h"

static int hook_evt_open(void);
static int hook_evt_close(void);
static int hook_evt_query(mca_base_module_t **module, int *priority);
static void hook_evt_init_bottom(int argc, char **argv, int requested, int *provided);
static void hook_evt_finalize_top(void);

const ompi_hook_base_component_1_0_0_t mca_hook_evt_component = {
    .hookm_version = {
        OMPI_HOOK_BASE_VERSION_1_0_0,
        .mca_component_name = "evt",
        MCA_BASE_MAKE_VERSION(component, 1, 0, 0),
        .mca_open_component = hook_evt_open,
        .mca_close_component = hook_evt_close,
        .mca_query_component = hook_evt_query,
    },
    .hookm_data = {
        /* The component is checkpoint ready */
        MCA_BASE_METADATA_PARAM_CHECKPOINT
    },
    .hookm_mpi_init_bottom = hook_evt_init_bottom,
    .hookm_mpi_finalize_top = hook_evt_finalize_top,
};

/* Context: INIT. */
static int hook_evt_open(void)
{
    return OMPI_SUCCESS;
}

/* Context: INIT. */
static int hook_evt_close(void)
{
    return OMPI_SUCCESS;
}

/* The hook framework runs every component; there is no module. Context: INIT. */
static int hook_evt_query(mca_base_module_t **module, int *priority)
{
    *module = NULL;
    *priority = 0;
    return OMPI_SUCCESS;
}

/* End of MPI_Init / MPI_Init_thread: MPI is usable. Errors are reported by
 * the evt base (verbose output, help messages); MPI_Init itself succeeds.
 * Context: INIT. */
static void hook_evt_init_bottom(int argc, char **argv, int requested, int *provided)
{
    (void) ompi_evt_mpi_init_bottom(requested, NULL == provided ? requested : *provided);
}

/* Start of MPI_Finalize: MPI is still usable. Context: INIT. */
static void hook_evt_finalize_top(void)
{
    (void) ompi_evt_mpi_finalize_top();
}
