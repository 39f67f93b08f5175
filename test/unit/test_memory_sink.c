/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file The memory producer's lock-free sink, on its own (no OPAL init). */

#include "opal_config.h"

#include <criterion/criterion.h>
#include <pthread.h>

#include "opal/mca/memory/patcher/memory_patcher_event.h"

static void empty_sink(void)
{
    opal_memory_patcher_event_sink_reset();
}

TestSuite(memory_sink, .init = empty_sink);

Test(memory_sink, empty_take_is_false_and_zeroes)
{
    opal_memory_patcher_event_batch_t b = {7, 7};

    cr_assert_not(opal_memory_patcher_event_sink_take(&b));
    cr_assert_eq(b.count, 0);
    cr_assert_eq(b.bytes, 0);
}

Test(memory_sink, take_returns_sum_then_resets)
{
    opal_memory_patcher_event_batch_t b;

    opal_memory_patcher_event_sink_add(4096);
    opal_memory_patcher_event_sink_add(1 << 20);
    opal_memory_patcher_event_sink_add(0);
    cr_assert(opal_memory_patcher_event_sink_take(&b));
    cr_assert_eq(b.count, 3);
    cr_assert_eq(b.bytes, 4096 + (1 << 20));
    cr_assert_not(opal_memory_patcher_event_sink_take(&b), "a take resets the sink");
    opal_memory_patcher_event_sink_add(5);
    cr_assert(opal_memory_patcher_event_sink_take(&b));
    cr_assert_eq(b.count, 1);
    cr_assert_eq(b.bytes, 5);
}

Test(memory_sink, reset_discards)
{
    opal_memory_patcher_event_batch_t b;

    opal_memory_patcher_event_sink_add(100);
    opal_memory_patcher_event_sink_reset();
    cr_assert_not(opal_memory_patcher_event_sink_take(&b));
}

Test(memory_sink, large_totals_do_not_truncate)
{
    opal_memory_patcher_event_batch_t b;
    const uint64_t big = UINT64_C(1) << 40;

    for (int i = 0; i < 5; ++i) {
        opal_memory_patcher_event_sink_add(big);
    }
    cr_assert(opal_memory_patcher_event_sink_take(&b));
    cr_assert_eq(b.count, 5);
    cr_assert_eq(b.bytes, 5 * big);
}

#define NTHREADS 4
#define PER_THREAD 10000

static void *adder(void *arg)
{
    uint64_t size = (uint64_t) (uintptr_t) arg;

    for (int i = 0; i < PER_THREAD; ++i) {
        opal_memory_patcher_event_sink_add(size);
    }
    return NULL;
}

Test(memory_sink, threads_totals_exact)
{
    pthread_t t[NTHREADS];
    opal_memory_patcher_event_batch_t b;
    uint64_t want = 0;

    for (int i = 0; i < NTHREADS; ++i) {
        uint64_t size = (uint64_t) (i + 1) * 4096;
        want += size * PER_THREAD;
        cr_assert_eq(pthread_create(&t[i], NULL, adder, (void *) (uintptr_t) size), 0);
    }
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_join(t[i], NULL);
    }
    cr_assert(opal_memory_patcher_event_sink_take(&b));
    cr_assert_eq(b.count, NTHREADS * PER_THREAD);
    cr_assert_eq(b.bytes, want);
}
