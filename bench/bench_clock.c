/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* The default clock with mca_base_event_clock = tsc, across processes:
 * each process converts the invariant TSC to CLOCK_MONOTONIC nanoseconds on
 * its own, so two processes of one host may convert the same instant to
 * different nanoseconds. Events of two ranks of one node are then apart by
 * that much, which the listener cannot correct (the TSC clock is per
 * process: it does not share one clock pair per host as it does for
 * CLOCK_MONOTONIC). This measures it: BENCH_PROCS processes (default 4) at
 * once each start the clock, then read it every ~50 us for 10 s (as a
 * process that raises would) and, at 0.1, 1, 3 and 10 s, read it and
 * CLOCK_MONOTONIC together (the tightest of 16 tries). Printed per
 * process: TSC clock minus CLOCK_MONOTONIC at each time and the farthest
 * any of its reads fell outside the two CLOCK_MONOTONIC reads around it;
 * and the spread between processes at each time (what a receive could be
 * drawn before its send by on one node). Not in make check; a figure for
 * the choice of the default clock. */

#include "opal_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

#define NPOINTS 4
static const double points_s[NPOINTS] = {0.1, 1, 3, 10};

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* TSC clock minus CLOCK_MONOTONIC, read together (the tightest of 16). */
static int64_t tsc_minus_mono(mca_base_event_source_t *src)
{
    int64_t best = INT64_MAX, diff = 0;
    for (int i = 0; i < 16; ++i) {
        int64_t a = mono_ns();
        int64_t t = (int64_t) mca_base_event_source_now(src);
        int64_t b = mono_ns();
        if (b - a < best) {
            best = b - a;
            diff = t - (a + (b - a) / 2);
        }
    }
    return diff;
}

static void child(int fd, int64_t start)
{
    mca_base_event_source_t *src = NULL;
    int64_t out[NPOINTS + 1] = {0};
    int si;

    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        _exit(2);
    }
    if (OPAL_SUCCESS != mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_TSC)) {
        fprintf(stderr,
                "bench_clock: no invariant TSC here: the monotonic clock is the only one\n");
        _exit(3);
    }
    si = mca_base_event_source_register("bench.clock", "bench_clock", MCA_BASE_EVENT_SOURCE_ORDERED,
                                        1000000000, INT64_MAX, NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        _exit(2);
    }
    for (int p = 0; p < NPOINTS; ++p) {
        int64_t at = start + (int64_t) (points_s[p] * 1e9);
        for (int64_t a = mono_ns(); a < at; a = mono_ns()) {
            int64_t t = (int64_t) mca_base_event_source_now(src);
            int64_t b = mono_ns();
            int64_t off = a - t > t - b ? a - t : t - b;
            if (off > out[NPOINTS]) {
                out[NPOINTS] = off;
            }
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
        out[p] = tsc_minus_mono(src);
    }
    if (sizeof(out) != write(fd, out, sizeof(out))) {
        _exit(2);
    }
    _exit(0);
}

int main(void)
{
    int n = getenv("BENCH_PROCS") ? atoi(getenv("BENCH_PROCS")) : 4;
    int64_t res[64][NPOINTS + 1];
    int fd[64];
    int64_t start = mono_ns() + 200000000; /* all calibrated by then */

    if (n < 2 || n > 64) {
        fprintf(stderr, "bench_clock: BENCH_PROCS must be 2..64\n");
        return 2;
    }
    for (int i = 0; i < n; ++i) {
        int fds[2];
        if (0 != pipe(fds)) {
            return 2;
        }
        if (0 == fork()) {
            close(fds[0]);
            child(fds[1], start);
        }
        close(fds[1]);
        fd[i] = fds[0];
    }
    for (int i = 0; i < n; ++i) {
        if (sizeof(res[i]) != read(fd[i], res[i], sizeof(res[i]))) {
            int st = 0;
            wait(&st);
            return WIFEXITED(st) && 3 == WEXITSTATUS(st) ? 0 : 1;
        }
        close(fd[i]);
    }
    while (wait(NULL) > 0) {
    }
    printf("bench_clock: %d processes at once, each its own TSC conversion; TSC clock - "
           "CLOCK_MONOTONIC in ns\n%-10s",
           n, "process");
    for (int p = 0; p < NPOINTS; ++p) {
        printf(" %10.1fs", points_s[p]);
    }
    printf(" %12s\n", "farthest out");
    int64_t farthest = 0;
    for (int i = 0; i < n; ++i) {
        printf("%-10d", i);
        for (int p = 0; p < NPOINTS; ++p) {
            printf(" %11lld", (long long) res[i][p]);
        }
        printf(" %12lld\n", (long long) res[i][NPOINTS]);
        farthest = res[i][NPOINTS] > farthest ? res[i][NPOINTS] : farthest;
    }
    printf("%-10s", "spread");
    int64_t spread = 0;
    for (int p = 0; p < NPOINTS; ++p) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (int i = 0; i < n; ++i) {
            lo = res[i][p] < lo ? res[i][p] : lo;
            hi = res[i][p] > hi ? res[i][p] : hi;
        }
        spread = hi - lo;
        printf(" %11lld", (long long) spread);
    }
    printf("\nRESULT tsc_spread_10s_ns %lld\nRESULT tsc_farthest_out_ns %lld\n", (long long) spread,
           (long long) farthest);
    return 0;
}
