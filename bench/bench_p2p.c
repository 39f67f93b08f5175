/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Cost of the p2p producers on the message path, 2 ranks (mpirun -np 2):
 *   pingpong  8-byte ping-pong, one-way latency in ns
 *   msgrate   windows of 64 8-byte Isend (rank 0) / Irecv (rank 1) + Waitall,
 *             an ack per window; messages per second
 * Built twice: bench_p2p (linked with libompi_evt) and bench_p2p_plain (not
 * linked at all, -DEVT_PLAIN). Argument "listen" subscribes a counting
 * callback to both p2p events (through whatever evt component is selected:
 * --mca evt sync / ring). Prints one line per figure:
 *   RESULT <test> <value>
 * run_bench_p2p.sh runs the configurations interleaved, repeatedly, and
 * prints medians and ratios.
 */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PP_ITERS 20000
#define MR_WINDOW 64
#define MR_WINDOWS 4000

static long events = 0;

#ifndef EVT_PLAIN
static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                     void *u)
{
    ++events;
}

static MPI_T_event_registration subscribe(const char *name)
{
    MPI_T_event_registration reg = NULL;
    int index;

    if (MPI_SUCCESS != MPI_T_event_get_index(name, &index)
        || MPI_SUCCESS != MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &reg)
        || MPI_SUCCESS != MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE,
                                                        MPI_INFO_NULL, NULL, on_event)) {
        fprintf(stderr, "cannot subscribe to %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return reg;
}
#endif

int main(int argc, char **argv)
{
    int rank, listen = argc > 1 && 0 == strcmp(argv[1], "listen");
    char buf[8] = {0}, bufs[MR_WINDOW][8];
    MPI_Request rq[MR_WINDOW];
    double t0, t1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifndef EVT_PLAIN
    MPI_T_event_registration r1 = NULL, r2 = NULL;
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    if (listen) {
        r1 = subscribe("ompi.mpi.p2p_send_complete");
        r2 = subscribe("ompi.mpi.p2p_recv_complete");
    }
#else
    if (listen) {
        fprintf(stderr, "the plain binary cannot listen\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#endif

    /* warm up, then ping-pong */
    for (int phase = 0; phase < 2; ++phase) {
        int iters = phase ? PP_ITERS : 1000;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (int i = 0; i < iters; ++i) {
            if (0 == rank) {
                MPI_Send(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (1 == rank) {
                MPI_Recv(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
            }
        }
        t1 = MPI_Wtime();
    }
    if (0 == rank) {
        printf("RESULT pingpong_ns %.1f\n", (t1 - t0) * 1e9 / (2.0 * PP_ITERS));
    }

    for (int phase = 0; phase < 2; ++phase) {
        int windows = phase ? MR_WINDOWS : 200;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (int w = 0; w < windows; ++w) {
            if (0 == rank) {
                for (int i = 0; i < MR_WINDOW; ++i) {
                    MPI_Isend(bufs[i], 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &rq[i]);
                }
                MPI_Waitall(MR_WINDOW, rq, MPI_STATUSES_IGNORE);
                MPI_Recv(buf, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (1 == rank) {
                for (int i = 0; i < MR_WINDOW; ++i) {
                    MPI_Irecv(bufs[i], 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &rq[i]);
                }
                MPI_Waitall(MR_WINDOW, rq, MPI_STATUSES_IGNORE);
                MPI_Send(buf, 0, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
            }
        }
        t1 = MPI_Wtime();
    }
    if (0 == rank) {
        printf("RESULT msgrate_per_s %.0f\n", (double) MR_WINDOWS * MR_WINDOW / (t1 - t0));
        if (listen) {
            /* events seen by rank 0 (sends + acks received), a sanity figure */
            printf("RESULT events %ld\n", events);
        }
    }
#ifndef EVT_PLAIN
    if (NULL != r1) {
        MPI_T_event_handle_free(r1, NULL, NULL);
        MPI_T_event_handle_free(r2, NULL, NULL);
    }
    MPI_T_finalize();
#endif
    MPI_Finalize();
    return 0;
}
