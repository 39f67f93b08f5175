/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: the evt/pmix module with the engine and the kit, as the evt
 * base installs it (without loading the DSO), a fake PMIx_Notify_event, and
 * an environment that says "PMIx client" (no server: the module's sender is
 * connected by the test seam). */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/pmix/evt_pmix.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "test_pmix_common.h"

static mca_base_event_t *ev_a, *ev_b;

/* Install evt/pmix with @p events and @p ring_size (0: default). */
static void start(const char *events, int ring_size)
{
    ompi_evt_base_module_t *m;
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    int prio = -1;

    setenv("PMIX_NAMESPACE", "pmixtest-job", 1);
    setenv("PMIX_RANK", "5", 1);
    setenv("PMIX_SERVER_URI41", "pmix-server.1;tcp4://127.0.0.1:1", 1);
    cr_assert_eq(pmixtest_engine_start(), 0);
    ev_a = pmixtest_event("a");
    ev_b = pmixtest_event("b");
    cr_assert_eq(c->super.evtc_version.mca_register_component_params(), OMPI_SUCCESS);
    cr_assert_eq(c->super.evtc_version.mca_open_component(), OMPI_SUCCESS);
    c->events = (char *) events;
    c->flush_interval = 3600000; /* no timer drain during a test */
    if (0 < ring_size) {
        c->ring_size = ring_size;
    }
    m = c->super.evtc_init(&prio);
    cr_assert_not_null(m);
    cr_assert_eq(prio, OMPI_EVT_PMIX_DEFAULT_PRIORITY);
    cr_assert_eq(ompi_evt_base_install("pmix", m, prio), OMPI_SUCCESS);
    fake_reset(FAKE_COMPLETE);
    cr_assert_not_null(ompi_evt_pmix_test_sender());
}

static void stop(void)
{
    (void) mca_base_event_flush();
    ompi_evt_base_uninstall();
    (void) mca_base_event_finalize();
}

static long delivered;
static void count_cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
                     mca_base_event_cb_safety_t safety, void *ud)
{
    ++delivered;
}

static void raise_n(mca_base_event_t *ev, uint64_t n)
{
    for (uint64_t i = 0; i < n; ++i) {
        pmixtest_payload_t p = {.seq = i, .who = 1};
        (void) mca_base_event_raise(ev, NULL, &p);
    }
}

Test(pmix_module, declines_outside_a_pmix_client)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    const char *why = NULL;
    int prio = -1;

    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_RANK");
    cr_assert_eq(pmixtest_engine_start(), 0);
    cr_assert_not(ompi_evt_pmix_is_client(&why));
    cr_assert_not_null(why);
    cr_assert_eq(c->super.evtc_version.mca_register_component_params(), OMPI_SUCCESS);
    cr_assert_null(c->super.evtc_init(&prio));
}

Test(pmix_module, declines_bad_parameters)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    int prio = -1;

    setenv("PMIX_NAMESPACE", "pmixtest-job", 1);
    setenv("PMIX_RANK", "0", 1);
    setenv("PMIX_SERVER_URI41", "x", 1);
    cr_assert_eq(pmixtest_engine_start(), 0);
    cr_assert_eq(c->super.evtc_version.mca_register_component_params(), OMPI_SUCCESS);
    cr_assert_eq(c->super.evtc_version.mca_open_component(), OMPI_SUCCESS);
    cr_assert_not_null(c->super.evtc_init(&prio));
    c->events = "a,,b";
    cr_assert_null(c->super.evtc_init(&prio));
    c->events = NULL;
    c->batch_bytes = 100;
    cr_assert_null(c->super.evtc_init(&prio));
    c->batch_bytes = 65536;
    c->max_inflight = 0;
    cr_assert_null(c->super.evtc_init(&prio));
    c->max_inflight = 4;
    c->range = OMPI_EVT_PMIX_RANGE_CUSTOM;
    cr_assert_null(c->super.evtc_init(&prio), "custom without a target list");
    c->custom_range = "tool:0";
    cr_assert_not_null(c->super.evtc_init(&prio));
    c->sink = "/nonexistent/folder";
    cr_assert_null(c->super.evtc_init(&prio));
    c->sink = NULL;
    c->ring_size = 5000;
    cr_assert_null(c->super.evtc_init(&prio));
    (void) c->super.evtc_version.mca_close_component();
}

Test(pmix_module, only_exported_events_open_their_gate)
{
    mca_base_event_t *ev_c;

    start("ompi.pmixtest_*,^ompi.pmixtest_b", 0);
    cr_assert(atomic_load(&ev_a->exported));
    cr_assert(mca_base_event_active(ev_a));
    cr_assert_not(atomic_load(&ev_b->exported));
    cr_assert_not(mca_base_event_active(ev_b));
    /* registered after the install: the filter decides too */
    ev_c = pmixtest_event("c");
    cr_assert(atomic_load(&ev_c->exported));
    cr_assert(mca_base_event_active(ev_c));
    stop();
}

Test(pmix_module, exports_and_local_tools_keep_their_callbacks)
{
    mca_base_event_registration_t *h = NULL;
    mca_common_evt_wire_batch_t b;

    start("ompi.pmixtest_a", 0);
    ompi_evt_pmix_sender_connect(ompi_evt_pmix_test_sender());
    cr_assert_eq(mca_base_event_handle_alloc(ev_a, NULL, NULL, &h), OPAL_SUCCESS);
    cr_assert_eq(mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  count_cb),
                 OPAL_SUCCESS);
    raise_n(ev_a, 3000);
    raise_n(ev_b, 10);
    cr_assert_eq(mca_base_event_flush(), OPAL_SUCCESS);
    cr_assert_eq(delivered, 3000);
    cr_assert_eq(fake_count_records("ompi.pmixtest_a", true), 3000);
    cr_assert_eq(fake_count_records("ompi.pmixtest_b", false), 0);
    cr_assert_eq(mca_base_event_handle_free(h, NULL, NULL), OPAL_SUCCESS);
    stop();
    /* the module's end sent a FINAL batch */
    cr_assert_gt(fake.nbatches, 0);
    cr_assert_eq(fake_decode(fake.nbatches - 1, &b), OPAL_SUCCESS);
    cr_assert_neq(b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL, 0);
    mca_common_evt_wire_batch_destruct(&b);
}

Test(pmix_module, a_full_ring_counts_export_drops_that_travel)
{
    long got, drops = 0;

    start(NULL, 4096);
    ompi_evt_pmix_sender_connect(ompi_evt_pmix_test_sender());
    /* nobody drains: 4 KiB hold about 70 records, the rest is dropped */
    raise_n(ev_a, 1000);
    stop();
    got = fake_count_records("ompi.pmixtest_a", true);
    for (int i = 0; i < fake.nbatches; ++i) {
        mca_common_evt_wire_batch_t b;
        cr_assert_eq(fake_decode(i, &b), OPAL_SUCCESS);
        drops += (long) batch_drops(&b, "ompi.pmixtest_a");
        mca_common_evt_wire_batch_destruct(&b);
    }
    cr_assert_gt(got, 10);
    cr_assert_gt(drops, 500);
    cr_assert_eq(got + drops, 1000, "%ld exported + %ld reported dropped", got, drops);
}

Test(pmix_module, unconnected_process_counts_everything)
{
    start(NULL, 0);
    raise_n(ev_a, 100);
    stop();
    cr_assert_eq(fake.calls, 0);
    cr_assert_eq(mca_base_event_take_export_dropped(ev_a), 100);
}
