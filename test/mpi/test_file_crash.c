/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* mpirun -np 4 --mca evt file: each rank raises numbered events
 * (ompi.test_file_seq {u64 seq, i32 rank, u32 check}) and dies.
 *
 *   test_file_crash SEED PROGRESS_DIR MODE...   one MODE per rank (the
 *                                                last repeats):
 *     kill     raise N events, then SIGKILL itself
 *     segv     raise N events, then write through a NULL pointer
 *     abort    raise N events, then MPI_Abort(MPI_COMM_WORLD, 3)
 *     slowkill raise N events a millisecond apart, then SIGKILL itself:
 *              a rank that mpirun kills before it gets there
 *     spin     raise forever (killed from outside: mpirun, when another
 *              rank dies, or the test script's kill -9)
 *   N = test_file_crash_n(SEED, rank) (file_check.c computes the same).
 * A rank may not reach its own end: when the first rank dies, mpirun kills
 * the others wherever they are. So each rank keeps the count of its
 * completed raises in PROGRESS_DIR/rank.R (test_file_progress_t), a
 * MAP_SHARED mapping like the recorder's: the kernel keeps its pages when
 * the process is killed, and file_check compares each file with what its
 * rank really raised.
 * Nothing is printed after MPI_Init but "rank R: spinning" (the script
 * waits for it before killing): the files speak for the ranks. */
#include "ompi_config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mpi.h>

#include "opal/mca/base/mca_base_event.h"
#include "test_file_common.h"

/* Map PROGRESS_DIR/rank.R, a new file of one test_file_progress_t. */
static test_file_progress_t *progress_map(const char *dir, int rank)
{
    char path[4096];
    void *map;
    int fd;

    (void) snprintf(path, sizeof(path), "%s/rank.%d", dir, rank);
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (0 > fd || 0 != ftruncate(fd, sizeof(test_file_progress_t))) {
        perror(path);
        return NULL;
    }
    map = mmap(NULL, sizeof(test_file_progress_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    (void) close(fd);
    return MAP_FAILED == map ? NULL : map;
}

/* After each completed raise: the count of raises that returned. A store
 * into the mapping, so counting costs the loop nothing measurable. */
static void progress_set(test_file_progress_t *progress, uint64_t raised)
{
    __atomic_store_n(&progress->raised, raised, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
    test_file_progress_t *progress;
    mca_base_event_t *ev = NULL;
    const char *mode;
    unsigned long seed;
    uint64_t n, seq;
    int rank = 0, rc;

    if (argc < 4) {
        fprintf(stderr, "usage: test_file_crash SEED PROGRESS_DIR MODE...\n");
        return 1;
    }
    seed = strtoul(argv[1], NULL, 10);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mode = argv[3 + (rank < argc - 3 ? rank : argc - 4)];
    progress = progress_map(argv[2], rank);
    if (NULL == progress) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
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
            progress_set(progress, seq + 1);
            if (0 == seq % 4096) {
                usleep(100); /* let the other ranks run on 2 cores */
            }
        }
    }
    for (seq = 0; seq < n; ++seq) {
        test_file_seq_raise(ev, seq, rank);
        progress_set(progress, seq + 1);
        if (0 == strcmp(mode, "slowkill")) {
            usleep(1000);
        }
    }
    if (0 == strcmp(mode, "kill") || 0 == strcmp(mode, "slowkill")) {
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
