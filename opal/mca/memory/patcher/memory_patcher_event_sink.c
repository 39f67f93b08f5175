/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The lock-free sink of the memory-release producer: striped {count, bytes}
 * counters that the release hook adds to from inside free()/munmap() and a
 * drainer reads and resets with atomic exchanges.
 *
 * Why stripes and not per-thread counters? Per-thread storage needs TLS, and
 * in a dlopened library (libompi_evt under mca_hook_evt.so) the first TLS
 * access of a thread may call malloc: inside free() that re-enters the
 * allocator. Stripes are static, chosen from the caller's stack address (the
 * threads' stacks are megabytes apart), so concurrent threads mostly hit
 * different cache lines; any stripe is correct, the choice only spreads
 * contention.
 *
 * Invariants: the storage is static (never freed: a hook still running after
 * its removal touches valid memory); counters are unsigned and free-running,
 * a drainer swaps them to 0, so totals are exact (a 64-bit byte counter wraps
 * only after 16 EiB between two drains).
 */

#include "opal_config.h"

#include <stdatomic.h>
#include <string.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/memory/patcher/memory_patcher_event.h"

/* SIGNAL context allows only lock-free atomics: a lock-based emulation could
 * deadlock when the hook runs inside a signal handler or inside the
 * allocator that the emulation's lock calls into. */
_Static_assert(2 == ATOMIC_LLONG_LOCK_FREE, "the sink's counters must always be lock-free");
_Static_assert(sizeof(unsigned long long) == sizeof(uint64_t), "the sink counts in 64 bits");
_Static_assert(0 == (OPAL_MEMORY_PATCHER_EVENT_SINK_STRIPES & (OPAL_MEMORY_PATCHER_EVENT_SINK_STRIPES - 1)),
               "stripe count is a power of two");

/** Cache line size on the targets we build for; a constant because the
 *  alignment is a compile-time attribute (opal_cache_line_size is runtime). */
#define SINK_CACHE_LINE 64

typedef struct {
    _Atomic unsigned long long count;
    _Atomic unsigned long long bytes;
} __attribute__((aligned(SINK_CACHE_LINE))) sink_stripe_t;

_Static_assert(sizeof(sink_stripe_t) == SINK_CACHE_LINE, "one stripe per cache line");

static sink_stripe_t sink[OPAL_MEMORY_PATCHER_EVENT_SINK_STRIPES];

/* Context: SIGNAL. The stripe of the calling thread: its stack address at
 * 1 MiB granularity, spread by Fibonacci hashing. */
static inline sink_stripe_t *sink_stripe(void)
{
    uintptr_t sp = (uintptr_t) __builtin_frame_address(0);
    uint64_t h = (uint64_t) (sp >> 20) * UINT64_C(0x9E3779B97F4A7C15);
    return &sink[h >> (64 - 4) & (OPAL_MEMORY_PATCHER_EVENT_SINK_STRIPES - 1)];
}
_Static_assert(16 == OPAL_MEMORY_PATCHER_EVENT_SINK_STRIPES, "sink_stripe() takes 4 hash bits");

/* Context: SIGNAL. */
void opal_memory_patcher_event_sink_add(uint64_t bytes)
{
    sink_stripe_t *s = sink_stripe();

    /* bytes first, relaxed: ordered before the count by the release below. */
    atomic_fetch_add_explicit(&s->bytes, bytes, memory_order_relaxed);
    /* release: a drainer that takes this count (acquire exchange in
     * opal_memory_patcher_event_sink_take()) then also takes these bytes. */
    atomic_fetch_add_explicit(&s->count, 1, memory_order_release);
    /* the kit's progress drains the sinks only when told (one store) */
    mca_base_event_sink_pending();
}

/* Context: ANY, PROGRESS. */
bool opal_memory_patcher_event_sink_take(opal_memory_patcher_event_batch_t *batch)
{
    uint64_t count = 0, bytes = 0;

    for (int i = 0; i < OPAL_MEMORY_PATCHER_EVENT_SINK_STRIPES; ++i) {
        uint64_t c, b;
        /* Cheap test first: an idle stripe is not written (no line bounce). */
        if (0 == atomic_load_explicit(&sink[i].count, memory_order_relaxed)
            && 0 == atomic_load_explicit(&sink[i].bytes, memory_order_relaxed)) {
            continue;
        }
        /* acquire: pairs with the release add in sink_add(); the bytes of
         * every release counted here are visible to the exchange below. */
        c = atomic_exchange_explicit(&sink[i].count, 0, memory_order_acquire);
        b = atomic_exchange_explicit(&sink[i].bytes, 0, memory_order_relaxed);
        if (0 == c && 0 != b) {
            /* Only bytes of releases whose count is not in yet: give them
             * back, so that every batch has count >= 1. */
            atomic_fetch_add_explicit(&sink[i].bytes, b, memory_order_relaxed);
            b = 0;
        }
        count += c;
        bytes += b;
    }
    batch->count = count;
    batch->bytes = bytes;
    return 0 != count;
}

/* Context: ANY. */
void opal_memory_patcher_event_sink_reset(void)
{
    opal_memory_patcher_event_batch_t discard;

    (void) opal_memory_patcher_event_sink_take(&discard);
    /* Bytes given back above belong to releases still in flight: drop them too. */
    for (int i = 0; i < OPAL_MEMORY_PATCHER_EVENT_SINK_STRIPES; ++i) {
        (void) atomic_exchange_explicit(&sink[i].bytes, 0, memory_order_relaxed);
    }
}
