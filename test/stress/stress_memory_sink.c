/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 * The memory producer's sink under concurrency (also under TSan): 4 threads
 * add known sizes while a drainer takes batches at the same time. Every
 * batch has count >= 1, and the sums over all batches are exact.
 */

#include "opal_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "opal/mca/memory/patcher/memory_patcher_event.h"
#include "test/evt_test_check.h"

#define NTHREADS   4
#define PER_THREAD 200000

static atomic_int running;
static void *adder(void *arg)
{
    uint64_t size = (uint64_t) (uintptr_t) arg;

    for (int i = 0; i < PER_THREAD; ++i) {
        opal_memory_patcher_event_sink_add(size);
    }
    atomic_fetch_sub(&running, 1);
    return NULL;
}

int main(void)
{
    pthread_t t[NTHREADS];
    opal_memory_patcher_event_batch_t b;
    uint64_t want_bytes = 0, got_count = 0, got_bytes = 0, batches = 0, empty_count_batches = 0;

    atomic_store(&running, NTHREADS);
    for (int i = 0; i < NTHREADS; ++i) {
        uint64_t size = (uint64_t) (i + 1) * 1048576 + (uint64_t) i;
        want_bytes += size * PER_THREAD;
        pthread_create(&t[i], NULL, adder, (void *) (uintptr_t) size);
    }
    while (atomic_load(&running) > 0) {
        if (opal_memory_patcher_event_sink_take(&b)) {
            ++batches;
            got_count += b.count;
            got_bytes += b.bytes;
            if (0 == b.count) {
                ++empty_count_batches;
            }
        }
    }
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_join(t[i], NULL);
    }
    while (opal_memory_patcher_event_sink_take(&b)) {
        ++batches;
        got_count += b.count;
        got_bytes += b.bytes;
    }
    CHECK(0 == empty_count_batches, "every batch has count >= 1");
    CHECK(got_count == (uint64_t) NTHREADS * PER_THREAD, "count total exact");
    CHECK(got_bytes == want_bytes, "bytes total exact");
    CHECK(!opal_memory_patcher_event_sink_take(&b), "empty afterwards");
    printf("%llu batches\n", (unsigned long long) batches);
    return evt_test_report(NULL);
}
