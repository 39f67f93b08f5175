/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Stress: evt/ring with the engine. 8 threads x N raises (default
 * 1,000,000; divided by 20 in a TSan build; argv[1] overrides) into small
 * rings (4 KiB) while the main thread drains from "progress"; two
 * registrations on the event, each counting deliveries and drops. At the
 * end, per registration, delivered + dropped == raised exactly, and each
 * thread's records arrive in the order raised. Plain C (TSan). */
#include "ompi_config.h"

#include <pthread.h>
#include <stdlib.h>

#include "../unit/test_ring_common.h"
#include "test/evt_test_check.h"
#include "opal/mca/base/mca_base_event_delivery.h"

#define EVT_TSAN_DIVISOR (EVT_TEST_UNDER_TSAN ? 20 : 1)

#define NTHREADS 8

typedef struct {
    atomic_long delivered, dropped, out_of_order;
    uint64_t next[NTHREADS]; /* callbacks run in the one drainer at a time */
} counts_t;

static counts_t reg_a, reg_b;
static mca_base_event_t *ev;
static long per_thread;
static atomic_int producers_left;
static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
               mca_base_event_cb_safety_t safety, void *ud)
{
    counts_t *c = ud;
    const ring_test_payload_t *p = inst->data;

    if (p->who >= NTHREADS || p->seq < c->next[p->who]) {
        atomic_fetch_add(&c->out_of_order, 1);
    } else {
        c->next[p->who] = p->seq + 1;
    }
    atomic_fetch_add(&c->delivered, 1);
}

static void dropped(opal_count_t n, mca_base_event_registration_t *reg, int si,
                    mca_base_event_cb_safety_t safety, void *ud)
{
    atomic_fetch_add(&((counts_t *) ud)->dropped, n);
}

static void *producer(void *arg)
{
    uint64_t who = (uint64_t) (uintptr_t) arg;
    for (long s = 0; s < per_thread; ++s) {
        ring_test_payload_t p = {(uint64_t) s, who};
        (void) mca_base_event_raise(ev, NULL, &p);
    }
    atomic_fetch_sub(&producers_left, 1);
    return NULL;
}

static mca_base_event_registration_t *listen_on(counts_t *c)
{
    mca_base_event_registration_t *h = NULL;
    if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &h)
        || OPAL_SUCCESS
               != mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, c, cb)
        || OPAL_SUCCESS != mca_base_event_set_dropped_handler(h, dropped)) {
        return NULL;
    }
    return h;
}

int main(int argc, char **argv)
{
    pthread_t t[NTHREADS];
    ompi_evt_kit_test_stats_t st;
    mca_base_event_registration_t *ha, *hb;
    long raised;

    per_thread = argc > 1 ? atol(argv[1]) : 1000000 / EVT_TSAN_DIVISOR;
    CHECK(0 == ring_test_start(OMPI_EVT_KIT_MIN_RING_SIZE, 16, OMPI_EVT_OVERFLOW_DROP_NEW),
          "start");
    ev = ring_test_event("stress8", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    CHECK(NULL != ev, "event");
    ha = listen_on(&reg_a);
    hb = listen_on(&reg_b);
    CHECK(NULL != ha && NULL != hb, "registrations");
    atomic_store(&producers_left, NTHREADS);
    for (uintptr_t i = 0; i < NTHREADS; ++i) {
        pthread_create(&t[i], NULL, producer, (void *) i);
    }
    while (0 < atomic_load(&producers_left)) {
        (void) ring_test_progress();
    }
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_join(t[i], NULL);
    }
    (void) mca_base_event_flush();
    /* setting the dropped handler again reports the drops counted so far */
    CHECK(OPAL_SUCCESS == mca_base_event_set_dropped_handler(ha, dropped)
              && OPAL_SUCCESS == mca_base_event_set_dropped_handler(hb, dropped),
          "dropped handlers reset");
    raised = NTHREADS * per_thread;
    ompi_evt_base_kit_test_stats(&st);
    printf("stress_ring_threads: %d threads x %ld raises; stored %lu, dropped full %lu; "
           "a: delivered %ld dropped %ld; b: delivered %ld dropped %ld\n",
           NTHREADS, per_thread, st.stored, st.dropped_full, atomic_load(&reg_a.delivered),
           atomic_load(&reg_a.dropped), atomic_load(&reg_b.delivered), atomic_load(&reg_b.dropped));
    CHECK(atomic_load(&reg_a.delivered) + atomic_load(&reg_a.dropped) == raised,
          "registration a: delivered + dropped == raised");
    CHECK(atomic_load(&reg_b.delivered) + atomic_load(&reg_b.dropped) == raised,
          "registration b: delivered + dropped == raised");
    CHECK(atomic_load(&reg_a.out_of_order) == 0 && atomic_load(&reg_b.out_of_order) == 0,
          "each thread's records in the order raised");
    CHECK((long) (st.stored + st.dropped_full) == raised, "ring: stored + dropped == raised");
    CHECK(atomic_load(&reg_a.delivered) == (long) st.stored, "every stored record delivered");
    ring_test_stop();
    return evt_test_report(NULL);
}
