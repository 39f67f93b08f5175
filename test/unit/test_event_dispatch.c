/* Unit tests: raise and dispatch (bound delivery, safety selection, drops,
 * saturation, depth cap, ORDERED clamp, epochs, the delivery seam). */
#include "test_event_common.h"
#include "opal/mca/base/mca_base_event_test.h"
#include "opal/mca/base/mca_base_event_delivery.h"

#include <pthread.h>
#include <stdatomic.h>

TestSuite(event_dispatch, .init = evt_test_setup, .fini = evt_test_teardown);

#define MAXSEEN 64
static int seen;
static int32_t seen_a[MAXSEEN];
static opal_count_t seen_ts[MAXSEEN];
static mca_base_event_cb_safety_t seen_safety[MAXSEEN];
static void *seen_ud[MAXSEEN];
static mca_base_event_registration_t *seen_reg[MAXSEEN];

static void rec_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
                   mca_base_event_cb_safety_t s, void *ud)
{
    if (seen < MAXSEEN) {
        cr_assert_eq(mca_base_event_read(inst, 0, &seen_a[seen]), OPAL_SUCCESS);
        cr_assert_eq(mca_base_event_get_timestamp(inst, &seen_ts[seen]), OPAL_SUCCESS);
        seen_safety[seen] = s;
        seen_ud[seen] = ud;
        seen_reg[seen] = r;
    }
    ++seen;
}

static int ndropped_calls;
static uint64_t dropped_total; /* unsigned: the saturation test sums 2 x OPAL_COUNT_MAX */
static opal_count_t dropped_last;
static void *dropped_ud;
static int seen_at_drop;
static void drop_cb(opal_count_t count, mca_base_event_registration_t *r, int si,
                    mca_base_event_cb_safety_t s, void *ud)
{
    ++ndropped_calls;
    dropped_last = count;
    dropped_total += (uint64_t) count;
    dropped_ud = ud;
    seen_at_drop = seen;
}

static mca_base_event_t *mk(const char *name, int bind, uint32_t flags)
{
    return evt_test_event(name, bind, flags, evt_test_source("ompi.t", 0, NULL, NULL));
}

static mca_base_event_registration_t *sub(mca_base_event_t *ev, const void *obj, int safety,
                                          void *ud)
{
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, obj, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, safety, NULL, ud, rec_cb), OPAL_SUCCESS);
    return h;
}

static void raise_a(mca_base_event_t *ev, int32_t a)
{
    evt_test_payload_t p = {a, 100 + a};
    cr_assert_eq(mca_base_event_raise(ev, NULL, &p), OPAL_SUCCESS);
}

Test(event_dispatch, no_listener_no_call)
{
    mca_base_event_t *ev = mk("e", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    cr_expect_not(mca_base_event_active(ev));
    raise_a(ev, 1);
    cr_expect_eq(seen, 0);
}

Test(event_dispatch, inline_delivery_payload_and_user_data)
{
    mca_base_event_t *ev = mk("e", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    int ud1, ud2;
    mca_base_event_registration_t *h1 = sub(ev, NULL, 0, &ud1);
    mca_base_event_registration_t *h2 = sub(ev, NULL, 0, &ud2);
    raise_a(ev, 7);
    cr_assert_eq(seen, 2);
    cr_expect_eq(seen_a[0], 7);
    cr_expect_eq(seen_a[1], 7);
    /* oldest registration first */
    cr_expect_eq(seen_reg[0], h1);
    cr_expect_eq(seen_ud[0], &ud1);
    cr_expect_eq(seen_reg[1], h2);
    cr_expect_eq(seen_ud[1], &ud2);
    cr_expect_eq(seen_safety[0], MCA_BASE_EVENT_CB_REQUIRE_NONE);
}

Test(event_dispatch, bad_raise_params)
{
    mca_base_event_t *ev = mk("e", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    mca_base_event_source_t *other = evt_test_source("ompi.other", 0, NULL, NULL);
    sub(ev, NULL, 0, NULL);
    evt_test_payload_t p = {1, 1};
    cr_expect_eq(mca_base_event_raise(ev, other, &p), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_raise(ev, NULL, NULL), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_raise_internal(NULL, NULL, NULL, &p, 0), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_base_event_raise(ev, ev->source, &p), OPAL_SUCCESS);
    cr_expect_eq(seen, 1);
}

Test(event_dispatch, bound_only_to_bound_registration)
{
    mca_base_event_t *ev = mk("b", MCA_BASE_VAR_BIND_MPI_COMM, 0);
    int comm1, comm2;
    mca_base_event_registration_t *h1 = sub(ev, &comm1, 0, NULL);
    mca_base_event_registration_t *h2 = sub(ev, &comm2, 0, NULL);
    evt_test_payload_t p = {5, 0};
    cr_assert_eq(mca_base_event_raise_bound(ev, NULL, &comm2, &p), OPAL_SUCCESS);
    cr_assert_eq(seen, 1);
    cr_expect_eq(seen_reg[0], h2);
    cr_assert_eq(mca_base_event_raise_bound(ev, NULL, &comm1, &p), OPAL_SUCCESS);
    cr_assert_eq(seen, 2);
    cr_expect_eq(seen_reg[1], h1);
    int other;
    cr_assert_eq(mca_base_event_raise_bound(ev, NULL, &other, &p), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_raise(ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(seen, 2);
}

Test(event_dispatch, safety_selection)
{
    mca_base_event_t *ev = mk("s", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    mca_base_event_registration_t *h;
    int ud_rest, ud_ts;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED,
                                                  NULL, &ud_rest, rec_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, NULL,
                                                  &ud_ts, rec_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb), OPAL_SUCCESS);
    evt_test_payload_t p = {1, 1};
    /* NONE -> lowest >= NONE: MPI_RESTRICTED */
    cr_assert_eq(mca_base_event_raise_ctx(ev, NULL, NULL, &p, MCA_BASE_EVENT_CB_REQUIRE_NONE),
                 OPAL_SUCCESS);
    cr_assert_eq(seen, 1);
    cr_expect_eq(seen_ud[0], &ud_rest);
    /* THREAD_SAFE -> THREAD_SAFE */
    cr_assert_eq(mca_base_event_raise_ctx(ev, NULL, NULL, &p,
                                          MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE),
                 OPAL_SUCCESS);
    cr_assert_eq(seen, 2);
    cr_expect_eq(seen_ud[1], &ud_ts);
    cr_expect_eq(seen_safety[1], MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
    /* a dispatch requiring ASYNC_SIGNAL_SAFE finds no callback: one drop */
    mca_base_event_record_t r = {ev, ev->source, NULL, 1, UINT64_MAX, &p};
    cr_expect_eq(mca_base_event_dispatch(&r, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE), 0);
    cr_expect_eq(seen, 2);
    cr_expect_eq(ndropped_calls, 0);
    /* reported right before the next delivery, with that callback's user_data */
    cr_assert_eq(mca_base_event_raise(ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(dropped_last, 1);
    cr_expect_eq(dropped_ud, &ud_rest);
    cr_expect_eq(seen_at_drop, 2);
    cr_expect_eq(seen, 3);
}

Test(event_dispatch, async_signal_refused_inline)
{
    mca_base_event_t *ev = mk("a", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                                  NULL, NULL, rec_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb), OPAL_SUCCESS);
    evt_test_payload_t p = {1, 1};
    for (int i = 0; i < 3; ++i) {
        cr_expect_eq(mca_base_event_raise_ctx(ev, NULL, NULL, &p,
                                              MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE),
                     OPAL_ERR_NOT_SUPPORTED);
    }
    cr_expect_eq(seen, 0);
    /* the ASYNC_SIGNAL_SAFE slot serves a NONE context too */
    raise_a(ev, 4);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(dropped_last, 3);
    cr_expect_eq(seen, 1);
}

/* A registration with only a dropped handler, five raises,
 * then one drain point: one call with 5, not five calls with 1. */
Test(event_dispatch, dropped_only_registration)
{
    mca_base_event_t *ev = mk("d", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb), OPAL_SUCCESS);
    cr_expect(mca_base_event_active(ev));
    for (int i = 1; i <= 5; ++i) {
        raise_a(ev, i);
    }
    cr_expect_eq(ndropped_calls, 0, "nothing reported at the raises");
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(dropped_last, 5);
    cr_expect_null(dropped_ud);
    raise_a(ev, 6);
    raise_a(ev, 7);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 2);
    cr_expect_eq(dropped_total, 7);
}

Test(event_dispatch, saturation)
{
    mca_base_event_t *ev = mk("sat", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    mca_base_event_registration_t *h = sub(ev, NULL, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb), OPAL_SUCCESS);
    /* beyond OPAL_COUNT_MAX: reported saturated */
    cr_assert_eq(mca_base_event_test_set_dropped(h, (uint64_t) OPAL_COUNT_MAX + 5), OPAL_SUCCESS);
    raise_a(ev, 1);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(dropped_last, OPAL_COUNT_MAX);
    /* the counter itself never wraps */
    cr_assert_eq(mca_base_event_test_set_dropped(h, UINT64_MAX - 1), OPAL_SUCCESS);
    mca_base_event_record_t r = {ev, ev->source, NULL, 1, UINT64_MAX, NULL};
    for (int i = 0; i < 4; ++i) {
        mca_base_event_count_dropped(&r);
    }
    raise_a(ev, 2);
    cr_expect_eq(ndropped_calls, 2);
    cr_expect_eq(dropped_last, OPAL_COUNT_MAX);
    cr_expect_eq(seen, 2);
    cr_expect_eq(mca_base_event_test_set_dropped(NULL, 0), OPAL_ERR_BAD_PARAM);
}

/* depth: a callback that raises the same event again */
static int depth_calls;
static mca_base_event_t *depth_ev;
static int depth_ret[16];
static void recursive_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
                         mca_base_event_cb_safety_t s, void *ud)
{
    int d = depth_calls++;
    evt_test_payload_t p = {d, 0};
    depth_ret[d] = mca_base_event_raise(depth_ev, NULL, &p);
}

Test(event_dispatch, depth_cap)
{
    depth_ev = mk("deep", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(depth_ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, recursive_cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb), OPAL_SUCCESS);
    evt_test_payload_t p = {0, 0};
    cr_assert_eq(mca_base_event_raise(depth_ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(depth_calls, MCA_BASE_EVENT_MAX_DEPTH);
    for (int i = 0; i < MCA_BASE_EVENT_MAX_DEPTH - 1; ++i) {
        cr_expect_eq(depth_ret[i], OPAL_SUCCESS);
    }
    cr_expect_eq(depth_ret[MCA_BASE_EVENT_MAX_DEPTH - 1], OPAL_ERR_TEMP_OUT_OF_RESOURCE);
    /* the refused raise was counted; reported before the next delivery */
    cr_expect_eq(ndropped_calls, 0);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, rec_cb), OPAL_SUCCESS);
    raise_a(depth_ev, 1);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(dropped_last, 1);
}

/* ORDERED clamp with a clock going backwards */
static opal_count_t fake_now;
static opal_count_t fake_clock(void *ctx)
{
    return *(opal_count_t *) ctx;
}

static void ordering_case(mca_base_event_source_order_t order, const opal_count_t *expect)
{
    mca_base_event_source_t *src = evt_test_source("ompi.fake", order, fake_clock, &fake_now);
    mca_base_event_t *ev = evt_test_event("ord", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    sub(ev, NULL, 0, NULL);
    const opal_count_t clock[5] = {100, 200, 150, 50, 300};
    for (int i = 0; i < 5; ++i) {
        fake_now = clock[i];
        raise_a(ev, i);
    }
    cr_assert_eq(seen, 5);
    for (int i = 0; i < 5; ++i) {
        cr_expect_eq(seen_ts[i], expect[i], "instance %d: %lld != %lld", i, seen_ts[i], expect[i]);
    }
}

Test(event_dispatch, ordered_never_decreases)
{
    const opal_count_t expect[5] = {100, 200, 200, 200, 300};
    ordering_case(MCA_BASE_EVENT_SOURCE_ORDERED, expect);
}

Test(event_dispatch, unordered_untouched)
{
    const opal_count_t expect[5] = {100, 200, 150, 50, 300};
    ordering_case(MCA_BASE_EVENT_SOURCE_UNORDERED, expect);
}

/* The ORDERED clamp of one dispatching thread uses plain stores; the first
 * dispatch by a second thread switches every clamp to an atomic max, and
 * must see the highest timestamp the first thread dispatched. */
static __thread opal_count_t thread_now;
static opal_count_t thread_clock(void *ctx)
{
    return thread_now;
}

static mca_base_event_t *two_ev;
static void *second_dispatcher(void *arg)
{
    thread_now = *(opal_count_t *) arg;
    raise_a(two_ev, 99);
    return NULL;
}

Test(event_dispatch, ordered_clamp_second_thread)
{
    mca_base_event_source_t *src = evt_test_source("ompi.tclock", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   thread_clock, NULL);
    const opal_count_t expect[6] = {100, 300, 300, 300, 400, 400};
    opal_count_t other = 200;
    pthread_t t;

    two_ev = evt_test_event("ord2", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    sub(two_ev, NULL, 0, NULL);
    thread_now = 100;
    raise_a(two_ev, 0); /* this thread owns the clamp */
    thread_now = 300;
    raise_a(two_ev, 1);
    cr_assert_eq(pthread_create(&t, NULL, second_dispatcher, &other), 0);
    cr_assert_eq(pthread_join(t, NULL), 0); /* 200, dispatched as 300 */
    thread_now = 250;
    raise_a(two_ev, 2); /* shared now: still clamped */
    thread_now = 400;
    raise_a(two_ev, 3);
    thread_now = 350;
    raise_a(two_ev, 4);
    cr_assert_eq(seen, 6);
    for (int i = 0; i < 6; ++i) {
        cr_expect_eq(seen_ts[i], expect[i], "instance %d: %lld != %lld", i, seen_ts[i], expect[i]);
    }
    cr_expect_eq(seen_a[2], 99);
}

/* Two threads raising an ORDERED source at once, each from its own clock
 * (increasing, interleaved with the other's): every dispatch clamps against
 * the highest timestamp dispatched before it, so no thread ever sees its
 * own callbacks' timestamps decrease, and none is below its raw value. */
#define RACE_N 20000
static atomic_int race_bad;
static void race_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
                    mca_base_event_cb_safety_t s, void *ud)
{
    static __thread opal_count_t last_seen;
    opal_count_t ts;
    evt_test_payload_t p;

    (void) mca_base_event_get_timestamp(inst, &ts);
    (void) mca_base_event_copy(inst, &p);
    if (ts < last_seen || ts < (opal_count_t) p.b) {
        atomic_fetch_add(&race_bad, 1);
    }
    last_seen = ts;
}

static void *race_thread(void *arg)
{
    for (int i = 0; i < RACE_N; ++i) {
        thread_now = 2 * (opal_count_t) i + (intptr_t) arg;
        evt_test_payload_t p = {i, (uint64_t) thread_now};
        (void) mca_base_event_raise(two_ev, NULL, &p);
    }
    return NULL;
}

Test(event_dispatch, ordered_clamp_two_threads)
{
    mca_base_event_source_t *src = evt_test_source("ompi.tclock2", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   thread_clock, NULL);
    mca_base_event_registration_t *h;
    pthread_t t[2];

    two_ev = evt_test_event("ord3", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    cr_assert_eq(mca_base_event_handle_alloc(two_ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, race_cb), OPAL_SUCCESS);
    for (intptr_t i = 0; i < 2; ++i) {
        cr_assert_eq(pthread_create(&t[i], NULL, race_thread, (void *) i), 0);
    }
    for (int i = 0; i < 2; ++i) {
        cr_assert_eq(pthread_join(t[i], NULL), 0);
    }
    cr_expect_eq(atomic_load(&race_bad), 0);
}

/* ---- a test delivery: queues records, dispatches on flush ---- */
#define QMAX 32
static mca_base_event_record_t q[QMAX];
static evt_test_payload_t qdata[QMAX];
static mca_base_event_cb_safety_t qctx[QMAX];
static int qn, qflushes;
static int q_deliver(const mca_base_event_record_t *r, mca_base_event_cb_safety_t c)
{
    cr_assert_lt(qn, QMAX);
    q[qn] = *r;
    memcpy(&qdata[qn], r->data, r->event->extent);
    q[qn].data = &qdata[qn];
    qctx[qn] = c;
    ++qn;
    return OPAL_SUCCESS;
}
static bool qhold;
static int q_flush(mca_base_event_cb_safety_t context)
{
    ++qflushes;
    if (qhold) {
        return OPAL_SUCCESS;
    }
    for (int i = 0; i < qn; ++i) {
        (void) mca_base_event_dispatch(&q[i], qctx[i]);
    }
    qn = 0;
    return OPAL_SUCCESS;
}
/* withdraw: the queue's records the freed registration would have got */
static int q_withdraw(void (*remove)(void *, uint64_t),
                      bool (*match)(const mca_base_event_record_t *, void *), void *arg)
{
    uint64_t n = 0;
    for (int i = 0; i < qn; ++i) {
        n += match(&q[i], arg) ? 1 : 0;
    }
    remove(arg, n);
    return OPAL_SUCCESS;
}
static mca_base_event_delivery_t qdel = {.name = "testq",
                                         .deliver = q_deliver,
                                         .flush = q_flush,
                                         .withdraw = q_withdraw,
                                         .flags = MCA_BASE_EVENT_DELIVERY_DEFERRED};

Test(event_dispatch, deferred_delivery)
{
    mca_base_event_t *ev = mk("q", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    cr_assert_eq(mca_base_event_delivery_set(&qdel), OPAL_SUCCESS);
    sub(ev, NULL, 0, NULL);
    raise_a(ev, 1);
    raise_a(ev, 2);
    cr_expect_eq(seen, 0);
    cr_expect_eq(qn, 2);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_assert_eq(seen, 2);
    cr_expect_eq(seen_a[0], 1);
    cr_expect_eq(seen_a[1], 2);
    cr_assert_eq(mca_base_event_delivery_set(NULL), OPAL_SUCCESS);
    raise_a(ev, 3);
    cr_expect_eq(seen, 3); /* inline again */
}

/* The return of a wrapped MPI call reaches the installed delivery's
 * call_return with the producer's arguments; with no delivery (sync:
 * dispatched at the raise) or a delivery without the hook, nothing is
 * called. */
static int cr_calls;
static bool cr_prompt;
static int64_t cr_now;
static void q_call_return(bool prompt, int64_t now)
{
    ++cr_calls;
    cr_prompt = prompt;
    cr_now = now;
}
Test(event_dispatch, call_return_reaches_the_delivery)
{
    mca_base_event_delivery_t with_hook = qdel;

    with_hook.call_return = q_call_return;
    cr_assert_eq(mca_base_event_delivery_set(NULL), OPAL_SUCCESS);
    mca_base_event_call_return(true, 0);
    cr_expect_eq(cr_calls, 0, "no delivery: nothing to call");
    cr_assert_eq(mca_base_event_delivery_set(&qdel), OPAL_SUCCESS);
    mca_base_event_call_return(true, 0);
    cr_expect_eq(cr_calls, 0, "a delivery without the hook");
    cr_assert_eq(mca_base_event_delivery_set(&with_hook), OPAL_SUCCESS);
    mca_base_event_call_return(false, 12345);
    cr_expect_eq(cr_calls, 1);
    cr_expect_not(cr_prompt);
    cr_expect_eq(cr_now, 12345);
    mca_base_event_call_return(true, 0);
    cr_expect_eq(cr_calls, 2);
    cr_expect(cr_prompt);
    cr_assert_eq(mca_base_event_delivery_set(NULL), OPAL_SUCCESS);
    mca_base_event_call_return(true, 0);
    cr_expect_eq(cr_calls, 2, "removed");
}

/* An alloc runs no tool callback (a tool holding its own
 * lock around MPI_T_event_handle_alloc must not see another registration's
 * callback run inside it); the epoch rule alone keeps an instance raised
 * before the alloc away from the new registration. */
Test(event_dispatch, alloc_delivers_nothing)
{
    mca_base_event_t *ev = mk("fp", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    cr_assert_eq(mca_base_event_delivery_set(&qdel), OPAL_SUCCESS);
    int ud_old, ud_new;
    sub(ev, NULL, 0, &ud_old);
    raise_a(ev, 1);
    cr_expect_eq(seen, 0);
    sub(ev, NULL, 0, &ud_new);
    cr_assert_eq(seen, 0, "no callback ran inside the alloc");
    cr_expect_eq(qflushes, 0);
    raise_a(ev, 2);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_assert_eq(seen, 3);
    cr_expect_eq(seen_ud[0], &ud_old, "instance 1 to the old registration only");
    cr_expect_eq(seen_a[0], 1);
    cr_expect_eq(seen_a[1], 2);
    cr_expect_eq(seen_a[2], 2);
}

Test(event_dispatch, epoch_rule)
{
    mca_base_event_t *ev = mk("ep", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    cr_assert_eq(mca_base_event_delivery_set(&qdel), OPAL_SUCCESS);
    int ud_old, ud_new;
    sub(ev, NULL, 0, &ud_old);
    raise_a(ev, 1);  /* captured before the alloc below */
    qhold = true;    /* no drain before the alloc */
    sub(ev, NULL, 0, &ud_new);
    cr_expect_eq(seen, 0);
    qhold = false;
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_assert_eq(seen, 1); /* dispatched after the alloc: not to the new one */
    cr_expect_eq(seen_ud[0], &ud_old);
}

/* A free delivers nothing either: what is still queued for the
 * registration is counted dropped and reaches its dropped handler before
 * the free callback; the other registration still gets its records. */
static int free_order[4], nfree_order;
static void order_dropped(opal_count_t count, mca_base_event_registration_t *r, int si,
                          mca_base_event_cb_safety_t s, void *ud)
{
    free_order[nfree_order++] = (int) count;
}
static void order_freed(mca_base_event_registration_t *r, mca_base_event_cb_safety_t s, void *ud)
{
    free_order[nfree_order++] = -1;
}
Test(event_dispatch, free_withdraws_queued_records)
{
    mca_base_event_t *ev = mk("ff", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    cr_assert_eq(mca_base_event_delivery_set(&qdel), OPAL_SUCCESS);
    int ud_keep;
    mca_base_event_registration_t *h = sub(ev, NULL, 0, NULL);
    sub(ev, NULL, 0, &ud_keep);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, order_dropped), OPAL_SUCCESS);
    raise_a(ev, 1);
    raise_a(ev, 2);
    cr_expect_eq(seen, 0);
    cr_assert_eq(mca_base_event_handle_free(h, NULL, order_freed), OPAL_SUCCESS);
    cr_expect_eq(seen, 0, "no callback ran inside the free");
    cr_assert_eq(nfree_order, 2);
    cr_expect_eq(free_order[0], 2, "both queued records counted dropped");
    cr_expect_eq(free_order[1], -1, "then the free callback");
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(seen, 2, "the other registration gets both");
    cr_expect_eq(seen_ud[0], &ud_keep);
    cr_expect_eq(seen_ud[1], &ud_keep);
}

Test(event_dispatch, synchronous_flag)
{
    mca_base_event_t *ev = mk("plain", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    mca_base_event_t *sev = evt_test_event("sync", MCA_BASE_VAR_BIND_NO_OBJECT,
                                           MCA_BASE_EVENT_FLAG_SYNCHRONOUS, ev->source);
    cr_assert_eq(mca_base_event_delivery_set(&qdel), OPAL_SUCCESS);
    sub(ev, NULL, 0, NULL);
    sub(sev, NULL, 0, NULL);
    raise_a(ev, 1);
    raise_a(ev, 2);
    cr_expect_eq(seen, 0);
    raise_a(sev, 3); /* pending ones first, then this one, at the raise */
    cr_assert_eq(seen, 3);
    cr_expect_eq(seen_a[0], 1);
    cr_expect_eq(seen_a[1], 2);
    cr_expect_eq(seen_a[2], 3);
    cr_expect_eq(qn, 0);
}

Test(event_dispatch, async_signal_needs_capable_delivery)
{
    mca_base_event_t *ev = mk("as", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    cr_assert_eq(mca_base_event_delivery_set(&qdel), OPAL_SUCCESS);
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                                  NULL, NULL, rec_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb), OPAL_SUCCESS);
    evt_test_payload_t p = {1, 1};
    cr_expect_eq(mca_base_event_raise_ctx(ev, NULL, NULL, &p,
                                          MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE),
                 OPAL_ERR_NOT_SUPPORTED);
    cr_expect_eq(qn, 0);
    static mca_base_event_delivery_t sigdel = {.name = "testq-sig",
                                               .deliver = q_deliver,
                                               .flush = q_flush,
                                               .withdraw = q_withdraw,
                                               .flags = MCA_BASE_EVENT_DELIVERY_DEFERRED
                                                        | MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE};
    cr_assert_eq(mca_base_event_delivery_set(&sigdel), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_raise_ctx(ev, NULL, NULL, &p,
                                          MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE),
                 OPAL_SUCCESS);
    cr_expect_eq(qn, 1);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1); /* the refused one, before this delivery */
    cr_expect_eq(dropped_last, 1);
    cr_expect_eq(seen, 1);
    cr_expect_eq(seen_safety[0], MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
}

Test(event_dispatch, exports_keep_gate_open)
{
    mca_base_event_t *ev = mk("x", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    static mca_base_event_delivery_t exp = {.name = "testq-exp",
                                            .deliver = q_deliver,
                                            .flush = q_flush,
                                            .withdraw = q_withdraw,
                                            .flags = MCA_BASE_EVENT_DELIVERY_EXPORTS};
    cr_expect_not(mca_base_event_active(ev));
    cr_assert_eq(mca_base_event_delivery_set(&exp), OPAL_SUCCESS);
    cr_expect(mca_base_event_active(ev));
    mca_base_event_t *later = evt_test_event("later", MCA_BASE_VAR_BIND_NO_OBJECT, 0, ev->source);
    cr_expect(mca_base_event_active(later));
    raise_a(ev, 1);
    cr_expect_eq(qn, 1); /* exported even without a local listener */
    cr_assert_eq(mca_base_event_delivery_set(NULL), OPAL_SUCCESS);
    cr_expect_not(mca_base_event_active(ev));
    cr_expect_not(mca_base_event_active(later));
}

/* An exporting delivery opens the gate only of the events it exports. */
static bool export_only_x(const mca_base_event_t *event)
{
    return NULL != strstr(event->name, "xonly");
}
Test(event_dispatch, exports_filter_opens_only_its_events)
{
    mca_base_event_t *yes = mk("xonly_a", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    mca_base_event_t *no = mk("other_b", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    static mca_base_event_delivery_t exp = {.name = "testq-filter",
                                            .deliver = q_deliver,
                                            .flush = q_flush,
                                            .withdraw = q_withdraw,
                                            .exports = export_only_x,
                                            .flags = MCA_BASE_EVENT_DELIVERY_DEFERRED
                                                     | MCA_BASE_EVENT_DELIVERY_EXPORTS};
    cr_assert_eq(mca_base_event_delivery_set(&exp), OPAL_SUCCESS);
    cr_expect(mca_base_event_active(yes));
    cr_expect(atomic_load(&yes->exported));
    cr_expect_not(mca_base_event_active(no), "an event it does not export stays shut");
    cr_expect_not(atomic_load(&no->exported));
    mca_base_event_t *later = mk("xonly_later", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    cr_expect(mca_base_event_active(later), "events registered later are filtered too");
    raise_a(yes, 1);
    raise_a(no, 2);
    cr_expect_eq(qn, 1);
    cr_assert_eq(mca_base_event_delivery_set(NULL), OPAL_SUCCESS);
    cr_expect_not(mca_base_event_active(yes));
    cr_expect_not(mca_base_event_active(later));
}

/* An event flagged synchronous is dispatched at the raise and also reaches
 * an exporting delivery, flagged as dispatched (otherwise an exporter or
 * a recorder would never see communicator_name_set or errhandler_invoked). */
Test(event_dispatch, synchronous_event_reaches_exporter_once)
{
    mca_base_event_t *sev = evt_test_event("syncx", MCA_BASE_VAR_BIND_NO_OBJECT,
                                           MCA_BASE_EVENT_FLAG_SYNCHRONOUS,
                                           evt_test_source("sx", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                           NULL, NULL));
    static mca_base_event_delivery_t exp = {.name = "testq-sync",
                                            .deliver = q_deliver,
                                            .flush = q_flush,
                                            .withdraw = q_withdraw,
                                            .flags = MCA_BASE_EVENT_DELIVERY_DEFERRED
                                                     | MCA_BASE_EVENT_DELIVERY_EXPORTS};
    cr_assert_eq(mca_base_event_delivery_set(&exp), OPAL_SUCCESS);
    sub(sev, NULL, 0, NULL);
    raise_a(sev, 7);
    cr_assert_eq(seen, 1, "dispatched at the raise");
    cr_assert_eq(qn, 1, "and handed to the exporter");
    cr_expect(0 != (q[0].flags & MCA_BASE_EVENT_RECORD_DISPATCHED));
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(seen, 1, "the exporter's copy is not dispatched again");
}

/* a callback that reaches a flush point while a flush dispatches to it */
static void flushing_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
                        mca_base_event_cb_safety_t s, void *ud)
{
    ++seen;
    cr_expect_eq(mca_base_event_flush(), OPAL_SUCCESS);
    mca_base_event_registration_t *h2;
    cr_expect_eq(mca_base_event_handle_alloc(inst->event, NULL, NULL, &h2), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_handle_free(h2, NULL, NULL), OPAL_SUCCESS);
}

Test(event_dispatch, flush_from_callback)
{
    mca_base_event_t *ev = mk("fc", MCA_BASE_VAR_BIND_NO_OBJECT, 0);
    cr_assert_eq(mca_base_event_delivery_set(&qdel), OPAL_SUCCESS);
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, flushing_cb), OPAL_SUCCESS);
    raise_a(ev, 1);
    raise_a(ev, 2);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(seen, 2);
}
