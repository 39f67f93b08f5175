/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The neighbourhood collectives' wrappers (MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v, w) and their I-variants): the same event, the
 * same numbering and the same rules as the other collectives
 * (ompi_evt_coll.h). Their byte counts follow the communicator's
 * topology: a block per in-neighbour is received and, for the alltoall
 * kinds, a block per out-neighbour is sent; allgather's send buffer is
 * counted once, as for MPI_Allgather. A neighbour that is MPI_PROC_NULL
 * (the edge of a non-periodic Cartesian dimension) moves nothing and is
 * not counted, though its block has a place in the buffers.
 */

#include "ompi_config.h"

#include "ompi/runtime/ompi_evt_coll.h"

/** The neighbours of @p comm's topology on one side (in: sources, out:
 *  destinations), as MPI orders the blocks of the buffers. */
typedef struct {
    MPI_Comm comm;
    int topo; /**< MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    int degree;
} coll_neighbors_t;

static void coll_neighbors(coll_neighbors_t *nb, MPI_Comm comm, bool in)
{
    int indegree = 0, outdegree = 0, weighted = 0, ndims = 0;

    nb->comm = comm;
    nb->topo = MPI_UNDEFINED;
    nb->degree = 0;
    (void) PMPI_Topo_test(comm, &nb->topo);
    if (MPI_CART == nb->topo) {
        (void) PMPI_Cartdim_get(comm, &ndims);
        nb->degree = 2 * ndims;
    } else if (MPI_GRAPH == nb->topo) {
        (void) PMPI_Graph_neighbors_count(comm, ompi_comm_rank(comm), &nb->degree);
    } else if (MPI_DIST_GRAPH == nb->topo) {
        (void) PMPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
        nb->degree = in ? indegree : outdegree;
    }
}

/** Whether block @p i of @p nb is a process: a Cartesian topology's block
 *  2d is the source and 2d + 1 the destination of a shift by 1 in
 *  dimension d (the same on both sides), either may be MPI_PROC_NULL. */
static bool coll_neighbor_real(const coll_neighbors_t *nb, int i)
{
    int source = MPI_PROC_NULL, dest = MPI_PROC_NULL;

    if (MPI_CART != nb->topo) {
        return true;
    }
    (void) PMPI_Cart_shift(nb->comm, i / 2, 1, &source, &dest);
    return MPI_PROC_NULL != (0 == i % 2 ? source : dest);
}

/** Bytes of the blocks of @p nb's real neighbours: @p counts[i] of @p type
 *  (@p counts NULL: @p count each), or of @p types[i] when @p types. */
static uint64_t coll_neighbor_bytes(const coll_neighbors_t *nb, const int counts[], int count,
                                    MPI_Datatype type, const MPI_Datatype types[])
{
    uint64_t total = 0;

    for (int i = 0; i < nb->degree; ++i) {
        if (coll_neighbor_real(nb, i)) {
            total += p2p_bytes(NULL != counts ? counts[i] : count, NULL != types ? types[i] : type);
        }
    }
    return total;
}

/** Neighbor_allgather (@p rcounts NULL: @p rcount each) and
 *  Neighbor_allgatherv. */
static void coll_neighbor_allgather_args(coll_args_t *a, MPI_Comm comm, int scount,
                                         MPI_Datatype stype, const int rcounts[], int rcount,
                                         MPI_Datatype rtype)
{
    coll_neighbors_t in;

    coll_neighbors(&in, comm, true);
    *a = (coll_args_t){.kind = NULL == rcounts ? OMPI_EVT_COLL_NEIGHBOR_ALLGATHER
                                               : OMPI_EVT_COLL_NEIGHBOR_ALLGATHERV,
                       .root = OMPI_EVT_COLL_ROOT_NONE,
                       .op = OMPI_EVT_COLL_OP_NONE,
                       .sent = p2p_bytes(scount, stype),
                       .recv = coll_neighbor_bytes(&in, rcounts, rcount, rtype, NULL)};
}

/** Neighbor_alltoall (counts NULL: @p scount, @p rcount each),
 *  Neighbor_alltoallv and, with @p stypes and @p rtypes,
 *  Neighbor_alltoallw. */
static void coll_neighbor_alltoall_args(coll_args_t *a, MPI_Comm comm, int kind,
                                        const int scounts[], int scount, MPI_Datatype stype,
                                        const MPI_Datatype stypes[], const int rcounts[],
                                        int rcount, MPI_Datatype rtype, const MPI_Datatype rtypes[])
{
    coll_neighbors_t in, out;

    coll_neighbors(&in, comm, true);
    coll_neighbors(&out, comm, false);
    *a = (coll_args_t){.kind = kind,
                       .root = OMPI_EVT_COLL_ROOT_NONE,
                       .op = OMPI_EVT_COLL_OP_NONE,
                       .sent = coll_neighbor_bytes(&out, scounts, scount, stype, stypes),
                       .recv = coll_neighbor_bytes(&in, rcounts, rcount, rtype, rtypes)};
}

static int evt_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm)
{
    COLL_BLOCKING(Neighbor_allgather,
                  (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                  coll_neighbor_allgather_args(&a_, comm, sendcount, sendtype, NULL, recvcount,
                                               recvtype));
}

static int evt_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Ineighbor_allgather,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request),
                     coll_neighbor_allgather_args(&a_, comm, sendcount, sendtype, NULL, recvcount,
                                                  recvtype));
}

static int evt_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, const int recvcounts[], const int displs[],
                                   MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BLOCKING(Neighbor_allgatherv,
                  (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                  coll_neighbor_allgather_args(&a_, comm, sendcount, sendtype, recvcounts, 0,
                                               recvtype));
}

static int evt_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, const int recvcounts[], const int displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Ineighbor_allgatherv,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                      request),
                     coll_neighbor_allgather_args(&a_, comm, sendcount, sendtype, recvcounts, 0,
                                                  recvtype));
}

static int evt_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BLOCKING(Neighbor_alltoall,
                  (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
                  coll_neighbor_alltoall_args(&a_, comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALL, NULL,
                                              sendcount, sendtype, NULL, NULL, recvcount, recvtype,
                                              NULL));
}

static int evt_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Request *request)
{
    COLL_NONBLOCKING(Ineighbor_alltoall,
                     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request),
                     coll_neighbor_alltoall_args(&a_, comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALL, NULL,
                                                 sendcount, sendtype, NULL, NULL, recvcount,
                                                 recvtype, NULL));
}

static int evt_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    COLL_BLOCKING(Neighbor_alltoallv,
                  (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                   comm),
                  coll_neighbor_alltoall_args(&a_, comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALLV,
                                              sendcounts, 0, sendtype, NULL, recvcounts, 0,
                                              recvtype, NULL));
}

static int evt_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Request *request)
{
    COLL_NONBLOCKING(Ineighbor_alltoallv,
                     (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                      recvtype, comm, request),
                     coll_neighbor_alltoall_args(&a_, comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALLV,
                                                 sendcounts, 0, sendtype, NULL, recvcounts, 0,
                                                 recvtype, NULL));
}

static int evt_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                  void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                  const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    COLL_BLOCKING(Neighbor_alltoallw,
                  (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                   comm),
                  coll_neighbor_alltoall_args(&a_, comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALLW,
                                              sendcounts, 0, MPI_DATATYPE_NULL, sendtypes,
                                              recvcounts, 0, MPI_DATATYPE_NULL, recvtypes));
}

static int evt_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                   const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Request *request)
{
    COLL_NONBLOCKING(Ineighbor_alltoallw,
                     (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                      recvtypes, comm, request),
                     coll_neighbor_alltoall_args(&a_, comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALLW,
                                                 sendcounts, 0, MPI_DATATYPE_NULL, sendtypes,
                                                 recvcounts, 0, MPI_DATATYPE_NULL, recvtypes));
}

/* ------------------------------------------------------------------------
 * Entry points: MPI_X for the application, PMPI_X for a PMPI tool
 * preloaded before libompi_evt (see ompi_evt_win_events.c).
 * ------------------------------------------------------------------------ */

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_allgather,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_allgather,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_allgather, (sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                recvtype, comm, request));
}

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_allgather, (sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                recvtype, comm, request));
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_allgatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                displs, recvtype, comm));
}

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_allgatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                displs, recvtype, comm));
}

int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_allgatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                 displs, recvtype, comm, request));
}

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_allgatherv, (sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                 displs, recvtype, comm, request));
}

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_alltoall,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_alltoall,
                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_alltoall, (sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, comm, request));
}

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_alltoall, (sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, comm, request));
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_alltoallv, (sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                               recvcounts, rdispls, recvtype, comm));
}

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_alltoallv, (sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                               recvcounts, rdispls, recvtype, comm));
}

int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_alltoallv, (sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                recvcounts, rdispls, recvtype, comm, request));
}

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_alltoallv, (sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                recvcounts, rdispls, recvtype, comm, request));
}

int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_alltoallw, (sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                               recvcounts, rdispls, recvtypes, comm));
}

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return EVT_PMPI_ENTRY(Neighbor_alltoallw, (sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                               recvcounts, rdispls, recvtypes, comm));
}

int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_alltoallw, (sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                                recvcounts, rdispls, recvtypes, comm, request));
}

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request *request)
{
    return EVT_PMPI_ENTRY(Ineighbor_alltoallw, (sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                                recvcounts, rdispls, recvtypes, comm, request));
}
