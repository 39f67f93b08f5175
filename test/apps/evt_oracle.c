/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * An independent count of a real program's point-to-point, collective and
 * one-sided calls, to hold ompi-evt's recording against: preloaded in
 * front of libompi_evt, it counts each completed send and receive, each
 * collective call per kind and each one-sided communication and
 * synchronisation call per kind, per rank, and writes the counts at
 * MPI_Finalize to $EVT_ORACLE_DIR/rank.<world rank>.
 *
 * Each function is defined twice, as MPI_X and as PMPI_X, and each
 * definition forwards to the NEXT definition of its own name
 * (dlsym(RTLD_NEXT)): the C bindings reach MPI_X, Open MPI's Fortran
 * bindings call PMPI_X, and libompi_evt behind this library defines both
 * and sees both; forwarding MPI_X to PMPI_X instead would reach Open MPI
 * directly and skip libompi_evt's wrapper, so the program recorded would
 * not be the program counted. A call is counted at the outermost entry of
 * the thread only: libmpi calls PMPI_X itself inside some of its calls,
 * and those are not the program's.
 *
 * What counts mirrors what raises an event: a send or receive with a real
 * peer (not MPI_PROC_NULL); Sendrecv and Sendrecv_replace are one of each.
 * Nonblocking operations are counted when started: the programs of the
 * test bed complete every request they start, or cancel it: a receive
 * cancelled (MPI_Cancel, then MPI_Test_cancelled on its status) received
 * nothing, raises nothing, and is taken off the count again. Open MPI's
 * ob1 completes a cancelled receive inside MPI_Cancel, so its outcome is
 * read there (MPI_Request_get_status); a cancel whose outcome was not
 * known yet, or of a request the oracle did not start, is written as
 * "unfollowed", which the check holds to 0 (a mismatch, not a guess).
 * A persistent request counts one send or receive at each MPI_Start (or
 * its place in an MPI_Startall) that succeeded, by what its init call
 * made it (none for an MPI_PROC_NULL peer); a start of a request whose
 * init the oracle did not see is written as "unfollowed".
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long oracle_sends, oracle_recvs, oracle_persistent;

/* Collectives per kind, in the order of ompi.mpi.coll_complete's kind */
enum {
    K_BARRIER,
    K_BCAST,
    K_GATHER,
    K_GATHERV,
    K_SCATTER,
    K_SCATTERV,
    K_ALLGATHER,
    K_ALLGATHERV,
    K_ALLTOALL,
    K_ALLTOALLV,
    K_ALLTOALLW,
    K_REDUCE,
    K_ALLREDUCE,
    K_REDUCE_SCATTER,
    K_REDUCE_SCATTER_BLOCK,
    K_SCAN,
    K_EXSCAN,
    K_NEIGHBOR_ALLGATHER,
    K_NEIGHBOR_ALLGATHERV,
    K_NEIGHBOR_ALLTOALL,
    K_NEIGHBOR_ALLTOALLV,
    K_NEIGHBOR_ALLTOALLW,
    K_COUNT
};
static unsigned long oracle_coll[K_COUNT];

/* One-sided calls per kind, in the order of ompi.mpi.rma_op's and
 * ompi.mpi.rma_sync's kinds */
enum {
    R_PUT,
    R_GET,
    R_ACCUMULATE,
    R_GET_ACCUMULATE,
    R_FETCH_AND_OP,
    R_COMPARE_AND_SWAP,
    R_RPUT,
    R_RGET,
    R_RACCUMULATE,
    R_RGET_ACCUMULATE,
    R_COUNT
};
enum {
    S_FENCE,
    S_POST,
    S_START,
    S_COMPLETE,
    S_WAIT,
    S_TEST,
    S_LOCK,
    S_UNLOCK,
    S_LOCK_ALL,
    S_UNLOCK_ALL,
    S_FLUSH,
    S_FLUSH_ALL,
    S_FLUSH_LOCAL,
    S_FLUSH_LOCAL_ALL,
    S_SYNC,
    S_COUNT
};
static unsigned long oracle_rma_op[R_COUNT], oracle_rma_sync[S_COUNT];

/* The next definition of @p name after this library; a program cannot
 * run on without it, so a missing one ends the process loudly. */
static void *oracle_next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);

    if (NULL == f) {
        fprintf(stderr, "evt_oracle: no next definition of %s\n", name);
        abort();
    }
    return f;
}

/* This thread's nesting of oracle entry points: 1 inside the outermost. */
static __thread int oracle_depth;

/** Whether the call being counted is the program's own (the thread's
 *  outermost entry point), not one libmpi makes inside another. */
static inline int oracle_outer(void)
{
    return 1 == oracle_depth;
}

#define ORACLE_UNPAREN(...) __VA_ARGS__

/** One entry point @p fn (MPI_X or PMPI_X) of body oracle_<name>: resolves
 *  the next definition of @p fn, runs the body one level deeper. */
#define ORACLE_ENTRY(fn, name, params, args)                                       \
    int fn params                                                                  \
    {                                                                              \
        /* resolved at the first call, not at load: a program may load libmpi      \
         * after this library (mpi4py's dlopen) */                                 \
        static _Atomic(__typeof__(&fn)) next_;                                     \
        __typeof__(&fn) next = atomic_load_explicit(&next_, memory_order_relaxed); \
        int rc_;                                                                   \
        if (NULL == next) {                                                        \
            next = (__typeof__(&fn)) oracle_next(#fn);                             \
            atomic_store_explicit(&next_, next, memory_order_relaxed);             \
        }                                                                          \
        ++oracle_depth;                                                            \
        rc_ = oracle_##name(next, ORACLE_UNPAREN args);                            \
        --oracle_depth;                                                            \
        return rc_;                                                                \
    }

/** MPI_<name> and PMPI_<name>, both running the body oracle_<name>(next,
 *  args...), which the caller defines after this. */
#define ORACLE_TWIN(name, params, args)                                            \
    static int oracle_##name(__typeof__(&MPI_##name) next, ORACLE_UNPAREN params); \
    ORACLE_ENTRY(MPI_##name, name, params, args)                                   \
    ORACLE_ENTRY(PMPI_##name, name, params, args)                                  \
    static int oracle_##name(__typeof__(&MPI_##name) next, ORACLE_UNPAREN params)

/* The blocking send modes share one signature. */
#define ORACLE_SEND(name)                                                                        \
    ORACLE_TWIN(name,                                                                            \
                (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm), \
                (buf, count, dt, dest, tag, comm))                                               \
    {                                                                                            \
        oracle_sends += oracle_outer() && MPI_PROC_NULL != dest;                                 \
        return next(buf, count, dt, dest, tag, comm);                                            \
    }
/* What each nonblocking point-to-point request handle was started as, to
 * know what a cancelled request was: a handle names one live request and
 * is reused only for a request started after it was freed, so the last
 * start that returned it says. Open addressing, never emptied: the
 * handles a program ever gets are as many as its most requests alive at
 * once (libmpi recycles them); a full table is said as unfollowed. */
#define ORACLE_REQS (1u << 16)
/* KIND_P*: a persistent request, what each of its starts counts */
enum { KIND_NONE, KIND_SEND, KIND_RECV, KIND_PSEND, KIND_PRECV, KIND_PNULL };
static MPI_Request oracle_req_handle[ORACLE_REQS];
static unsigned char oracle_req_kind[ORACLE_REQS];
static unsigned long oracle_unfollowed;

static size_t oracle_req_home(MPI_Request req)
{
    return (size_t) (((uintptr_t) req >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 48)
           & (ORACLE_REQS - 1);
}

/** The entry of @p req, or the free one where it goes; NULL when full. */
static unsigned char *oracle_req_entry(MPI_Request req)
{
    size_t h = oracle_req_home(req);

    for (size_t i = 0; i < ORACLE_REQS; ++i) {
        size_t s = (h + i) & (ORACLE_REQS - 1);
        if (req == oracle_req_handle[s] || NULL == oracle_req_handle[s]) {
            oracle_req_handle[s] = req;
            return &oracle_req_kind[s];
        }
    }
    return NULL;
}

static void oracle_started(int rc, const MPI_Request *req, int kind)
{
    unsigned char *k;

    if (!oracle_outer() || MPI_SUCCESS != rc || MPI_REQUEST_NULL == *req) {
        return;
    }
    k = oracle_req_entry(*req);
    if (NULL == k) {
        ++oracle_unfollowed;
        return;
    }
    *k = (unsigned char) kind;
}

ORACLE_SEND(Send)
ORACLE_SEND(Bsend)
ORACLE_SEND(Ssend)
ORACLE_SEND(Rsend)

/* The nonblocking and persistent sends share one signature: a nonblocking
 * one counts at its start, a persistent one at each MPI_Start. */
#define ORACLE_SEND_REQUEST(name, persistent)                                                   \
    ORACLE_TWIN(name,                                                                           \
                (const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, \
                 MPI_Request *req),                                                             \
                (buf, count, dt, dest, tag, comm, req))                                         \
    {                                                                                           \
        int rc_;                                                                                \
        oracle_sends += !(persistent) && oracle_outer() && MPI_PROC_NULL != dest;               \
        rc_ = next(buf, count, dt, dest, tag, comm, req);                                       \
        oracle_started(rc_, req,                                                                \
                       !(persistent)           ? KIND_SEND                                      \
                       : MPI_PROC_NULL != dest ? KIND_PSEND                                     \
                                               : KIND_PNULL);                                   \
        return rc_;                                                                             \
    }
ORACLE_SEND_REQUEST(Isend, 0)
ORACLE_SEND_REQUEST(Ibsend, 0)
ORACLE_SEND_REQUEST(Issend, 0)
ORACLE_SEND_REQUEST(Irsend, 0)

ORACLE_TWIN(Recv,
            (void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
             MPI_Status *st),
            (buf, count, dt, src, tag, comm, st))
{
    oracle_recvs += oracle_outer() && MPI_PROC_NULL != src;
    return next(buf, count, dt, src, tag, comm, st);
}

ORACLE_TWIN(Irecv,
            (void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
             MPI_Request *req),
            (buf, count, dt, src, tag, comm, req))
{
    int rc;

    oracle_recvs += oracle_outer() && MPI_PROC_NULL != src;
    rc = next(buf, count, dt, src, tag, comm, req);
    oracle_started(rc, req, KIND_RECV);
    return rc;
}

/* A matched message from MPI_PROC_NULL is MPI_MESSAGE_NO_PROC. */
ORACLE_TWIN(Mrecv, (void *buf, int count, MPI_Datatype dt, MPI_Message *msg, MPI_Status *st),
            (buf, count, dt, msg, st))
{
    oracle_recvs += oracle_outer() && MPI_MESSAGE_NO_PROC != *msg;
    return next(buf, count, dt, msg, st);
}

ORACLE_TWIN(Imrecv, (void *buf, int count, MPI_Datatype dt, MPI_Message *msg, MPI_Request *req),
            (buf, count, dt, msg, req))
{
    int rc;

    oracle_recvs += oracle_outer() && MPI_MESSAGE_NO_PROC != *msg;
    rc = next(buf, count, dt, msg, req);
    oracle_started(rc, req, KIND_RECV);
    return rc;
}

/* A cancelled send or receive raises nothing: off its count again. */
ORACLE_TWIN(Cancel, (MPI_Request * req), (req))
{
    MPI_Request r = NULL != req ? *req : MPI_REQUEST_NULL;
    unsigned char *k = oracle_outer() && MPI_REQUEST_NULL != r ? oracle_req_entry(r) : NULL;
    int kind = NULL != k ? *k : KIND_NONE;
    int rc, flag = 0, cancelled = 0;
    MPI_Status st;

    rc = next(req);
    if (MPI_SUCCESS != rc || MPI_REQUEST_NULL == r || !oracle_outer()) {
        return rc;
    }
    if (KIND_NONE == kind || MPI_SUCCESS != PMPI_Request_get_status(r, &flag, &st) || !flag
        || MPI_SUCCESS != PMPI_Test_cancelled(&st, &cancelled)) {
        ++oracle_unfollowed;
    } else if (cancelled && KIND_PNULL != kind) {
        --*(KIND_SEND == kind || KIND_PSEND == kind ? &oracle_sends : &oracle_recvs);
    }
    return rc;
}

ORACLE_TWIN(Sendrecv,
            (const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
             int rcount, MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st),
            (sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st))
{
    oracle_sends += oracle_outer() && MPI_PROC_NULL != dest;
    oracle_recvs += oracle_outer() && MPI_PROC_NULL != src;
    return next(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st);
}

ORACLE_TWIN(Sendrecv_replace,
            (void *buf, int count, MPI_Datatype dt, int dest, int stag, int src, int rtag,
             MPI_Comm comm, MPI_Status *st),
            (buf, count, dt, dest, stag, src, rtag, comm, st))
{
    oracle_sends += oracle_outer() && MPI_PROC_NULL != dest;
    oracle_recvs += oracle_outer() && MPI_PROC_NULL != src;
    return next(buf, count, dt, dest, stag, src, rtag, comm, st);
}

/* The persistent inits: what each start of the request will count. */
ORACLE_SEND_REQUEST(Send_init, 1)
ORACLE_SEND_REQUEST(Bsend_init, 1)
ORACLE_SEND_REQUEST(Ssend_init, 1)
ORACLE_SEND_REQUEST(Rsend_init, 1)

ORACLE_TWIN(Recv_init,
            (void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
             MPI_Request *req),
            (buf, count, dt, src, tag, comm, req))
{
    int rc = next(buf, count, dt, src, tag, comm, req);

    oracle_started(rc, req, MPI_PROC_NULL != src ? KIND_PRECV : KIND_PNULL);
    return rc;
}

/* One start of persistent request @p req, which succeeded. */
static void oracle_start_one(MPI_Request req)
{
    unsigned char *k = MPI_REQUEST_NULL != req ? oracle_req_entry(req) : NULL;
    int kind = NULL != k ? *k : KIND_NONE;

    ++oracle_persistent;
    if (KIND_PSEND == kind) {
        ++oracle_sends;
    } else if (KIND_PRECV == kind) {
        ++oracle_recvs;
    } else if (KIND_PNULL != kind) {
        ++oracle_unfollowed; /* an init the oracle did not see */
    }
}

ORACLE_TWIN(Start, (MPI_Request * req), (req))
{
    MPI_Request r = *req;
    int rc = next(req);

    if (MPI_SUCCESS == rc && oracle_outer()) {
        oracle_start_one(r);
    }
    return rc;
}

ORACLE_TWIN(Startall, (int n, MPI_Request reqs[]), (n, reqs))
{
    int rc = next(n, reqs);

    for (int i = 0; MPI_SUCCESS == rc && oracle_outer() && i < n; ++i) {
        oracle_start_one(reqs[i]);
    }
    return rc;
}

/* Collectives: a call that succeeded counts (as the event is raised), blocking
 * and nonblocking alike (the test bed's programs complete every request
 * they start). */
/** A collective wrapper: MPI function @p fn of kind @p kind, its
 *  parameters and the arguments passed on. */
#define ORACLE_COLL(name, kind, params, args)                      \
    ORACLE_TWIN(name, params, args)                                \
    {                                                              \
        int rc_ = next args;                                       \
        oracle_coll[kind] += oracle_outer() && MPI_SUCCESS == rc_; \
        return rc_;                                                \
    }

ORACLE_COLL(Barrier, K_BARRIER, (MPI_Comm comm), (comm))
ORACLE_COLL(Ibarrier, K_BARRIER, (MPI_Comm comm, MPI_Request *request), (comm, request))
ORACLE_COLL(Bcast, K_BCAST,
            (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm),
            (buffer, count, datatype, root, comm))
ORACLE_COLL(Ibcast, K_BCAST,
            (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
             MPI_Request *request),
            (buffer, count, datatype, root, comm, request))
ORACLE_COLL(Gather, K_GATHER,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
ORACLE_COLL(Igather, K_GATHER,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
ORACLE_COLL(Gatherv, K_GATHERV,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
             MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm))
ORACLE_COLL(Igatherv, K_GATHERV,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
             MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
             request))
ORACLE_COLL(Scatter, K_SCATTER,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
ORACLE_COLL(Iscatter, K_SCATTER,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
ORACLE_COLL(Scatterv, K_SCATTERV,
            (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
            (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm))
ORACLE_COLL(Iscatterv, K_SCATTERV,
            (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
             MPI_Request *request),
            (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
             request))
ORACLE_COLL(Allgather, K_ALLGATHER,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
ORACLE_COLL(Iallgather, K_ALLGATHER,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
ORACLE_COLL(Allgatherv, K_ALLGATHERV,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))
ORACLE_COLL(Iallgatherv, K_ALLGATHERV,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
             MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
ORACLE_COLL(Alltoall, K_ALLTOALL,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
ORACLE_COLL(Ialltoall, K_ALLTOALL,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
ORACLE_COLL(Alltoallv, K_ALLTOALLV,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
             MPI_Datatype recvtype, MPI_Comm comm),
            (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
ORACLE_COLL(Ialltoallv, K_ALLTOALLV,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
             request))
ORACLE_COLL(Alltoallw, K_ALLTOALLW,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
             const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),
            (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
             comm))
ORACLE_COLL(Ialltoallw, K_ALLTOALLW,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
             const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
             MPI_Request *request),
            (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
             request))
ORACLE_COLL(Reduce, K_REDUCE,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             int root, MPI_Comm comm),
            (sendbuf, recvbuf, count, datatype, op, root, comm))
ORACLE_COLL(Ireduce, K_REDUCE,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             int root, MPI_Comm comm, MPI_Request *request),
            (sendbuf, recvbuf, count, datatype, op, root, comm, request))
ORACLE_COLL(Allreduce, K_ALLREDUCE,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm),
            (sendbuf, recvbuf, count, datatype, op, comm))
ORACLE_COLL(Iallreduce, K_ALLREDUCE,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, MPI_Request *request),
            (sendbuf, recvbuf, count, datatype, op, comm, request))
ORACLE_COLL(Reduce_scatter, K_REDUCE_SCATTER,
            (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
             MPI_Op op, MPI_Comm comm),
            (sendbuf, recvbuf, recvcounts, datatype, op, comm))
ORACLE_COLL(Ireduce_scatter, K_REDUCE_SCATTER,
            (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
             MPI_Op op, MPI_Comm comm, MPI_Request *request),
            (sendbuf, recvbuf, recvcounts, datatype, op, comm, request))
ORACLE_COLL(Reduce_scatter_block, K_REDUCE_SCATTER_BLOCK,
            (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm),
            (sendbuf, recvbuf, recvcount, datatype, op, comm))
ORACLE_COLL(Ireduce_scatter_block, K_REDUCE_SCATTER_BLOCK,
            (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, MPI_Request *request),
            (sendbuf, recvbuf, recvcount, datatype, op, comm, request))
ORACLE_COLL(Scan, K_SCAN,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm),
            (sendbuf, recvbuf, count, datatype, op, comm))
ORACLE_COLL(Iscan, K_SCAN,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, MPI_Request *request),
            (sendbuf, recvbuf, count, datatype, op, comm, request))
ORACLE_COLL(Exscan, K_EXSCAN,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm),
            (sendbuf, recvbuf, count, datatype, op, comm))
ORACLE_COLL(Iexscan, K_EXSCAN,
            (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, MPI_Request *request),
            (sendbuf, recvbuf, count, datatype, op, comm, request))

ORACLE_COLL(Neighbor_allgather, K_NEIGHBOR_ALLGATHER,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
ORACLE_COLL(Ineighbor_allgather, K_NEIGHBOR_ALLGATHER,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
ORACLE_COLL(Neighbor_allgatherv, K_NEIGHBOR_ALLGATHERV,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))
ORACLE_COLL(Ineighbor_allgatherv, K_NEIGHBOR_ALLGATHERV,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
             MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
ORACLE_COLL(Neighbor_alltoall, K_NEIGHBOR_ALLTOALL,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
ORACLE_COLL(Ineighbor_alltoall, K_NEIGHBOR_ALLTOALL,
            (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
ORACLE_COLL(Neighbor_alltoallv, K_NEIGHBOR_ALLTOALLV,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
             MPI_Datatype recvtype, MPI_Comm comm),
            (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
ORACLE_COLL(Ineighbor_alltoallv, K_NEIGHBOR_ALLTOALLV,
            (const void *sendbuf, const int sendcounts[], const int sdispls[],
             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
            (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
             request))
ORACLE_COLL(Neighbor_alltoallw, K_NEIGHBOR_ALLTOALLW,
            (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),
            (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
             comm))
ORACLE_COLL(Ineighbor_alltoallw, K_NEIGHBOR_ALLTOALLW,
            (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
             MPI_Request *request),
            (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
             request))

/* One-sided calls: a call that succeeded counts, a communication call
 * only with a real target (as the events are raised); MPI_Win_test only
 * when it said yes. */
/** A one-sided wrapper: MPI function @p fn, its counter @p counter, its
 *  parameters and the arguments passed on; counted when @p counts. */
#define ORACLE_RMA(name, counter, counts, params, args)              \
    ORACLE_TWIN(name, params, args)                                  \
    {                                                                \
        int rc_ = next args;                                         \
        counter += oracle_outer() && MPI_SUCCESS == rc_ && (counts); \
        return rc_;                                                  \
    }

ORACLE_RMA(Put, oracle_rma_op[R_PUT], MPI_PROC_NULL != target_rank,
           (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
            MPI_Win win),
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, win))
ORACLE_RMA(Get, oracle_rma_op[R_GET], MPI_PROC_NULL != target_rank,
           (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win),
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, win))
ORACLE_RMA(Accumulate, oracle_rma_op[R_ACCUMULATE], MPI_PROC_NULL != target_rank,
           (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
            MPI_Op op, MPI_Win win),
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, op, win))
ORACLE_RMA(Get_accumulate, oracle_rma_op[R_GET_ACCUMULATE], MPI_PROC_NULL != target_rank,
           (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
            MPI_Win win),
           (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
            target_rank, target_disp, target_count, target_datatype, op, win))
ORACLE_RMA(Fetch_and_op, oracle_rma_op[R_FETCH_AND_OP], MPI_PROC_NULL != target_rank,
           (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
            MPI_Aint target_disp, MPI_Op op, MPI_Win win),
           (origin_addr, result_addr, datatype, target_rank, target_disp, op, win))
ORACLE_RMA(Compare_and_swap, oracle_rma_op[R_COMPARE_AND_SWAP], MPI_PROC_NULL != target_rank,
           (const void *origin_addr, const void *compare_addr, void *result_addr,
            MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win),
           (origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win))
ORACLE_RMA(Rput, oracle_rma_op[R_RPUT], MPI_PROC_NULL != target_rank,
           (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
            MPI_Win win, MPI_Request *request),
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, win, request))
ORACLE_RMA(Rget, oracle_rma_op[R_RGET], MPI_PROC_NULL != target_rank,
           (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
            MPI_Request *request),
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, win, request))
ORACLE_RMA(Raccumulate, oracle_rma_op[R_RACCUMULATE], MPI_PROC_NULL != target_rank,
           (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
            MPI_Op op, MPI_Win win, MPI_Request *request),
           (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
            target_datatype, op, win, request))
ORACLE_RMA(Rget_accumulate, oracle_rma_op[R_RGET_ACCUMULATE], MPI_PROC_NULL != target_rank,
           (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
            MPI_Win win, MPI_Request *request),
           (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
            target_rank, target_disp, target_count, target_datatype, op, win, request))
ORACLE_RMA(Win_fence, oracle_rma_sync[S_FENCE], 1, (int assert, MPI_Win win), (assert, win))
ORACLE_RMA(Win_post, oracle_rma_sync[S_POST], 1, (MPI_Group group, int assert, MPI_Win win),
           (group, assert, win))
ORACLE_RMA(Win_start, oracle_rma_sync[S_START], 1, (MPI_Group group, int assert, MPI_Win win),
           (group, assert, win))
ORACLE_RMA(Win_complete, oracle_rma_sync[S_COMPLETE], 1, (MPI_Win win), (win))
ORACLE_RMA(Win_wait, oracle_rma_sync[S_WAIT], 1, (MPI_Win win), (win))
ORACLE_RMA(Win_test, oracle_rma_sync[S_TEST], 0 != *flag, (MPI_Win win, int *flag), (win, flag))
ORACLE_RMA(Win_lock, oracle_rma_sync[S_LOCK], 1, (int lock_type, int rank, int assert, MPI_Win win),
           (lock_type, rank, assert, win))
ORACLE_RMA(Win_unlock, oracle_rma_sync[S_UNLOCK], 1, (int rank, MPI_Win win), (rank, win))
ORACLE_RMA(Win_lock_all, oracle_rma_sync[S_LOCK_ALL], 1, (int assert, MPI_Win win), (assert, win))
ORACLE_RMA(Win_unlock_all, oracle_rma_sync[S_UNLOCK_ALL], 1, (MPI_Win win), (win))
ORACLE_RMA(Win_flush, oracle_rma_sync[S_FLUSH], 1, (int rank, MPI_Win win), (rank, win))
ORACLE_RMA(Win_flush_all, oracle_rma_sync[S_FLUSH_ALL], 1, (MPI_Win win), (win))
ORACLE_RMA(Win_flush_local, oracle_rma_sync[S_FLUSH_LOCAL], 1, (int rank, MPI_Win win), (rank, win))
ORACLE_RMA(Win_flush_local_all, oracle_rma_sync[S_FLUSH_LOCAL_ALL], 1, (MPI_Win win), (win))
ORACLE_RMA(Win_sync, oracle_rma_sync[S_SYNC], 1, (MPI_Win win), (win))

/* The counts are written by the program's own MPI_Finalize (from C or
 * Fortran: the outermost entry). */
static int oracle_Finalize_body(int (*next)(void))
{
    const char *dir = getenv("EVT_ORACLE_DIR");
    int rank = -1;

    (void) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (NULL != dir && oracle_outer()) {
        char path[4096];
        FILE *f;

        snprintf(path, sizeof(path), "%s/rank.%d", dir, rank);
        f = fopen(path, "w");
        if (NULL == f) {
            perror(path);
        } else {
            fprintf(f, "send %lu\nrecv %lu\npersistent %lu\nunfollowed %lu\n", oracle_sends,
                    oracle_recvs, oracle_persistent, oracle_unfollowed);
            for (int k = 0; k < K_COUNT; ++k) {
                fprintf(f, "coll%d %lu\n", k, oracle_coll[k]);
            }
            for (int k = 0; k < R_COUNT; ++k) {
                fprintf(f, "rma_op%d %lu\n", k, oracle_rma_op[k]);
            }
            for (int k = 0; k < S_COUNT; ++k) {
                fprintf(f, "rma_sync%d %lu\n", k, oracle_rma_sync[k]);
            }
            fclose(f);
        }
    }
    return next();
}

/* ORACLE_ENTRY passes the arguments after next: MPI_Finalize has none */
#define oracle_Finalize(next, ...) oracle_Finalize_body(next)
ORACLE_ENTRY(MPI_Finalize, Finalize, (void), ())
ORACLE_ENTRY(PMPI_Finalize, Finalize, (void), ())
