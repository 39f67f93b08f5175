/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * evt/ring benchmark (make bench; never in make check). ns per operation,
 * medians over batches, 16-byte payload, one registration with a no-op
 * callback:
 *   empty loop | raise with no listener (the "empty call") | source clock read |
 *   sync (inline dispatch at the raise) | ring enqueue from 1 thread |
 *   ring enqueue from 2 threads at once (per thread) | drain throughput.
 * Batches fit in the ring (no drop); the drain between batches is not timed.
 * The clock and the ring rows are run twice: mca_base_event_clock = monotonic
 * (the default) and = tsc (when the TSC is invariant).
 * Goals: enqueue <= clock + 6 ns; 2 threads each >= 90% of the
 * one-thread rate; drain >= 20 million records/s.
 */
#include "ompi_config.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "../test/unit/test_ring_common.h"
#include "bench_common.h"
#include "opal/mca/base/mca_base_event_delivery.h"

#define BATCH      16384 /* records per timed batch: 16384 x 56 B = 896 KiB */
#define BATCHES    41
#define RING_BYTES (4 * 1024 * 1024)

static mca_base_event_t *ev;

static double batch_raise(void)
{
    ring_test_payload_t p = {1, 2};

    return bench_raise_batch(ev, &p, 0, BATCH);
}

static double batch_empty(void)
{
    double t0 = bench_now_ns();
    for (int i = 0; i < BATCH; ++i) {
        BENCH_CLOBBER();
    }
    return (bench_now_ns() - t0) / BATCH;
}

static double batch_clock(void)
{
    return bench_clock_batch(ev->source, BATCH);
}

/* ---- two producer threads, in lock step with the drainer ---- */
static pthread_barrier_t bar;
static double two_t[2][BATCHES];
static void *two_worker(void *arg)
{
    int me = (int) (uintptr_t) arg;
    for (int b = 0; b < BATCHES; ++b) {
        pthread_barrier_wait(&bar); /* start together */
        two_t[me][b] = batch_raise();
        pthread_barrier_wait(&bar); /* main drains now */
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

/* ring from 1 thread, then from 2 threads at once (per-thread medians) */
static void ring_runs(double *ring1, double *ring2a, double *ring2b)
{
    double v[BATCHES];
    pthread_t t[2];

    for (int b = 0; b < BATCHES; ++b) {
        v[b] = batch_raise();
        (void) mca_base_event_flush();
    }
    *ring1 = bench_median(v, BATCHES);

    pthread_barrier_init(&bar, NULL, 3);
    for (uintptr_t i = 0; i < 2; ++i) {
        pthread_create(&t[i], NULL, two_worker, (void *) i);
    }
    for (int b = 0; b < BATCHES; ++b) {
        pthread_barrier_wait(&bar);
        pthread_barrier_wait(&bar);
        (void) mca_base_event_flush();
        pthread_barrier_wait(&bar);
    }
    for (int i = 0; i < 2; ++i) {
        pthread_join(t[i], NULL);
    }
    pthread_barrier_destroy(&bar);
    *ring2a = bench_median(two_t[0], BATCHES);
    *ring2b = bench_median(two_t[1], BATCHES);
}

int main(void)
{
    mca_base_event_registration_t *h = NULL;
    double v[BATCHES], empty, noraise, clk, syncd, ring1, ring2a, ring2b, drain_rate;
    double tclk = 0, tring1 = 0, tring2a = 0, tring2b = 0;
    bool have_tsc = false;
    ompi_evt_kit_test_stats_t st;

    if (0 != ring_test_start(RING_BYTES, 8, OMPI_EVT_OVERFLOW_DROP_NEW)) {
        fprintf(stderr, "bench_ring: cannot start the ring component\n");
        return 1;
    }
    ev = ring_test_event("bench", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    if (NULL == ev) {
        return 1;
    }
    for (int b = 0; b < BATCHES; ++b) {
        v[b] = batch_empty();
    }
    empty = bench_median(v, BATCHES);
    for (int b = 0; b < BATCHES; ++b) {
        v[b] = batch_raise(); /* nobody listens */
    }
    noraise = bench_median(v, BATCHES);
    for (int b = 0; b < BATCHES; ++b) {
        v[b] = batch_clock();
    }
    clk = bench_median(v, BATCHES);

    if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &h)
        || OPAL_SUCCESS
               != mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                   bench_noop_cb)) {
        return 1;
    }

    /* sync: the engine dispatches inline when no delivery is installed */
    (void) mca_base_event_delivery_set(NULL);
    for (int b = 0; b < BATCHES; ++b) {
        v[b] = batch_raise();
    }
    syncd = bench_median(v, BATCHES);
    (void) mca_base_event_delivery_set(ompi_evt_base_test_delivery());

    ring_runs(&ring1, &ring2a, &ring2b);
    if (OPAL_SUCCESS == mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_TSC)) {
        have_tsc = true;
        for (int b = 0; b < BATCHES; ++b) {
            v[b] = batch_clock();
        }
        tclk = bench_median(v, BATCHES);
        ring_runs(&tring1, &tring2a, &tring2b);
        (void) mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_MONOTONIC);
    }

    /* drain throughput: 65536 records (3.5 MiB) into this thread's 4 MiB ring, time
     * the flush to the no-op callback */
    for (int b = 0; b < BATCHES; ++b) {
        for (int k = 0; k < RING_BYTES / 64 / BATCH; ++k) {
            (void) batch_raise();
        }
        double t0 = bench_now_ns();
        (void) mca_base_event_flush();
        v[b] = (bench_now_ns() - t0) / (RING_BYTES / 64);
    }
    drain_rate = 1e3 / bench_median(v, BATCHES); /* million records/s */

    ompi_evt_base_kit_test_stats(&st);
    printf("bench_ring: 16-byte payload, one registration (no-op callback), medians of %d "
           "batches of %d\n",
           BATCHES, BATCH);
    printf("  empty loop iteration            %7.2f ns\n", empty);
    printf("  raise, no listener (empty call) %7.2f ns\n", noraise);
    printf("  source clock read (default)     %7.2f ns\n", clk);
    printf("  sync: inline dispatch           %7.2f ns\n", syncd);
    printf("  ring enqueue, 1 thread          %7.2f ns  (clock + %.2f ns; goal <= clock + 6)\n",
           ring1, ring1 - clk);
    printf("  ring enqueue, 2 threads         %7.2f / %.2f ns per raise  (rate %.0f%% / %.0f%% "
           "of 1 thread; goal >= 90%%)\n",
           ring2a, ring2b, 100.0 * ring1 / ring2a, 100.0 * ring1 / ring2b);
    if (have_tsc) {
        printf("  mca_base_event_clock = tsc:\n");
        printf("  source clock read (tsc)         %7.2f ns\n", tclk);
        printf("  ring enqueue, 1 thread          %7.2f ns  (clock + %.2f ns; goal <= clock + 6)\n",
               tring1, tring1 - tclk);
        printf("  ring enqueue, 2 threads         %7.2f / %.2f ns per raise  (rate %.0f%% / %.0f%% "
               "of 1 thread; goal >= 90%%)\n",
               tring2a, tring2b, 100.0 * tring1 / tring2a, 100.0 * tring1 / tring2b);
    } else {
        printf("  mca_base_event_clock = tsc: not available (TSC not invariant)\n");
    }
    printf("  drain to no-op callback         %7.2f ns per record = %.1f million/s (goal >= 20)\n",
           1e3 / drain_rate, drain_rate);
    printf("  dropped during the run          %lu (expect 0)\n", st.dropped_full + st.dropped_pool);
    (void) mca_base_event_handle_free(h, NULL, NULL);
    ring_test_stop();
    return 0;
}
