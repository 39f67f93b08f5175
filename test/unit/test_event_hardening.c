/*
 * Hardening regression tests: each one a failure found by fault injection,
 * the fuzzer or a review.
 */
#include "test_event_common.h"
#include "opal/mca/base/mca_base_event_test.h"

#include <pthread.h>
#include <stdatomic.h>

/* ------------------------------------------------------------------------
 * Drops still pending when a registration is freed reach its dropped
 * handler, before its free callback (and at finalize).
 * ------------------------------------------------------------------------ */

static int order_log[8];
static int order_n = 0;
static opal_count_t dropped_seen = 0;
static void *dropped_ud = (void *) 1;

static void cb_nop(mca_base_event_record_t *i, mca_base_event_registration_t *r,
                   mca_base_event_cb_safety_t s, void *ud)
{
}

static void drop_log(opal_count_t n, mca_base_event_registration_t *r, int si,
                     mca_base_event_cb_safety_t s, void *ud)
{
    dropped_seen += n;
    dropped_ud = ud;
    order_log[order_n++] = 1;
}

static void free_log(mca_base_event_registration_t *r, mca_base_event_cb_safety_t s, void *ud)
{
    order_log[order_n++] = 2;
}

Test(hardening, pending_drops_reported_at_free, .init = evt_test_setup,
     .fini = evt_test_teardown)
{
    mca_base_event_source_t *src = evt_test_source("h.src", MCA_BASE_EVENT_SOURCE_ORDERED, NULL,
                                                   NULL);
    mca_base_event_t *ev = evt_test_event("h_ev", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    mca_base_event_registration_t *r = NULL;
    int ud = 7;

    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &r), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(r, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, &ud,
                                                  cb_nop),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(r, drop_log), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_test_set_dropped(r, 5), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_free(r, NULL, free_log), OPAL_SUCCESS);
    cr_assert_eq(dropped_seen, 5, "pending drops lost at free: %lld", (long long) dropped_seen);
    cr_assert_eq(dropped_ud, &ud, "dropped handler got another user_data");
    cr_assert_eq(order_n, 2);
    cr_assert_eq(order_log[0], 1, "dropped handler after the free callback");
    cr_assert_eq(order_log[1], 2);
}

Test(hardening, pending_drops_saturate_at_free, .init = evt_test_setup,
     .fini = evt_test_teardown)
{
    mca_base_event_source_t *src = evt_test_source("h.src", MCA_BASE_EVENT_SOURCE_ORDERED, NULL,
                                                   NULL);
    mca_base_event_t *ev = evt_test_event("h_ev", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    mca_base_event_registration_t *r = NULL;

    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &r), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(r, drop_log), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_test_set_dropped(r, UINT64_MAX), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_free(r, NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(dropped_seen, OPAL_COUNT_MAX);
    cr_assert_eq(order_n, 1);
}

Test(hardening, pending_drops_reported_at_finalize)
{
    mca_base_event_source_t *src;
    mca_base_event_t *ev;
    mca_base_event_registration_t *r = NULL;

    evt_test_setup();
    src = evt_test_source("h.src", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
    ev = evt_test_event("h_ev", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &r), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(r, drop_log), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_test_set_dropped(r, 3), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_finalize(), OPAL_SUCCESS);
    cr_assert_eq(dropped_seen, 3);
    cr_assert_eq(order_n, 1);
}

/* A free with nothing pending calls no dropped handler. */
Test(hardening, no_pending_drops_no_call, .init = evt_test_setup, .fini = evt_test_teardown)
{
    mca_base_event_source_t *src = evt_test_source("h.src", MCA_BASE_EVENT_SOURCE_ORDERED, NULL,
                                                   NULL);
    mca_base_event_t *ev = evt_test_event("h_ev", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    mca_base_event_registration_t *r = NULL;

    cr_assert_eq(mca_base_event_handle_alloc(ev, NULL, NULL, &r), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(r, drop_log), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_free(r, NULL, free_log), OPAL_SUCCESS);
    cr_assert_eq(order_n, 1);
    cr_assert_eq(order_log[0], 2);
}

/* ------------------------------------------------------------------------
 * Threads beyond the static per-thread record pool: a first raise in
 * SIGNAL context allocates nothing; it takes a spare (topped up at safe
 * points) or, with none left, counts the instance as lost.
 * ------------------------------------------------------------------------ */

#define NORMAL_THREADS (MCA_BASE_EVENT_TEST_STATIC_RECORDS + 4)
#define MCA_BASE_EVENT_TEST_STATIC_RECORDS 256
#define SPARES 16

static mca_base_event_t *pool_ev;
static mca_base_event_source_t *pool_src;
static atomic_bool release_all = false;
static atomic_int signal_dropped = 0;
/* normal threads whose first raise (claim + spare top-up) has returned */
static atomic_int normal_raised = 0;

static void *normal_thread(void *arg)
{
    evt_test_payload_t p = {1, 2};
    (void) mca_base_event_raise(pool_ev, pool_src, &p);
    atomic_fetch_add(&normal_raised, 1);
    while (!atomic_load(&release_all)) {
        usleep(1000);
    }
    return NULL;
}

static void *signal_thread(void *arg)
{
    evt_test_payload_t p = {1, 2};
    /* the first raise of this thread, in SIGNAL context */
    int rc = mca_base_event_raise_ctx(pool_ev, pool_src, NULL, &p,
                                      MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
    if (OPAL_ERR_NOT_SUPPORTED == rc) {
        atomic_fetch_add(&signal_dropped, 1);
    }
    while (!atomic_load(&release_all)) {
        usleep(1000);
    }
    return NULL;
}

static void count_cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
                     mca_base_event_cb_safety_t s, void *ud)
{
}

Test(hardening, signal_first_raise_beyond_pool, .init = evt_test_setup,
     .fini = evt_test_teardown, .timeout = 60)
{
    static pthread_t th[NORMAL_THREADS + 4 * SPARES + 1];
    mca_base_event_registration_t *r = NULL;
    int n = 0, spare = -1, extra, extra2, nspare;
    uint64_t lost0;

    pool_src = evt_test_source("h.src", MCA_BASE_EVENT_SOURCE_ORDERED, NULL, NULL);
    pool_ev = evt_test_event("h_ev", MCA_BASE_VAR_BIND_NO_OBJECT, 0, pool_src);
    cr_assert_eq(mca_base_event_handle_alloc(pool_ev, NULL, NULL, &r), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(r, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  count_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_set_dropped_handler(r, drop_log), OPAL_SUCCESS);

    for (int i = 0; i < NORMAL_THREADS; ++i) {
        cr_assert_eq(pthread_create(&th[n++], NULL, normal_thread, NULL), 0);
    }
    /* wait until every normal thread's first raise, with the spare top-up
     * it does at that safe point, has returned: only then is the record
     * count final (sampling earlier raced with late top-ups) */
    for (int tries = 0; tries < 6000 && NORMAL_THREADS > atomic_load(&normal_raised); ++tries) {
        usleep(10000);
    }
    cr_assert_eq(atomic_load(&normal_raised), NORMAL_THREADS);
    extra = mca_base_event_test_thread_records(&spare);
    cr_assert_geq(extra, 4, "no record beyond the static pool (%d)", extra);
    cr_assert_geq(spare, SPARES, "spares not topped up: %d", spare);
    cr_assert_leq(spare, 4 * SPARES, "spares overshoot: %d", spare);
    nspare = spare;

    lost0 = mca_base_event_test_anon_sections();
    for (int i = 0; i < nspare; ++i) {
        cr_assert_eq(pthread_create(&th[n++], NULL, signal_thread, NULL), 0);
    }
    for (int tries = 0; tries < 6000 && nspare != atomic_load(&signal_dropped); ++tries) {
        usleep(10000);
    }
    extra2 = mca_base_event_test_thread_records(&spare);
    cr_assert_eq(extra2, extra, "a SIGNAL-context first raise allocated a record");
    cr_assert_eq(spare, 0, "spares left: %d", spare);
    cr_assert_eq(mca_base_event_test_anon_sections(), lost0);
    /* one more: no record free, nothing allocated; the raise still knows its
     * event, so the drop is charged to its registration (not lost
     * in a global counter no tool would see) */
    cr_assert_eq(pthread_create(&th[n++], NULL, signal_thread, NULL), 0);
    for (int tries = 0; tries < 6000 && nspare + 1 != atomic_load(&signal_dropped); ++tries) {
        usleep(10000);
    }
    cr_assert_eq(mca_base_event_test_thread_records(NULL), extra);
    cr_assert_geq(mca_base_event_test_anon_sections(), lost0 + 1);

    atomic_store(&release_all, true);
    for (int i = 0; i < n; ++i) {
        pthread_join(th[i], NULL);
    }
    /* all nspare + 1 charged drops reach the dropped handler at free */
    cr_assert_eq(mca_base_event_handle_free(r, NULL, NULL), OPAL_SUCCESS);
    cr_assert_eq(dropped_seen, nspare + 1, "dropped %lld", (long long) dropped_seen);
}

/* ------------------------------------------------------------------------
 * Found by the MPI_T fuzzer (test/hardening/fuzz_mpit.c, evt/sync): a
 * re-entrant raise from r1's callback runs r2's callback first, and that
 * callback changes or frees r2 before the outer dispatch, still walking its
 * older snapshot, reaches r2.
 * ------------------------------------------------------------------------ */

static mca_base_event_t *nest_ev;
static mca_base_event_registration_t *nest_r2;
static int nest_outer_done = 0;
static int nest_r2_calls = 0;

/* r1: the outer delivery raises the same event once more */
static void nest_r1_cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
                       mca_base_event_cb_safety_t s, void *ud)
{
    if (0 == nest_outer_done++) {
        evt_test_payload_t p = {2, 2};
        cr_assert_eq(mca_base_event_raise(nest_ev, NULL, &p), OPAL_SUCCESS);
    }
}

/* r2: clears its own callback on its first call (seed 2, step 651) */
static void nest_r2_clear_cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
                             mca_base_event_cb_safety_t s, void *ud)
{
    ++nest_r2_calls;
    cr_assert_eq(mca_base_event_register_callback(r, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  NULL),
                 OPAL_SUCCESS);
}

/* r2: frees itself on its first call (seed 1, step 11121) */
static void nest_r2_free_cb(mca_base_event_record_t *i, mca_base_event_registration_t *r,
                            mca_base_event_cb_safety_t s, void *ud)
{
    ++nest_r2_calls;
    cr_assert_eq(mca_base_event_handle_free(r, NULL, free_log), OPAL_SUCCESS);
}

static void nest_setup(mca_base_event_cb_fn_t r2_cb)
{
    mca_base_event_source_t *src = evt_test_source("n.src", MCA_BASE_EVENT_SOURCE_ORDERED, NULL,
                                                   NULL);
    mca_base_event_registration_t *r1 = NULL;

    nest_ev = evt_test_event("n_ev", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    /* r1 older than r2: dispatch reaches r1 first */
    cr_assert_eq(mca_base_event_handle_alloc(nest_ev, NULL, NULL, &r1), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(r1, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  nest_r1_cb),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_handle_alloc(nest_ev, NULL, NULL, &nest_r2), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(nest_r2, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL,
                                                  NULL, r2_cb),
                 OPAL_SUCCESS);
}

Test(hardening, nested_clear_not_called_by_outer_dispatch, .init = evt_test_setup,
     .fini = evt_test_teardown)
{
    evt_test_payload_t p = {1, 1};

    nest_setup(nest_r2_clear_cb);
    cr_assert_eq(mca_base_event_raise(nest_ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(nest_outer_done, 2, "r1: outer and nested deliveries");
    cr_expect_eq(nest_r2_calls, 1, "r2's callback ran %d times after it cleared itself",
                 nest_r2_calls);
}

Test(hardening, nested_self_free_counts_outer_as_dropped, .init = evt_test_setup,
     .fini = evt_test_teardown)
{
    evt_test_payload_t p = {1, 1};

    nest_setup(nest_r2_free_cb);
    cr_assert_eq(mca_base_event_set_dropped_handler(nest_r2, drop_log), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_raise(nest_ev, NULL, &p), OPAL_SUCCESS);
    cr_expect_eq(nest_r2_calls, 1);
    /* two raises while r2 lived: one delivered (nested), one dropped (outer) */
    cr_expect_eq(dropped_seen, 1, "outer raise neither delivered nor dropped (%lld)",
                 (long long) dropped_seen);
    cr_assert_eq(order_n, 2);
    cr_expect_eq(order_log[0], 1, "drop not reported before the free callback");
    cr_expect_eq(order_log[1], 2);
}
