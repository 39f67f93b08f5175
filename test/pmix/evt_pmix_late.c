/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Ranks that reach MPI_Finalize at different times, linked with
 * libompi_evt so that its p2p producers raise events: every rank exchanges
 * ROUNDS messages with rank 0, then every rank but EARLY sleeps LATE
 * milliseconds before MPI_Finalize. Each rank prints how long its
 * MPI_Finalize took ("rank R: MPI_Finalize took N ms"). For the finalize
 * test (test_pmix_finalize.sh).
 * Usage: evt_pmix_late [-e EARLY] [-l LATE_MS] [-n ROUNDS] */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    int rank, size, early = 0, late_ms = 3000, rounds = 100, opt;
    double t0;

    while (-1 != (opt = getopt(argc, argv, "e:l:n:"))) {
        switch (opt) {
        case 'e':
            early = atoi(optarg);
            break;
        case 'l':
            late_ms = atoi(optarg);
            break;
        case 'n':
            rounds = atoi(optarg);
            break;
        default:
            fprintf(stderr, "usage: %s [-e EARLY] [-l LATE_MS] [-n ROUNDS]\n", argv[0]);
            return 2;
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < rounds; ++i) {
        long v = i;

        if (0 == rank) {
            for (int peer = 1; peer < size; ++peer) {
                MPI_Send(&v, 1, MPI_LONG, peer, i, MPI_COMM_WORLD);
                MPI_Recv(&v, 1, MPI_LONG, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        } else {
            MPI_Recv(&v, 1, MPI_LONG, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&v, 1, MPI_LONG, 0, i, MPI_COMM_WORLD);
        }
    }
    if (rank != early) {
        struct timespec ts = {.tv_sec = late_ms / 1000,
                              .tv_nsec = (long) (late_ms % 1000) * 1000000};
        nanosleep(&ts, NULL);
    }
    t0 = now_ms();
    MPI_Finalize();
    printf("rank %d: MPI_Finalize took %.0f ms\n", rank, now_ms() - t0);
    return 0;
}
