/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What a recorded job pays per MPI call, 2 ranks (mpirun -np 2): a plain
 * MPI program (not linked with libompi_evt: under ompi-evt-record the hook
 * brings the recording up), run plain and recorded by run_bench_record.sh.
 *   idle      ns per MPI_Iprobe that finds nothing: each call is one
 *             opal_progress, so this is the recording's cost in the busy
 *             loop of a thread waiting in MPI (nothing is raised)
 *   pingpong  one-way latency of an 8-byte ping-pong, ns (two p2p events
 *             per message are raised and recorded)
 *   msgrate   ns per message of a message-rate loop: each rank posts 64
 *             8-byte MPI_Irecv and 64 MPI_Isend to the other, then one
 *             MPI_Waitall (four p2p events per message pair)
 * Each figure is the median of 5 blocks. Prints RESULT <figure> <value>
 * (rank 0).
 *
 * Argument "self" (one process, mpirun -np 1): the message-rate loop with
 * the process talking to itself (ob1 over btl/self), so that no second
 * busy-polling rank and no scheduling of two ranks on two cores is in the
 * figure: what the recording adds to the messages' own path.
 *   self_msgrate  ns per message (one send and one receive event each)
 */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS      5
#define IDLE_CALLS  1000000
#define PP_MESSAGES 100000
#define MR_WINDOWS  4000
#define MR_WINDOW   64

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(*v), cmp_double);
    return v[n / 2];
}

/* The message-rate loop to itself: median ns per message of BLOCKS
 * blocks. */
static double self_msgrate(char mbuf[][8], char *buf, MPI_Request *req)
{
    double mr[BLOCKS];

    for (int b = 0; b < BLOCKS; ++b) {
        double t0 = MPI_Wtime();
        for (int w = 0; w < MR_WINDOWS; ++w) {
            for (int i = 0; i < MR_WINDOW; ++i) {
                MPI_Irecv(mbuf[i], 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[i]);
            }
            for (int i = 0; i < MR_WINDOW; ++i) {
                MPI_Isend(buf, 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[MR_WINDOW + i]);
            }
            MPI_Waitall(2 * MR_WINDOW, req, MPI_STATUSES_IGNORE);
        }
        mr[b] = (MPI_Wtime() - t0) * 1e9 / (MR_WINDOWS * MR_WINDOW);
    }
    return median(mr, BLOCKS);
}

int main(int argc, char **argv)
{
    double idle[BLOCKS], pp[BLOCKS], mr[BLOCKS];
    char buf[8] = {0}, mbuf[MR_WINDOW][8];
    MPI_Request req[2 * MR_WINDOW];
    int rank, size, flag;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (1 < argc && 0 == strcmp(argv[1], "self")) {
        if (1 != size) {
            fprintf(stderr, "bench_record self: run with 1 rank\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        printf("RESULT self_msgrate %.1f\n", self_msgrate(mbuf, buf, req));
        MPI_Finalize();
        return 0;
    }
    if (2 != size) {
        if (0 == rank) {
            fprintf(stderr, "bench_record: run with 2 ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int b = 0; b < BLOCKS; ++b) {
        double t0;

        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (int i = 0; i < IDLE_CALLS; ++i) {
            MPI_Iprobe(MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
        idle[b] = (MPI_Wtime() - t0) * 1e9 / IDLE_CALLS;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (int i = 0; i < PP_MESSAGES / 2; ++i) {
            if (0 == rank) {
                MPI_Send(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        pp[b] = (MPI_Wtime() - t0) * 1e9 / PP_MESSAGES;
        /* message rate: each rank posts a window of receives and sends to
         * the other, then waits for all */
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (int w = 0; w < MR_WINDOWS; ++w) {
            for (int i = 0; i < MR_WINDOW; ++i) {
                MPI_Irecv(mbuf[i], 8, MPI_BYTE, 1 - rank, 2, MPI_COMM_WORLD, &req[i]);
            }
            for (int i = 0; i < MR_WINDOW; ++i) {
                MPI_Isend(buf, 8, MPI_BYTE, 1 - rank, 2, MPI_COMM_WORLD, &req[MR_WINDOW + i]);
            }
            MPI_Waitall(2 * MR_WINDOW, req, MPI_STATUSES_IGNORE);
        }
        mr[b] = (MPI_Wtime() - t0) * 1e9 / (MR_WINDOWS * MR_WINDOW);
    }
    if (0 == rank) {
        printf("RESULT idle %.1f\nRESULT pingpong %.1f\nRESULT msgrate %.1f\n",
               median(idle, BLOCKS), median(pp, BLOCKS), median(mr, BLOCKS));
    }
    MPI_Finalize();
    return 0;
}
