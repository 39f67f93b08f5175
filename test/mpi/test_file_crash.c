/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* mpirun -np 4 --mca evt file: each rank raises numbered events
 * (ompi.test_file_seq {u64 seq, i32 rank, u32 check}) and dies.
 *
 *   test_file_crash SEED MODE...   one MODE per rank (the last repeats):
 *     kill     raise N events, then SIGKILL itself
 *     segv     raise N events, then write through a NULL pointer
 *     abort    raise N events, then MPI_Abort(MPI_COMM_WORLD, 3)
 *     spin     raise forever (killed from outside: mpirun, when another
 *              rank dies, or the test script's kill -9)
 *   N = test_file_crash_n(SEED, rank) (file_check.c computes the same).
 * Nothing is printed after MPI_Init but "rank R: spinning" (the script
 * waits for it before killing): the files speak for the ranks. */
#include "ompi_config.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "opal/mca/base/mca_base_event.h"
#include "test_file_common.h"

int main(int argc, char **argv)
{
    mca_base_event_t *ev = NULL;
    const char *mode;
    unsigned long seed;
    uint64_t n, seq;
    int rank = 0, rc;

    if (argc < 3) {
        fprintf(stderr, "usage: test_file_crash SEED MODE...\n");
        return 1;
    }
    seed = strtoul(argv[1], NULL, 10);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mode = argv[2 + (rank < argc - 2 ? rank : argc - 3)];
    rc = test_file_seq_register(&ev);
    if (0 > rc) {
        fprintf(stderr, "rank %d: cannot register the event (%d)\n", rank, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    n = test_file_crash_n(seed, rank);
    /* every rank's file exists (evt came up in MPI_Init) before any dies */
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == strcmp(mode, "spin")) {
        printf("rank %d: spinning\n", rank);
        fflush(stdout);
        for (seq = 0;; ++seq) {
            test_file_seq_raise(ev, seq, rank);
            if (0 == seq % 4096) {
                usleep(100); /* let the other ranks run on 2 cores */
            }
        }
    }
    for (seq = 0; seq < n; ++seq) {
        test_file_seq_raise(ev, seq, rank);
    }
    if (0 == strcmp(mode, "kill")) {
        (void) raise(SIGKILL);
    } else if (0 == strcmp(mode, "segv")) {
        volatile int *volatile p = NULL;
        *p = 1;
    } else if (0 == strcmp(mode, "abort")) {
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    fprintf(stderr, "rank %d: unknown mode %s\n", rank, mode);
    MPI_Finalize();
    return 1;
}
