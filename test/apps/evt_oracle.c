/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * An independent count of a real program's point-to-point and collective
 * calls, to hold ompi-evt's recording against: preloaded in front of
 * libompi_evt, it counts each completed send and receive and each
 * collective call per kind, per rank, and writes the counts at
 * MPI_Finalize to $EVT_ORACLE_DIR/rank.<world rank>.
 *
 * Each wrapper forwards to the NEXT definition of the same MPI function
 * (dlsym(RTLD_NEXT)), not to PMPI_X: calling PMPI_X would go straight to
 * Open MPI and skip libompi_evt's wrapper behind this one, so the program
 * recorded would not be the program counted.
 *
 * What counts mirrors what raises an event: a send or receive with a real
 * peer (not MPI_PROC_NULL); Sendrecv and Sendrecv_replace are one of each.
 * Nonblocking operations are counted when started: the programs of the
 * test bed complete every request they start, so the totals agree.
 * Persistent requests are not covered (a count would need the request's
 * kind at every MPI_Start); the programs used here have none, and a
 * program with them shows as a mismatch, not as a silent pass.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
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
    K_COUNT
};
static unsigned long oracle_coll[K_COUNT];

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

#define ORACLE_NEXT(fn)                            \
    static __typeof__(&fn) next;                   \
    if (NULL == next) {                            \
        next = (__typeof__(&fn)) oracle_next(#fn); \
    }

/* The blocking send modes share one signature. */
#define ORACLE_SEND(fn)                                                                   \
    int fn(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) \
    {                                                                                     \
        ORACLE_NEXT(fn);                                                                  \
        oracle_sends += MPI_PROC_NULL != dest;                                            \
        return next(buf, count, dt, dest, tag, comm);                                     \
    }
ORACLE_SEND(MPI_Send)
ORACLE_SEND(MPI_Bsend)
ORACLE_SEND(MPI_Ssend)
ORACLE_SEND(MPI_Rsend)

#define ORACLE_ISEND(fn)                                                                  \
    int fn(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, \
           MPI_Request *req)                                                              \
    {                                                                                     \
        ORACLE_NEXT(fn);                                                                  \
        oracle_sends += MPI_PROC_NULL != dest;                                            \
        return next(buf, count, dt, dest, tag, comm, req);                                \
    }
ORACLE_ISEND(MPI_Isend)
ORACLE_ISEND(MPI_Ibsend)
ORACLE_ISEND(MPI_Issend)
ORACLE_ISEND(MPI_Irsend)

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    ORACLE_NEXT(MPI_Recv);
    oracle_recvs += MPI_PROC_NULL != src;
    return next(buf, count, dt, src, tag, comm, st);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    ORACLE_NEXT(MPI_Irecv);
    oracle_recvs += MPI_PROC_NULL != src;
    return next(buf, count, dt, src, tag, comm, req);
}

/* A matched message from MPI_PROC_NULL is MPI_MESSAGE_NO_PROC. */
int MPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *msg, MPI_Status *st)
{
    ORACLE_NEXT(MPI_Mrecv);
    oracle_recvs += MPI_MESSAGE_NO_PROC != *msg;
    return next(buf, count, dt, msg, st);
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *msg, MPI_Request *req)
{
    ORACLE_NEXT(MPI_Imrecv);
    oracle_recvs += MPI_MESSAGE_NO_PROC != *msg;
    return next(buf, count, dt, msg, req);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st)
{
    ORACLE_NEXT(MPI_Sendrecv);
    oracle_sends += MPI_PROC_NULL != dest;
    oracle_recvs += MPI_PROC_NULL != src;
    return next(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag, int src,
                         int rtag, MPI_Comm comm, MPI_Status *st)
{
    ORACLE_NEXT(MPI_Sendrecv_replace);
    oracle_sends += MPI_PROC_NULL != dest;
    oracle_recvs += MPI_PROC_NULL != src;
    return next(buf, count, dt, dest, stag, src, rtag, comm, st);
}

int MPI_Start(MPI_Request *req)
{
    ORACLE_NEXT(MPI_Start);
    ++oracle_persistent;
    return next(req);
}

int MPI_Startall(int n, MPI_Request reqs[])
{
    ORACLE_NEXT(MPI_Startall);
    oracle_persistent += (unsigned long) n;
    return next(n, reqs);
}

/* Collectives: a call that succeeded counts (as the event is raised), blocking
 * and nonblocking alike (the test bed's programs complete every request
 * they start). */
int MPI_Barrier(MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Barrier);
    rc = next(comm);
    oracle_coll[K_BARRIER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Ibarrier);
    rc = next(comm, request);
    oracle_coll[K_BARRIER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Bcast);
    rc = next(buffer, count, datatype, root, comm);
    oracle_coll[K_BCAST] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Ibcast);
    rc = next(buffer, count, datatype, root, comm, request);
    oracle_coll[K_BCAST] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Gather);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    oracle_coll[K_GATHER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Igather);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
    oracle_coll[K_GATHER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Gatherv);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    oracle_coll[K_GATHERV] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Igatherv);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
              request);
    oracle_coll[K_GATHERV] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Scatter);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    oracle_coll[K_SCATTER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Iscatter);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
    oracle_coll[K_SCATTER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Scatterv);
    rc = next(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
    oracle_coll[K_SCATTERV] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Iscatterv);
    rc = next(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
              request);
    oracle_coll[K_SCATTERV] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Allgather);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    oracle_coll[K_ALLGATHER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Iallgather);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
    oracle_coll[K_ALLGATHER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Allgatherv);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
    oracle_coll[K_ALLGATHERV] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Iallgatherv);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
    oracle_coll[K_ALLGATHERV] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Alltoall);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    oracle_coll[K_ALLTOALL] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Ialltoall);
    rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
    oracle_coll[K_ALLTOALL] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Alltoallv);
    rc = next(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
    oracle_coll[K_ALLTOALLV] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Ialltoallv);
    rc = next(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
              request);
    oracle_coll[K_ALLTOALLV] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Alltoallw);
    rc = next(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
              comm);
    oracle_coll[K_ALLTOALLW] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Ialltoallw);
    rc = next(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
              comm, request);
    oracle_coll[K_ALLTOALLW] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Reduce);
    rc = next(sendbuf, recvbuf, count, datatype, op, root, comm);
    oracle_coll[K_REDUCE] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Ireduce);
    rc = next(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    oracle_coll[K_REDUCE] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Allreduce);
    rc = next(sendbuf, recvbuf, count, datatype, op, comm);
    oracle_coll[K_ALLREDUCE] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Iallreduce);
    rc = next(sendbuf, recvbuf, count, datatype, op, comm, request);
    oracle_coll[K_ALLREDUCE] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Reduce_scatter);
    rc = next(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    oracle_coll[K_REDUCE_SCATTER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Ireduce_scatter);
    rc = next(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    oracle_coll[K_REDUCE_SCATTER] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Reduce_scatter_block);
    rc = next(sendbuf, recvbuf, recvcount, datatype, op, comm);
    oracle_coll[K_REDUCE_SCATTER_BLOCK] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Ireduce_scatter_block);
    rc = next(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
    oracle_coll[K_REDUCE_SCATTER_BLOCK] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Scan);
    rc = next(sendbuf, recvbuf, count, datatype, op, comm);
    oracle_coll[K_SCAN] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Iscan);
    rc = next(sendbuf, recvbuf, count, datatype, op, comm, request);
    oracle_coll[K_SCAN] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm)
{
    int rc;
    ORACLE_NEXT(MPI_Exscan);
    rc = next(sendbuf, recvbuf, count, datatype, op, comm);
    oracle_coll[K_EXSCAN] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    int rc;
    ORACLE_NEXT(MPI_Iexscan);
    rc = next(sendbuf, recvbuf, count, datatype, op, comm, request);
    oracle_coll[K_EXSCAN] += MPI_SUCCESS == rc;
    return rc;
}

int MPI_Finalize(void)
{
    const char *dir = getenv("EVT_ORACLE_DIR");
    int rank = -1;

    ORACLE_NEXT(MPI_Finalize);
    (void) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (NULL != dir) {
        char path[4096];
        FILE *f;

        snprintf(path, sizeof(path), "%s/rank.%d", dir, rank);
        f = fopen(path, "w");
        if (NULL == f) {
            perror(path);
        } else {
            fprintf(f, "send %lu\nrecv %lu\npersistent %lu\n", oracle_sends, oracle_recvs,
                    oracle_persistent);
            for (int k = 0; k < K_COUNT; ++k) {
                fprintf(f, "coll%d %lu\n", k, oracle_coll[k]);
            }
            fclose(f);
        }
    }
    return next();
}
