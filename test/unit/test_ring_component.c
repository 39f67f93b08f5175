/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: the evt/ring component with the engine (one process per
 * test, so every test starts with a fresh engine and pool). */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/mca/base/mca_base_event_test.h"
#include "test_ring_common.h"

/* The smallest ring the component takes, and how many records of a 16-byte
 * payload it holds: 32-byte record header + 16-byte payload + 8-byte ring
 * header = 56 bytes each (73 in 4096 bytes). */
#define SMALL_RING     OMPI_EVT_KIT_MIN_RING_SIZE
#define SMALL_RING_FIT (SMALL_RING / 56)

/* ---- a recording callback ---- */
#define MAXREC 20000
typedef struct {
    atomic_long n;
    atomic_long dropped;
    uint64_t seq[MAXREC];
    uint64_t who[MAXREC];
    opal_count_t ts[MAXREC];
    mca_base_event_registration_t *self;
    int free_on; /* free own handle at this delivery (1-based), 0 never */
    int reenter; /* call progress and flush from the callback */
    int reenter_progress_rc;
    atomic_int freed_cb;
    int free_with_cb;         /* handle_free with rec_freed as free callback */
    long dropped_at_free;     /* r->dropped when the free callback ran */
    int safety;               /* callback level (listen_rec_at) */
    atomic_int wrong_context; /* callbacks seen in another context */
    atomic_int on_main;       /* callbacks run on the main thread */
} rec_t;

static pthread_t main_thread;

static void rec_freed(mca_base_event_registration_t *reg, mca_base_event_cb_safety_t safety,
                      void *ud)
{
    rec_t *r = ud;
    r->dropped_at_free = atomic_load(&r->dropped);
    atomic_fetch_add(&r->freed_cb, 1);
}

static void rec_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                   mca_base_event_cb_safety_t safety, void *ud)
{
    rec_t *r = ud;
    ring_test_payload_t p;
    long i = atomic_fetch_add(&r->n, 1);

    cr_assert_eq(mca_base_event_copy(inst, &p), OPAL_SUCCESS);
    if (i < MAXREC) {
        r->seq[i] = p.seq;
        r->who[i] = p.who;
        r->ts[i] = inst->timestamp;
    }
    if (r->reenter) {
        r->reenter_progress_rc = ring_test_progress();
        cr_assert_eq(mca_base_event_flush(), OMPI_SUCCESS);
    }
    if ((int) safety < r->safety) {
        atomic_fetch_add(&r->wrong_context, 1);
    }
    if (pthread_equal(pthread_self(), main_thread)) {
        atomic_fetch_add(&r->on_main, 1);
    }
    if (r->free_on == i + 1) {
        cr_assert_eq(mca_base_event_handle_free(reg, r, r->free_with_cb ? rec_freed : NULL),
                     OPAL_SUCCESS);
    }
}

static void rec_dropped(opal_count_t count, mca_base_event_registration_t *reg, int source_index,
                        mca_base_event_cb_safety_t safety, void *ud)
{
    rec_t *r = ud;
    atomic_fetch_add(&r->dropped, count);
}

/* The dropped handler has no user_data argument of its own: the engine
 * passes the callback's user_data, so keep one rec_t per registration. */
static mca_base_event_registration_t *listen_rec(mca_base_event_t *ev, rec_t *r)
{
    mca_base_event_registration_t *h = NULL;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, r,
                                                  rec_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, rec_dropped), OPAL_SUCCESS);
    r->self = h;
    return h;
}

/* As listen_rec(), with the callback at level @p safety only. */
static mca_base_event_registration_t *listen_rec_at(mca_base_event_t *ev, rec_t *r,
                                                    mca_base_event_cb_safety_t safety)
{
    mca_base_event_registration_t *h = NULL;
    r->safety = (int) safety;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, safety, NULL, r, rec_cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, rec_dropped), OPAL_SUCCESS);
    r->self = h;
    return h;
}

static void raise_n(mca_base_event_t *ev, uint64_t who, uint64_t from, uint64_t n)
{
    for (uint64_t s = from; s < from + n; ++s) {
        ring_test_payload_t p = {s, who};
        (void) mca_base_event_raise(ev, NULL, &p);
    }
}

static void setup_default(void)
{
    main_thread = pthread_self();
    cr_assert_eq(ring_test_start(1 << 20, 8, -1), 0);
}

static void teardown(void)
{
    ring_test_stop();
}

TestSuite(ring_component, .init = setup_default, .fini = teardown);

Test(ring_component, deferred_then_in_order_within_one_thread)
{
    static rec_t r;
    mca_base_event_t *ev = ring_test_event("order1", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    ompi_evt_kit_test_stats_t st;

    cr_assert_not_null(ev);
    (void) listen_rec(ev, &r);
    raise_n(ev, 0, 0, 5000);
    cr_expect_eq(atomic_load(&r.n), 0, "nothing delivered at the raise");
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.stored, 5000);
    cr_expect_eq(st.rings_owned, 1);
    /* bounded: one progress call delivers at most the budget */
    cr_expect_eq(ring_test_progress(), mca_evt_ring_component.drain_budget);
    ring_test_drain();
    cr_assert_eq(atomic_load(&r.n), 5000);
    for (int i = 0; i < 5000; ++i) {
        cr_assert_eq(r.seq[i], (uint64_t) i);
        if (i > 0) {
            cr_assert_geq(r.ts[i], r.ts[i - 1]);
        }
    }
    cr_expect_eq(atomic_load(&r.dropped), 0);
}

Test(ring_component, a_new_registration_gets_only_later_records)
{
    static rec_t a, b;
    mca_base_event_t *ev = ring_test_event("flushpt", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);

    (void) listen_rec(ev, &a);
    raise_n(ev, 0, 0, 10);
    /* handle_alloc delivers nothing (no tool code in it); the epoch rule
     * keeps the 10 from b */
    (void) listen_rec(ev, &b);
    cr_expect_eq(atomic_load(&a.n), 0);
    raise_n(ev, 0, 10, 5);
    ring_test_drain();
    cr_expect_eq(atomic_load(&a.n), 15);
    cr_expect_eq(atomic_load(&b.n), 5, "a record raised before a registration is not its");
    cr_expect_eq(b.seq[0], 10);
}

/* Records of an event nobody ever listened to are owed to no registration
 * (a later one is newer than they are): a drain of a module that consumes
 * nothing steps over a ring holding only such records without reading
 * them, and still delivers every record of a listened event, in order,
 * when both share the ring. (The producers' gate keeps such records out
 * of this component's rings; a delivery that exports stores them, as evt/file
 * does; mca_base_event_raise_internal() skips the gate.) */
Test(ring_component, records_nobody_can_take_are_passed_unread)
{
    static rec_t r;
    mca_base_event_t *quiet = ring_test_event("pass_quiet", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    mca_base_event_t *heard = ring_test_event("pass_heard", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    ompi_evt_kit_test_stats_t st;
    unsigned long passed;

    cr_assert_not_null(quiet);
    cr_assert_not_null(heard);
    for (uint64_t s = 0; s < 1000; ++s) {
        ring_test_payload_t p = {s, 0};
        cr_assert_eq(mca_base_event_raise_internal(quiet, NULL, NULL, &p,
                                                   MCA_BASE_EVENT_CB_REQUIRE_NONE),
                     OPAL_SUCCESS);
    }
    /* a progress call leaves a ring under a quarter full of such records
     * alone (stepping over them costs as much later); a drain point
     * steps over them */
    cr_expect_eq(ring_test_progress(), 0);
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.passed, 0, "a progress call does not take the token for them");
    cr_expect_eq(mca_base_event_flush(), OPAL_SUCCESS);
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.stored, 1000);
    cr_expect_eq(st.drained, 0, "no record was read one by one");
    cr_expect_eq(st.passed, 1);
    passed = st.passed;

    /* both events in one ring: every record is walked, the heard ones are
     * delivered */
    (void) listen_rec(heard, &r);
    for (uint64_t s = 0; s < 2000; ++s) {
        ring_test_payload_t p = {s, 0};
        cr_assert_eq(mca_base_event_raise_internal(0 == s % 2 ? quiet : heard, NULL, NULL, &p,
                                                   MCA_BASE_EVENT_CB_REQUIRE_NONE),
                     OPAL_SUCCESS);
    }
    ring_test_drain();
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.passed, passed, "a ring holding a record someone takes is walked");
    cr_expect_eq(st.drained, 2000);
    cr_assert_eq(atomic_load(&r.n), 1000);
    for (int i = 0; i < 1000; ++i) {
        cr_assert_eq(r.seq[i], (uint64_t) (2 * i + 1));
    }

    /* once the drain has taken the last heard record, quiet ones alone are
     * passed again; a heard one raised after them is walked to */
    for (uint64_t s = 0; s < 300; ++s) {
        ring_test_payload_t p = {s, 1};
        (void) mca_base_event_raise_internal(quiet, NULL, NULL, &p, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    }
    cr_expect_eq(mca_base_event_flush(), OPAL_SUCCESS);
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.passed, passed + 1);
    raise_n(heard, 0, 5000, 1);
    ring_test_drain();
    cr_expect_eq(atomic_load(&r.n), 1001);
    cr_expect_eq(r.seq[1000], 5000);
    cr_expect_eq(atomic_load(&r.dropped), 0);

    /* a quarter of the ring (1 MiB here) waiting: a progress call steps
     * over them, long before the ring could fill */
    for (uint64_t s = 0; s < (1 << 20) / 4 / 56 + 1; ++s) {
        ring_test_payload_t p = {s, 2};
        (void) mca_base_event_raise_internal(quiet, NULL, NULL, &p, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    }
    ompi_evt_base_kit_test_stats(&st);
    passed = st.passed;
    (void) ring_test_progress();
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.passed, passed + 1);
    cr_expect_eq(st.dropped_full, 0);
}

Test(ring_component, async_signal_safe_raise_accepted)
{
    static rec_t r;
    mca_base_event_t *ev = ring_test_event("assafe", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    ring_test_payload_t p = {1, 2};

    (void) listen_rec(ev, &r);
    cr_expect_eq(mca_base_event_raise_ctx(ev, NULL, NULL, &p,
                                          MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE),
                 OPAL_SUCCESS);
    ring_test_drain();
    cr_expect_eq(atomic_load(&r.n), 1);
    cr_expect_eq(atomic_load(&r.dropped), 0);
}

/* A clock shared by every thread that never returns the same value twice:
 * with it, a correct merge delivers strictly increasing timestamps (the
 * engine's clamp would repeat the last one). */
static atomic_llong ticker;
static opal_count_t tick_clock(void *ctx)
{
    return atomic_fetch_add(&ticker, 1) + 1;
}

static mca_base_event_t *merge_ev;
static pthread_barrier_t merge_bar;
static void *merge_thread(void *arg)
{
    uint64_t who = (uint64_t) (uintptr_t) arg;
    pthread_barrier_wait(&merge_bar);
    raise_n(merge_ev, who, 0, 3000);
    return NULL;
}

Test(ring_component, ordered_merge_across_4_threads)
{
    static rec_t r;
    pthread_t t[4];
    uint64_t next[4] = {0};

    merge_ev = ring_test_event("merge4", MCA_BASE_EVENT_SOURCE_ORDERED, tick_clock);
    (void) listen_rec(merge_ev, &r);
    pthread_barrier_init(&merge_bar, NULL, 4);
    for (uintptr_t i = 0; i < 4; ++i) {
        pthread_create(&t[i], NULL, merge_thread, (void *) i);
    }
    for (int i = 0; i < 4; ++i) {
        pthread_join(t[i], NULL);
    }
    /* the threads exited: their rings are RELEASED until drained */
    cr_assert_eq(mca_base_event_flush(), OMPI_SUCCESS);
    cr_assert_eq(atomic_load(&r.n), 12000);
    for (int i = 0; i < 12000; ++i) {
        cr_assert_lt(r.who[i], 4);
        cr_assert_eq(r.seq[i], next[r.who[i]], "per-thread order");
        next[r.who[i]]++;
        if (i > 0) {
            cr_assert_gt(r.ts[i], r.ts[i - 1], "merged in timestamp order at %d", i);
        }
    }
    ompi_evt_kit_test_stats_t st;
    ompi_evt_base_kit_test_stats(&st);
}

Test(ring_component, callback_frees_its_own_handle_during_a_drain)
{
    static rec_t a, b;
    mca_base_event_t *ev = ring_test_event("selffree", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);

    a.free_on = 3;
    (void) listen_rec(ev, &a);
    (void) listen_rec(ev, &b);
    raise_n(ev, 0, 0, 10);
    ring_test_drain();
    cr_expect_eq(atomic_load(&a.n), 3, "no callback after the handle is freed");
    cr_expect_eq(atomic_load(&b.n), 10, "the other registration gets everything");
    raise_n(ev, 0, 10, 10);
    ring_test_drain();
    cr_expect_eq(atomic_load(&a.n), 3);
    cr_expect_eq(atomic_load(&b.n), 20);
    cr_expect_not(mca_base_event_handle_is_valid(a.self));
}

Test(ring_component, callback_reentering_progress_is_skipped)
{
    static rec_t r;
    mca_base_event_t *ev = ring_test_event("reenter", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    ompi_evt_kit_test_stats_t st0, st1;

    r.reenter = 1;
    r.reenter_progress_rc = -1;
    (void) listen_rec(ev, &r);
    raise_n(ev, 0, 0, 50);
    ompi_evt_base_kit_test_stats(&st0);
    ring_test_drain();
    ompi_evt_base_kit_test_stats(&st1);
    cr_expect_eq(atomic_load(&r.n), 50, "each record once: no recursive drain");
    cr_expect_eq(r.reenter_progress_rc, 0);
    cr_expect_geq(st1.drains_skipped - st0.drains_skipped, 50);
    for (int i = 0; i < 50; ++i) {
        cr_assert_eq(r.seq[i], (uint64_t) i);
    }
}

Test(ring_component, progress_returns_at_once_while_another_thread_drains)
{
    static rec_t r;
    mca_base_event_t *ev = ring_test_event("held", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);

    (void) listen_rec(ev, &r);
    raise_n(ev, 0, 0, 5);
    cr_assert(ompi_evt_base_kit_test_hold_token(true, false));
    cr_expect_eq(ring_test_progress(), 0);
    cr_expect_eq(atomic_load(&r.n), 0);
    (void) ompi_evt_base_kit_test_hold_token(false, false);
    ring_test_drain();
    cr_expect_eq(atomic_load(&r.n), 5);
}

Test(ring_component, drain_point_leaves_records_to_a_drain_running_a_callback)
{
    static rec_t r;
    mca_base_event_t *ev = ring_test_event("held_user", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);

    (void) listen_rec(ev, &r);
    raise_n(ev, 0, 0, 5);
    cr_assert(ompi_evt_base_kit_test_hold_token(true, true));
    cr_expect_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&r.n), 0, "never waits for a drain running user code");
    (void) ompi_evt_base_kit_test_hold_token(false, false);
    cr_expect_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&r.n), 5);
}

static atomic_int flusher_done;
static void *flusher(void *arg)
{
    (void) arg;
    (void) mca_base_event_flush();
    atomic_store(&flusher_done, 1);
    return NULL;
}

/* A drain on another thread that serves a weaker context (the timer's, one
 * inside opal_progress) leaves records only a NONE drain may dispatch: a
 * drain point that returned while it held the token would return with
 * them pending. It waits while that drain runs only the kit's code. */
Test(ring_component, drain_point_waits_for_a_drain_running_no_user_code)
{
    static rec_t r;
    mca_base_event_t *ev = ring_test_event("held_kit", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    pthread_t t;

    (void) listen_rec(ev, &r);
    raise_n(ev, 0, 0, 5);
    atomic_store(&flusher_done, 0);
    cr_assert(ompi_evt_base_kit_test_hold_token(true, false));
    cr_assert_eq(pthread_create(&t, NULL, flusher, NULL), 0);
    usleep(50000);
    cr_expect_eq(atomic_load(&flusher_done), 0, "the drain point waits for the holder");
    cr_expect_eq(atomic_load(&r.n), 0);
    (void) ompi_evt_base_kit_test_hold_token(false, false);
    cr_assert_eq(pthread_join(t, NULL), 0);
    cr_expect_eq(atomic_load(&flusher_done), 1);
    cr_expect_eq(atomic_load(&r.n), 5, "delivered by the drain point once the holder let go");
}

static mca_base_event_t *pool_ev;
static pthread_barrier_t pool_bar;
static void *pool_holder(void *arg)
{
    raise_n(pool_ev, 1, 0, 1); /* claims the second ring */
    pthread_barrier_wait(&pool_bar);
    pthread_barrier_wait(&pool_bar); /* keep it until told */
    return NULL;
}
static void *pool_latecomer(void *arg)
{
    raise_n(pool_ev, 2, 0, 7);
    return NULL;
}

Test(ring_component, pool_exhaustion_is_counted_and_rings_are_reused, .init = NULL)
{
    static rec_t r;
    pthread_t h, l;
    ompi_evt_kit_test_stats_t st;

    cr_assert_eq(ring_test_start(1 << 16, 2, -1), 0);
    pool_ev = ring_test_event("pool", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_rec(pool_ev, &r);
    raise_n(pool_ev, 0, 0, 1); /* main thread: first ring */
    pthread_barrier_init(&pool_bar, NULL, 2);
    pthread_create(&h, NULL, pool_holder, NULL);
    pthread_barrier_wait(&pool_bar);
    pthread_create(&l, NULL, pool_latecomer, NULL);
    pthread_join(l, NULL);
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.dropped_pool, 7);
    ring_test_drain();
    cr_expect_eq(atomic_load(&r.n), 2);
    cr_expect_eq(atomic_load(&r.dropped), 7, "the dropped handler saw every refused raise");
    /* the holder exits; once its ring is drained a new thread gets it */
    pthread_barrier_wait(&pool_bar);
    pthread_join(h, NULL);
    ring_test_drain();
    pthread_create(&l, NULL, pool_latecomer, NULL);
    pthread_join(l, NULL);
    ring_test_drain();
    cr_expect_eq(atomic_load(&r.n), 9);
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.dropped_pool, 7);
}

Test(ring_component, full_ring_drops_exactly, .init = NULL)
{
    static rec_t r;
    ompi_evt_kit_test_stats_t st;

    cr_assert_eq(ring_test_start(SMALL_RING, 4, OMPI_EVT_OVERFLOW_DROP_NEW), 0);
    mca_base_event_t *ev = ring_test_event("full", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_rec(ev, &r);
    raise_n(ev, 0, 0, 1000);
    ompi_evt_base_kit_test_stats(&st);
    /* 73 records of 56 bytes fill 4088 bytes, the 74th does not fit (8
     * bytes left) */
    const int fit = SMALL_RING_FIT;
    cr_expect_eq(st.stored, fit);
    cr_expect_eq(st.dropped_full, 1000 - fit);
    ring_test_drain();
    cr_expect_eq(atomic_load(&r.n), fit);
    cr_expect_eq(atomic_load(&r.dropped), 1000 - fit, "delivered + dropped == raised");
    for (int i = 0; i < fit; ++i) {
        cr_assert_eq(r.seq[i], (uint64_t) i, "drop-new keeps the oldest");
    }
}

Test(ring_component, drain_policy_delivers_instead_of_dropping, .init = NULL)
{
    static rec_t r;

    cr_assert_eq(ring_test_start(SMALL_RING, 4, OMPI_EVT_OVERFLOW_DRAIN), 0);
    mca_base_event_t *ev = ring_test_event("drainpol", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_rec(ev, &r);
    raise_n(ev, 0, 0, 1000);
    ring_test_drain();
    cr_expect_eq(atomic_load(&r.n), 1000);
    cr_expect_eq(atomic_load(&r.dropped), 0);
    for (int i = 0; i < 1000; ++i) {
        cr_assert_eq(r.seq[i], (uint64_t) i);
    }
}

/* ---- raises from a SIGALRM handler interleaved with the main thread's ---- */
static mca_base_event_t *sig_ev;
static volatile sig_atomic_t sig_raised, sig_refused;
static void on_alarm(int sig)
{
    ring_test_payload_t p = {(uint64_t) sig_raised, 1};
    int rc = mca_base_event_raise_ctx(sig_ev, NULL, NULL, &p,
                                      MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
    sig_raised = sig_raised + 1;
    if (OPAL_SUCCESS != rc) {
        sig_refused = sig_refused + 1;
    }
}

Test(ring_component, raises_from_sigalrm_counts_exact, .init = NULL)
{
    static rec_t rmain, rsig;
    struct itimerval it = {{0, 50}, {0, 50}};
    struct sigaction sa;
    mca_base_event_t *mev;
    long main_raised = 0;
    ompi_evt_kit_test_stats_t st;

    cr_assert_eq(ring_test_start(1 << 14, 4, OMPI_EVT_OVERFLOW_DROP_NEW), 0);
    mev = ring_test_event("sigmain", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    sig_ev = ring_test_event("sigalrm", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_rec(mev, &rmain);
    (void) listen_rec(sig_ev, &rsig);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    cr_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
    cr_assert_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
    while (sig_raised < 2000) {
        raise_n(mev, 0, (uint64_t) main_raised, 50);
        main_raised += 50;
        if (0 == main_raised % 100) {
            (void) ring_test_progress();
        }
    }
    memset(&it, 0, sizeof(it));
    cr_assert_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
    /* Pending drops reach the dropped handler before the registration's
     * next delivery: one last raise of each event from normal context makes
     * drops counted after the last signal-side delivery visible. */
    on_alarm(SIGALRM);
    raise_n(mev, 0, (uint64_t) main_raised, 1);
    main_raised += 1;
    ring_test_drain();
    ompi_evt_base_kit_test_stats(&st);
    /* drained every 100 main raises, the 256-record ring never fills: the
     * only refusals are signal raises that interrupted a main raise */
    cr_expect_eq(st.dropped_full, 0);
    cr_expect_eq((unsigned long) sig_refused, st.dropped_nested,
                 "a refused signal raise is a nested raise");
    cr_expect_eq(atomic_load(&rsig.n) + atomic_load(&rsig.dropped), (long) sig_raised,
                 "signal registration: delivered + dropped == raised");
    cr_expect_eq(atomic_load(&rmain.n) + atomic_load(&rmain.dropped), main_raised,
                 "main registration: delivered + dropped == raised");
    cr_expect_gt(atomic_load(&rsig.n), 0);
    cr_log_info("signal raises %ld: delivered %ld, dropped %ld (nested %lu); main %ld: "
                "delivered %ld dropped %ld",
                (long) sig_raised, atomic_load(&rsig.n), atomic_load(&rsig.dropped),
                st.dropped_nested, main_raised, atomic_load(&rmain.n), atomic_load(&rmain.dropped));
}

/* ---- a callback frees its own handle during a drain ----
 * Chosen behaviour: the records still queued for the registration (raised
 * before the free, not yet delivered) are counted as dropped and reported
 * to its dropped handler before its free callback runs; records raised
 * after the free are not its concern. */
Test(ring_component, self_free_in_drain_counts_queued_records_dropped)
{
    static rec_t a, b;
    mca_base_event_t *ev = ring_test_event("selffree2", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);

    a.free_on = 3;
    a.free_with_cb = 1;
    (void) listen_rec(ev, &a);
    (void) listen_rec(ev, &b);
    raise_n(ev, 0, 0, 10);
    ring_test_drain();
    cr_expect_eq(atomic_load(&a.n), 3);
    cr_expect_eq(atomic_load(&a.dropped), 7, "the 7 queued records are dropped");
    cr_expect_eq(atomic_load(&a.freed_cb), 1, "free callback once");
    cr_expect_eq(a.dropped_at_free, 7, "dropped handler ran before the free callback");
    cr_expect_eq(atomic_load(&a.n) + atomic_load(&a.dropped), 10, "delivered + dropped == raised");
    cr_expect_eq(atomic_load(&b.n), 10);
    cr_expect_eq(atomic_load(&b.dropped), 0);
    raise_n(ev, 0, 10, 10); /* after the free: nothing for a */
    ring_test_drain();
    cr_expect_eq(atomic_load(&a.n), 3);
    cr_expect_eq(atomic_load(&a.dropped), 7);
    cr_expect_eq(atomic_load(&a.freed_cb), 1);
    cr_expect_eq(atomic_load(&b.n), 20);
}

static mca_base_event_t *two_ring_ev;
static void *raise_5_who_1(void *arg)
{
    raise_n(two_ring_ev, 1, 0, 5);
    return NULL;
}

/* The queued records sit in two rings (two raising threads). */
Test(ring_component, self_free_in_drain_counts_records_of_every_ring)
{
    static rec_t a;
    pthread_t t;

    two_ring_ev = ring_test_event("selffree3", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    a.free_on = 4;
    a.free_with_cb = 1;
    (void) listen_rec(two_ring_ev, &a);
    raise_n(two_ring_ev, 0, 0, 5);
    pthread_create(&t, NULL, raise_5_who_1, NULL);
    pthread_join(t, NULL);
    ring_test_drain();
    cr_expect_eq(atomic_load(&a.n), 4);
    cr_expect_eq(atomic_load(&a.dropped), 6);
    cr_expect_eq(a.dropped_at_free, 6);
    cr_expect_eq(atomic_load(&a.freed_cb), 1);
}

/* Inline delivery (sync semantics): nothing is ever queued, no drop. */
Test(ring_component, self_free_inline_counts_nothing)
{
    static rec_t a;
    mca_base_event_t *ev = ring_test_event("selffree4", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);

    cr_assert_eq(mca_base_event_delivery_set(NULL), OPAL_SUCCESS);
    a.free_on = 3;
    a.free_with_cb = 1;
    (void) listen_rec(ev, &a);
    raise_n(ev, 0, 0, 10);
    cr_expect_eq(atomic_load(&a.n), 3);
    cr_expect_eq(atomic_load(&a.dropped), 0);
    cr_expect_eq(atomic_load(&a.freed_cb), 1);
    cr_assert_eq(mca_base_event_delivery_set(ompi_evt_base_test_delivery()), OPAL_SUCCESS);
}

/* ---- the drain timer (evt_ring_drain_interval) ---- */
static mca_base_event_t *timer_ev_ts;
static void *timer_raiser(void *arg)
{
    raise_n(timer_ev_ts, 2, 0, 40);
    return NULL;
}

static void setup_timer(void)
{
    main_thread = pthread_self();
    ring_test_drain_interval = 2000; /* 2 ms */
    cr_assert_eq(ring_test_start(1 << 20, 8, -1), 0);
}

/* recursive: the drain point's own drain runs the callback on the thread
 * that holds it */
static pthread_mutex_t tool_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static atomic_long locked_cb_n;
static void locked_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                      mca_base_event_cb_safety_t safety, void *ud)
{
    (void) pthread_mutex_lock(&tool_lock);
    atomic_fetch_add(&locked_cb_n, 1);
    (void) pthread_mutex_unlock(&tool_lock);
}

/* A tool holds its own lock around MPI_T_source_get_timestamp (a drain
 * point) while its THREAD_SAFE callback, run by the timer, takes that
 * lock: the drain point may wait for the timer's drain only while it runs
 * no callback, so it returns (a wait on the callback would deadlock: the
 * test's timeout). Every record is delivered, by one drain or the other. */
Test(ring_component, drain_point_under_the_tools_lock_while_the_timer_runs_its_callback,
     .init = setup_timer, .timeout = 60)
{
    mca_base_event_t *ev = ring_test_event("tool_lock", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    mca_base_event_registration_t *h = NULL;
    long raised = 0, waited_ms = 0;

    atomic_store(&locked_cb_n, 0);
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, NULL,
                                                  NULL, locked_cb),
                 OPAL_SUCCESS);
    for (int round = 0; round < 100; ++round) {
        (void) pthread_mutex_lock(&tool_lock);
        raise_n(ev, 0, (uint64_t) raised, 5);
        raised += 5;
        /* longer than the timer's period (2 ms): its drain takes the
         * records and blocks in the callback on our lock */
        usleep(3000);
        for (int i = 0; i < 5; ++i) {
            (void) mca_base_event_flush();
        }
        (void) pthread_mutex_unlock(&tool_lock);
    }
    (void) pthread_mutex_lock(&tool_lock);
    (void) mca_base_event_flush();
    (void) pthread_mutex_unlock(&tool_lock);
    while (atomic_load(&locked_cb_n) < raised && waited_ms < 10000) {
        (void) mca_base_event_flush();
        usleep(1000);
        ++waited_ms;
    }
    cr_expect_eq(atomic_load(&locked_cb_n), raised, "every record delivered (%ld of %ld)",
                 atomic_load(&locked_cb_n), raised);
}

static mca_base_event_t *busy_ev;
static atomic_int busy_stop, busy_started;
static mca_base_event_registration_t *busy_regs[200];
static atomic_long free_cb_n;
static void locked_free_cb(mca_base_event_registration_t *reg, mca_base_event_cb_safety_t s,
                           void *ud)
{
    (void) pthread_mutex_lock(&tool_lock);
    atomic_fetch_add(&free_cb_n, 1);
    (void) pthread_mutex_unlock(&tool_lock);
}

/* Keeps a read-side section open most of the time and leaves it without
 * reclaiming (as a raise into a full ring does): freed registrations wait
 * for a later reader's exit to be reclaimed. */
static void *busy_reader(void *arg)
{
    ring_test_payload_t p = {0, 0};
    mca_base_event_record_t r;

    (void) arg;
    memset(&r, 0, sizeof(r));
    r.event = busy_ev;
    r.source = busy_ev->source;
    r.data = &p;
    while (!atomic_load(&busy_stop)) {
        mca_base_event_count_dropped(&r);
        atomic_store(&busy_started, 1);
    }
    return NULL;
}

/* A free callback that takes the tool's lock, reclaimed by whichever
 * reader section ends next: that must never be inside the timer's drain
 * while it holds the token unflagged, or a drain point called under the
 * tool's lock waits for it for ever (the test's timeout). */
Test(ring_component, drain_point_under_the_tools_lock_while_a_free_callback_waits_for_it,
     .init = setup_timer, .timeout = 60)
{
    mca_base_event_t *ev = ring_test_event("free_lock", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    mca_base_event_registration_t *h = NULL, *none = NULL;
    pthread_t t;
    int pending = 0, rounds = 0;

    busy_ev = ring_test_event("free_lock_busy", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    /* many registrations: the busy reader's section (a drop charged to
     * each) is long */
    for (int i = 0; i < 200; ++i) {
        cr_assert_eq(mca_base_event_handle_alloc(busy_ev, NULL, NULL, &busy_regs[i]), OPAL_SUCCESS);
        cr_assert_eq(mca_base_event_register_callback(busy_regs[i], MCA_BASE_EVENT_CB_REQUIRE_NONE,
                                                      NULL, NULL, locked_cb),
                     OPAL_SUCCESS);
    }
    atomic_store(&busy_stop, 0);
    atomic_store(&busy_started, 0);
    atomic_store(&free_cb_n, 0);
    atomic_store(&locked_cb_n, 0);
    /* a NONE-only registration: the timer asks can_serve() of these records */
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &none), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(none, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  locked_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(pthread_create(&t, NULL, busy_reader, NULL), 0);
    while (!atomic_load(&busy_started)) {
        sched_yield();
    }
    /* until 20 frees had to wait for a grace period (most are reclaimed at
     * once, when the reader is between two sections) */
    for (int round = 0; pending < 20 && round < 20000; ++round, ++rounds) {
        cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
        cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE,
                                                      NULL, NULL, locked_cb),
                     OPAL_SUCCESS);
        cr_assert_eq(mca_base_event_handle_free(h, NULL, locked_free_cb), OPAL_SUCCESS);
        if (0 == mca_base_event_test_retired_count()) {
            continue; /* reclaimed at once */
        }
        ++pending;
        (void) pthread_mutex_lock(&tool_lock);
        raise_n(ev, 0, (uint64_t) round, 3);
        usleep(3000); /* longer than the timer's period: its drain runs */
        (void) mca_base_event_flush();
        (void) pthread_mutex_unlock(&tool_lock);
        (void) mca_base_event_flush();
    }
    atomic_store(&busy_stop, 1);
    cr_assert_eq(pthread_join(t, NULL), 0);
    (void) mca_base_event_flush();
    cr_assert_eq(mca_base_event_handle_free(none, NULL, NULL), OPAL_SUCCESS);
    (void) mca_base_event_flush();
    /* the scenario happened (each such round could have deadlocked) */
    cr_expect_gt(pending, 0, "frees that waited for a grace period: %d of %d", pending, rounds);
    cr_expect_eq(atomic_load(&free_cb_n), rounds, "every free callback ran (%ld of %d)",
                 atomic_load(&free_cb_n), rounds);
}

/* A process raises, then makes no MPI/MPI_T call: the timer delivers to the
 * THREAD_SAFE registration from its own thread; the NONE-only
 * registration's records stay queued (not dropped) and arrive at the next
 * progress call; order within a ring is kept (the main ring stops at the
 * first record the timer cannot serve). */
Test(ring_component, drain_timer_serves_thread_safe_and_keeps_the_rest, .init = setup_timer)
{
    static rec_t ts, none;
    mca_base_event_t *ev_none;
    pthread_t t;
    long waited_ms = 0;

    timer_ev_ts = ring_test_event("timer_ts", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    ev_none = ring_test_event("timer_none", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_rec_at(timer_ev_ts, &ts, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
    (void) listen_rec_at(ev_none, &none, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    raise_n(timer_ev_ts, 0, 0, 30);
    raise_n(ev_none, 0, 0, 20);
    raise_n(timer_ev_ts, 0, 30, 10);
    pthread_create(&t, NULL, timer_raiser, NULL);
    pthread_join(t, NULL);
    /* no progress, no MPI_T call: sleep */
    while (atomic_load(&ts.n) < 70 && waited_ms < 5000) {
        usleep(1000);
        ++waited_ms;
    }
    usleep(20000); /* ten more timer periods: nothing else may arrive */
    cr_expect_eq(atomic_load(&ts.n), 70, "timer delivered 30 + 40 (got %ld)", atomic_load(&ts.n));
    cr_expect_eq(atomic_load(&ts.on_main), 0, "timer callbacks run on the progress thread");
    cr_expect_eq(atomic_load(&ts.wrong_context), 0);
    cr_expect_eq(atomic_load(&none.n), 0, "NONE-only callbacks never run from the timer");
    cr_expect_eq(atomic_load(&none.dropped), 0, "and their records are not dropped");
    cr_expect_eq(atomic_load(&ts.dropped), 0);
    /* the next normal drain: everything left, in order */
    ring_test_drain();
    cr_expect_eq(atomic_load(&none.n), 20);
    cr_expect_eq(atomic_load(&none.dropped), 0);
    cr_expect_eq(atomic_load(&ts.n), 80);
    cr_expect_eq(atomic_load(&ts.dropped), 0);
    for (int i = 0; i < 20; ++i) {
        cr_expect_eq(none.seq[i], (uint64_t) i);
    }
    /* the main ring's timer-safe records came in order: 0..29 then 30..39 */
    {
        uint64_t next = 0;
        for (int i = 0; i < 80; ++i) {
            if (0 == ts.who[i]) {
                cr_expect_eq(ts.seq[i], next, "main ring order at %d", i);
                ++next;
            }
        }
        cr_expect_eq(next, 40);
    }
}

/* A registration every instance of which the full ring dropped gets no
 * delivery at all: its dropped handler still sees the exact count at the
 * end of the drain (progress) and at a flush point, with no later delivery
 * to carry it. */
static void ring_starved_case(bool by_flush)
{
    static rec_t a, b;
    ompi_evt_kit_test_stats_t st;

    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    cr_assert_eq(ring_test_start(SMALL_RING, 4, OMPI_EVT_OVERFLOW_DROP_NEW), 0);
    mca_base_event_t *eva = ring_test_event("fills", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    mca_base_event_t *evb = ring_test_event("starved", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_rec(eva, &a);
    (void) listen_rec(evb, &b);
    raise_n(eva, 0, 0, 200); /* fills the ring: SMALL_RING_FIT (73) fit */
    raise_n(evb, 1, 0, 50);  /* every one dropped */
    ompi_evt_base_kit_test_stats(&st);
    cr_assert_eq(st.stored, SMALL_RING_FIT);
    cr_expect_eq(atomic_load(&b.dropped), 0, "nothing reported at the raise");
    if (by_flush) {
        cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    } else {
        ring_test_drain();
    }
    cr_expect_eq(atomic_load(&a.n), SMALL_RING_FIT);
    cr_expect_eq(atomic_load(&a.dropped), 200 - SMALL_RING_FIT);
    cr_expect_eq(atomic_load(&b.n), 0);
    cr_expect_eq(atomic_load(&b.dropped), 50, "starved registration: all 50 reported");
    ring_test_drain();
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&b.dropped), 50, "reported once");
}

Test(ring_component, starved_registration_drops_reported_by_progress, .init = NULL)
{
    ring_starved_case(false);
}

Test(ring_component, starved_registration_drops_reported_by_flush, .init = NULL)
{
    ring_starved_case(true);
}

/* A report on another thread whose dropped handler frees its registration
 * (handle_free wants the drain lock) while this thread drains and reaches
 * that registration's record (its delivery waits for the report): no
 * deadlock (the wait is bounded), and delivered + dropped == raised. */
static rec_t dl_r, dl_fill;
static atomic_int dl_in_handler;
static void dl_dropped(opal_count_t count, mca_base_event_registration_t *reg, int source_index,
                       mca_base_event_cb_safety_t safety, void *ud)
{
    atomic_fetch_add(&dl_r.dropped, count);
    atomic_store(&dl_in_handler, 1);
    usleep(100000); /* the main thread is draining meanwhile */
    cr_assert_eq(mca_base_event_handle_free(reg, &dl_r, rec_freed), OPAL_SUCCESS);
}
static void *dl_reporter(void *arg)
{
    mca_base_event_report_drops(MCA_BASE_EVENT_CB_REQUIRE_NONE);
    return NULL;
}

Test(ring_component, report_on_another_thread_freeing_during_a_drain, .init = NULL, .timeout = 30)
{
    pthread_t th;
    mca_base_event_registration_t *h = NULL;

    main_thread = pthread_self();
    cr_assert_eq(ring_test_start(SMALL_RING, 4, OMPI_EVT_OVERFLOW_DROP_NEW), 0);
    mca_base_event_t *evr = ring_test_event("dl_r", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    mca_base_event_t *evf = ring_test_event("dl_fill", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    cr_assert_eq(mca_base_event_handle_alloc(evr, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, &dl_r,
                                                  rec_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, dl_dropped), OPAL_SUCCESS);
    (void) listen_rec(evf, &dl_fill);
    raise_n(evr, 0, 0, 1);   /* stored: the oldest record of the drain */
    raise_n(evf, 1, 0, 200); /* fills the ring */
    raise_n(evr, 0, 1, 5);   /* dropped: the report's count */
    cr_assert_eq(pthread_create(&th, NULL, dl_reporter, NULL), 0);
    while (0 == atomic_load(&dl_in_handler)) {
        sched_yield();
    }
    cr_assert_eq(mca_base_event_flush(), OMPI_SUCCESS);
    cr_assert_eq(pthread_join(th, NULL), 0);
    cr_expect_eq(atomic_load(&dl_r.dropped), 5);
    cr_expect_eq(atomic_load(&dl_r.n), 1, "the stored record is delivered");
    cr_expect_eq(atomic_load(&dl_r.freed_cb), 1);
    cr_expect_eq(dl_r.dropped_at_free, 5);
    cr_expect_eq(atomic_load(&dl_fill.n), SMALL_RING_FIT - 1);
}
