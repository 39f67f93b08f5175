/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: the kit in evt/base under what hostile and sloppy tools do
 *: a free while a drain runs a callback that waits for the
 * freeing thread, restricted drains, a pool larger than a thread's stack,
 * short-lived threads, raise loops across deferral, overwrite-oldest, fork.
 * Each scenario once hung, crashed or lost counts; every test has a timeout. */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_ring_common.h"
#include "opal/mca/base/mca_base_event_delivery.h"

typedef struct {
    atomic_long n;
    atomic_long dropped;
    atomic_int freed;
    uint64_t last_seq;
} count_t;

static void count_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                     mca_base_event_cb_safety_t safety, void *ud)
{
    count_t *c = ud;
    ring_test_payload_t p;
    (void) mca_base_event_copy(inst, &p);
    c->last_seq = p.seq;
    atomic_fetch_add(&c->n, 1);
}

static void count_dropped(opal_count_t n, mca_base_event_registration_t *reg, int si,
                          mca_base_event_cb_safety_t safety, void *ud)
{
    atomic_fetch_add(&((count_t *) ud)->dropped, n);
}

static void count_freed(mca_base_event_registration_t *reg, mca_base_event_cb_safety_t s,
                        void *ud)
{
    atomic_fetch_add(&((count_t *) ud)->freed, 1);
}

static mca_base_event_registration_t *listen_at(mca_base_event_t *ev, count_t *c,
                                                mca_base_event_cb_fn_t fn,
                                                mca_base_event_cb_safety_t safety)
{
    mca_base_event_registration_t *h = NULL;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, safety, NULL, c, fn), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, count_dropped), OPAL_SUCCESS);
    return h;
}

static void raise_n(mca_base_event_t *ev, uint64_t from, uint64_t n)
{
    for (uint64_t s = from; s < from + n; ++s) {
        ring_test_payload_t p = {s, 0};
        (void) mca_base_event_raise(ev, NULL, &p);
    }
}

static void stop(void)
{
    ring_test_stop();
}

/* ---- item 3: inside opal_progress (MPI_RESTRICTED) a callback that may
 * call MPI (registered at MPI_T_CB_REQUIRE_NONE) does not run; its record
 * waits for a drain point that serves it, and is not dropped ---- */
Test(kit, restricted_progress_keeps_none_only_records, .fini = stop, .timeout = 60)
{
    static count_t none_cb, restricted_cb;
    ompi_evt_kit_test_stats_t st;

    cr_assert_eq(ring_test_start(1 << 16, 4, -1), 0);
    mca_base_event_t *a = ring_test_event("restr_a", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    mca_base_event_t *b = ring_test_event("restr_b", MCA_BASE_EVENT_SOURCE_UNORDERED, NULL);
    (void) listen_at(a, &none_cb, count_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    (void) listen_at(b, &restricted_cb, count_cb, MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED);
    raise_n(b, 0, 5);
    raise_n(a, 0, 10);
    for (int i = 0; i < 10; ++i) {
        (void) ompi_evt_base_kit_progress();
    }
    cr_expect_eq(atomic_load(&restricted_cb.n), 5, "a restricted-level callback runs there");
    cr_expect_eq(atomic_load(&none_cb.n), 0, "a NONE-level callback does not");
    cr_expect_eq(atomic_load(&none_cb.dropped), 0, "and its records are kept, not dropped");
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_gt(st.blocked, 0);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS); /* a drain point: context NONE */
    cr_expect_eq(atomic_load(&none_cb.n), 10);
    cr_expect_eq(atomic_load(&none_cb.dropped), 0);
}

/* ---- item 2: a tool whose callback takes the tool's mutex, while another
 * tool thread holds that mutex around MPI_T_event_handle_free: before, the
 * free waited for the drain lock held around the callback (deadlock) ---- */
static pthread_mutex_t tool_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int in_callback, callback_done;
static void locking_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                       mca_base_event_cb_safety_t safety, void *ud)
{
    count_cb(inst, reg, safety, ud);
    if (1 == atomic_fetch_add(&in_callback, 1) + 1) {
        (void) pthread_mutex_lock(&tool_lock); /* waits for the freeing thread */
        (void) pthread_mutex_unlock(&tool_lock);
        atomic_store(&callback_done, 1);
    }
}
static void *drainer(void *arg)
{
    (void) mca_base_event_flush();
    return NULL;
}

Test(kit, free_never_waits_for_a_drain_running_user_code, .fini = stop, .timeout = 60)
{
    static count_t locker, victim;
    pthread_t t;

    cr_assert_eq(ring_test_start(1 << 16, 4, -1), 0);
    mca_base_event_t *ev = ring_test_event("freewait", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(ev, &locker, locking_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    mca_base_event_registration_t *hv = listen_at(ev, &victim, count_cb,
                                                  MCA_BASE_EVENT_CB_REQUIRE_NONE);
    raise_n(ev, 0, 100);
    (void) pthread_mutex_lock(&tool_lock);
    cr_assert_eq(pthread_create(&t, NULL, drainer, NULL), 0);
    while (0 == atomic_load(&in_callback)) {
        sched_yield();
    }
    /* the drainer is inside the first callback, blocked on tool_lock */
    cr_assert_eq(mca_base_event_handle_free(hv, &victim, count_freed), OPAL_SUCCESS,
                 "returned while the drain waits for us");
    cr_expect_eq(atomic_load(&victim.freed), 0, "its free callback waits for that drain");
    (void) pthread_mutex_unlock(&tool_lock);
    pthread_join(t, NULL);
    cr_assert_eq(atomic_load(&callback_done), 1);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&locker.n), 100);
    cr_expect_eq(atomic_load(&victim.freed), 1, "free callback once, at the drain's end");
    cr_expect_eq(atomic_load(&victim.n) + atomic_load(&victim.dropped), 100,
                 "delivered %ld + dropped %ld == raised 100", atomic_load(&victim.n),
                 atomic_load(&victim.dropped));
}

/* The same with one thread: the tool holds its lock around the free; the
 * free runs no other callback (one would deadlock on the tool's lock). */
static atomic_int freeing;
static void must_not_run_in_free(mca_base_event_record_t *inst,
                                 mca_base_event_registration_t *reg,
                                 mca_base_event_cb_safety_t safety, void *ud)
{
    cr_assert_eq(atomic_load(&freeing), 0, "a callback ran inside handle_free");
    count_cb(inst, reg, safety, ud);
}
Test(kit, free_runs_no_other_callback, .fini = stop, .timeout = 60)
{
    static count_t other, victim;

    cr_assert_eq(ring_test_start(1 << 16, 4, -1), 0);
    mca_base_event_t *ev = ring_test_event("freeone", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(ev, &other, must_not_run_in_free, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    mca_base_event_registration_t *hv = listen_at(ev, &victim, must_not_run_in_free,
                                                  MCA_BASE_EVENT_CB_REQUIRE_NONE);
    raise_n(ev, 0, 20);
    atomic_store(&freeing, 1);
    cr_assert_eq(mca_base_event_handle_free(hv, &victim, count_freed), OPAL_SUCCESS);
    atomic_store(&freeing, 0);
    cr_expect_eq(atomic_load(&victim.freed), 1);
    cr_expect_eq(atomic_load(&victim.dropped), 20, "its queued records counted dropped");
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&other.n), 20);
}

/* ---- item 6: the drain's merge heads lived on the stack (one entry per
 * ring): a pool of 20000 rings segfaulted a flush on a 256 KiB stack ---- */
static void *small_stack_flush(void *arg)
{
    (void) mca_base_event_flush();
    return NULL;
}
Test(kit, big_pool_drains_on_a_small_stack, .fini = stop, .timeout = 120)
{
    static count_t c;
    pthread_attr_t attr;
    pthread_t t;

    cr_assert_eq(ring_test_start(4096, 20000, -1), 0);
    mca_base_event_t *ev = ring_test_event("bigpool", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(ev, &c, count_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    raise_n(ev, 0, 50);
    cr_assert_eq(pthread_attr_init(&attr), 0);
    cr_assert_eq(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
    cr_assert_eq(pthread_create(&t, &attr, small_stack_flush, NULL), 0);
    pthread_join(t, NULL);
    cr_expect_eq(atomic_load(&c.n), 50);
}

/* ---- item 10: short-lived threads, one after the other, no drain between
 * them: an exited thread's ring goes back at once (records and all) ---- */
static mca_base_event_t *short_ev;
static void *short_lived(void *arg)
{
    raise_n(short_ev, (uint64_t) (uintptr_t) arg * 100, 100);
    return NULL;
}
Test(kit, short_lived_threads_never_exhaust_the_pool, .fini = stop, .timeout = 120)
{
    static count_t c;
    ompi_evt_kit_test_stats_t st;

    cr_assert_eq(ring_test_start(1 << 16, 64, -1), 0);
    short_ev = ring_test_event("shortlived", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(short_ev, &c, count_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    for (uintptr_t i = 0; i < 200; ++i) {
        pthread_t t;
        cr_assert_eq(pthread_create(&t, NULL, short_lived, (void *) i), 0);
        pthread_join(t, NULL);
    }
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.dropped_pool, 0, "no raise refused for want of a ring");
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&c.n), 20000);
    cr_expect_eq(atomic_load(&c.dropped), 0);
}

/* ---- item 11: a callback raising its own event: the causal depth travels
 * with the record, so the cap stops the loop across deferral too ---- */
static mca_base_event_t *loop_ev;
static void raising_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                       mca_base_event_cb_safety_t safety, void *ud)
{
    count_cb(inst, reg, safety, ud);
    raise_n(loop_ev, 0, 1);
}
Test(kit, raise_loop_stops_at_the_depth_cap, .fini = stop, .timeout = 60)
{
    static count_t c;

    cr_assert_eq(ring_test_start(1 << 16, 4, -1), 0);
    loop_ev = ring_test_event("loop", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(loop_ev, &c, raising_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    raise_n(loop_ev, 0, 1);
    for (int i = 0; i < 3 * MCA_BASE_EVENT_MAX_DEPTH; ++i) {
        cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    }
    cr_expect_eq(atomic_load(&c.n), MCA_BASE_EVENT_MAX_DEPTH,
                 "depths 0..%d delivered, got %ld", MCA_BASE_EVENT_MAX_DEPTH - 1,
                 atomic_load(&c.n));
    cr_expect_eq(atomic_load(&c.dropped), 1, "the raise at depth %d is counted dropped",
                 MCA_BASE_EVENT_MAX_DEPTH);
}

/* ---- the overwrite-oldest policy: the newest records stay, every
 * overwritten one is counted dropped ---- */
Test(kit, overwrite_oldest_keeps_the_newest, .fini = stop, .timeout = 60)
{
    static count_t c;
    ompi_evt_kit_test_stats_t st;
    const int fit = 4096 / 56; /* 56-byte records (see full_ring_drops_exactly) */

    cr_assert_eq(ring_test_start(4096, 4, OMPI_EVT_OVERFLOW_OVERWRITE), 0);
    mca_base_event_t *ev = ring_test_event("overwrite", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(ev, &c, count_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    raise_n(ev, 0, 1000);
    ompi_evt_base_kit_test_stats(&st);
    cr_expect_eq(st.stored, 1000, "every raise is stored");
    cr_expect_eq(st.dropped_full, 0);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_leq(atomic_load(&c.n), fit);
    cr_expect_geq(atomic_load(&c.n), fit - 1);
    cr_expect_eq(atomic_load(&c.n) + atomic_load(&c.dropped), 1000);
    cr_expect_eq(c.last_seq, 999, "the newest is there");
    /* and again after a drain: the consumer's position moved on */
    raise_n(ev, 1000, 10);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&c.n) + atomic_load(&c.dropped), 1010);
    cr_expect_eq(c.last_seq, 1009);
}

/* ---- item 4: fork while another thread is at a drain point. Before, the
 * child hung on a lock held by a thread that does not exist in it, and
 * records pending in the parent's rings were delivered by the parent and
 * again by the child ---- */
static atomic_int keep_flushing;
static void slow_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                    mca_base_event_cb_safety_t safety, void *ud)
{
    count_cb(inst, reg, safety, ud);
    usleep(200);
}
static void *flusher(void *arg)
{
    mca_base_event_t *ev = arg;
    while (atomic_load(&keep_flushing)) {
        raise_n(ev, 0, 5);
        (void) mca_base_event_flush();
    }
    return NULL;
}
Test(kit, fork_while_another_thread_drains, .fini = stop, .timeout = 120)
{
    static count_t c, pc;
    pthread_t t;

    cr_assert_eq(ring_test_start(1 << 16, 8, -1), 0);
    mca_base_event_t *ev = ring_test_event("forkbusy", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    mca_base_event_t *pend = ring_test_event("forkpend", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(ev, &c, slow_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    (void) listen_at(pend, &pc, count_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    atomic_store(&keep_flushing, 1);
    cr_assert_eq(pthread_create(&t, NULL, flusher, ev), 0);
    for (int i = 0; i < 40; ++i) {
        raise_n(pend, 0, 3); /* pending in this thread's ring at the fork */
        pid_t pid = fork();
        cr_assert_geq(pid, 0);
        if (0 == pid) {
            long before = atomic_load(&pc.n);
            /* every entry point the child may use: none may hang */
            alarm(20);
            raise_n(pend, 100, 2);
            (void) mca_base_event_flush();
            mca_base_event_registration_t *h = NULL;
            if (OPAL_SUCCESS != mca_base_event_handle_alloc(pend, NULL, NULL, &h)
                || OPAL_SUCCESS != mca_base_event_handle_free(h, NULL, NULL)) {
                _exit(3);
            }
            /* only the child's own 2, never the parent's pending 3 */
            _exit(atomic_load(&pc.n) - before == 2 ? 0 : 4);
        }
        int status = 0;
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        cr_assert(WIFEXITED(status), "child %d killed by signal %d (hung: alarm)", i,
                  WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        cr_assert_eq(WEXITSTATUS(status), 0, "child %d: status %d", i, WEXITSTATUS(status));
    }
    atomic_store(&keep_flushing, 0);
    pthread_join(t, NULL);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(atomic_load(&pc.n), 40 * 3, "the parent delivered its own pending records");
}

/* ---- the return of an MPI call (mca_base_event_call_return(), prompt
 * false, as the point-to-point events call it after each raise) drains
 * this thread's ring only once the ring holds a quarter of its capacity,
 * or when a restricted drain left records for a NONE one that have waited
 * long enough; every other return leaves the records for later ---- */
Test(kit, a_call_return_drains_a_quarter_full_ring_only, .fini = stop, .timeout = 60)
{
    static count_t c;
    const int ring_size = 1 << 16;
    int raised = 0;

    cr_assert_eq(ring_test_start(ring_size, 4, -1), 0);
    mca_base_event_t *ev = ring_test_event("ret_quarter", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(ev, &c, count_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    /* each record is well under 256 bytes: a quarter of the ring is more
     * than 64 of them, and 4096 fill more than a quarter */
    while (0 == atomic_load(&c.n) && raised < 4096) {
        raise_n(ev, (uint64_t) raised, 1);
        ++raised;
        mca_base_event_call_return(false, 1);
    }
    cr_assert_gt(atomic_load(&c.n), 0, "a return drained once the ring filled");
    cr_expect_gt(raised, 64, "no return drained before a quarter of the ring (%d raised)", raised);
    cr_expect_eq(atomic_load(&c.n), raised, "that return drained everything raised");
    cr_expect_eq(c.last_seq, (uint64_t) raised - 1);
    cr_expect_eq(atomic_load(&c.dropped), 0);
}

Test(kit, a_call_return_serves_records_a_restricted_drain_left, .fini = stop, .timeout = 60)
{
    static count_t c;
    const int64_t wait = OMPI_EVT_KIT_NONE_WAIT_NS;

    cr_assert_eq(ring_test_start(1 << 16, 4, -1), 0);
    mca_base_event_t *ev = ring_test_event("ret_none", MCA_BASE_EVENT_SOURCE_ORDERED, NULL);
    (void) listen_at(ev, &c, count_cb, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    raise_n(ev, 0, 3);
    mca_base_event_call_return(false, 1000);
    cr_expect_eq(atomic_load(&c.n), 0, "three records wait for a later drain");
    (void) ompi_evt_base_kit_progress(); /* restricted: leaves them for NONE */
    cr_expect_eq(atomic_load(&c.n), 0);
    raise_n(ev, 3, 1);
    mca_base_event_call_return(false, 2000);
    cr_expect_eq(atomic_load(&c.n), 0, "the first return after it starts their wait");
    raise_n(ev, 4, 1);
    mca_base_event_call_return(false, 2000 + wait / 2);
    cr_expect_eq(atomic_load(&c.n), 0, "they wait while the wait is shorter than %lld ns",
                 (long long) wait);
    raise_n(ev, 5, 1);
    mca_base_event_call_return(false, 2000 + wait);
    cr_expect_eq(atomic_load(&c.n), 6, "then a return drains them all");
    cr_expect_eq(c.last_seq, 5);
    cr_expect_eq(atomic_load(&c.dropped), 0);
}
