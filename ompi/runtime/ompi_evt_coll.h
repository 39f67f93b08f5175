/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Internal to the collective producer (ompi_evt_coll_events.c: the event,
 * the per-communicator numbering, the raise; ompi_evt_coll_wrappers.c: the
 * MPI/PMPI wrappers). Not installed.
 *
 * ompi.mpi.coll_complete (beyond Open MPI main, which has no collective
 * event): one per collective call completed on this rank, payload
 * ompi_evt_coll_payload_t (ompi_evt_payloads.h).
 *
 * Grouping: every rank of a communicator numbers the collectives it calls
 * on it (seq: 0, 1, 2, ...) and MPI has every rank call them in the same
 * order, so (cid, seq) names one collective on every rank of the
 * communicator (cid: Open MPI's context id, which all members agree on).
 * The numbering counts every successful collective call, listened to or
 * not (a relaxed load and store of a per-communicator counter; the
 * counters live in pages indexed by the context id, allocated at the first
 * collective on a context id of that page), so that ranks whose tools
 * started listening at different times still agree. A context id is
 * reused after a communicator is freed: MPI_Comm_free and
 * MPI_Comm_disconnect set its counter back to 0 (on every member, as the
 * free is collective). A context id beyond the pages (2^20) gets seq
 * UINT64_MAX.
 *
 * Times: start_time is the entry of the call (a clock read only with a
 * listener), complete_time when the wrapper saw the completion: the return
 * of a blocking call; for a nonblocking one, the Wait/Test call that
 * completed its request (the p2p request table tracks it, kind P2P_COLL:
 * ompi_evt_p2p.h), or the return of the I-call when the request was
 * already complete there (one more clock read).
 *
 * Bytes, as the call's arguments define them (not what the algorithm
 * moved): bytes_sent is the data this rank contributes (its send buffer,
 * or with MPI_IN_PLACE its own part of the receive buffer), bytes_recv the
 * part of its receive buffer the call fills (a rooted collective: the
 * root's whole receive buffer; a non-root's nothing). The table is in
 * docs/events.md.
 *
 * Covered: the blocking and nonblocking collectives of MPI-3.1 on intra-
 * and intercommunicators: Barrier, Bcast, Gather(v), Scatter(v),
 * Allgather(v), Alltoall(v, w), Reduce, Allreduce, Reduce_scatter(_block),
 * Scan, Exscan and their I-variants; the neighbourhood collectives
 * Neighbor_allgather(v), Neighbor_alltoall(v, w) and their I-variants on
 * Cartesian, graph and distributed-graph communicators
 * (ompi_evt_coll_neighbor.c), from C and from the Fortran bindings (which
 * call PMPI_X). Not covered: collectives libmpi runs for itself (inside
 * MPI_Comm_split, file I/O, ...), calls that return an error, and a
 * nonblocking collective started while nobody listened.
 *
 * Context: every function is RAISE on the calling thread.
 */

#ifndef OMPI_EVT_COLL_H
#define OMPI_EVT_COLL_H

#include "ompi/runtime/ompi_evt_p2p.h"

/** What a collective call's arguments say, computed after the call. */
typedef struct {
    uint64_t sent;
    uint64_t recv;
    int32_t kind; /**< OMPI_EVT_COLL_* */
    int32_t root; /**< rank in comm, or OMPI_EVT_COLL_ROOT_* */
    int32_t op;   /**< OMPI_EVT_COLL_OP_* */
} coll_args_t;

/** The gate: one relaxed load. */
static inline bool coll_listening(void)
{
    return p2p_listening(P2P_COLL);
}

/** Now, on the "ompi" source's clock. */
static inline int64_t coll_now(void)
{
    return p2p_now(P2P_COLL);
}

/** The number of this collective on @p comm, counted whether or not
 *  anybody listens; @p comm was accepted by a successful collective call. */
uint64_t ompi_evt_coll_next_seq(MPI_Comm comm);

/** The context id of @p comm, which the application is about to free or
 *  disconnect; UINT32_MAX for a predefined, null or invalid handle (NULL
 *  included). */
uint32_t ompi_evt_coll_cid(MPI_Comm comm);

/** The communicator of context id @p cid was freed or disconnected: its
 *  count starts again at 0 (UINT32_MAX: nothing). */
void ompi_evt_coll_forget(uint32_t cid);

/** OMPI_EVT_COLL_OP_* of @p op. */
int32_t ompi_evt_coll_op(MPI_Op op);

/** Raise the completion of a collective. */
void ompi_evt_coll_raise(MPI_Comm comm, uint64_t seq, const coll_args_t *args, int64_t start,
                         int64_t done, int mode);

/**
 * A nonblocking collective's I-call returned @p req: raise it now if it is
 * already complete, else track it (a full table counts a drop).
 */
void ompi_evt_coll_started(MPI_Request req, MPI_Comm comm, uint64_t seq, const coll_args_t *args,
                           int64_t start);

/** The request of tracked collective @p slot completed at @p done (called
 *  by ompi_evt_p2p_report()). */
void ompi_evt_coll_report(const p2p_slot_t *slot, int64_t done);

/** Body of a collective wrapper: the next PMPI_@p name with @p args; the
 *  call is numbered when it succeeded, and with a listener @p describe
 *  fills coll_args_t a_ and @p finish reports it (seq_, t0_ in scope). */
#define COLL_WRAP(name, args, describe, finish)  \
    do {                                         \
        bool on_ = coll_listening();             \
        int64_t t0_ = on_ ? coll_now() : 0;      \
        int rc_ = EVT_CALL_NEXT(name, args);     \
        uint64_t seq_;                           \
        coll_args_t a_;                          \
        if (OPAL_UNLIKELY(MPI_SUCCESS != rc_)) { \
            return rc_;                          \
        }                                        \
        seq_ = ompi_evt_coll_next_seq(comm);     \
        if (on_ && coll_listening()) {           \
            describe;                            \
            finish;                              \
        }                                        \
        return rc_;                              \
    } while (0)

/** A blocking collective: raised at its return. */
#define COLL_BLOCKING(name, args, describe) \
    COLL_WRAP(name, args, describe,         \
              ompi_evt_coll_raise(comm, seq_, &a_, t0_, coll_now(), OMPI_EVT_P2P_MODE_BLOCKING))

/** A nonblocking collective (its request in *request): raised when the
 *  request completes. */
#define COLL_NONBLOCKING(name, args, describe) \
    COLL_WRAP(name, args, describe, ompi_evt_coll_started(*request, comm, seq_, &a_, t0_))

#endif /* OMPI_EVT_COLL_H */
