/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * The producer of the evt/pmix tests: an MPI program (linked with
 * libompi_evt) that raises numbered events, plus built-in ones, and says
 * exactly what it raised, so that a checker can account for every event
 * that reached a node file or a listener.
 *
 * usage: evt_pmix_producer [-n N] [-c K] [-r RATE] [-k RANK:AFTER] [-l] [-s SECONDS]
 *                          [-b RANK] [-w MS] [-p TAG]
 *   -n N           numbered events per rank (default 10000): "ompi.evt_pmix_test_numbered"
 *                  {rank:u32@0, tag:u32@4, seq:u64@8}, seq 0..N-1, on source
 *                  "ompi.evt_pmix_test" (ordered)
 *   -c K           K MPI_Comm_dup/MPI_Comm_free pairs (K communicator_created and K
 *                  communicator_freed events)
 *   -r RATE        at most RATE raises per second per rank (0: as fast as possible)
 *   -k RANK:AFTER  rank RANK kills itself (SIGKILL) after AFTER numbered raises, once
 *                  they had time to leave (it waits -w MS first)
 *   -w MS          wait before the kill (default 200)
 *   -l             also listen locally (an MPI_T handle on the numbered event): the
 *                  rank checks delivered + dropped == raised
 *   -s SECONDS     sleep this long before MPI_Finalize (a listener may disappear meanwhile)
 *   -b RANK        only this rank raises numbered events
 *   -p TAG         the tag element (default 7)
 *   -o DIR         write DIR/producer.RANK.pid (a test waits for the ranks by pid)
 *   -F             rank 1 first sends batches in the name of rank 0 and of another
 *                  namespace (evt_pmix_forge.c), then produces as every rank does
 * Each rank prints "producer rank R of S on HOST: raised N numbered (refused at the raise
 * D), K comm pairs" and, with -l, "local rank R: delivered X dropped Y raised N".
 * Exit status 0 unless something failed locally.
 */

#include "ompi_config.h"

#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_event.h"

#include "evt_pmix_forge.h"

typedef struct {
    uint32_t rank;
    uint32_t tag;
    uint64_t seq;
} numbered_t;

static mca_base_event_t *numbered;
static long delivered, dropped;

static void register_numbered(void)
{
    const mca_base_var_type_t types[3] = {MCA_BASE_VAR_TYPE_UINT32_T, MCA_BASE_VAR_TYPE_UINT32_T,
                                          MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[3] = {0, 4, 8};
    mca_base_event_source_t *src = NULL;
    int si;

    si = mca_base_event_source_register("ompi.evt_pmix_test", "evt/pmix test producer",
                                        MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, OPAL_COUNT_MAX,
                                        NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)
        || 0 > mca_base_event_register_ptr("ompi", "evt_pmix_test", NULL, "numbered",
                                           "a numbered test event", OPAL_INFO_LVL_4, 3, types,
                                           offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL,
                                           &numbered)) {
        fprintf(stderr, "producer: cannot register the numbered event\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void on_event(MPI_T_event_instance instance, MPI_T_event_registration reg,
                     MPI_T_cb_safety cb_safety, void *user_data)
{
    ++delivered;
}

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source_index,
                       MPI_T_cb_safety cb_safety, void *user_data)
{
    dropped += (long) count;
}

static void pace(double rate, long i, double t0)
{
    struct timespec ts;
    double target, now;

    if (0 >= rate) {
        return;
    }
    target = t0 + (double) i / rate;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    now = (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
    if (target > now) {
        ts.tv_sec = (time_t) (target - now);
        ts.tv_nsec = (long) ((target - now - (double) ts.tv_sec) * 1e9);
        nanosleep(&ts, NULL);
    }
}

int main(int argc, char **argv)
{
    long n = 10000, pairs = 0, refused = 0, kill_after = -1;
    int kill_rank = -1, only = -1, opt, rank, size, local = 0, sleep_s = 0, wait_ms = 200;
    int forge = 0;
    unsigned tag = 7;
    double rate = 0, t0;
    const char *piddir = NULL;
    MPI_T_event_registration reg = NULL;
    char host[MPI_MAX_PROCESSOR_NAME];
    struct timespec ts;
    int provided, len;

    while (-1 != (opt = getopt(argc, argv, "n:c:r:k:w:ls:b:p:o:F"))) {
        switch (opt) {
        case 'n':
            n = atol(optarg);
            break;
        case 'c':
            pairs = atol(optarg);
            break;
        case 'r':
            rate = atof(optarg);
            break;
        case 'k':
            if (2 != sscanf(optarg, "%d:%ld", &kill_rank, &kill_after)) {
                return 2;
            }
            break;
        case 'w':
            wait_ms = atoi(optarg);
            break;
        case 'l':
            local = 1;
            break;
        case 's':
            sleep_s = atoi(optarg);
            break;
        case 'b':
            only = atoi(optarg);
            break;
        case 'p':
            tag = (unsigned) atoi(optarg);
            break;
        case 'o':
            piddir = optarg;
            break;
        case 'F':
            forge = 1;
            break;
        default:
            return 2;
        }
    }
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    if (NULL != piddir) {
        char path[4096];
        FILE *f;
        snprintf(path, sizeof(path), "%s/producer.%d.pid", piddir, rank);
        if (NULL != (f = fopen(path, "w"))) {
            fprintf(f, "%d\n", (int) getpid());
            fclose(f);
        }
    }
    register_numbered();
    if (0 <= only && rank != only) {
        n = 0;
    }
    if (local) {
        int idx;
        if (MPI_SUCCESS != MPI_T_event_get_index(numbered->name, &idx)
            || MPI_SUCCESS != MPI_T_event_handle_alloc(idx, NULL, MPI_INFO_NULL, &reg)
            || MPI_SUCCESS
                   != MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                                    MPI_INFO_NULL, NULL, on_event)
            || MPI_SUCCESS != MPI_T_event_set_dropped_handler(reg, on_dropped)) {
            fprintf(stderr, "producer rank %d: cannot listen locally\n", rank);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (forge && 1 == rank) {
        if (0 != evt_pmix_forge(numbered, tag)) {
            fprintf(stderr, "producer rank %d: cannot send the forged batches\n", rank);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        fprintf(stdout, "producer rank 1: sent 3 forged batches\n");
        fflush(stdout);
        /* let them reach the sink before rank 0's own first batch */
        usleep(300 * 1000);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    clock_gettime(CLOCK_MONOTONIC, &ts);
    t0 = (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
    for (long i = 0; i < n; ++i) {
        numbered_t p = {.rank = (uint32_t) rank, .tag = tag, .seq = (uint64_t) i};

        if (OPAL_SUCCESS != mca_base_event_raise(numbered, NULL, &p)) {
            ++refused;
        }
        pace(rate, i + 1, t0);
        if (rank == kill_rank && i + 1 == kill_after) {
            fprintf(stdout,
                    "producer rank %d of %d on %s: raised %ld numbered (refused at the "
                    "raise %ld), killing itself\n",
                    rank, size, host, i + 1, refused);
            fflush(stdout);
            /* let the batches leave (the timer drains and sends) */
            usleep((useconds_t) wait_ms * 1000);
            raise(SIGKILL);
        }
        if (0 == (i & 1023)) {
            /* a point where MPI progresses, as in an application */
            int flag;
            MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
    }
    for (long i = 0; i < pairs; ++i) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_SELF, &dup);
        MPI_Comm_free(&dup);
    }
    fprintf(stdout,
            "producer rank %d of %d on %s: raised %ld numbered (refused at the raise "
            "%ld), %ld comm pairs\n",
            rank, size, host, n, refused, pairs);
    fflush(stdout);
    if (0 < sleep_s) {
        sleep((unsigned) sleep_s);
    }
    if (kill_rank < 0) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (local) {
        /* the session's end delivers what is pending, reports the drops,
         * then frees the registration */
        MPI_T_finalize();
        fprintf(stdout, "local rank %d: delivered %ld dropped %ld raised %ld%s\n", rank, delivered,
                dropped, n, delivered + dropped == n ? "" : " MISMATCH");
        fflush(stdout);
    } else {
        MPI_T_finalize();
    }
    MPI_Finalize();
    return local && delivered + dropped != n ? 1 : 0;
}
