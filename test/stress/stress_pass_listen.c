/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Stress: a drain whose module consumes nothing steps over a ring in one
 * move while nothing in it is for a local registration, and never over a
 * record a registration may take. Per round a fresh event (nobody ever
 * listened to it) is raised without pause by one thread, interleaved with
 * an event nobody ever listens to; a second thread raises only the latter
 * (its ring is passed); a third drains in a loop; and the main thread
 * registers a callback on the fresh event at a moment that varies with the
 * round. The records the callback gets must be the raising thread's
 * sequence numbers from some k on with no gap, k no later than the count
 * raised when the registration was complete (plus the raise in flight
 * then), through the last one, and nothing dropped. evt/ring (no
 * consume), in drop-new and in overwrite mode, N rounds each (default 100;
 * 10 under TSan; argv[1] overrides). Plain C (TSan). */
#include "ompi_config.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "../unit/test_ring_common.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "test/evt_test_check.h"

#define EVT_TSAN_DIVISOR (EVT_TEST_UNDER_TSAN ? 10 : 1)
/* records of the fresh event a round raises: far below what a 4 MiB ring
 * holds, so nothing is dropped or overwritten */
#define PER_ROUND 20000

static mca_base_event_t *fresh, *quiet;
static atomic_long raised_fresh, next_seq, got, gaps, dropped_n;
static atomic_int stop_round;
static long first_seq;

static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
               mca_base_event_cb_safety_t safety, void *ud)
{
    const ring_test_payload_t *p = inst->data;
    long want = atomic_load(&next_seq);

    if (0 == atomic_load(&got)) {
        first_seq = (long) p->seq;
    } else if ((long) p->seq != want) {
        atomic_fetch_add(&gaps, 1);
    }
    atomic_store(&next_seq, (long) p->seq + 1);
    atomic_fetch_add(&got, 1);
}

static void dropped(opal_count_t n, mca_base_event_registration_t *reg, int si,
                    mca_base_event_cb_safety_t safety, void *ud)
{
    atomic_fetch_add(&dropped_n, n);
}

static void *fresh_raiser(void *arg)
{
    (void) arg;
    for (uint64_t s = 0; s < PER_ROUND; ++s) {
        ring_test_payload_t p = {s, 0};
        (void) mca_base_event_raise_internal(fresh, NULL, NULL, &p, MCA_BASE_EVENT_CB_REQUIRE_NONE);
        atomic_store_explicit(&raised_fresh, (long) s + 1, memory_order_release);
        (void) mca_base_event_raise_internal(quiet, NULL, NULL, &p, MCA_BASE_EVENT_CB_REQUIRE_NONE);
        if (0 == s % 64) {
            sched_yield(); /* let the registration land anywhere in the round */
        }
    }
    return NULL;
}

static void *quiet_raiser(void *arg)
{
    (void) arg;
    for (uint64_t s = 0; !atomic_load_explicit(&stop_round, memory_order_relaxed); ++s) {
        ring_test_payload_t p = {s, 1};
        (void) mca_base_event_raise_internal(quiet, NULL, NULL, &p, MCA_BASE_EVENT_CB_REQUIRE_NONE);
        if (0 == s % 64) {
            sched_yield(); /* keep its ring from filling */
        }
    }
    return NULL;
}

static void *drainer(void *arg)
{
    (void) arg;
    while (!atomic_load_explicit(&stop_round, memory_order_relaxed)) {
        (void) ring_test_progress();
    }
    return NULL;
}

static void run(int overflow, long rounds)
{
    pthread_t d, f, q;
    long bad = 0, mid = 0;

    CHECK(0 == ring_test_start(4 << 20, 8, overflow), "start");
    quiet = ring_test_event("pass_quiet", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    CHECK(NULL != quiet, "event");
    for (long r = 0; r < rounds; ++r) {
        mca_base_event_registration_t *h = NULL;
        char name[48];
        long wait = (r * 997) % (PER_ROUND / 2), after;

        snprintf(name, sizeof(name), "pass_fresh_%d_%ld", overflow, r);
        fresh = ring_test_event(name, MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
        CHECK(NULL != fresh, "event %s", name);
        atomic_store(&raised_fresh, 0);
        atomic_store(&got, 0);
        atomic_store(&next_seq, 0);
        first_seq = PER_ROUND;
        atomic_store(&gaps, 0);
        atomic_store(&dropped_n, 0);
        atomic_store(&stop_round, 0);
        pthread_create(&d, NULL, drainer, NULL);
        pthread_create(&q, NULL, quiet_raiser, NULL);
        pthread_create(&f, NULL, fresh_raiser, NULL);
        while (atomic_load(&raised_fresh) < wait) {
            sched_yield();
        }
        CHECK(OPAL_SUCCESS == mca_base_event_handle_alloc(fresh, NULL, NULL, &h)
                  && OPAL_SUCCESS
                         == mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE,
                                                             NULL, NULL, cb)
                  && OPAL_SUCCESS == mca_base_event_set_dropped_handler(h, dropped),
              "registration");
        after = atomic_load_explicit(&raised_fresh, memory_order_acquire);
        pthread_join(f, NULL);
        atomic_store(&stop_round, 1);
        pthread_join(q, NULL);
        /* the drainer may be running the callback: a drain point does not
         * wait for that, so it ends before the last drain point */
        pthread_join(d, NULL);
        (void) mca_base_event_flush();
        /* setting the handler again reports the drops counted so far */
        (void) mca_base_event_set_dropped_handler(h, dropped);
        if (0 != atomic_load(&gaps) || 0 != atomic_load(&dropped_n)
            || (after < PER_ROUND && first_seq > after + 1)
            || (0 < atomic_load(&got)
                && (atomic_load(&next_seq) != PER_ROUND
                    || atomic_load(&got) != PER_ROUND - first_seq))) {
            if (0 == bad++) {
                printf("stress_pass_listen: round %ld (%s): registered after %ld records; got "
                       "%ld from %ld, next %ld, gaps %ld, dropped %ld\n",
                       r, overflow ? "overwrite" : "drop-new", after, atomic_load(&got), first_seq,
                       atomic_load(&next_seq), atomic_load(&gaps), atomic_load(&dropped_n));
            }
        }
        mid += after < PER_ROUND;
        (void) mca_base_event_handle_free(h, NULL, NULL);
    }
    {
        ompi_evt_kit_test_stats_t st;
        ompi_evt_base_kit_test_stats(&st);
        printf("stress_pass_listen: %s: %ld rounds of %d records (%ld registered mid-way), %ld "
               "wrong; rings passed %lu times, %lu records walked\n",
               overflow ? "overwrite" : "drop-new", rounds, PER_ROUND, mid, bad, st.passed,
               st.drained);
        CHECK(0 == bad, "every record raised after its registration is delivered, in order");
        CHECK(0 < st.passed, "the ring holding only the quiet event's records was passed");
        CHECK(mid >= rounds / 2, "most registrations land while the event is raised (%ld)", mid);
    }
    ring_test_stop();
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 100 / EVT_TSAN_DIVISOR;

    run(OMPI_EVT_OVERFLOW_DROP_NEW, rounds);
    run(OMPI_EVT_OVERFLOW_OVERWRITE, rounds);
    return evt_test_report(NULL);
}
