/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* A plain MPI program for ompi-evt-record's tests, not linked with
 * libompi_evt (the recorder preloads it): a ring of N messages per rank,
 * then, by its arguments,
 *   ok N           MPI_Finalize, exit 0
 *   exit N CODE    MPI_Finalize, rank 0 exits with CODE
 *   abort N RANK   RANK calls MPI_Abort(7) a second after its messages (every
 *                  rank's timer has exported by then); the others wait in a
 *                  barrier and are killed by mpirun
 *   send N         the ring again with MPI_Send and MPI_Recv (N of each), for a
 *                  PMPI tool that wraps MPI_Send
 *   print N        rank 0 writes N numbered lines to stdout (output that is the
 *                  same in every run)
 *   sleep N SECS   every rank sleeps SECS seconds before MPI_Finalize (a job
 *                  still running when a test signals its recorder) */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, n, arg = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: %s ok|exit|abort|send|print|sleep N [CODE|RANK|SECS]\n", argv[0]);
        return 2;
    }
    n = atoi(argv[2]);
    if (argc > 3) {
        arg = atoi(argv[3]);
    }
    if (NULL != getenv("TEST_RECORD_MPI_T_FIRST")) {
        /* a tool's order: the tool interface before MPI (evt starts then) */
        int provided;
        if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)) {
            fprintf(stderr, "%s: MPI_T_init_thread failed\n", argv[0]);
            return 3;
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < n; ++i) {
        int out = i, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, i, &in, 1, MPI_INT,
                     (rank + size - 1) % size, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (0 == strcmp(argv[1], "send")) {
        /* even ranks send first, odd ones receive first: no rank waits on
         * a send that nobody receives */
        for (int i = 0; i < n; ++i) {
            int out = i, in = -1, next = (rank + 1) % size, prev = (rank + size - 1) % size;
            if (0 == rank % 2) {
                MPI_Send(&out, 1, MPI_INT, next, i, MPI_COMM_WORLD);
                MPI_Recv(&in, 1, MPI_INT, prev, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&in, 1, MPI_INT, prev, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&out, 1, MPI_INT, next, i, MPI_COMM_WORLD);
            }
        }
    }
    if (0 == strcmp(argv[1], "print") && 0 == rank) {
        for (int i = 0; i < n; ++i) {
            printf("line %d of %d\n", i + 1, n);
        }
        fflush(stdout);
    }
    if (0 == strcmp(argv[1], "abort")) {
        if (rank == arg) {
            /* a second for every rank's timer to export what it raised */
            sleep(1);
            MPI_Abort(MPI_COMM_WORLD, 7);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (0 == strcmp(argv[1], "sleep")) {
        sleep((unsigned int) arg);
    }
    MPI_Finalize();
    if (0 == strcmp(argv[1], "exit") && 0 == rank) {
        return arg;
    }
    return 0;
}
