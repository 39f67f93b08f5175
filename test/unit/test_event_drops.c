/* Unit tests: pending drops reach the dropped handler at flush points
 * (mca_base_event_flush(), MPI_T_source_get_timestamp's engine call,
 * synchronous events, mca_base_event_report_drops()), not only before the
 * registration's next delivery; exactly once, with the user data dispatch
 * would pick, never in SIGNAL context. */
#include "test_event_common.h"
#include "opal/mca/base/mca_base_event_delivery.h"

TestSuite(event_drops, .init = evt_test_setup, .fini = evt_test_teardown);

#define MAXREG 100

static int seen;
static void rec_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
                   mca_base_event_cb_safety_t s, void *ud)
{
    ++seen;
}

/* per-registration accounting, indexed by the user data (an int slot) */
static mca_base_event_registration_t *handles[MAXREG];
static uint64_t drops_of[MAXREG];
static int calls_of[MAXREG];
static int ndropped_calls;
static opal_count_t dropped_last;
static void *dropped_ud;
static mca_base_event_registration_t *dropped_reg;
static int dropped_si;
static mca_base_event_cb_safety_t dropped_ctx;
static int seen_at_drop;
static int order;          /* sequence of dropped and free callbacks */
static int drop_order, free_order;

static int index_of(mca_base_event_registration_t *r)
{
    for (int i = 0; i < MAXREG; ++i) {
        if (handles[i] == r) {
            return i;
        }
    }
    return -1;
}

static void drop_cb(opal_count_t count, mca_base_event_registration_t *r, int si,
                    mca_base_event_cb_safety_t s, void *ud)
{
    int i = index_of(r);
    ++ndropped_calls;
    dropped_last = count;
    dropped_ud = ud;
    dropped_reg = r;
    dropped_si = si;
    dropped_ctx = s;
    seen_at_drop = seen;
    drop_order = ++order;
    cr_assert_geq(i, 0, "dropped handler for an unknown registration");
    drops_of[i] += (uint64_t) count;
    ++calls_of[i];
}

static void free_cb(mca_base_event_registration_t *r, mca_base_event_cb_safety_t s, void *ud)
{
    free_order = ++order;
}

/* A delivery that cannot deliver anything: every instance is dropped. */
static int drop_deliver(const mca_base_event_record_t *r, mca_base_event_cb_safety_t c)
{
    mca_base_event_count_dropped(r);
    return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
}
static int drop_flush(mca_base_event_cb_safety_t context)
{
    return OPAL_SUCCESS;
}
static mca_base_event_delivery_t dropdel = {.name = "testdrop",
                                            .deliver = drop_deliver,
                                            .flush = drop_flush,
                                            .flags = MCA_BASE_EVENT_DELIVERY_DEFERRED};

static mca_base_event_t *mk(const char *name, uint32_t flags, int *si)
{
    mca_base_event_source_t *src = evt_test_source("ompi.d", 0, NULL, NULL);
    if (NULL != si) {
        *si = src->index;
    }
    return evt_test_event(name, MCA_BASE_VAR_BIND_NO_OBJECT, flags, src);
}

static mca_base_event_registration_t *sub(mca_base_event_t *ev, int idx, int safety, void *ud)
{
    mca_base_event_registration_t *h;
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h), OPAL_SUCCESS);
    if (0 <= safety) {
        cr_assert_eq(mca_base_event_register_callback(h, safety, NULL, ud, rec_cb), OPAL_SUCCESS);
    }
    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb), OPAL_SUCCESS);
    handles[idx] = h;
    return h;
}

static void raise_n(mca_base_event_t *ev, int n)
{
    evt_test_payload_t p = {1, 2};
    for (int i = 0; i < n; ++i) {
        (void) mca_base_event_raise(ev, NULL, &p);
    }
}

Test(event_drops, all_dropped_reported_at_flush)
{
    int si, ud;
    mca_base_event_t *ev = mk("a", 0, &si);
    mca_base_event_registration_t *h = sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, &ud);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 7);
    cr_expect_eq(ndropped_calls, 0); /* nothing reported at the raise */
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_assert_eq(ndropped_calls, 1);
    cr_expect_eq(dropped_last, 7);
    cr_expect_eq(dropped_reg, h);
    cr_expect_eq(dropped_ud, &ud);
    cr_expect_eq(dropped_si, si);
    cr_expect_eq(dropped_ctx, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    cr_expect_eq(seen, 0);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1); /* reported once */
    raise_n(ev, 2);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 2);
    cr_expect_eq(dropped_last, 2);
    cr_expect_eq(drops_of[0], 9);
}

Test(event_drops, get_timestamp_is_a_report_point)
{
    int si;
    opal_count_t ts;
    mca_base_event_t *ev = mk("b", 0, &si);
    sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 4);
    cr_expect_eq(ndropped_calls, 0);
    cr_assert_eq(mca_base_event_source_get_timestamp(si, &ts), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(dropped_last, 4);
}

/* Alloc and set_dropped_handler run no user code: the
 * counts wait for the next drain point. */
Test(event_drops, alloc_and_set_dropped_handler_report_nothing)
{
    mca_base_event_t *ev = mk("c", 0, NULL);
    mca_base_event_registration_t *h2;
    sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 3);
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &h2), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 0);
    raise_n(ev, 5); /* h2 has no handler yet: only handle 0 counts */
    handles[1] = h2;
    cr_assert_eq(mca_base_event_set_dropped_handler(h2, drop_cb), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 0);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(drops_of[0], 8);
    cr_expect_eq(calls_of[1], 0); /* h2 was not listening */
}

/* Removing the dropped handler keeps the count pending for
 * the next handler, never clears it. */
Test(event_drops, removed_handler_keeps_the_count)
{
    mca_base_event_t *ev = mk("rm", 0, NULL);
    mca_base_event_registration_t *h = sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 4);
    cr_assert_eq(mca_base_event_set_dropped_handler(h, NULL), OPAL_SUCCESS);
    raise_n(ev, 3);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 0, "no handler: nothing reported");
    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 0);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(drops_of[0], 7, "every drop, none lost while there was no handler");
}

Test(event_drops, user_data_and_context_selection)
{
    int ud_r, ud_t, ud_n;
    mca_base_event_t *ev = mk("d", 0, NULL);
    mca_base_event_registration_t *h = sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED, &ud_r);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, NULL,
                                                  &ud_t, rec_cb),
                 OPAL_SUCCESS);
    sub(ev, 1, MCA_BASE_EVENT_CB_REQUIRE_NONE, &ud_n); /* serves NONE only */
    sub(ev, 2, -1, NULL);                              /* dropped handler only */
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);

    raise_n(ev, 3);
    /* SIGNAL never reports */
    mca_base_event_report_drops(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
    cr_expect_eq(ndropped_calls, 0);
    /* THREAD_SAFE: handle 0 (its THREAD_SAFE callback's user data) and the
     * dropped-only one; handle 1 has nothing serving THREAD_SAFE */
    mca_base_event_report_drops(MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
    cr_expect_eq(ndropped_calls, 2);
    cr_expect_eq(drops_of[0], 3);
    cr_expect_eq(drops_of[2], 3);
    cr_expect_eq(calls_of[1], 0);
    cr_expect_eq(dropped_ctx, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
    /* kept for a context that serves it */
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 3);
    cr_expect_eq(calls_of[1], 1);
    cr_expect_eq(drops_of[1], 3);
    cr_expect_eq(dropped_ud, &ud_n);

    raise_n(ev, 1);
    ndropped_calls = 0;
    mca_base_event_report_drops(MCA_BASE_EVENT_CB_REQUIRE_NONE);
    cr_expect_eq(ndropped_calls, 3);
    cr_expect_eq(drops_of[0], 4);
    cr_expect_eq(drops_of[1], 4);
    cr_expect_eq(drops_of[2], 4);
}

/* NONE context: handle 0 reports with the MPI_RESTRICTED callback's user data */
Test(event_drops, user_data_lowest_serving_level)
{
    int ud_r, ud_t;
    mca_base_event_t *ev = mk("e", 0, NULL);
    mca_base_event_registration_t *h = sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED, &ud_r);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, NULL,
                                                  &ud_t, rec_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 2);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(dropped_ud, &ud_r);
}

Test(event_drops, free_reports_once_before_free_callback)
{
    mca_base_event_t *ev = mk("f", 0, NULL);
    mca_base_event_registration_t *h = sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 6);
    cr_assert_eq(mca_base_event_handle_free(h, NULL, free_cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(drops_of[0], 6);
    cr_expect_gt(free_order, 0);
    cr_expect_lt(drop_order, free_order);
}

Test(event_drops, many_registrations_in_chunks)
{
    mca_base_event_t *ev = mk("g", 0, NULL);
    for (int i = 0; i < MAXREG; ++i) {
        sub(ev, i, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    }
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 5);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, MAXREG);
    for (int i = 0; i < MAXREG; ++i) {
        cr_expect_eq(drops_of[i], 5, "registration %d: %llu", i,
                     (unsigned long long) drops_of[i]);
        cr_expect_eq(calls_of[i], 1);
    }
}

/* A dropped handler freeing another registration whose report is still to
 * come in the same walk: that one's drops are reported once, by the free's
 * final report, before its free callback. */
static mca_base_event_registration_t *victim;
static void drop_cb_freeing(opal_count_t count, mca_base_event_registration_t *r, int si,
                            mca_base_event_cb_safety_t s, void *ud)
{
    drop_cb(count, r, si, s, ud);
    if (NULL != victim) {
        cr_assert_eq(mca_base_event_handle_free(victim, NULL, free_cb), OPAL_SUCCESS);
        victim = NULL;
    }
}

Test(event_drops, handler_frees_a_later_registration)
{
    mca_base_event_t *ev = mk("h", 0, NULL);
    mca_base_event_registration_t *h0 = sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    sub(ev, 1, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_set_dropped_handler(h0, drop_cb_freeing), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 4);
    victim = handles[1];
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(drops_of[0], 4);
    cr_expect_eq(drops_of[1], 4);
    cr_expect_eq(calls_of[1], 1);
    cr_expect_gt(free_order, 0);
    cr_expect_lt(drop_order, free_order);
}

Test(event_drops, before_synchronous_event)
{
    mca_base_event_t *ev = mk("plain", 0, NULL);
    mca_base_event_t *sev = evt_test_event("sync", MCA_BASE_VAR_BIND_NO_OBJECT,
                                           MCA_BASE_EVENT_FLAG_SYNCHRONOUS, ev->source);
    sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    sub(sev, 1, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(ev, 3);
    cr_expect_eq(ndropped_calls, 0);
    raise_n(sev, 1); /* synchronous: dispatched at the raise, drops reported first */
    cr_expect_eq(seen, 1);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(drops_of[0], 3);
    cr_expect_eq(seen_at_drop, 0);
}

/* A flush point inside a callback does not report (the context is the
 * callback's); the report comes at the next flush point outside. */
static mca_base_event_t *inner_ev;
static void flushing_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *r,
                        mca_base_event_cb_safety_t s, void *ud)
{
    ++seen;
    raise_n(inner_ev, 2); /* dropped by the delivery */
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 0);
}

Test(event_drops, not_inside_a_callback)
{
    mca_base_event_t *sev = mk("s2", MCA_BASE_EVENT_FLAG_SYNCHRONOUS, NULL);
    mca_base_event_registration_t *h;
    inner_ev = evt_test_event("inner", MCA_BASE_VAR_BIND_NO_OBJECT, 0, sev->source);
    sub(inner_ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_handle_alloc(sev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, flushing_cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_delivery_set(&dropdel), OPAL_SUCCESS);
    raise_n(sev, 1);
    cr_expect_eq(seen, 1);
    cr_expect_eq(ndropped_calls, 0);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(drops_of[0], 2);
}

/* The "before the next delivery" rule stays: a drop then a delivery. */
static bool drop_next;
static int toggle_deliver(const mca_base_event_record_t *r, mca_base_event_cb_safety_t c)
{
    if (drop_next) {
        mca_base_event_count_dropped(r);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    (void) mca_base_event_dispatch(r, c);
    return OPAL_SUCCESS;
}
static mca_base_event_delivery_t toggledel = {.name = "testtoggle",
                                              .deliver = toggle_deliver,
                                              .flush = drop_flush,
                                              .flags = MCA_BASE_EVENT_DELIVERY_DEFERRED};

Test(event_drops, still_before_next_delivery)
{
    mca_base_event_t *ev = mk("t", 0, NULL);
    sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);
    cr_assert_eq(mca_base_event_delivery_set(&toggledel), OPAL_SUCCESS);
    drop_next = true;
    raise_n(ev, 2);
    drop_next = false;
    raise_n(ev, 1);
    cr_expect_eq(ndropped_calls, 1);
    cr_expect_eq(seen_at_drop, 0);
    cr_expect_eq(seen, 1);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_expect_eq(ndropped_calls, 1); /* not again */
    cr_expect_eq(drops_of[0], 2);
}

/* Export drops: an exporter that takes the counts only when some were
 * counted learns it from the mark; its claim clears it, a later count sets
 * it again, and what a claim covers is there to take. */
Test(event_drops, export_drops_mark_until_claimed)
{
    int si;
    mca_base_event_t *a = mk("a", 0, &si), *b = mk("b", 0, &si);

    (void) mca_base_event_claim_export_drops(); /* from earlier tests */
    cr_assert_not(mca_base_event_export_drops_waiting());
    cr_assert_not(mca_base_event_claim_export_drops());
    mca_base_event_count_export_dropped(a, 0); /* nothing counted */
    cr_assert_not(mca_base_event_export_drops_waiting());
    mca_base_event_count_export_dropped(a, 3);
    mca_base_event_count_export_dropped(b, 2);
    cr_assert(mca_base_event_export_drops_waiting());
    cr_assert(mca_base_event_claim_export_drops());
    cr_assert_not(mca_base_event_export_drops_waiting());
    cr_assert_not(mca_base_event_claim_export_drops()); /* once */
    cr_assert_eq(mca_base_event_take_export_dropped(a), 3);
    cr_assert_eq(mca_base_event_take_export_dropped(b), 2);
    mca_base_event_count_export_dropped(b, 1);
    cr_assert(mca_base_event_claim_export_drops());
    cr_assert_eq(mca_base_event_take_export_dropped(b), 1);
    cr_assert_eq(mca_base_event_take_export_dropped(a), 0);
}

/* A dropped handler that frees its own registration, or clears the
 * callback about to run, before a delivery: that callback does not run
 * (its user data may be gone once the free returned); the record is one
 * more drop, reported before the free callback (delivered + dropped ==
 * raised). */
static bool handler_frees_itself, handler_clears_cb;
static void drop_cb_self(opal_count_t count, mca_base_event_registration_t *r, int si,
                         mca_base_event_cb_safety_t s, void *ud)
{
    drop_cb(count, r, si, s, ud);
    if (handler_frees_itself) {
        handler_frees_itself = false;
        cr_assert_eq(mca_base_event_handle_free(r, NULL, free_cb), OPAL_SUCCESS);
    }
    if (handler_clears_cb) {
        handler_clears_cb = false;
        cr_assert_eq(mca_base_event_register_callback(r, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                      NULL),
                     OPAL_SUCCESS);
    }
}

/* @p ndrops records dropped, then @p action armed and one raise delivered:
 * the drop report before that delivery runs the handler. The callback must
 * not have run. */
static mca_base_event_registration_t *report_before_a_delivery(const char *name, int ndrops,
                                                               bool *action)
{
    mca_base_event_t *ev = mk(name, 0, NULL);
    mca_base_event_registration_t *h = sub(ev, 0, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL);

    cr_assert_eq(mca_base_event_set_dropped_handler(h, drop_cb_self), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_delivery_set(&toggledel), OPAL_SUCCESS);
    drop_next = true;
    raise_n(ev, ndrops);
    drop_next = false;
    *action = true;
    raise_n(ev, 1);
    cr_expect_eq(seen, 0, "%s: the callback ran after the dropped handler", name);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    return h;
}

Test(event_drops, handler_freeing_its_registration_stops_the_delivery)
{
    (void) report_before_a_delivery("self_free", 3, &handler_frees_itself);
    cr_expect_eq(drops_of[0], 4);
    cr_expect_gt(free_order, 0);
    cr_expect_lt(drop_order, free_order);
}

Test(event_drops, handler_clearing_the_callback_stops_the_delivery)
{
    mca_base_event_registration_t *h = report_before_a_delivery("self_clear", 2,
                                                                &handler_clears_cb);

    cr_expect_eq(drops_of[0], 3);
    cr_assert_eq(mca_base_event_handle_free(h, NULL, free_cb), OPAL_SUCCESS);
}
