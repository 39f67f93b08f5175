/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Internal to the one-sided producer (ompi_evt_rma_events.c: the events
 * and their raise; ompi_evt_rma_wrappers.c: the MPI/PMPI wrappers). Not
 * installed.
 *
 * Two events (beyond Open MPI main, which has no one-sided event), both
 * stamped with the call's return:
 * - ompi.mpi.rma_op, payload ompi_evt_rma_op_payload_t: one per
 *   communication call (Put, Get, Accumulate, Get_accumulate,
 *   Fetch_and_op, Compare_and_swap, Rput, Rget, Raccumulate,
 *   Rget_accumulate). start_time is the call's entry, complete_time its
 *   return: the call issues the operation, which MPI completes at a later
 *   synchronisation (that call has its own event) or, for the R-forms, when
 *   the request completes (not an event: the request's Wait/Test shows it).
 * - ompi.mpi.rma_sync, payload ompi_evt_rma_sync_payload_t: one per
 *   synchronisation call (Win_fence, Win_post, Win_start, Win_complete,
 *   Win_wait, Win_test when it returns flag true, Win_lock, Win_unlock,
 *   Win_lock_all, Win_unlock_all, Win_flush, Win_flush_all,
 *   Win_flush_local, Win_flush_local_all, Win_sync), from its entry to its
 *   return: where the rank waited for its epoch.
 *
 * The window is the MPI_Win handle, the one ompi.mpi.win_created and
 * win_freed carry. A target is given twice: its rank in the window's group
 * (what the call said) and its rank in MPI_COMM_WORLD of its job (the
 * vpid, as the point-to-point events' peer), so a reader can draw the
 * operation between two ranks without knowing the window's group.
 *
 * Bytes, as the arguments define them (docs/events.md): bytes_sent is the
 * origin data that travels to the target (Put, Accumulate, Get_accumulate,
 * Fetch_and_op: the origin buffer, none with MPI_NO_OP; Compare_and_swap:
 * the origin and compare values), bytes_recv what the target returns into
 * this rank's memory (Get: the origin buffer; Get_accumulate: the result
 * buffer; Fetch_and_op, Compare_and_swap: one element).
 *
 * Not raised: calls that return an error, operations on MPI_PROC_NULL
 * (they move nothing), a Win_test that returned flag false. Not covered:
 * one-sided traffic libmpi makes for itself. (The Fortran bindings call
 * PMPI_X, and are covered.)
 *
 * Cost: each wrapper reads its event's gate (one relaxed load) and calls
 * the next PMPI function directly when nobody listens; with a listener,
 * two clock reads (entry, return) per call.
 *
 * Context: every function is RAISE on the calling thread.
 */

#ifndef OMPI_EVT_RMA_H
#define OMPI_EVT_RMA_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stdint.h>

#include "mpi.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"

/** The two events (NULL until registered). */
extern mca_base_event_t *ompi_evt_rma_op_event;
extern mca_base_event_t *ompi_evt_rma_sync_event;

/** The gate of @p ev: one relaxed load. */
static inline bool rma_listening(mca_base_event_t *ev)
{
    return NULL != ev && mca_base_event_active(ev);
}

/** Now, on the "ompi" source's clock (@p ev registered). */
static inline int64_t rma_now(mca_base_event_t *ev)
{
    return (int64_t) mca_base_event_source_now(ev->source);
}

/** What a communication call's arguments say, computed after the call. */
typedef struct {
    uint64_t sent;
    uint64_t recv;
    int64_t target_disp;
    int32_t kind;   /**< OMPI_EVT_RMA_* */
    int32_t target; /**< rank in the window's group */
    int32_t op;     /**< OMPI_EVT_COLL_OP_*, 0 for put and get */
} rma_op_args_t;

/** What a synchronisation call's arguments say. */
typedef struct {
    int32_t kind;   /**< OMPI_EVT_RMA_SYNC_* */
    int32_t target; /**< rank in the window's group, or -1 */
    int32_t assert_flags;
    int32_t lock_type;  /**< OMPI_EVT_RMA_LOCK_* */
    int32_t group_size; /**< post, start: the group's size */
} rma_sync_args_t;

/** Raise a communication call that returned at @p done, entered at
 *  @p start, on @p win. */
void ompi_evt_rma_op_raise(MPI_Win win, const rma_op_args_t *args, int64_t start, int64_t done);

/** Raise a synchronisation call that returned at @p done. */
void ompi_evt_rma_sync_raise(MPI_Win win, const rma_sync_args_t *args, int64_t start, int64_t done);

#endif /* OMPI_EVT_RMA_H */
