/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The table of built-in producers and the shared "ompi" source.
 *
 * To add a producer: write its register function (sources and event types,
 * idempotent, no raise) in a file of this folder, declare it in
 * ompi_evt_producers.h and add it to evt_producers[] below.
 */

#include "ompi_config.h"

#include <stddef.h>

#include "opal/mca/base/mca_base_event.h"
#include "ompi/constants.h"
#include "ompi/runtime/ompi_evt_producers.h"

typedef int (*evt_producer_register_fn_t)(void);

/* Every built-in producer, registered in this order. */
static const evt_producer_register_fn_t evt_producers[] = {
    ompi_evt_lifecycle_register,
    ompi_evt_comm_events_register,
    ompi_evt_errhandler_events_register,
    ompi_evt_win_events_register,
    ompi_evt_p2p_events_register,
    ompi_evt_coll_events_register,
    ompi_evt_rma_events_register,
    ompi_evt_memory_register,      /* OS memory releases (opal/mca/memory/patcher) */
    ompi_evt_pmix_events_register, /* events from PMIx (source ompi.pmix) */
};

/* Context: INIT. */
mca_base_event_source_t *ompi_evt_ompi_source(void)
{
    mca_base_event_source_t *source = NULL;
    int si;

    si = mca_base_event_source_register("ompi", "Open MPI's MPI layer (MPI-level events)",
                                        MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, OPAL_COUNT_MAX,
                                        NULL /* CLOCK_MONOTONIC in ns */,
                                        true /* the default clock is freely readable */, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &source)) {
        return NULL;
    }
    return source;
}

/* Context: INIT. */
int ompi_evt_producers_register(void)
{
    int ret = OMPI_SUCCESS;

    for (size_t i = 0; i < sizeof(evt_producers) / sizeof(evt_producers[0]); ++i) {
        int rc = evt_producers[i]();
        /* One producer failing leaves the others registered (a smaller
         * event set is conformant); the first error is returned. */
        if (OMPI_SUCCESS != rc && OMPI_SUCCESS == ret) {
            ret = rc;
        }
    }
    return ret;
}

/* Context: INIT (end of MPI_Init). */
void ompi_evt_producers_mpi_init_complete(int thread_level)
{
    /* MPI_Init has constructed the predefined error handlers: interpose
     * them now (idempotent; a tool may have registered before MPI_Init). */
    ompi_evt_errhandler_events_install();
    ompi_evt_lifecycle_raise_initialization(thread_level);
    /* PMIx is up now (Open MPI made the process a client inside MPI_Init) */
    ompi_evt_pmix_mpi_init_complete();
}

/* Context: INIT (start of MPI_Finalize). */
void ompi_evt_producers_mpi_finalize_start(void)
{
    /* while PMIx still works; no PMIx event after the finalization event */
    ompi_evt_pmix_mpi_finalize_start();
    ompi_evt_lifecycle_raise_finalization();
}
