/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Ping-pong between the two halves of MPI_COMM_WORLD (rank r with rank
 * r + size/2: on the two-node setup, across the nodes), linked with
 * libompi_evt so that its p2p producers raise a send and a receive
 * completion per message. For the clock alignment test
 * (test_pmix_clock.sh).
 * Usage: evt_pmix_pingpong [-n ROUNDS] [-s MICROSECONDS between rounds] */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, half, peer, rounds = 200, pause_us = 200, opt;

    while (-1 != (opt = getopt(argc, argv, "n:s:"))) {
        switch (opt) {
        case 'n':
            rounds = atoi(optarg);
            break;
        case 's':
            pause_us = atoi(optarg);
            break;
        default:
            fprintf(stderr, "usage: %s [-n ROUNDS] [-s MICROSECONDS]\n", argv[0]);
            return 2;
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    half = size / 2;
    if (size % 2 != 0) {
        if (0 == rank) {
            fprintf(stderr, "evt_pmix_pingpong: needs an even number of ranks\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = rank < half ? rank + half : rank - half;
    for (int i = 0; i < rounds; ++i) {
        long v = i;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = (long) pause_us * 1000};

        if (rank < half) {
            MPI_Send(&v, 1, MPI_LONG, peer, i, MPI_COMM_WORLD);
            MPI_Recv(&v, 1, MPI_LONG, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&v, 1, MPI_LONG, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&v, 1, MPI_LONG, peer, i, MPI_COMM_WORLD);
        }
        if (0 < pause_us) {
            (void) nanosleep(&ts, NULL);
        }
    }
    printf("rank %d: %d round trips with rank %d\n", rank, rounds, peer);
    MPI_Finalize();
    return 0;
}
