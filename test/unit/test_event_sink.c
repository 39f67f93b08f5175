/* Unit tests: producer sinks (drained at flush points) and listen callbacks. */
#include "test_event_common.h"

TestSuite(event_sink, .init = evt_test_setup, .fini = evt_test_teardown);

static int drains, pending;
static mca_base_event_t *sink_ev;
static int delivered;
static void drain(void *ctx)
{
    ++drains;
    cr_expect_eq(ctx, &drains);
    while (0 < pending) {
        evt_test_payload_t p = {pending--, 0};
        (void) mca_base_event_raise(sink_ev, NULL, &p);
    }
}
static void cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
               mca_base_event_cb_safety_t s, void *ud)
{
    ++delivered;
}

Test(event_sink, drained_at_drain_points_and_allocs)
{
    sink_ev = evt_test_event("sink", MCA_BASE_VAR_BIND_NO_OBJECT, 0,
                             evt_test_source("ompi.t", 0, NULL, NULL));
    cr_assert_eq(mca_base_event_sink_register(drain, &drains), OPAL_SUCCESS);
    mca_base_event_registration_t *h, *h2;
    pending = 2;
    cr_assert_eq(mca_base_event_handle_alloc(sink_ev, NULL, NULL, &h), OPAL_SUCCESS);
    cr_expect_eq(drains, 1); /* alloc drains first */
    cr_assert_eq(mca_base_event_register_callback(h, 0, NULL, NULL, cb), OPAL_SUCCESS);
    cr_expect_eq(delivered, 0); /* drained before h existed */
    pending = 3;
    mca_base_event_drain_sinks();
    cr_expect_eq(drains, 2);
    cr_expect_eq(delivered, 3);
    pending = 1;
    opal_count_t ts;
    cr_assert_eq(mca_base_event_source_get_timestamp(sink_ev->source->index, &ts), OPAL_SUCCESS);
    cr_expect_eq(drains, 3);
    cr_expect_eq(delivered, 4);
    pending = 1;
    /* no user code in set_dropped_handler: no drain there */
    cr_assert_eq(mca_base_event_set_dropped_handler(h, NULL), OPAL_SUCCESS);
    cr_expect_eq(drains, 3);
    pending = 2;
    cr_assert_eq(mca_base_event_handle_alloc(sink_ev, NULL, NULL, &h2), OPAL_SUCCESS);
    cr_expect_eq(drains, 4);
    cr_expect_eq(delivered, 6, "the 2 pending, for h only (h2 comes after)");
    pending = 1;
    /* nor in a free */
    cr_assert_eq(mca_base_event_handle_free(h, NULL, NULL), OPAL_SUCCESS);
    cr_expect_eq(drains, 4);
    cr_expect_eq(delivered, 6);
    cr_expect_eq(mca_base_event_sink_unregister(drain, &drains), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_sink_unregister(drain, &drains), OPAL_ERR_NOT_FOUND);
    mca_base_event_drain_sinks();
    cr_expect_eq(drains, 4);
    cr_expect_eq(mca_base_event_sink_register(NULL, NULL), OPAL_ERR_BAD_PARAM);
}

static int listen_on, listen_off;
static bool listen_last;
static void listen_cb(mca_base_event_t *ev, bool listening, void *ctx)
{
    cr_expect_eq(ev, sink_ev);
    cr_expect_eq(ctx, &listen_on);
    listen_last = listening;
    if (listening) {
        ++listen_on;
    } else {
        ++listen_off;
    }
    /* outside the engine mutex: re-entering the engine must work */
    cr_expect_geq(mca_base_event_get_count(), 1);
}

Test(event_sink, listen_transitions)
{
    sink_ev = evt_test_event("listen", MCA_BASE_VAR_BIND_NO_OBJECT, 0,
                             evt_test_source("ompi.t", 0, NULL, NULL));
    cr_assert_eq(mca_base_event_set_listen_callback(sink_ev, listen_cb, &listen_on), OPAL_SUCCESS);
    mca_base_event_registration_t *h1, *h2;
    cr_assert_eq(mca_base_event_handle_alloc(sink_ev, NULL, NULL, &h1), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_alloc(sink_ev, NULL, NULL, &h2), OPAL_SUCCESS);
    cr_expect_eq(listen_on, 0); /* no callback yet: not listening */
    cr_assert_eq(mca_base_event_register_callback(h1, 0, NULL, NULL, cb), OPAL_SUCCESS);
    cr_expect_eq(listen_on, 1);
    cr_expect(listen_last);
    cr_assert_eq(mca_base_event_register_callback(h1, 1, NULL, NULL, cb), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h2, 0, NULL, NULL, cb), OPAL_SUCCESS);
    cr_expect_eq(listen_on, 1);
    cr_assert_eq(mca_base_event_handle_free(h1, NULL, NULL), OPAL_SUCCESS);
    cr_expect_eq(listen_off, 0);
    cr_assert_eq(mca_base_event_register_callback(h2, 0, NULL, NULL, NULL), OPAL_SUCCESS);
    cr_expect_eq(listen_off, 1);
    cr_expect_not(listen_last);
    cr_assert_eq(mca_base_event_set_dropped_handler(h2, (mca_base_event_dropped_cb_fn_t) cb),
                 OPAL_SUCCESS);
    cr_expect_eq(listen_on, 2);
    cr_assert_eq(mca_base_event_finalize(), OPAL_SUCCESS); /* frees h2 */
    cr_expect_eq(listen_off, 2);
    cr_assert_eq(mca_base_event_init(), OPAL_SUCCESS);
    cr_expect_eq(mca_base_event_set_listen_callback(NULL, listen_cb, NULL), OPAL_ERR_BAD_PARAM);
}

/* A deferred delivery's progress (mca_base_event_drain_sinks_pending())
 * drains a notifying sink only after it said it counted something, and a
 * plain sink at every call; the drain points drain both. */
static int plain_drains, notified_drains;
static void plain_drain(void *ctx)
{
    ++plain_drains;
}
static void notified_drain(void *ctx)
{
    ++notified_drains;
}

Test(event_sink, progress_drains_notifying_sinks_when_told)
{
    cr_assert_eq(mca_base_event_sink_register_notifying(notified_drain, NULL), OPAL_SUCCESS);
    mca_base_event_drain_sinks_pending();
    mca_base_event_drain_sinks_pending();
    cr_expect_eq(notified_drains, 0, "drained %d times without a notice", notified_drains);
    mca_base_event_sink_pending();
    mca_base_event_drain_sinks_pending();
    cr_expect_eq(notified_drains, 1);
    mca_base_event_drain_sinks_pending();
    cr_expect_eq(notified_drains, 1, "one notice, one drain");
    mca_base_event_drain_sinks(); /* a drain point: every sink */
    cr_expect_eq(notified_drains, 2);

    cr_assert_eq(mca_base_event_sink_register(plain_drain, NULL), OPAL_SUCCESS);
    mca_base_event_drain_sinks_pending();
    mca_base_event_drain_sinks_pending();
    cr_expect_eq(plain_drains, 2, "a plain sink is drained at every progress call");
    cr_expect_eq(notified_drains, 2);
    cr_assert_eq(mca_base_event_sink_unregister(plain_drain, NULL), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_sink_unregister(notified_drain, NULL), OPAL_SUCCESS);
    mca_base_event_sink_pending();
    mca_base_event_drain_sinks_pending();
    cr_expect_eq(plain_drains, 2);
    cr_expect_eq(notified_drains, 2);
}
