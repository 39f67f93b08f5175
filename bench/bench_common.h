/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What the benchmarks share: the clock they time with, medians and
 * quantiles of batch figures, and the timed loops measured in several of
 * them (raises of one event, reads of its source's clock: the reference
 * the raise costs are compared to). Static inline: each loop is compiled
 * in the benchmark itself, with its flags. Benchmarks only (make bench).
 */

#ifndef EVT_BENCH_COMMON_H
#define EVT_BENCH_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "opal/mca/base/mca_base_event.h"

/** Keeps the compiler from merging or dropping loop iterations. */
#define BENCH_CLOBBER() __asm__ volatile("" ::: "memory")

/** CLOCK_MONOTONIC in ns. */
static inline double bench_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;

    return x < y ? -1 : x > y;
}

/** The median of the @p n values @p v (sorted in place; the upper one of
 *  the two middle values for an even @p n). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(double), bench_cmp_double);
    return v[n / 2];
}

/** Quantile @p f (0..1) of the @p n values @p v (sorted in place),
 *  interpolated between the two nearest values. */
static inline double bench_quantile(double *v, int n, double f)
{
    double x = f * (n - 1);
    int i = (int) x;

    qsort(v, (size_t) n, sizeof(double), bench_cmp_double);
    return i + 1 < n ? v[i] + (x - i) * (v[i + 1] - v[i]) : v[n - 1];
}

/** A callback that does nothing (what a raise costs without its user). */
static inline void bench_noop_cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
                                 mca_base_event_cb_safety_t s, void *ud)
{
    (void) i;
    (void) r;
    (void) s;
    (void) ud;
    BENCH_CLOBBER();
}

/** ns per raise of @p n raises of @p ev with @p payload, whose first
 *  field, a uint64_t sequence number, counts from @p base. */
static inline double bench_raise_batch(mca_base_event_t *ev, void *payload, uint64_t base, int n)
{
    uint64_t *seq = payload;
    double t0 = bench_now_ns();

    for (int i = 0; i < n; ++i) {
        *seq = base + (uint64_t) i;
        (void) mca_base_event_raise(ev, NULL, payload);
        BENCH_CLOBBER();
    }
    return (bench_now_ns() - t0) / n;
}

/** Where bench_clock_batch() stores what it reads (so it is read). */
static volatile opal_count_t bench_clock_sink;

/** ns per read of @p n reads of @p src's clock (the producer's
 *  source->get_timestamp). */
static inline double bench_clock_batch(mca_base_event_source_t *src, int n)
{
    double t0 = bench_now_ns();

    for (int i = 0; i < n; ++i) {
        bench_clock_sink = src->get_timestamp(src->ctx);
    }
    return (bench_now_ns() - t0) / n;
}

#endif /* EVT_BENCH_COMMON_H */
