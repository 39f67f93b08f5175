/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Stress: the kit's hand-offs under churn. Three threads raise
 * without pause, a fourth drains at drain points (its callbacks sometimes
 * free their own handle), and the main thread churns registrations (alloc,
 * callback, free with a free callback, which finds the drain busy and
 * leaves the registration to it) and now and then uninstalls and installs
 * the ring module while the others go on (the kit's close with a drain
 * holding the token: the pool is left to that drain). The raisers also
 * end each raise as a producer's MPI call returns
 * (mca_base_event_call_return(), which looks at the raiser's own ring),
 * and a fifth thread polls like opal_progress (the kit's progress, whose
 * "anything pending?" check reads the pool without the drain token): a
 * close must not free the pool under either (ASan sees it in the
 * sanitizer tree; it once crashed here). Checked: every free
 * callback exactly once, never a callback after its free callback, per
 * registration delivered + dropped <= raised while it lived, and nothing
 * for TSan/ASan to say. Plain C (TSan). */
#include "ompi_config.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "../unit/test_ring_common.h"
#include "test/evt_test_check.h"
#include "opal/mca/base/mca_base_event_delivery.h"

#if defined(__SANITIZE_THREAD__)
#    define EVT_TSAN 1
#elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#        define EVT_TSAN 1
#    endif
#endif
#ifndef EVT_TSAN
#    define EVT_TSAN 0
#endif

#define NREGS    2000
#define NRAISERS 3

typedef struct {
    atomic_long delivered, dropped;
    atomic_int freed, after_free;
    bool refused;               /* its own callback freed it first (no free callback then) */
    atomic_long raised_at_free; /* global raise count when the free returned */
    long raised_at_alloc;
    bool self_free;
    mca_base_event_registration_t *h;
} reg_t;

static reg_t regs[NREGS];
static mca_base_event_t *ev;
static atomic_long raised;
static atomic_int stop;

static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *h,
               mca_base_event_cb_safety_t safety, void *ud)
{
    reg_t *r = ud;
    if (atomic_load(&r->freed)) {
        atomic_fetch_add(&r->after_free, 1);
    }
    if (1 == atomic_fetch_add(&r->delivered, 1) && r->self_free) {
        (void) mca_base_event_handle_free(h, NULL, NULL); /* the free callback is set below */
    }
}

static void dropped(opal_count_t n, mca_base_event_registration_t *h, int si,
                    mca_base_event_cb_safety_t s, void *ud)
{
    reg_t *r = ud;
    /* before its callback is set the engine has no user data to pass */
    for (int i = 0; NULL == r && i < NREGS; ++i) {
        r = regs[i].h == h ? &regs[i] : NULL;
    }
    if (NULL != r) {
        atomic_fetch_add(&r->dropped, (long) n);
    }
}

static void freed(mca_base_event_registration_t *h, mca_base_event_cb_safety_t s, void *ud)
{
    atomic_fetch_add(&((reg_t *) ud)->freed, 1);
}

static void *raiser(void *arg)
{
    while (!atomic_load(&stop)) {
        ring_test_payload_t p = {0, 0};
        atomic_fetch_add(&raised, 1);
        (void) mca_base_event_raise(ev, NULL, &p);
        mca_base_event_call_return(false, 0);
    }
    return NULL;
}

static void *poller(void *arg)
{
    while (!atomic_load(&stop)) {
        (void) ompi_evt_base_kit_progress();
    }
    return NULL;
}

static void *drainer(void *arg)
{
    while (!atomic_load(&stop)) {
        (void) mca_base_event_flush();
        sched_yield();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t[NRAISERS + 2];
    int nregs = EVT_TSAN ? NREGS / 10 : NREGS;

    CHECK(0 == ring_test_start(1 << 14, 16, -1), "start");
    ev = ring_test_event("churn", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    for (int i = 0; i < NRAISERS; ++i) {
        pthread_create(&t[i], NULL, raiser, NULL);
    }
    pthread_create(&t[NRAISERS], NULL, drainer, NULL);
    pthread_create(&t[NRAISERS + 1], NULL, poller, NULL);
    for (int i = 0; i < nregs; ++i) {
        reg_t *r = &regs[i];
        r->self_free = 0 == i % 7;
        r->raised_at_alloc = atomic_load(&raised);
        /* the dropped handler first: a self-freeing callback may free the
         * handle as soon as it is registered */
        if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &r->h)
            || OPAL_SUCCESS != mca_base_event_set_dropped_handler(r->h, dropped)
            || OPAL_SUCCESS
                   != mca_base_event_register_callback(r->h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL,
                                                       r, cb)) {
            CHECK(0, "alloc (registration %d, %ld raised)", i, (long) atomic_load(&raised));
            continue;
        }
        sched_yield();
        /* a self-freeing one may be gone already (its own callback freed
         * it without a free callback): then this free is refused */
        int rc = mca_base_event_handle_free(r->h, r, freed);
        atomic_store(&r->raised_at_free, atomic_load(&raised));
        if (OPAL_SUCCESS != rc) {
            CHECK(r->self_free, "free refused for a live handle (registration %d, rc %d)", i, rc);
            r->refused = true;
        }
        if (0 == i % 97) {
            /* close the kit under the drainer and the raisers, open again */
            ompi_evt_base_uninstall();
            CHECK(0 == ring_test_start(1 << 14, 16, -1), "restart (after registration %d)", i);
        }
    }
    atomic_store(&stop, 1);
    for (int i = 0; i <= NRAISERS + 1; ++i) {
        pthread_join(t[i], NULL);
    }
    (void) mca_base_event_flush();
    for (int i = 0; i < nregs; ++i) {
        reg_t *r = &regs[i];
        long got = atomic_load(&r->delivered) + atomic_load(&r->dropped);
        CHECK((r->refused ? 0 : 1) == atomic_load(&r->freed),
              "free callback exactly once (registration %d: %ld)", i,
              (long) atomic_load(&r->freed));
        CHECK(0 == atomic_load(&r->after_free),
              "no callback after the free callback (registration %d: %ld)", i,
              (long) atomic_load(&r->after_free));
        CHECK(got <= atomic_load(&r->raised_at_free) - r->raised_at_alloc + NRAISERS,
              "delivered + dropped <= raised while it lived (%ld, %ld)", (long) got,
              (long) (atomic_load(&r->raised_at_free) - r->raised_at_alloc));
    }
    ring_test_stop();
    printf("%ld raised\n", atomic_load(&raised));
    return evt_test_report(NULL);
}
