/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The collective producer's wrappers (what they cover, the numbering and
 * the byte counts: ompi_evt_coll.h): libompi_evt defines MPI_X and PMPI_X
 * for the blocking and nonblocking collectives and calls the next PMPI_X
 * (ompi_evt_pmpi_next.h). A wrapper reads the clock before the call only
 * with a listener; it reads the call's arguments (sizes, counts, roles)
 * only after the call succeeded, so that erroneous arguments reach libmpi
 * first and get its error.
 */

#include "ompi_config.h"

#include "ompi/runtime/ompi_evt_coll.h"

/* ------------------------------------------------------------------------
 * What the arguments say (after a successful call: valid arguments)
 * ------------------------------------------------------------------------ */

/** The number of ranks a per-rank count or block refers to: the group on
 *  the other side of an intercommunicator, else the communicator's. */
static inline int coll_peers(MPI_Comm comm)
{
    return OMPI_COMM_IS_INTER(comm) ? ompi_comm_remote_size(comm) : ompi_comm_size(comm);
}

/** Sum of @p n counts of @p type. */
static uint64_t coll_sum(const int counts[], int n, MPI_Datatype type)
{
    uint64_t total = 0;

    for (int i = 0; i < n; ++i) {
        total += (uint64_t) counts[i];
    }
    return total * p2p_bytes(1, type);
}

/** Sum of @p n counts, each of its own type. */
static uint64_t coll_sum_w(const int counts[], const MPI_Datatype types[], int n)
{
    uint64_t total = 0;

    for (int i = 0; i < n; ++i) {
        total += p2p_bytes(counts[i], types[i]);
    }
    return total;
}

enum { COLL_ROLE_ROOT, COLL_ROLE_OTHER, COLL_ROLE_NONE };

/** This rank's part in a rooted collective, and the payload's root. */
static int coll_role(MPI_Comm comm, int root, int32_t *out)
{
    if (OMPI_COMM_IS_INTER(comm)) {
        if (MPI_ROOT == root) {
            *out = OMPI_EVT_COLL_ROOT_SELF;
            return COLL_ROLE_ROOT;
        }
        if (MPI_PROC_NULL == root) {
            *out = OMPI_EVT_COLL_ROOT_PROC_NULL;
            return COLL_ROLE_NONE;
        }
        *out = root;
        return COLL_ROLE_OTHER;
    }
    *out = root;
    return ompi_comm_rank(comm) == root ? COLL_ROLE_ROOT : COLL_ROLE_OTHER;
}

static void coll_barrier_args(coll_args_t *a)
{
    *a = (coll_args_t){.kind = OMPI_EVT_COLL_BARRIER,
                       .root = OMPI_EVT_COLL_ROOT_NONE,
                       .op = OMPI_EVT_COLL_OP_NONE};
}

static void coll_bcast_args(coll_args_t *a, MPI_Comm comm, int count, MPI_Datatype type, int root)
{
    int role;

    *a = (coll_args_t){.kind = OMPI_EVT_COLL_BCAST, .op = OMPI_EVT_COLL_OP_NONE};
    role = coll_role(comm, root, &a->root);
    if (COLL_ROLE_ROOT == role) {
        a->sent = p2p_bytes(count, type);
    } else if (COLL_ROLE_OTHER == role) {
        a->recv = p2p_bytes(count, type);
    }
}

/** Gather (@p rcounts NULL: @p rcount each) and Gatherv. */
static void coll_gather_args(coll_args_t *a, MPI_Comm comm, const void *sbuf, int scount,
                             MPI_Datatype stype, const int rcounts[], int rcount,
                             MPI_Datatype rtype, int root)
{
    int role;

    *a = (coll_args_t){.kind = NULL == rcounts ? OMPI_EVT_COLL_GATHER : OMPI_EVT_COLL_GATHERV,
                       .op = OMPI_EVT_COLL_OP_NONE};
    role = coll_role(comm, root, &a->root);
    if (COLL_ROLE_OTHER == role) {
        a->sent = p2p_bytes(scount, stype);
    } else if (COLL_ROLE_ROOT == role) {
        int n = coll_peers(comm);
        a->recv = NULL == rcounts ? (uint64_t) n * p2p_bytes(rcount, rtype)
                                  : coll_sum(rcounts, n, rtype);
        if (!OMPI_COMM_IS_INTER(comm)) { /* the root's own block */
            int me = ompi_comm_rank(comm);
            a->sent = MPI_IN_PLACE != sbuf
                          ? p2p_bytes(scount, stype)
                          : p2p_bytes(NULL == rcounts ? rcount : rcounts[me], rtype);
        }
    }
}

/** Scatter (@p scounts NULL: @p scount each) and Scatterv. */
static void coll_scatter_args(coll_args_t *a, MPI_Comm comm, const int scounts[], int scount,
                              MPI_Datatype stype, const void *rbuf, int rcount, MPI_Datatype rtype,
                              int root)
{
    int role;

    *a = (coll_args_t){.kind = NULL == scounts ? OMPI_EVT_COLL_SCATTER : OMPI_EVT_COLL_SCATTERV,
                       .op = OMPI_EVT_COLL_OP_NONE};
    role = coll_role(comm, root, &a->root);
    if (COLL_ROLE_OTHER == role) {
        a->recv = p2p_bytes(rcount, rtype);
    } else if (COLL_ROLE_ROOT == role) {
        int n = coll_peers(comm);
        a->sent = NULL == scounts ? (uint64_t) n * p2p_bytes(scount, stype)
                                  : coll_sum(scounts, n, stype);
        if (!OMPI_COMM_IS_INTER(comm) && MPI_IN_PLACE != rbuf) {
            a->recv = p2p_bytes(rcount, rtype); /* the root's own block */
        }
    }
}

/** Allgather (@p rcounts NULL: @p rcount each) and Allgatherv. */
static void coll_allgather_args(coll_args_t *a, MPI_Comm comm, const void *sbuf, int scount,
                                MPI_Datatype stype, const int rcounts[], int rcount,
                                MPI_Datatype rtype)
{
    int n = coll_peers(comm);

    *a = (coll_args_t){.kind = NULL == rcounts ? OMPI_EVT_COLL_ALLGATHER : OMPI_EVT_COLL_ALLGATHERV,
                       .root = OMPI_EVT_COLL_ROOT_NONE,
                       .op = OMPI_EVT_COLL_OP_NONE};
    a->recv = NULL == rcounts ? (uint64_t) n * p2p_bytes(rcount, rtype)
                              : coll_sum(rcounts, n, rtype);
    if (MPI_IN_PLACE != sbuf) {
        a->sent = p2p_bytes(scount, stype);
    } else {
        int me = ompi_comm_rank(comm);
        a->sent = p2p_bytes(NULL == rcounts ? rcount : rcounts[me], rtype);
    }
}

/** Alltoall (@p scounts and @p rcounts NULL: @p scount and @p rcount each)
 *  and Alltoallv. */
static void coll_alltoall_args(coll_args_t *a, MPI_Comm comm, const void *sbuf, const int scounts[],
                               int scount, MPI_Datatype stype, const int rcounts[], int rcount,
                               MPI_Datatype rtype)
{
    int n = coll_peers(comm);

    *a = (coll_args_t){.kind = NULL == rcounts ? OMPI_EVT_COLL_ALLTOALL : OMPI_EVT_COLL_ALLTOALLV,
                       .root = OMPI_EVT_COLL_ROOT_NONE,
                       .op = OMPI_EVT_COLL_OP_NONE};
    a->recv = NULL == rcounts ? (uint64_t) n * p2p_bytes(rcount, rtype)
                              : coll_sum(rcounts, n, rtype);
    if (MPI_IN_PLACE == sbuf) {
        a->sent = a->recv; /* the receive buffer is sent */
    } else {
        a->sent = NULL == scounts ? (uint64_t) n * p2p_bytes(scount, stype)
                                  : coll_sum(scounts, n, stype);
    }
}

static void coll_alltoallw_args(coll_args_t *a, MPI_Comm comm, const void *sbuf,
                                const int scounts[], const MPI_Datatype stypes[],
                                const int rcounts[], const MPI_Datatype rtypes[])
{
    int n = coll_peers(comm);

    *a = (coll_args_t){.kind = OMPI_EVT_COLL_ALLTOALLW,
                       .root = OMPI_EVT_COLL_ROOT_NONE,
                       .op = OMPI_EVT_COLL_OP_NONE};
    a->recv = coll_sum_w(rcounts, rtypes, n);
    a->sent = MPI_IN_PLACE == sbuf ? a->recv : coll_sum_w(scounts, stypes, n);
}

static void coll_reduce_args(coll_args_t *a, MPI_Comm comm, int count, MPI_Datatype type, MPI_Op op,
                             int root)
{
    int role;

    *a = (coll_args_t){.kind = OMPI_EVT_COLL_REDUCE, .op = ompi_evt_coll_op(op)};
    role = coll_role(comm, root, &a->root);
    if (COLL_ROLE_ROOT == role) {
        a->recv = p2p_bytes(count, type);
        if (!OMPI_COMM_IS_INTER(comm)) {
            a->sent = a->recv; /* the root's own contribution */
        }
    } else if (COLL_ROLE_OTHER == role) {
        a->sent = p2p_bytes(count, type);
    }
}

/** Allreduce, Scan and Exscan: every rank gives and gets @p count
 *  elements (Exscan: rank 0's receive buffer is left alone). */
static void coll_elementwise_args(coll_args_t *a, MPI_Comm comm, int kind, int count,
                                  MPI_Datatype type, MPI_Op op)
{
    *a = (coll_args_t){.kind = kind, .root = OMPI_EVT_COLL_ROOT_NONE, .op = ompi_evt_coll_op(op)};
    a->sent = p2p_bytes(count, type);
    a->recv = OMPI_EVT_COLL_EXSCAN == kind && 0 == ompi_comm_rank(comm) ? 0 : a->sent;
}

/** Reduce_scatter (@p rcounts) and Reduce_scatter_block (@p rcounts NULL:
 *  @p rcount each): the counts are over the local group. */
static void coll_reduce_scatter_args(coll_args_t *a, MPI_Comm comm, const int rcounts[], int rcount,
                                     MPI_Datatype type, MPI_Op op)
{
    int n = ompi_comm_size(comm);

    *a = (coll_args_t){.kind = NULL == rcounts ? OMPI_EVT_COLL_REDUCE_SCATTER_BLOCK
                                               : OMPI_EVT_COLL_REDUCE_SCATTER,
                       .root = OMPI_EVT_COLL_ROOT_NONE,
                       .op = ompi_evt_coll_op(op)};
    if (NULL == rcounts) {
        a->recv = p2p_bytes(rcount, type);
        a->sent = (uint64_t) n * a->recv;
    } else {
        a->recv = p2p_bytes(rcounts[ompi_comm_rank(comm)], type);
        a->sent = coll_sum(rcounts, n, type);
    }
}

/* ------------------------------------------------------------------------
 * Wrappers
 * ------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------
 * Blocking collectives
 * ------------------------------------------------------------------------ */

static int evt_Barrier(MPI_Comm comm)
{
    COLL_BLOCKING(Barrier, (comm), coll_barrier_args(&a_));
}

static int evt_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    COLL_BLOCKING(Bcast, (buffer, count, datatype, root, comm),
                  coll_bcast_args(&a_, comm, count, datatype, root));
}

static int evt_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COLL_BLOCKING(Gather, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
                  coll_gather_args(&a_, comm, sendbuf, sendcount, sendtype, NULL, recvcount,
                                   recvtype, root));
}

static int evt_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                       MPI_Comm comm)
{
    COLL_BLOCKING(Gatherv,
                  (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
                  coll_gather_args(&a_, comm, sendbuf, sendcount, sendtype, recvcounts, 0, recvtype,
                                   root));
}

static int evt_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COLL_BLOCKING(Scatter, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),
                  coll_scatter_args(&a_, comm, NULL, sendcount, sendtype, recvbuf, recvcount,
                                    recvtype, root));
}

static int evt_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                        MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int root, MPI_Comm comm)
{
    COLL_BLOCKING(Scatterv,
                  (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
                  coll_scatter_args(&a_, comm, sendcounts, 0, sendtype, recvbuf, recvcount,
                                    recvtype, root));
}

static int evt_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BLOCKING(Allgather, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                  coll_allgather_args(&a_, comm, sendbuf, sendcount, sendtype, NULL, recvcount,
                                      recvtype));
}

static int evt_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                          MPI_Comm comm)
{
    COLL_BLOCKING(Allgatherv,
                  (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                  coll_allgather_args(&a_, comm, sendbuf, sendcount, sendtype, recvcounts, 0,
                                      recvtype));
}

static int evt_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BLOCKING(Alltoall, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                  coll_alltoall_args(&a_, comm, sendbuf, NULL, sendcount, sendtype, NULL, recvcount,
                                     recvtype));
}

static int evt_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BLOCKING(Alltoallv,
                  (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                   comm),
                  coll_alltoall_args(&a_, comm, sendbuf, sendcounts, 0, sendtype, recvcounts, 0,
                                     recvtype));
}

static int evt_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                         const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    COLL_BLOCKING(Alltoallw,
                  (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                   comm),
                  coll_alltoallw_args(&a_, comm, sendbuf, sendcounts, sendtypes, recvcounts,
                                      recvtypes));
}

static int evt_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, int root, MPI_Comm comm)
{
    COLL_BLOCKING(Reduce, (sendbuf, recvbuf, count, datatype, op, root, comm),
                  coll_reduce_args(&a_, comm, count, datatype, op, root));
}

static int evt_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm)
{
    COLL_BLOCKING(Allreduce, (sendbuf, recvbuf, count, datatype, op, comm),
                  coll_elementwise_args(&a_, comm, OMPI_EVT_COLL_ALLREDUCE, count, datatype, op));
}

static int evt_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COLL_BLOCKING(Reduce_scatter, (sendbuf, recvbuf, recvcounts, datatype, op, comm),
                  coll_reduce_scatter_args(&a_, comm, recvcounts, 0, datatype, op));
}

static int evt_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COLL_BLOCKING(Reduce_scatter_block, (sendbuf, recvbuf, recvcount, datatype, op, comm),
                  coll_reduce_scatter_args(&a_, comm, NULL, recvcount, datatype, op));
}

static int evt_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm)
{
    COLL_BLOCKING(Scan, (sendbuf, recvbuf, count, datatype, op, comm),
                  coll_elementwise_args(&a_, comm, OMPI_EVT_COLL_SCAN, count, datatype, op));
}

static int evt_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm)
{
    COLL_BLOCKING(Exscan, (sendbuf, recvbuf, count, datatype, op, comm),
                  coll_elementwise_args(&a_, comm, OMPI_EVT_COLL_EXSCAN, count, datatype, op));
}

/* ------------------------------------------------------------------------
 * Nonblocking collectives
 * ------------------------------------------------------------------------ */

static int evt_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Ibarrier, (comm, request), coll_barrier_args(&a_));
}

static int evt_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Request *request)
{
    COLL_NONBLOCKING(Ibcast, (buffer, count, datatype, root, comm, request),
                     coll_bcast_args(&a_, comm, count, datatype, root));
}

static int evt_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request *request)
{
    COLL_NONBLOCKING(Igather,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request),
                     coll_gather_args(&a_, comm, sendbuf, sendcount, sendtype, NULL, recvcount,
                                      recvtype, root));
}

static int evt_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Igatherv,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm, request),
                     coll_gather_args(&a_, comm, sendbuf, sendcount, sendtype, recvcounts, 0,
                                      recvtype, root));
}

static int evt_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request *request)
{
    COLL_NONBLOCKING(Iscatter,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request),
                     coll_scatter_args(&a_, comm, NULL, sendcount, sendtype, recvbuf, recvcount,
                                       recvtype, root));
}

static int evt_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                         MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                         int root, MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Iscatterv,
                     (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                      comm, request),
                     coll_scatter_args(&a_, comm, sendcounts, 0, sendtype, recvbuf, recvcount,
                                       recvtype, root));
}

static int evt_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Iallgather,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request),
                     coll_allgather_args(&a_, comm, sendbuf, sendcount, sendtype, NULL, recvcount,
                                         recvtype));
}

static int evt_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Iallgatherv,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                      request),
                     coll_allgather_args(&a_, comm, sendbuf, sendcount, sendtype, recvcounts, 0,
                                         recvtype));
}

static int evt_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Ialltoall,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request),
                     coll_alltoall_args(&a_, comm, sendbuf, NULL, sendcount, sendtype, NULL,
                                        recvcount, recvtype));
}

static int evt_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request)
{
    COLL_NONBLOCKING(Ialltoallv,
                     (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                      recvtype, comm, request),
                     coll_alltoall_args(&a_, comm, sendbuf, sendcounts, 0, sendtype, recvcounts, 0,
                                        recvtype));
}

static int evt_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                          const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Request *request)
{
    COLL_NONBLOCKING(Ialltoallw,
                     (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                      recvtypes, comm, request),
                     coll_alltoallw_args(&a_, comm, sendbuf, sendcounts, sendtypes, recvcounts,
                                         recvtypes));
}

static int evt_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Ireduce, (sendbuf, recvbuf, count, datatype, op, root, comm, request),
                     coll_reduce_args(&a_, comm, count, datatype, op, root));
}

static int evt_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Iallreduce, (sendbuf, recvbuf, count, datatype, op, comm, request),
                     coll_elementwise_args(&a_, comm, OMPI_EVT_COLL_ALLREDUCE, count, datatype,
                                           op));
}

static int evt_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    COLL_NONBLOCKING(Ireduce_scatter, (sendbuf, recvbuf, recvcounts, datatype, op, comm, request),
                     coll_reduce_scatter_args(&a_, comm, recvcounts, 0, datatype, op));
}

static int evt_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPI_Request *request)
{
    COLL_NONBLOCKING(Ireduce_scatter_block,
                     (sendbuf, recvbuf, recvcount, datatype, op, comm, request),
                     coll_reduce_scatter_args(&a_, comm, NULL, recvcount, datatype, op));
}

static int evt_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Iscan, (sendbuf, recvbuf, count, datatype, op, comm, request),
                     coll_elementwise_args(&a_, comm, OMPI_EVT_COLL_SCAN, count, datatype, op));
}

static int evt_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Iexscan, (sendbuf, recvbuf, count, datatype, op, comm, request),
                     coll_elementwise_args(&a_, comm, OMPI_EVT_COLL_EXSCAN, count, datatype, op));
}

/* ------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------ */

int MPI_Barrier(MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Barrier, (comm));
}
int PMPI_Barrier(MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Barrier, (comm));
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ibarrier, (comm, request));
}
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ibarrier, (comm, request));
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Bcast, (buffer, count, datatype, root, comm));
}
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Bcast, (buffer, count, datatype, root, comm));
}

int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ibcast, (buffer, count, datatype, root, comm, request));
}
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ibcast, (buffer, count, datatype, root, comm, request));
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Gather,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Gather,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Igather, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    root, comm, request));
}
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Igather, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    root, comm, request));
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Gatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, root, comm));
}
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Gatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, root, comm));
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Igatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, root, comm, request));
}
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Igatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, root, comm, request));
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Scatter,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Scatter,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iscatter, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     root, comm, request));
}
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iscatter, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     root, comm, request));
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Scatterv, (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                     recvtype, root, comm));
}
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Scatterv, (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                     recvtype, root, comm));
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iscatterv, (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                      recvtype, root, comm, request));
}
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iscatterv, (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                      recvtype, root, comm, request));
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Allgather,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Allgather,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iallgather, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request));
}
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iallgather, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request));
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Allgatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                       recvtype, comm));
}
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Allgatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                       recvtype, comm));
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iallgatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, comm, request));
}
int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iallgatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, comm, request));
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Alltoall,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Alltoall,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ialltoall, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, request));
}
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ialltoall, (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, request));
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Alltoallv, (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                      rdispls, recvtype, comm));
}
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Alltoallv, (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                      rdispls, recvtype, comm));
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ialltoallv, (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                       rdispls, recvtype, comm, request));
}
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ialltoallv, (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                       rdispls, recvtype, comm, request));
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Alltoallw, (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                      rdispls, recvtypes, comm));
}
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Alltoallw, (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                      rdispls, recvtypes, comm));
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ialltoallw, (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                       rdispls, recvtypes, comm, request));
}
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ialltoallw, (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                       rdispls, recvtypes, comm, request));
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Reduce, (sendbuf, recvbuf, count, datatype, op, root, comm));
}
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Reduce, (sendbuf, recvbuf, count, datatype, op, root, comm));
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ireduce, (sendbuf, recvbuf, count, datatype, op, root, comm, request));
}
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ireduce, (sendbuf, recvbuf, count, datatype, op, root, comm, request));
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Allreduce, (sendbuf, recvbuf, count, datatype, op, comm));
}
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Allreduce, (sendbuf, recvbuf, count, datatype, op, comm));
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iallreduce, (sendbuf, recvbuf, count, datatype, op, comm, request));
}
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iallreduce, (sendbuf, recvbuf, count, datatype, op, comm, request));
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Reduce_scatter, (sendbuf, recvbuf, recvcounts, datatype, op, comm));
}
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Reduce_scatter, (sendbuf, recvbuf, recvcounts, datatype, op, comm));
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ireduce_scatter,
                          (sendbuf, recvbuf, recvcounts, datatype, op, comm, request));
}
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ireduce_scatter,
                          (sendbuf, recvbuf, recvcounts, datatype, op, comm, request));
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Reduce_scatter_block, (sendbuf, recvbuf, recvcount, datatype, op, comm));
}
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Reduce_scatter_block, (sendbuf, recvbuf, recvcount, datatype, op, comm));
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ireduce_scatter_block,
                          (sendbuf, recvbuf, recvcount, datatype, op, comm, request));
}
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ireduce_scatter_block,
                          (sendbuf, recvbuf, recvcount, datatype, op, comm, request));
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Scan, (sendbuf, recvbuf, count, datatype, op, comm));
}
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Scan, (sendbuf, recvbuf, count, datatype, op, comm));
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iscan, (sendbuf, recvbuf, count, datatype, op, comm, request));
}
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iscan, (sendbuf, recvbuf, count, datatype, op, comm, request));
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Exscan, (sendbuf, recvbuf, count, datatype, op, comm));
}
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Exscan, (sendbuf, recvbuf, count, datatype, op, comm));
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iexscan, (sendbuf, recvbuf, count, datatype, op, comm, request));
}
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Iexscan, (sendbuf, recvbuf, count, datatype, op, comm, request));
}
