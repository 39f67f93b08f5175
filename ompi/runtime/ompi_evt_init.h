/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Bringing MPI_T events up and down in a process.
 *
 * Three paths reach ompi_evt_init(), whichever comes first:
 *   - the hook component (mca_hook_evt.so) at the bottom of MPI_Init and
 *     MPI_Init_thread, in every MPI process, without relinking;
 *   - the PMPI wrappers of libompi_evt (MPI_Init, MPI_Init_thread) when the
 *     application links or preloads libompi_evt;
 *   - the MPI_T_init_thread wrapper of libompi_evt (a tool before MPI_Init).
 * Each holds one reference; the last ompi_evt_finalize() closes everything.
 * What init does, in order: the engine (mca_base_event_init), the built-in
 * producers (ompi_evt_producers_register), the evt framework open + select.
 * It needs opal_init_util first (Open MPI crashes otherwise), which every
 * path above guarantees.
 *
 * MPI_Init is seen once, whether through the hook, the wrappers or both:
 * ompi_evt_mpi_init_bottom() takes the MPI reference and raises
 * ompi.mpi.initialization once; ompi_evt_mpi_finalize_top() raises
 * ompi.mpi.finalization once, flushes, stops draining from opal_progress
 * and drops that reference.
 */

#ifndef OMPI_EVT_INIT_H
#define OMPI_EVT_INIT_H

#include "ompi_config.h"

#include <stdbool.h>

BEGIN_C_DECLS

/**
 * Take a reference on the event machinery; the first one brings it up.
 * A failure of the evt framework is not fatal (delivery stays inline); a
 * failure of the engine is.
 *
 * @retval OMPI_SUCCESS  up (one more reference)
 * @retval OPAL_ERR_NOT_INITIALIZED  opal_init_util has not run yet
 * @retval other  the engine could not start (no reference taken)
 *
 * Context: INIT (any thread; serialised internally). Locks: the bootstrap
 * mutex, never held while a callback runs.
 */
OMPI_DECLSPEC int ompi_evt_init(void);

/**
 * Drop a reference; the last one flushes, closes the evt framework and
 * finalizes the engine. Harmless with no reference held.
 *
 * @retval OMPI_SUCCESS
 * Context: INIT. Locks: the bootstrap mutex.
 */
OMPI_DECLSPEC int ompi_evt_finalize(void);

/** Number of references held (0: down). Context: ANY. */
OMPI_DECLSPEC int ompi_evt_init_refcount(void);

/**
 * MPI_Init (or MPI_Init_thread) has completed: take the MPI reference and
 * raise ompi.mpi.initialization, once per MPI_Init whichever of the hook
 * and the wrappers calls first.
 *
 * @param[in] required  the thread level asked for
 * @param[in] provided  the thread level granted
 * Context: INIT (end of MPI_Init).
 */
OMPI_DECLSPEC int ompi_evt_mpi_init_bottom(int required, int provided);

/**
 * MPI_Finalize is starting: raise ompi.mpi.finalization, flush, stop the
 * opal_progress drain and drop the MPI reference; once per MPI_Init.
 * Context: INIT (start of MPI_Finalize).
 */
OMPI_DECLSPEC int ompi_evt_mpi_finalize_top(void);

/**
 * Register every built-in producer (sources and event types). Idempotent:
 * registration is by name. Called by ompi_evt_init(); ompi-evt-info calls it
 * too. To add a producer, add its register function to the table in
 * ompi_evt_producers.c.
 * Context: INIT, after mca_base_event_init().
 */
OMPI_DECLSPEC int ompi_evt_producers_register(void);

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

/** Values of the "model" element of ompi.mpi.initialization/finalization. */
enum {
    OMPI_EVT_MPI_MODEL_WORLD = 0,    /**< MPI_Init / MPI_Init_thread */
    OMPI_EVT_MPI_MODEL_SESSIONS = 1, /**< MPI_Session_init (not in Open MPI 4.1) */
};

/** Register source "ompi" and ompi.mpi.initialization / .finalization.
 *  Context: INIT. */
OMPI_DECLSPEC int ompi_evt_lifecycle_register(void);
/** Raise ompi.mpi.initialization (MPI must be initialized). Context: RAISE. */
OMPI_DECLSPEC void ompi_evt_lifecycle_raise_initialization(int thread_level);
/** Raise ompi.mpi.finalization (MPI must not be finalized yet). Context: RAISE. */
OMPI_DECLSPEC void ompi_evt_lifecycle_raise_finalization(void);

END_C_DECLS

#endif /* OMPI_EVT_INIT_H */
