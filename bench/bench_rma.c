/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Cost of the one-sided producer on the one-sided path (mpirun -np 2, a
 * window of MPI_Win_allocate over the world; osc/sm on one node): ns per
 * call of
 *   put_self     an 8-byte MPI_Put to this rank, in a lock_all epoch
 *   put_peer     the same to the other rank
 *   get_peer     an 8-byte MPI_Get from the other rank
 *   fop_peer     MPI_Fetch_and_op (MPI_SUM, 8 bytes) on the other rank
 *   flush_peer   MPI_Win_flush of the other rank (a synchronisation call)
 *   lock_unlock  MPI_Win_lock (shared) + MPI_Win_unlock of the other rank
 *                (two synchronisation calls)
 * each the best of BLOCKS blocks (the least disturbed) of ITERS calls.
 * Built twice: bench_rma (linked with libompi_evt) and bench_rma_plain (not
 * linked, -DEVT_PLAIN). Argument "listen" subscribes a counting callback
 * to ompi.mpi.rma_op and ompi.mpi.rma_sync (through the evt component
 * selected); the count is checked against the calls made. Prints RESULT
 * <test> <ns>; run_rounds.sh runs the configurations interleaved.
 */

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_mpi.h"

#define ITERS  20000
#define BLOCKS 7

typedef enum { T_PUT_SELF, T_PUT_PEER, T_GET_PEER, T_FOP_PEER, T_FLUSH, T_LOCK_UNLOCK } test_t;

/** Best ns per call over BLOCKS blocks of ITERS calls of @p t; the events
 *  the calls raise are added to *@p raised. */
static double measure(test_t t, MPI_Win win, int me, int peer, long *raised)
{
    double best = 1e30;
    int64_t one = 1, out = 0, in = 0;
    int per_call = T_LOCK_UNLOCK == t ? 2 : 1;

    for (int b = 0; b < BLOCKS; ++b) {
        double t0, t1;
        MPI_Barrier(MPI_COMM_WORLD);
        if (T_LOCK_UNLOCK != t) {
            MPI_Win_lock_all(0, win);
        }
        t0 = bench_mpi_now_ns();
        for (int i = 0; i < ITERS; ++i) {
            switch (t) {
            case T_PUT_SELF:
                MPI_Put(&one, 1, MPI_INT64_T, me, 0, 1, MPI_INT64_T, win);
                break;
            case T_PUT_PEER:
                MPI_Put(&one, 1, MPI_INT64_T, peer, 1, 1, MPI_INT64_T, win);
                break;
            case T_GET_PEER:
                MPI_Get(&in, 1, MPI_INT64_T, peer, 2, 1, MPI_INT64_T, win);
                break;
            case T_FOP_PEER:
                MPI_Fetch_and_op(&one, &out, MPI_INT64_T, peer, 3, MPI_SUM, win);
                break;
            case T_FLUSH:
                MPI_Win_flush(peer, win);
                break;
            case T_LOCK_UNLOCK:
                MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win);
                MPI_Win_unlock(peer, win);
                break;
            }
        }
        t1 = bench_mpi_now_ns();
        if (T_LOCK_UNLOCK != t) {
            MPI_Win_unlock_all(win);
            *raised += 2; /* lock_all, unlock_all */
        }
        *raised += (long) per_call * ITERS;
        if ((t1 - t0) / ITERS < best) {
            best = (t1 - t0) / ITERS;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    int rank, size, provided, listen = argc > 1 && 0 == strcmp(argv[1], "listen");
    long raised = 0;
    const struct {
        const char *name;
        test_t t;
    } tests[] = {{"put_self", T_PUT_SELF}, {"put_peer", T_PUT_PEER},
                 {"get_peer", T_GET_PEER}, {"fop_peer", T_FOP_PEER},
                 {"flush_peer", T_FLUSH},  {"lock_unlock", T_LOCK_UNLOCK}};
    const int ntests = (int) (sizeof(tests) / sizeof(tests[0]));
    double ns[8];
    int64_t *base;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_allocate(8 * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                     &win);
#ifndef EVT_PLAIN
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_event_registration reg_op = listen ? bench_mpi_subscribe("bench_rma", "ompi.mpi.rma_op")
                                             : NULL;
    MPI_T_event_registration reg_sync = listen
                                            ? bench_mpi_subscribe("bench_rma", "ompi.mpi.rma_sync")
                                            : NULL;
#else
    (void) provided;
    if (listen) {
        fprintf(stderr, "bench_rma_plain: built without libompi_evt: nothing to listen to\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#endif
    for (int i = 0; i < ntests; ++i) {
        ns[i] = measure(tests[i].t, win, rank, (rank + 1) % size, &raised);
    }
#ifndef EVT_PLAIN
    if (listen) {
        bench_mpi_flush();
        MPI_T_event_handle_free(reg_op, NULL, NULL);
        MPI_T_event_handle_free(reg_sync, NULL, NULL);
    }
    MPI_T_finalize();
#endif
    if (listen && bench_mpi_events != raised) {
        fprintf(stderr, "bench_rma: rank %d: %ld events, %ld calls\n", rank, bench_mpi_events,
                raised);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (0 == rank) {
        for (int i = 0; i < ntests; ++i) {
            printf("RESULT %s %.1f\n", tests[i].name, ns[i]);
        }
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
