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
 * PMPI is the one interposition point it exports. What a wrapper cannot see
 * (a communicator created inside libmpi by another MPI call, a Fortran
 * binding) is listed in each family's file comment.
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
#include "ompi/runtime/ompi_evt_init.h"

BEGIN_C_DECLS

/** Register one family's events. Idempotent: a second call finds the same
 *  events. Called from ompi_evt_producers_register() (ompi_evt_init.c).
 *  @retval OPAL_SUCCESS, or the engine's error (the family then stays silent:
 *          its event pointers remain NULL).
 *  Context: INIT, ANY. */
OMPI_DECLSPEC int ompi_evt_comm_events_register(void);
OMPI_DECLSPEC int ompi_evt_errhandler_events_register(void);
OMPI_DECLSPEC int ompi_evt_win_events_register(void);
OMPI_DECLSPEC int ompi_evt_p2p_events_register(void);

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
    uint64_t dropped;   /**< requests not tracked: table window full */
    uint64_t in_use;    /**< slots occupied now */
} ompi_evt_p2p_stats_t;
/** Test-only. Context: ANY. */
OMPI_DECLSPEC void ompi_evt_p2p_test_stats(ompi_evt_p2p_stats_t *stats);

END_C_DECLS

#endif /* OMPI_EVT_PRODUCERS_H */
