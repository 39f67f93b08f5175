/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Stress: a drain point delivers what its thread raised before it, while
 * other threads hold the drain token in weaker contexts. evt/ring with its
 * drain timer every 20 us (THREAD_SAFE), a thread in a loop of
 * ompi_evt_base_kit_progress() (MPI_RESTRICTED, as opal_progress on another
 * thread) and two threads raising without pause; the only registration's
 * callback is at MPI_T_CB_REQUIRE_NONE, so no drain but a drain point may
 * dispatch a record, and no drain that holds the token while the checking
 * thread waits runs user code. The checking thread raises 1..8 records,
 * calls the drain point (mca_base_event_flush()), and its records must all
 * have been delivered when it returns, N rounds (default 20,000; divided
 * by 20 under TSan; argv[1] overrides). At the end, delivered + dropped ==
 * raised for every thread. Plain C (TSan). */
#include "ompi_config.h"

#include <pthread.h>
#include <stdlib.h>

#include "../unit/test_ring_common.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "test/evt_test_check.h"

#define EVT_TSAN_DIVISOR (EVT_TEST_UNDER_TSAN ? 20 : 1)

#define NRAISERS 2
#define CHECKER  NRAISERS /* the checking thread's id in the payloads */

static mca_base_event_t *ev;
static atomic_long delivered[NRAISERS + 1], dropped_n, raised[NRAISERS + 1];
static atomic_int stop;

static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
               mca_base_event_cb_safety_t safety, void *ud)
{
    const ring_test_payload_t *p = inst->data;

    if (p->who <= CHECKER) {
        atomic_fetch_add(&delivered[p->who], 1);
    }
}

static void dropped(opal_count_t n, mca_base_event_registration_t *reg, int si,
                    mca_base_event_cb_safety_t safety, void *ud)
{
    atomic_fetch_add(&dropped_n, n);
}

static void *raiser(void *arg)
{
    uint64_t who = (uint64_t) (uintptr_t) arg;

    for (uint64_t s = 0; !atomic_load_explicit(&stop, memory_order_relaxed); ++s) {
        ring_test_payload_t p = {s, who};
        (void) mca_base_event_raise(ev, NULL, &p);
        atomic_fetch_add_explicit(&raised[who], 1, memory_order_relaxed);
    }
    return NULL;
}

static void *progress(void *arg)
{
    (void) arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        (void) ompi_evt_base_kit_progress();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 20000 / EVT_TSAN_DIVISOR;
    long late = 0, first_late = -1, total = 0;
    pthread_t t[NRAISERS + 1];
    mca_base_event_registration_t *h = NULL;

    ring_test_drain_interval = 20; /* us: the timer holds the token often */
    CHECK(0 == ring_test_start(-1, -1, OMPI_EVT_OVERFLOW_DROP_NEW), "start");
    ev = ring_test_event("drain_point", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    CHECK(NULL != ev, "event");
    CHECK(OPAL_SUCCESS == mca_base_event_handle_alloc(ev, NULL, NULL, &h)
              && OPAL_SUCCESS
                     == mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL,
                                                         NULL, cb)
              && OPAL_SUCCESS == mca_base_event_set_dropped_handler(h, dropped),
          "registration");
    for (uintptr_t i = 0; i < NRAISERS; ++i) {
        pthread_create(&t[i], NULL, raiser, (void *) i);
    }
    pthread_create(&t[NRAISERS], NULL, progress, NULL);
    for (long r = 0; r < rounds; ++r) {
        int k = 1 + (int) (r % 8);
        for (int i = 0; i < k; ++i) {
            ring_test_payload_t p = {(uint64_t) total, CHECKER};
            (void) mca_base_event_raise(ev, NULL, &p);
            ++total;
        }
        (void) mca_base_event_flush();
        if (atomic_load(&delivered[CHECKER]) != total) {
            ++late;
            first_late = first_late < 0 ? r : first_late;
        }
    }
    atomic_store(&stop, 1);
    for (int i = 0; i <= NRAISERS; ++i) {
        pthread_join(t[i], NULL);
    }
    atomic_store(&raised[CHECKER], total);
    (void) mca_base_event_flush();
    /* setting the dropped handler again reports the drops counted so far */
    CHECK(OPAL_SUCCESS == mca_base_event_set_dropped_handler(h, dropped), "dropped handler reset");
    printf("stress_drain_point: %ld rounds, %ld records of the checking thread; raisers "
           "%ld + %ld; delivered %ld + %ld + %ld, dropped %ld; rounds returning with records "
           "pending %ld (first: %ld)\n",
           rounds, total, atomic_load(&raised[0]), atomic_load(&raised[1]),
           atomic_load(&delivered[0]), atomic_load(&delivered[1]), atomic_load(&delivered[CHECKER]),
           atomic_load(&dropped_n), late, first_late);
    CHECK(0 == late, "every drain point delivered its thread's records before returning");
    {
        long r_all = 0, d_all = atomic_load(&dropped_n);
        for (int i = 0; i <= NRAISERS; ++i) {
            r_all += atomic_load(&raised[i]);
            d_all += atomic_load(&delivered[i]);
        }
        CHECK(d_all == r_all, "delivered + dropped == raised (%ld, %ld)", d_all, r_all);
    }
    ring_test_stop();
    return evt_test_report(NULL);
}
