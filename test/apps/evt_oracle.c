/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * An independent count of a real program's point-to-point calls, to hold
 * ompi-evt's recording against: preloaded in front of libompi_evt, it
 * counts each completed send and receive per rank and writes the counts
 * at MPI_Finalize to $EVT_ORACLE_DIR/rank.<world rank>.
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
            fclose(f);
        }
    }
    return next();
}
