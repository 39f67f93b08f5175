/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: the default clock with mca_base_event_clock = tsc stays on
 * CLOCK_MONOTONIC (each read between two clock reads taken around it, up to
 * a tolerance), whatever the first calibration measured, in several threads
 * at once, and never goes back in a thread. Skipped where the TSC is not
 * invariant (the monotonic clock is then the only one). */
#include <pthread.h>
#include <time.h>

#include "opal/mca/base/mca_base_event_test.h"
#include "test_event_common.h"

TestSuite(event_clock, .init = evt_test_setup, .fini = evt_test_teardown);

/* Far above the conversion's error (a few sampling errors, ~100 ns), far
 * below what a calibration a few ppm off drifts by in a second or two. */
#define TOLERANCE_NS 3000

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static mca_base_event_source_t *tsc_source(void)
{
    int rc = mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_TSC);
    if (OPAL_ERR_NOT_SUPPORTED == rc) {
        cr_skip_test("no invariant TSC on this machine");
    }
    cr_assert_eq(rc, OPAL_SUCCESS);
    return evt_test_source("clock.t", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
}

typedef struct {
    mca_base_event_source_t *src;
    int64_t until;
    int64_t worst_early, worst_late; /* ns before a / after b */
    long reads, backwards;
} clock_run_t;

/* Read the clock between two CLOCK_MONOTONIC reads until @p r->until,
 * keeping the worst departures from [a, b]. */
static void *clock_run(void *arg)
{
    clock_run_t *r = arg;
    int64_t last = INT64_MIN;

    for (int64_t a = mono_ns(); a < r->until; a = mono_ns()) {
        int64_t t = (int64_t) mca_base_event_source_now(r->src);
        int64_t b = mono_ns();
        if (a - t > r->worst_early) {
            r->worst_early = a - t;
        }
        if (t - b > r->worst_late) {
            r->worst_late = t - b;
        }
        r->backwards += t < last;
        last = t;
        if (0 == ++r->reads % 64) {
            struct timespec nap = {0, 20000};
            nanosleep(&nap, NULL); /* raises at a real program's pace */
        }
    }
    return NULL;
}

static void expect_on_monotonic(const clock_run_t *r, const char *what)
{
    cr_expect_gt(r->reads, 1000, "%s: %ld reads", what, r->reads);
    cr_expect_leq(r->worst_early, TOLERANCE_NS, "%s: %lld ns before CLOCK_MONOTONIC", what,
                  (long long) r->worst_early);
    cr_expect_leq(r->worst_late, TOLERANCE_NS, "%s: %lld ns after CLOCK_MONOTONIC", what,
                  (long long) r->worst_late);
    cr_expect_eq(r->backwards, 0, "%s: went back %ld times", what, r->backwards);
}

Test(event_clock, tsc_stays_on_monotonic)
{
    clock_run_t r = {.src = tsc_source(), .until = mono_ns() + 3000000000LL};
    clock_run(&r);
    expect_on_monotonic(&r, "3 s");
}

/* A first calibration 200 ppm off (200 us a second) is corrected by the
 * next refreshes: once two have happened, the clock is back within the
 * tolerance and stays there. Without refreshes it drifts 200 us a second. */
Test(event_clock, a_wrong_rate_is_corrected)
{
    mca_base_event_source_t *src = tsc_source();
    uint64_t skewed, gen;

    cr_assert_eq(mca_base_event_test_tsc_skew(200.0, 0, &skewed), OPAL_SUCCESS);
    int64_t give_up = mono_ns() + 10000000000LL;
    do {
        (void) mca_base_event_source_now(src);
        cr_assert_eq(mca_base_event_test_tsc_skew(0.0, 0, &gen), OPAL_SUCCESS);
        cr_assert_lt(mono_ns(), give_up, "the skewed conversion was never refreshed");
    } while (gen < skewed + 2);
    clock_run_t r = {.src = src, .until = mono_ns() + 2500000000LL};
    clock_run(&r);
    expect_on_monotonic(&r, "after the refreshes");
}

/* Four threads read while the conversion is refreshed under them: no torn
 * conversion (a read far off), no thread sees time go back. */
Test(event_clock, threads_read_while_it_is_refreshed)
{
    mca_base_event_source_t *src = tsc_source();
    clock_run_t r[4];
    pthread_t t[4];
    uint64_t gen0, gen1;

    cr_assert_eq(mca_base_event_test_tsc_skew(0.0, 0, &gen0), OPAL_SUCCESS);
    for (int i = 0; i < 4; ++i) {
        r[i] = (clock_run_t){.src = src, .until = mono_ns() + 2500000000LL};
        cr_assert_eq(pthread_create(&t[i], NULL, clock_run, &r[i]), 0);
    }
    for (int i = 0; i < 4; ++i) {
        cr_assert_eq(pthread_join(t[i], NULL), 0);
        expect_on_monotonic(&r[i], "thread");
    }
    cr_assert_eq(mca_base_event_test_tsc_skew(0.0, 0, &gen1), OPAL_SUCCESS);
    cr_expect_geq(gen1 - gen0, 2, "refreshed %llu times in 2.5 s",
                  (unsigned long long) (gen1 - gen0));
}

/* The first rate is not waited for at start: until a read ~10 ms after the
 * first anchor takes it, the clock reads CLOCK_MONOTONIC itself (each read
 * between the two taken around it, exactly); the first read past the
 * interval publishes a conversion (the generation moves on), and the
 * clock stays within the tolerance after it. */
Test(event_clock, first_rate_is_taken_by_a_read)
{
    mca_base_event_source_t *src = tsc_source();
    struct timespec nap = {0, 12000000};
    uint64_t g0, g;
    int64_t a, t, b;

    cr_assert_eq(mca_base_event_test_tsc_skew(0.0, 0, &g0), OPAL_SUCCESS);
    a = mono_ns();
    t = (int64_t) mca_base_event_source_now(src);
    b = mono_ns();
    cr_expect(a <= t && t <= b, "a first read of %lld, outside [%lld, %lld]", (long long) t,
              (long long) a, (long long) b);
    nanosleep(&nap, NULL);
    int64_t give_up = mono_ns() + 2000000000LL;
    do {
        (void) mca_base_event_source_now(src);
        cr_assert_eq(mca_base_event_test_tsc_skew(0.0, 0, &g), OPAL_SUCCESS);
        cr_assert_lt(mono_ns(), give_up, "no conversion after the calibration interval");
    } while (g == g0);
    clock_run_t r = {.src = src, .until = mono_ns() + 500000000LL};
    clock_run(&r);
    expect_on_monotonic(&r, "after the first rate");
}

/* The default (auto): the TSC clock where the TSC is invariant, the
 * monotonic clock elsewhere, without an error either way. */
Test(event_clock, auto_is_tsc_where_invariant)
{
    int in_use = mca_base_event_clock_get();
    int rc = mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_TSC);
    cr_expect_eq(in_use,
                 OPAL_SUCCESS == rc ? MCA_BASE_EVENT_CLOCK_TSC : MCA_BASE_EVENT_CLOCK_MONOTONIC);
    cr_expect_eq(mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_MONOTONIC), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_clock_get(), MCA_BASE_EVENT_CLOCK_MONOTONIC);
    cr_expect_eq(mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_AUTO), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_clock_get(), in_use);
    cr_expect_eq(mca_base_event_clock_set(7), OPAL_ERR_BAD_PARAM);
}
