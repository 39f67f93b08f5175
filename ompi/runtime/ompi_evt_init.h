/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Bring-up and tear-down of the event machinery in a process (the engine,
 * the built-in producers, the evt framework and its module), the MPI_Init
 * and MPI_Finalize notices, and the end of an MPI_T session: the runtime's
 * part, since it owns MPI_Init and MPI_Finalize.
 *
 * Three paths reach ompi_evt_init(), whichever comes first after
 * opal_init_util:
 *   - the hook component (mca_hook_evt.so) at the bottom of MPI_Init and
 *     MPI_Init_thread, in every MPI process, without relinking;
 *   - libompi_evt's PMPI wrappers of MPI_Init and MPI_Init_thread, when the
 *     application links or preloads libompi_evt;
 *   - libompi_evt's MPI_T_init_thread (a tool before MPI_Init).
 * Each holds one reference; the last ompi_evt_finalize() closes
 * everything. Init brings up the engine, the built-in producers, then opens
 * the framework (ompi/mca/evt/base/base.h), which selects a module. No user
 * code runs under the bring-up lock: the final drain and the frees (which
 * run tool callbacks) come before the lock is taken again to close, and an
 * init arriving meanwhile keeps the machinery up instead of waiting.
 */

#ifndef OMPI_EVT_INIT_H
#define OMPI_EVT_INIT_H

#include "ompi_config.h"

BEGIN_C_DECLS

/**
 * Take a reference on the event machinery; the first one brings it up (the
 * engine, the built-in producers, the framework and its module). A failure
 * of the framework is not fatal (delivery at the raise); a failure of the
 * engine is.
 * @retval OMPI_SUCCESS  up (one more reference)
 * @retval OPAL_ERR_NOT_INITIALIZED  opal_init_util has not run yet
 * @retval other  the engine could not start (no reference taken)
 * Context: INIT (any thread). Locks: the bring-up lock, never held while
 * user code runs.
 */
OMPI_DECLSPEC int ompi_evt_init(void);

/**
 * Drop a reference; the last one drains, frees every registration (tool
 * callbacks may run: no lock of ours is held then), closes the framework
 * and the engine. Harmless with no reference held.
 * Context: INIT.
 */
OMPI_DECLSPEC int ompi_evt_finalize(void);

/** Number of references held (0: down). Context: ANY. */
OMPI_DECLSPEC int ompi_evt_refcount(void);

/**
 * MPI_Init (or MPI_Init_thread) has completed: take the MPI reference,
 * tell the producers (ompi.mpi.initialization is raised) and the module
 * (OMPI_EVT_NOTICE_MPI_INIT_COMPLETE); once per MPI_Init whichever of the
 * hook and the wrappers calls first.
 * Context: INIT (end of MPI_Init).
 */
OMPI_DECLSPEC int ompi_evt_mpi_init_bottom(int required, int provided);

/**
 * MPI_Finalize is starting: ompi.mpi.finalization is raised, everything
 * pending is drained (context NONE), the module is told
 * (OMPI_EVT_NOTICE_MPI_FINALIZE_START), draining from opal_progress stops,
 * and the MPI reference is dropped; once per MPI_Init.
 * Context: INIT (start of MPI_Finalize).
 */
OMPI_DECLSPEC int ompi_evt_mpi_finalize_top(void);

/**
 * The last MPI_T_finalize: the tool's MPI_T session ends, and with it every
 * registration (handle) it allocated (MPI-4.1 sec. 15.3.4: handles are
 * valid within the session), whether MPI is still initialized or not.
 * Drains first (context NONE). Context: TOOL.
 */
OMPI_DECLSPEC void ompi_evt_mpit_session_end(void);
END_C_DECLS

#endif /* OMPI_EVT_INIT_H */
