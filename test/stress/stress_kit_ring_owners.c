/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Stress: who owns the kit's rings while threads come and go.
 *
 * 1. Waves of short-lived threads, more than the pool has rings, each
 *    raising while a per-thread timer (SIGEV_THREAD_ID) raises from its
 *    signal handler: a handler may interrupt its thread's first claim of a
 *    ring and claim one of its own. Every thread exits, and then no ring
 *    may be left owned (a ring two claims published over each other stayed
 *    owned by nobody for good, and the pool ran dry), with delivered +
 *    dropped == raised.
 * 2. Threads that raise a few events and exit while the main thread closes
 *    and reopens the kit: an exiting thread must not give its ring back
 *    into a pool the close freed (TSan in check-sanitize; it reported the
 *    write into freed memory).
 * Plain C (TSan). */
#include "ompi_config.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../unit/test_ring_common.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "test/evt_test_check.h"

#define POOL         8
#define WAVES        60
#define PER_WAVE     16
#define RAISES       2000
#define TIMER_NS     20000
#define REOPENS      150
#define SHORT_RAISES 4
#define SPAWNERS     2

static mca_base_event_t *ev;
static atomic_long raised, delivered, dropped;
static atomic_int running, stop;

static void on_event(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                     mca_base_event_cb_safety_t safety, void *ud)
{
    (void) inst, (void) reg, (void) safety, (void) ud;
    atomic_fetch_add(&delivered, 1);
}

static void on_dropped(opal_count_t n, mca_base_event_registration_t *reg, int si,
                       mca_base_event_cb_safety_t safety, void *ud)
{
    (void) reg, (void) si, (void) safety, (void) ud;
    atomic_fetch_add(&dropped, (long) n);
}

static void raise_from_handler(int sig)
{
    ring_test_payload_t p = {0, 2};

    (void) sig;
    atomic_fetch_add(&raised, 1);
    (void) mca_base_event_raise_internal(ev, NULL, NULL, &p,
                                         MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
}

/* Raises RAISES events with its own timer's signals raising in between. */
static void *signalled_raiser(void *arg)
{
    struct sigevent sev;
    struct itimerspec every = {{0, TIMER_NS}, {0, TIMER_NS}};
    timer_t timer;
    bool armed;

    (void) arg;
    memset(&sev, 0, sizeof(sev));
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGUSR1;
    sev._sigev_un._tid = (pid_t) syscall(SYS_gettid);
    armed = 0 == timer_create(CLOCK_MONOTONIC, &sev, &timer)
            && 0 == timer_settime(timer, 0, &every, NULL);
    CHECK(armed, "a thread's timer");
    for (long s = 0; s < RAISES; ++s) {
        ring_test_payload_t p = {(uint64_t) s, 1};
        atomic_fetch_add(&raised, 1);
        (void) mca_base_event_raise(ev, NULL, &p);
    }
    if (armed) {
        (void) timer_delete(timer);
    }
    atomic_fetch_sub(&running, 1);
    return NULL;
}

static void signalled_waves(void)
{
    struct sigaction sa;
    ompi_evt_kit_test_stats_t st;
    mca_base_event_registration_t *h = NULL;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = raise_from_handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    CHECK(0 == sigaction(SIGUSR1, &sa, NULL), "SIGUSR1 handler");
    CHECK(0 == ring_test_start(OMPI_EVT_KIT_MIN_RING_SIZE, POOL, 0), "start");
    ev = ring_test_event("owners.signalled", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    CHECK(OPAL_SUCCESS == mca_base_event_handle_alloc(ev, NULL, NULL, &h)
              && OPAL_SUCCESS
                     == mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL,
                                                         NULL, on_event)
              && OPAL_SUCCESS
                     == mca_base_event_register_callback(h,
                                                         MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED,
                                                         NULL, NULL, on_event)
              && OPAL_SUCCESS == mca_base_event_set_dropped_handler(h, on_dropped),
          "registration");
    for (int w = 0; w < WAVES; ++w) {
        pthread_t t[PER_WAVE];
        atomic_store(&running, PER_WAVE);
        for (int i = 0; i < PER_WAVE; ++i) {
            CHECK(0 == pthread_create(&t[i], NULL, signalled_raiser, NULL), "thread");
        }
        while (0 < atomic_load(&running)) {
            (void) ring_test_progress();
        }
        for (int i = 0; i < PER_WAVE; ++i) {
            (void) pthread_join(t[i], NULL);
        }
    }
    (void) mca_base_event_flush();
    (void) mca_base_event_flush();
    ompi_evt_base_kit_test_stats(&st);
    printf("signalled waves: raised %ld, delivered %ld, dropped %ld; rings left owned %d\n",
           atomic_load(&raised), atomic_load(&delivered), atomic_load(&dropped), st.rings_owned);
    CHECK(atomic_load(&delivered) + atomic_load(&dropped) == atomic_load(&raised),
          "delivered + dropped == raised");
    CHECK(0 == st.rings_owned, "every thread exited, %d rings still owned", st.rings_owned);
    CHECK(OPAL_SUCCESS == mca_base_event_handle_free(h, NULL, NULL), "free");
    ring_test_stop();
}

static void *short_lived(void *arg)
{
    ring_test_payload_t p = {0, 1};

    (void) arg;
    for (int i = 0; i < SHORT_RAISES; ++i) {
        (void) mca_base_event_raise(ev, NULL, &p);
    }
    return NULL;
}

static void *spawner(void *arg)
{
    (void) arg;
    while (!atomic_load(&stop)) {
        pthread_t t[4];
        for (int i = 0; i < 4; ++i) {
            CHECK(0 == pthread_create(&t[i], NULL, short_lived, NULL), "thread");
        }
        for (int i = 0; i < 4; ++i) {
            (void) pthread_join(t[i], NULL);
        }
    }
    return NULL;
}

static void exits_while_reopening(void)
{
    mca_base_event_registration_t *h = NULL;
    pthread_t sp[SPAWNERS];

    CHECK(0 == ring_test_start(1 << 14, POOL, -1), "start");
    ev = ring_test_event("owners.reopened", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    CHECK(OPAL_SUCCESS == mca_base_event_handle_alloc(ev, NULL, NULL, &h)
              && OPAL_SUCCESS
                     == mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL,
                                                         NULL, on_event),
          "registration");
    for (int i = 0; i < SPAWNERS; ++i) {
        CHECK(0 == pthread_create(&sp[i], NULL, spawner, NULL), "spawner");
    }
    for (int r = 0; r < REOPENS; ++r) {
        for (int k = 0; k < 20; ++k) {
            (void) ring_test_progress();
        }
        ompi_evt_base_uninstall();
        CHECK(0 == ring_test_start(1 << 14, POOL, -1), "reopen %d", r);
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < SPAWNERS; ++i) {
        (void) pthread_join(sp[i], NULL);
    }
    printf("exits while reopening: %d reopens\n", REOPENS);
    CHECK(OPAL_SUCCESS == mca_base_event_handle_free(h, NULL, NULL), "free");
    ring_test_stop();
}

int main(void)
{
    signalled_waves();
    exits_while_reopening();
    return evt_test_report("stress_kit_ring_owners");
}
