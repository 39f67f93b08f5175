/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Communication patterns whose report is known in advance, for
 * test_report.sh (run under ompi-evt-record; a plain MPI program, no tool
 * code):
 *   ring N     every rank sends N messages of 1 KiB to rank + 1 (mod size)
 *              and receives N from rank - 1: the matrix is a band
 *   gather N   every rank but 0 sends N messages of 2 KiB to rank 0: one
 *              column
 *   late MS    rank 0 posts a receive from rank 1, which sleeps MS
 *              milliseconds before it sends: one late receive from 1 to
 *              0, waiting MS milliseconds
 *   slow N     the ring, one round every 100 ms: a job that lasts N / 10
 *              seconds, for following it while it runs
 *   bigsmall N N rounds of an Isend of 64 KiB and an Isend of 8 bytes from
 *              rank 0 to rank 1 with one tag, then Waitall; rank 1
 *              receives them with two Recvs: the small send completes
 *              first (eager), yet MPI matches the large one with the first
 *              receive
 *   threads N  two threads per rank (MPI_THREAD_MULTIPLE) each doing N
 *              blocking ping-pongs with the partner rank (rank ^ 1), every
 *              third of 64 KiB, on their own tag, while the main thread
 *              runs Allreduces on a duplicate of MPI_COMM_WORLD: a rank's
 *              calls overlap
 *   halo N     N rounds of a halo exchange of 64 KiB: every rank posts its
 *              receives from both neighbours, then sends to both (Irecv,
 *              Irecv, Isend, Isend, Waitall), the pattern whose receives a
 *              timeline must not draw before their sends
 */

#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int rank, size, n;

/* "threads": a thread's ping-pongs with the partner rank on its own tag */
static void *pingpong(void *arg)
{
    int tag = (int) (long) arg, peer = rank ^ 1;
    char *buf = calloc(1, 65536);

    for (int i = 0; NULL != buf && peer < size && i < n; ++i) {
        int len = 0 == i % 3 ? 65536 : 8 * (tag + 1);
        if (rank & 1) {
            MPI_Recv(buf, len, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, len, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
        } else {
            MPI_Send(buf, len, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
            MPI_Recv(buf, len, MPI_BYTE, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    char *buf = calloc(2048, 1);
    int provided;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3 || NULL == buf) {
        if (0 == rank) {
            fprintf(stderr, "usage: report_patterns ring N | gather N | late MS | slow N | "
                            "bigsmall N | threads N | halo N\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    n = atoi(argv[2]);
    if (0 == strcmp(argv[1], "ring")) {
        for (int i = 0; i < n; ++i) {
            MPI_Sendrecv(buf, 1024, MPI_BYTE, (rank + 1) % size, 1, buf + 1024, 1024, MPI_BYTE,
                         (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else if (0 == strcmp(argv[1], "gather")) {
        for (int i = 0; i < n; ++i) {
            if (0 == rank) {
                for (int r = 1; r < size; ++r) {
                    MPI_Recv(buf, 2048, MPI_BYTE, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
            } else {
                MPI_Send(buf, 2048, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
            }
        }
    } else if (0 == strcmp(argv[1], "slow")) {
        struct timespec ts = {0, 100 * 1000 * 1000};
        for (int i = 0; i < n; ++i) {
            MPI_Sendrecv(buf, 64, MPI_BYTE, (rank + 1) % size, 4, buf + 1024, 64, MPI_BYTE,
                         (rank + size - 1) % size, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            nanosleep(&ts, NULL);
        }
    } else if (0 == strcmp(argv[1], "bigsmall")) {
        const int len = 64 * 1024;
        char *big = calloc(1, (size_t) len);
        for (int i = 0; NULL != big && i < n; ++i) {
            if (0 == rank) {
                MPI_Request r[2];
                MPI_Isend(big, len, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &r[0]);
                MPI_Isend(buf, 8, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &r[1]);
                MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
            } else if (1 == rank) {
                MPI_Recv(big, len, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Recv(buf, 8, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
        free(big);
    } else if (0 == strcmp(argv[1], "threads")) {
        pthread_t t[2];
        MPI_Comm dup;
        if (MPI_THREAD_MULTIPLE != provided) {
            fprintf(stderr, "report_patterns: threads: no MPI_THREAD_MULTIPLE (%d)\n", provided);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        for (long i = 0; i < 2; ++i) {
            pthread_create(&t[i], NULL, pingpong, (void *) i);
        }
        for (int i = 0; i < n / 4; ++i) {
            double x = i, y;
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, dup);
        }
        for (int i = 0; i < 2; ++i) {
            pthread_join(t[i], NULL);
        }
        MPI_Comm_free(&dup);
    } else if (0 == strcmp(argv[1], "halo")) {
        /* 64 KiB: past the eager limits, a send completes after the
         * receive has matched it */
        const int len = 64 * 1024;
        int left = (rank + size - 1) % size, right = (rank + 1) % size;
        char *halo = calloc(4, (size_t) len);
        MPI_Request req[4];
        for (int i = 0; NULL != halo && i < n; ++i) {
            MPI_Irecv(halo, len, MPI_BYTE, left, 5, MPI_COMM_WORLD, &req[0]);
            MPI_Irecv(halo + len, len, MPI_BYTE, right, 6, MPI_COMM_WORLD, &req[1]);
            MPI_Isend(halo + 2 * len, len, MPI_BYTE, right, 5, MPI_COMM_WORLD, &req[2]);
            MPI_Isend(halo + 3 * len, len, MPI_BYTE, left, 6, MPI_COMM_WORLD, &req[3]);
            MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        }
        free(halo);
    } else if (0 == strcmp(argv[1], "late")) {
        /* both start from the same moment; rank 1 then sleeps */
        MPI_Barrier(MPI_COMM_WORLD);
        if (0 == rank) {
            MPI_Recv(buf, 8, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (1 == rank) {
            struct timespec ts = {n / 1000, (long) (n % 1000) * 1000000L};
            nanosleep(&ts, NULL);
            MPI_Send(buf, 8, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
        }
    } else {
        if (0 == rank) {
            fprintf(stderr, "report_patterns: unknown pattern %s\n", argv[1]);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
