/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Cost of the collective producer on the collective's path (mpirun -np 2):
 * ns per call of
 *   self_barrier, self_allreduce   MPI_Barrier and an 8-byte MPI_Allreduce
 *                                  on MPI_COMM_SELF (coll/self: the call
 *                                  itself costs little, so the wrapper's
 *                                  share shows)
 *   world_barrier, world_allreduce the same on MPI_COMM_WORLD (2 ranks)
 *   world_iallreduce               MPI_Iallreduce + MPI_Wait (the request
 *                                  table's path)
 * each the best of BLOCKS blocks (the least disturbed) of ITERS calls.
 * Built twice: bench_coll (linked with libompi_evt) and bench_coll_plain
 * (not linked, -DEVT_PLAIN). Argument "listen" subscribes a counting
 * callback to ompi.mpi.coll_complete (through the evt component selected);
 * the count is checked against the calls made. Prints RESULT <test> <ns>;
 * run_bench_coll.sh runs the configurations interleaved and summarises.
 */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_mpi.h"

#define ITERS  20000
#define BLOCKS 7

typedef enum { T_BARRIER, T_ALLREDUCE, T_IALLREDUCE } test_t;

/** Best ns per call over BLOCKS blocks of ITERS calls of @p t on @p comm. */
static double measure(test_t t, MPI_Comm comm)
{
    double best = 1e30;
    long in = 1, out = 0;

    for (int b = 0; b < BLOCKS; ++b) {
        double t0, t1;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = bench_mpi_now_ns();
        for (int i = 0; i < ITERS; ++i) {
            MPI_Request rq;
            switch (t) {
            case T_BARRIER:
                MPI_Barrier(comm);
                break;
            case T_ALLREDUCE:
                MPI_Allreduce(&in, &out, 1, MPI_LONG, MPI_SUM, comm);
                break;
            case T_IALLREDUCE:
                MPI_Iallreduce(&in, &out, 1, MPI_LONG, MPI_SUM, comm, &rq);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
                break;
            }
        }
        t1 = bench_mpi_now_ns();
        if ((t1 - t0) / ITERS < best) {
            best = (t1 - t0) / ITERS;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    int rank, provided, listen = argc > 1 && 0 == strcmp(argv[1], "listen");
    long calls;
    const struct {
        const char *name;
        test_t t;
        int world;
    } tests[] = {{"self_barrier", T_BARRIER, 0},
                 {"self_allreduce", T_ALLREDUCE, 0},
                 {"world_barrier", T_BARRIER, 1},
                 {"world_allreduce", T_ALLREDUCE, 1},
                 {"world_iallreduce", T_IALLREDUCE, 1}};
    const int ntests = (int) (sizeof(tests) / sizeof(tests[0]));
    double ns[8];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifndef EVT_PLAIN
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_event_registration reg = listen
                                       ? bench_mpi_subscribe("bench_coll", "ompi.mpi.coll_complete")
                                       : NULL;
#else
    (void) provided;
    if (listen) {
        fprintf(stderr, "bench_coll_plain: built without libompi_evt: nothing to listen to\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#endif
    for (int i = 0; i < ntests; ++i) {
        ns[i] = measure(tests[i].t, tests[i].world ? MPI_COMM_WORLD : MPI_COMM_SELF);
    }
#ifndef EVT_PLAIN
    if (listen) {
        bench_mpi_flush();
        MPI_T_event_handle_free(reg, NULL, NULL);
    }
    MPI_T_finalize();
#endif
    /* every collective call: the measured ones and the barrier before each block */
    calls = (long) ntests * BLOCKS * (ITERS + 1);
    if (listen && bench_mpi_events != calls) {
        fprintf(stderr, "bench_coll: rank %d: %ld events, %ld calls\n", rank, bench_mpi_events,
                calls);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (0 == rank) {
        for (int i = 0; i < ntests; ++i) {
            printf("RESULT %s %.1f\n", tests[i].name, ns[i]);
        }
    }
    MPI_Finalize();
    return 0;
}
