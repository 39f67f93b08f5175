/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * The ORDERED clamp across threads (plain C, runs under TSan).
 * One thread dispatches alone first (the clamp owner: plain stores), then
 * RAISERS more threads start raising while it goes on, which ends single-
 * dispatcher mode in the middle of its raises. Each thread raises from its
 * own clock, increasing, interleaved with the others' (thread t at step i:
 * STRIDE * i + t). With inline delivery every raise is dispatched at once:
 *   - every raise is delivered (delivered == raised);
 *   - a thread never sees its own instances' timestamps decrease, and none
 *     is below its raw value (the payload): the clamp only raises them;
 *   - the last raise, from a clock far behind, is dispatched at or above
 *     every raw timestamp dispatched before it (the owner's plain stores
 *     were seen by the atomic max that replaced them).
 */
#include "opal_config.h"

#include <pthread.h>
#include <stdio.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

#define RAISERS 3
#define RAISES 100000
#define STRIDE (RAISERS + 1)

static __thread opal_count_t now;
static __thread opal_count_t last_seen;
static __thread long seen, bad;
static mca_base_event_t *ev;
static pthread_barrier_t start;
static atomic_long delivered, errors;
static _Atomic opal_count_t max_raw;

static opal_count_t thread_clock(void *ctx)
{
    return now;
}

static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
               mca_base_event_cb_safety_t s, void *ud)
{
    opal_count_t ts, raw;

    (void) mca_base_event_get_timestamp(inst, &ts);
    (void) mca_base_event_read(inst, 0, &raw);
    if (ts < raw || ts < last_seen) {
        ++bad;
    }
    last_seen = ts;
    ++seen;
}

static void raise_at(opal_count_t t)
{
    opal_count_t m = atomic_load(&max_raw);

    now = t;
    while (t > m && !atomic_compare_exchange_weak(&max_raw, &m, t)) {
    }
    (void) mca_base_event_raise(ev, NULL, &t);
}

static void *raiser(void *arg)
{
    intptr_t t = (intptr_t) arg;

    pthread_barrier_wait(&start);
    for (opal_count_t i = 0; i < RAISES; ++i) {
        raise_at(STRIDE * (1000 + i) + t);
    }
    atomic_fetch_add(&delivered, seen);
    atomic_fetch_add(&errors, bad);
    return NULL;
}

int main(void)
{
    const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_INT64_T};
    const ptrdiff_t offsets[1] = {0};
    mca_base_event_source_t *src;
    mca_base_event_registration_t *h;
    pthread_t th[RAISERS];
    int passed = 0, failed = 0, si, ei;
    opal_count_t last_raw, final_ts;

    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        return 2;
    }
    si = mca_base_event_source_register("stress.clamp", "", MCA_BASE_EVENT_SOURCE_ORDERED,
                                        1000000000, OPAL_COUNT_MAX, thread_clock, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        return 2;
    }
    ei = mca_base_event_register_ptr("ompi", "stress", NULL, "clamp", "", OPAL_INFO_LVL_4, 1,
                                     types, offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, src,
                                     NULL, &ev);
    if (0 > ei || OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &h)
        || OPAL_SUCCESS != mca_base_event_register_callback(h, 0, NULL, NULL, cb)) {
        return 2;
    }
    pthread_barrier_init(&start, NULL, RAISERS + 1);
    /* this thread owns the clamp: it dispatches alone first */
    for (opal_count_t i = 0; i < 1000; ++i) {
        raise_at(STRIDE * i + RAISERS);
    }
    for (intptr_t t = 0; t < RAISERS; ++t) {
        pthread_create(&th[t], NULL, raiser, (void *) t);
    }
    /* and goes on while the others start */
    pthread_barrier_wait(&start);
    for (opal_count_t i = 0; i < RAISES; ++i) {
        raise_at(STRIDE * (1000 + i) + RAISERS);
    }
    for (int t = 0; t < RAISERS; ++t) {
        pthread_join(th[t], NULL);
    }
    atomic_fetch_add(&delivered, seen);
    atomic_fetch_add(&errors, bad);
    last_raw = atomic_load(&max_raw);
    /* a clock far behind every other: clamped to at least the highest */
    now = 1;
    {
        opal_count_t one = 1;
        (void) mca_base_event_raise(ev, NULL, &one);
    }
    final_ts = last_seen;

    long want = (long) (RAISERS + 1) * RAISES + 1000 + 1;
    long got = atomic_load(&delivered) + 1; /* the final raise */
    if (got == want) {
        ++passed;
    } else {
        ++failed;
        fprintf(stderr, "delivered %ld of %ld raises\n", got, want);
    }
    if (0 == atomic_load(&errors)) {
        ++passed;
    } else {
        ++failed;
        fprintf(stderr, "%ld instances below their raw timestamp or decreasing\n",
                atomic_load(&errors));
    }
    if (final_ts >= last_raw) {
        ++passed;
    } else {
        ++failed;
        fprintf(stderr, "the last raise was dispatched at %lld < %lld\n", (long long) final_ts,
                (long long) last_raw);
    }
    (void) mca_base_event_handle_free(h, NULL, NULL);
    (void) mca_base_event_finalize();
    printf("stress_ordered_clamp: %d passed, %d failed\n", passed, failed);
    return 0 == failed ? 0 : 1;
}
