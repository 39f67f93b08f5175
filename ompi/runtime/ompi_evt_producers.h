/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The built-in MPI producers (communicators, error handlers, windows,
 * point-to-point completion). Each family lives in its own file
 * (ompi_evt_<family>_events.c) and raises from PMPI wrappers compiled into
 * libompi_evt: an application linked with (or preloading) libompi_evt calls
 * the wrapper, which calls the PMPI_ entry point of libmpi.
 *
 * Why PMPI wrappers and not hooks inside libmpi? Open MPI 4.1 has no raise
 * sites and the project builds out of tree against the installed library;
 * PMPI is the one interposition point it exports. libompi_evt defines both
 * MPI_X and PMPI_X (ompi_evt_pmpi_next.h), so the C bindings and Open MPI's
 * Fortran bindings (mpif.h, mpi, mpi_f08: they call PMPI_X) reach the same
 * wrapper. What a wrapper cannot see (a communicator created inside libmpi
 * by another MPI call, an error handler created from Fortran) is listed in
 * each family's file comment.
 *
 * Every raise site reads the event's gate first (one relaxed load,
 * mca_base_event_raise()'s inline check, or mca_base_event_active() when
 * building the payload costs something) and calls straight through to PMPI
 * when nobody listens. The event pointers are NULL until registration
 * succeeded; a NULL event is treated as "nobody listens".
 *
 * All events are on source "ompi" (ORDERED, 1e9 ticks/s, ad-hoc readable),
 * the source of ompi.mpi.initialization; registering it again is harmless
 * (idempotent by name).
 */

#ifndef OMPI_EVT_PRODUCERS_H
#define OMPI_EVT_PRODUCERS_H

#include "ompi_config.h"

#include "opal/mca/base/mca_base_event.h"

BEGIN_C_DECLS

/**
 * Register every built-in producer (sources and event types). Idempotent:
 * registration is by name. Called by the evt base's bring-up (again after
 * selection and at MPI_Init, for producers whose event set depends on the
 * delivery or on opal_init); ompi-evt-info calls it too. To add a producer,
 * add its register function to the table in ompi_evt_producers.c.
 * Context: INIT, after mca_base_event_init().
 */
OMPI_DECLSPEC int ompi_evt_producers_register(void);

/** MPI_Init has completed (the evt base tells the producers once per
 *  MPI_Init): the predefined error handlers are interposed and
 *  ompi.mpi.initialization is raised. Context: INIT (end of MPI_Init). */
OMPI_DECLSPEC void ompi_evt_producers_mpi_init_complete(int thread_level);
/** MPI_Finalize is starting: ompi.mpi.finalization is raised.
 *  Context: INIT (start of MPI_Finalize). */
OMPI_DECLSPEC void ompi_evt_producers_mpi_finalize_start(void);

struct mca_base_event_source_t;

/**
 * The source "ompi" (ORDERED, 1e9 ticks/s, CLOCK_MONOTONIC, ad-hoc readable)
 * every built-in MPI producer raises on: registered on first use (by name,
 * so idempotent).
 * @return the source, or NULL if it cannot be registered
 * Context: INIT, after mca_base_event_init().
 */
OMPI_DECLSPEC struct mca_base_event_source_t *ompi_evt_ompi_source(void);

/* ------------------------------------------------------------------------
 * The lifecycle producer (ompi_evt_lifecycle.c)
 * ------------------------------------------------------------------------ */

/** Register source "ompi" and ompi.mpi.initialization / .finalization.
 *  Context: INIT. */
OMPI_DECLSPEC int ompi_evt_lifecycle_register(void);
/** Raise ompi.mpi.initialization (MPI must be initialized). Context: RAISE. */
OMPI_DECLSPEC void ompi_evt_lifecycle_raise_initialization(int thread_level);
/** Raise ompi.mpi.finalization (MPI must not be finalized yet). Context: RAISE. */
OMPI_DECLSPEC void ompi_evt_lifecycle_raise_finalization(void);

/* ------------------------------------------------------------------------
 * The OS memory-release producer (ompi_evt_memory.c)
 * ------------------------------------------------------------------------ */

/** Register ompi.mca.memory.patcher.released (and .release when the
 *  installed delivery takes async-signal raises) where Open MPI's memory
 *  hooks work; elsewhere nothing, and OMPI_SUCCESS. Context: INIT. */
OMPI_DECLSPEC int ompi_evt_memory_register(void);

/* ------------------------------------------------------------------------
 * Events from PMIx, on source "ompi.pmix" (ompi_evt_pmix_*.c, ompi_evt_pmix.h)
 * ------------------------------------------------------------------------ */

/** Register source "ompi.pmix", its events and the evt_pmix_* parameters
 *  of the producer. Context: INIT. */
OMPI_DECLSPEC int ompi_evt_pmix_events_register(void);
/** MPI_Init has completed: PMIx is up; register the PMIx event handlers,
 *  request the monitors, start the resource sampling the parameters ask
 *  for. Context: INIT (end of MPI_Init). */
OMPI_DECLSPEC void ompi_evt_pmix_mpi_init_complete(void);
/** MPI_Finalize is starting: stop sampling, cancel the monitors,
 *  deregister the handlers (PMIx goes down inside MPI_Finalize).
 *  Context: INIT (start of MPI_Finalize). */
OMPI_DECLSPEC void ompi_evt_pmix_mpi_finalize_start(void);

/* ------------------------------------------------------------------------
 * The MPI families
 * ------------------------------------------------------------------------ */

/** Register one family's events. Idempotent: a second call finds the same
 *  events. Called from ompi_evt_producers_register() (ompi_evt_producers.c).
 *  @retval OPAL_SUCCESS, or the engine's error (the family then stays silent:
 *          its event pointers remain NULL).
 *  Context: INIT, ANY. */
OMPI_DECLSPEC int ompi_evt_comm_events_register(void);
OMPI_DECLSPEC int ompi_evt_errhandler_events_register(void);
OMPI_DECLSPEC int ompi_evt_win_events_register(void);
OMPI_DECLSPEC int ompi_evt_p2p_events_register(void);
OMPI_DECLSPEC int ompi_evt_coll_events_register(void);
OMPI_DECLSPEC int ompi_evt_rma_events_register(void);

/** Put the error handler trampolines in place on the predefined handlers
 *  (MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_THROW_EXCEPTIONS).
 *  Needs MPI initialized (MPI_Init constructs those objects and would
 *  overwrite earlier changes); a no-op before, idempotent after. Called by
 *  ompi_evt_errhandler_events_register(), by ompi_evt_mpi_init_bottom()
 *  (the end of MPI_Init, for a tool that registered before it) and by the
 *  errhandler family's own wrappers.
 *  Context: INIT, ANY. */
OMPI_DECLSPEC void ompi_evt_errhandler_events_install(void);

/** Test-only: counters of the p2p request table. */
typedef struct ompi_evt_p2p_stats_t {
    uint64_t tracked;   /**< requests entered in the table */
    uint64_t dropped;   /**< completions counted as dropped (window full, freed
                             while pending, stale entry, no scratch memory) */
    uint64_t in_use;    /**< slots occupied now */
    uint64_t at_start;  /**< nonblocking requests complete when their I-call
                             returned: reported there, not tracked */
} ompi_evt_p2p_stats_t;
/** Test-only. Context: ANY. */
OMPI_DECLSPEC void ompi_evt_p2p_test_stats(ompi_evt_p2p_stats_t *stats);

END_C_DECLS

#endif /* OMPI_EVT_PRODUCERS_H */
