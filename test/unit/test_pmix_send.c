/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: evt/pmix's sender (records -> batches -> notifications) with a
 * fake PMIx_Notify_event: batching on size, time and finalize, the in-flight
 * cap, refused and failed notifications counted back as drops, the server
 * gone, the unconnected start, the notification attributes. */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <time.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_event_delivery.h"
#include "test_pmix_common.h"

static mca_base_event_t *ev_a, *ev_b;
static ompi_evt_pmix_sender_t s;

static void setup(void)
{
    cr_assert_eq(pmixtest_engine_start(), 0);
    ev_a = pmixtest_event("a");
    ev_b = pmixtest_event("b");
    cr_assert_not_null(ev_a);
    cr_assert_not_null(ev_b);
    fake_reset(FAKE_COMPLETE);
}

static void build(size_t batch_bytes, int max_inflight, bool connect)
{
    ompi_evt_pmix_send_params_t p;
    mca_common_evt_wire_sender_t who;

    pmixtest_sender_params(&p, batch_bytes, max_inflight);
    pmixtest_who(&who, "hostA", 3);
    cr_assert_eq(ompi_evt_pmix_sender_construct(&s, &who, &p), OPAL_SUCCESS);
    if (connect) {
        ompi_evt_pmix_sender_connect(&s);
    }
}

static int consume_n(mca_base_event_t *ev, uint64_t from, uint64_t n)
{
    for (uint64_t i = from; i < from + n; ++i) {
        pmixtest_payload_t p;
        mca_base_event_record_t r = pmixtest_record(ev, &p, i);
        int rc = ompi_evt_pmix_sender_consume(&s, &r);
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    return OPAL_SUCCESS;
}

TestSuite(pmix_send, .init = setup);

Test(pmix_send, every_record_once_in_order_in_numbered_batches)
{
    build(4096, 8, true);
    cr_assert_eq(consume_n(ev_a, 0, 2000), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    /* 2000 records of 24 payload bytes do not fit in one 4 KiB batch */
    cr_assert_gt(fake.nbatches, 5);
    cr_assert_eq(fake_count_records("ompi.pmixtest_a", true), 2000);
    for (int i = 0; i < fake.nbatches; ++i) {
        mca_common_evt_wire_batch_t b;
        cr_assert_eq(fake_decode(i, &b), OPAL_SUCCESS);
        cr_assert_eq(b.seq, (uint64_t) i);
        cr_assert_eq(b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL, 0);
        cr_assert_str_eq(b.sender.host, "hostA");
        cr_assert_eq(b.sender.rank, 3);
        cr_assert_leq(fake.len[i], 4096);
        mca_common_evt_wire_batch_destruct(&b);
    }
    cr_assert_eq(atomic_load(&s.stats.records_sent), 2000);
    cr_assert_eq(atomic_load(&s.stats.batches_sent), (unsigned long) fake.nbatches);
    cr_assert_eq(atomic_load(&s.stats.records_dropped), 0);
    /* flush with nothing open sends nothing */
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 0);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, attributes_of_every_notification)
{
    build(4096, 2, true);
    cr_assert_eq(consume_n(ev_a, 0, 1), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert_eq(fake.code, MCA_COMMON_EVT_WIRE_PMIX_STATUS);
    cr_assert_eq(fake.range, PMIX_RANGE_LOCAL);
    cr_assert(fake.non_default);
    cr_assert(fake.do_not_cache);
    cr_assert_not(fake.custom);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, custom_range_names_the_targets)
{
    ompi_evt_pmix_send_params_t p;
    mca_common_evt_wire_sender_t who;
    pmix_proc_t tool;

    PMIX_LOAD_PROCID(&tool, "a-tool", 0);
    pmixtest_sender_params(&p, 4096, 2);
    p.range = PMIX_RANGE_CUSTOM;
    p.custom = &tool;
    p.ncustom = 1;
    pmixtest_who(&who, "hostA", 0);
    cr_assert_eq(ompi_evt_pmix_sender_construct(&s, &who, &p), OPAL_SUCCESS);
    ompi_evt_pmix_sender_connect(&s);
    cr_assert_eq(consume_n(ev_a, 0, 1), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert_eq(fake.range, PMIX_RANGE_CUSTOM);
    cr_assert(fake.custom);
    cr_assert_eq(fake.ncustom, 1);
    cr_assert_str_eq(fake.custom_ns, "a-tool");
    cr_assert_eq(fake.custom_rank, 0);
    ompi_evt_pmix_sender_destruct(&s);
    /* custom without targets is refused */
    p.ncustom = 0;
    cr_assert_eq(ompi_evt_pmix_sender_construct(&s, &who, &p), OPAL_ERR_BAD_PARAM);
}

Test(pmix_send, inflight_cap_holds_records_back)
{
    int rc = OPAL_SUCCESS;
    uint64_t i;

    fake_reset(FAKE_HOLD);
    build(4096, 2, true);
    for (i = 0; i < 100000 && OPAL_SUCCESS == rc; ++i) {
        rc = consume_n(ev_a, i, 1);
    }
    /* two batches in flight, the third full: the record waits */
    cr_assert_eq(rc, OPAL_ERR_WOULD_BLOCK);
    cr_assert_eq(fake.calls, 2);
    cr_assert_eq(atomic_load(&s.inflight), 2);
    cr_assert_eq(atomic_load(&s.stats.records_dropped), 0);
    cr_assert_eq(consume_n(ev_a, i - 1, 1), OPAL_ERR_WOULD_BLOCK);
    cr_assert_eq(fake.calls, 2, "no notification while none completed");
    /* one completes: the full batch leaves, the waiting record goes in */
    cr_assert(fake_complete_one(PMIX_SUCCESS));
    cr_assert_eq(consume_n(ev_a, i - 1, 1), OPAL_SUCCESS);
    cr_assert_eq(fake.calls, 3);
    cr_assert_gt(atomic_load(&s.stats.would_block), 0);
    while (fake_complete_one(PMIX_SUCCESS)) {
    }
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, refused_batch_counted_and_reported_next)
{
    mca_common_evt_wire_batch_t b;

    build(4096, 4, true);
    fake.status = PMIX_ERROR;
    fake.refuse_next = 1;
    cr_assert_eq(consume_n(ev_a, 0, 10), OPAL_SUCCESS);
    cr_assert_eq(consume_n(ev_b, 0, 3), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert_eq(atomic_load(&s.stats.batches_failed), 1);
    cr_assert_eq(atomic_load(&s.stats.records_dropped), 13);
    /* not lost: PMIX_ERROR is not the server going away */
    cr_assert_eq(atomic_load(&s.state), OMPI_EVT_PMIX_SEND_CONNECTED);
    cr_assert_eq(consume_n(ev_a, 10, 5), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert_eq(fake.nbatches, 2);
    cr_assert_eq(fake_decode(1, &b), OPAL_SUCCESS);
    cr_assert_eq(b.seq, 1, "the refused batch's number is not reused");
    cr_assert_eq(b.num_records, 5);
    cr_assert_eq(batch_drops(&b, "ompi.pmixtest_a"), 10);
    cr_assert_eq(batch_drops(&b, "ompi.pmixtest_b"), 3);
    mca_common_evt_wire_batch_destruct(&b);
    /* the counts were taken from the engine */
    cr_assert_eq(mca_base_event_take_export_dropped(ev_a), 0);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, failed_completion_counted_and_reported_next)
{
    mca_common_evt_wire_batch_t b;

    fake_reset(FAKE_HOLD);
    build(4096, 4, true);
    cr_assert_eq(consume_n(ev_b, 0, 7), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert(fake_complete_one(PMIX_ERR_TIMEOUT));
    cr_assert_eq(atomic_load(&s.stats.records_dropped), 7);
    cr_assert_eq(atomic_load(&s.inflight), 0);
    cr_assert_eq(consume_n(ev_a, 0, 1), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert(fake_complete_one(PMIX_SUCCESS));
    cr_assert_eq(fake_decode(1, &b), OPAL_SUCCESS);
    cr_assert_eq(batch_drops(&b, "ompi.pmixtest_b"), 7);
    mca_common_evt_wire_batch_destruct(&b);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, server_gone_stops_exporting_and_counts)
{
    build(4096, 4, true);
    fake.mode = FAKE_REFUSE;
    fake.status = PMIX_ERR_UNREACH;
    cr_assert_eq(consume_n(ev_a, 0, 20), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert_eq(atomic_load(&s.state), OMPI_EVT_PMIX_SEND_LOST);
    cr_assert_eq(fake.calls, 1);
    /* from now on every record is counted, nothing sent */
    cr_assert_eq(consume_n(ev_a, 20, 5), OPAL_ERR_UNREACH);
    for (uint64_t i = 21; i < 25; ++i) {
        cr_assert_eq(consume_n(ev_a, i, 1), OPAL_ERR_UNREACH);
    }
    cr_assert_eq(ompi_evt_pmix_sender_progress(&s), 0);
    cr_assert_eq(ompi_evt_pmix_sender_finish(&s, ompi_evt_pmix_now_ns() + 1000000000LL),
                 OPAL_ERR_UNREACH);
    cr_assert_eq(fake.calls, 1);
    cr_assert_eq(atomic_load(&s.stats.records_dropped), 25);
    cr_assert_eq(mca_base_event_take_export_dropped(ev_a), 25);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, batch_leaves_after_the_flush_interval)
{
    ompi_evt_pmix_send_params_t p;
    mca_common_evt_wire_sender_t who;

    pmixtest_sender_params(&p, 65536, 4);
    p.flush_interval_ns = 100 * 1000000LL;
    pmixtest_who(&who, "hostA", 0);
    cr_assert_eq(ompi_evt_pmix_sender_construct(&s, &who, &p), OPAL_SUCCESS);
    ompi_evt_pmix_sender_connect(&s);
    cr_assert_eq(consume_n(ev_a, 0, 3), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_progress(&s), 0);
    cr_assert_eq(fake.calls, 0, "younger than the interval: it waits");
    usleep(150 * 1000);
    cr_assert_eq(ompi_evt_pmix_sender_progress(&s), 1);
    cr_assert_eq(fake.calls, 1);
    cr_assert_eq(fake_count_records("ompi.pmixtest_a", true), 3);
    ompi_evt_pmix_sender_destruct(&s);
}

/* A batch leaves once the interval has passed, never later (its age is
 * read on CLOCK_MONOTONIC: a coarse clock's lag would delay it). */
Test(pmix_send, batch_waits_no_longer_than_the_flush_interval)
{
    ompi_evt_pmix_send_params_t p;
    mca_common_evt_wire_sender_t who;

    pmixtest_sender_params(&p, 65536, 4);
    p.flush_interval_ns = 10 * 1000000LL;
    pmixtest_who(&who, "hostA", 0);
    cr_assert_eq(ompi_evt_pmix_sender_construct(&s, &who, &p), OPAL_SUCCESS);
    ompi_evt_pmix_sender_connect(&s);
    for (int i = 0; i < 20; ++i) {
        cr_assert_eq(consume_n(ev_a, 0, 1), OPAL_SUCCESS);
        usleep(10 * 1000 + 200);
        cr_assert_eq(ompi_evt_pmix_sender_progress(&s), 1, "round %d: the interval passed", i);
        cr_assert_eq(fake.calls, i + 1);
    }
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, drops_travel_without_records)
{
    ompi_evt_pmix_send_params_t p;
    mca_common_evt_wire_sender_t who;
    mca_common_evt_wire_batch_t b;

    pmixtest_sender_params(&p, 65536, 4);
    p.flush_interval_ns = 20 * 1000000LL;
    pmixtest_who(&who, "hostA", 0);
    cr_assert_eq(ompi_evt_pmix_sender_construct(&s, &who, &p), OPAL_SUCCESS);
    ompi_evt_pmix_sender_connect(&s);
    /* records that never reached the exporter (a full ring) */
    mca_base_event_count_export_dropped(ev_b, 11);
    usleep(30 * 1000);
    (void) ompi_evt_pmix_sender_progress(&s); /* polls the counts */
    usleep(30 * 1000);
    (void) ompi_evt_pmix_sender_progress(&s); /* the batch is old enough */
    cr_assert_eq(fake.nbatches, 1);
    cr_assert_eq(fake_decode(0, &b), OPAL_SUCCESS);
    cr_assert_eq(b.num_records, 0);
    cr_assert_eq(batch_drops(&b, "ompi.pmixtest_b"), 11);
    mca_common_evt_wire_batch_destruct(&b);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, finish_sends_a_final_batch_with_the_last_counts)
{
    mca_common_evt_wire_batch_t b;

    build(65536, 4, true);
    cr_assert_eq(consume_n(ev_a, 0, 5), OPAL_SUCCESS);
    mca_base_event_count_export_dropped(ev_a, 4);
    cr_assert_eq(ompi_evt_pmix_sender_finish(&s, ompi_evt_pmix_now_ns() + 1000000000LL),
                 OPAL_SUCCESS);
    cr_assert_eq(fake.nbatches, 1, "the open batch itself becomes the FINAL one");
    cr_assert_eq(fake_decode(fake.nbatches - 1, &b), OPAL_SUCCESS);
    cr_assert_neq(b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL, 0);
    cr_assert_eq(b.num_records, 5);
    cr_assert_eq(batch_drops(&b, "ompi.pmixtest_a"), 4);
    mca_common_evt_wire_batch_destruct(&b);
    /* after the end, records are counted, not sent */
    cr_assert_eq(consume_n(ev_a, 5, 1), OPAL_ERR_UNREACH);
    cr_assert_eq(fake.calls, 1);
    cr_assert_eq(mca_base_event_take_export_dropped(ev_a), 1);
    ompi_evt_pmix_sender_destruct(&s);
}

/* After hold() (MPI_Finalize called) a drain point's flush leaves the open
 * batch, so the last records go in the FINAL batch: one notification at
 * the end. A batch that fills up still leaves; nothing is lost or
 * reordered. */
Test(pmix_send, held_batch_becomes_the_final_one)
{
    mca_common_evt_wire_batch_t b;
    uint64_t sent = 0;

    build(4096, 8, true);
    cr_assert_eq(consume_n(ev_a, 0, 3), OPAL_SUCCESS);
    ompi_evt_pmix_sender_hold(&s);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 0, "held: the flush leaves the batch");
    cr_assert_eq(fake.calls, 0);
    /* more than a 4 KiB batch holds: full batches still leave */
    cr_assert_eq(consume_n(ev_a, 3, 500), OPAL_SUCCESS);
    cr_assert_gt(fake.nbatches, 0, "a full batch leaves while held");
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 0);
    cr_assert_eq(ompi_evt_pmix_sender_finish(&s, ompi_evt_pmix_now_ns() + 1000000000LL),
                 OPAL_SUCCESS);
    for (int i = 0; i < fake.nbatches; ++i) {
        cr_assert_eq(fake_decode(i, &b), OPAL_SUCCESS);
        cr_assert_eq(b.seq, (uint64_t) i);
        cr_assert_eq(0 != (b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL), i == fake.nbatches - 1,
                     "batch %d of %d: only the last is FINAL", i, fake.nbatches);
        cr_assert_gt(b.num_records, 0, "batch %d: the held records went with a batch", i);
        sent += b.num_records;
        mca_common_evt_wire_batch_destruct(&b);
    }
    cr_assert_eq(sent, 503);
    cr_assert_eq(fake_count_records("ompi.pmixtest_a", true), 503, "every record once, in order");
    cr_assert_eq(atomic_load(&s.stats.records_dropped), 0);
    ompi_evt_pmix_sender_destruct(&s);
}

/* Offset samples (clock alignment): the FINAL batch carries all of them,
 * whatever the fill of the open batch when the last one is added (k
 * records before it, across a whole batch, for batch sizes over a record's
 * size: some leave no room for the sample in the open batch, which then
 * leaves at once). */
Test(pmix_send, final_batch_carries_every_offset_sample)
{
    mca_common_evt_wire_offset_t o1 = {.local_realtime_ns = 10,
                                       .offset_ns = -5,
                                       .uncertainty_ns = 1};
    mca_common_evt_wire_offset_t o2 = {.local_realtime_ns = 20,
                                       .offset_ns = -6,
                                       .uncertainty_ns = 2};
    int no_room = 0;

    for (size_t bytes = 4096; bytes < 4096 + 32; ++bytes) {
        for (uint64_t k = 100; k < 180; ++k) {
            mca_common_evt_wire_batch_t b;
            int before;

            fake_reset(FAKE_COMPLETE);
            build(bytes, 4, true);
            cr_assert_eq(ompi_evt_pmix_sender_add_offset(&s, &o1), OPAL_SUCCESS);
            cr_assert_eq(consume_n(ev_a, 0, k), OPAL_SUCCESS);
            before = fake.nbatches;
            cr_assert_eq(ompi_evt_pmix_sender_add_offset(&s, &o2), OPAL_SUCCESS);
            no_room += fake.nbatches > before;
            cr_assert_eq(ompi_evt_pmix_sender_finish(&s, ompi_evt_pmix_now_ns() + 1000000000LL),
                         OPAL_SUCCESS);
            cr_assert_eq(fake_decode(fake.nbatches - 1, &b), OPAL_SUCCESS);
            cr_assert_neq(b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL, 0);
            cr_assert_eq(b.num_offsets, 2, "bytes=%zu k=%llu", bytes, (unsigned long long) k);
            cr_expect_eq(b.offsets[1].offset_ns, -6);
            mca_common_evt_wire_batch_destruct(&b);
            cr_assert_eq(fake_count_records("ompi.pmixtest_a", true), (long) k);
            ompi_evt_pmix_sender_destruct(&s);
        }
    }
    cr_expect_gt(no_room, 0, "some fill left no room for the sample");
}

Test(pmix_send, finish_without_records_still_says_final)
{
    mca_common_evt_wire_batch_t b;

    build(65536, 4, true);
    cr_assert_eq(ompi_evt_pmix_sender_finish(&s, ompi_evt_pmix_now_ns() + 1000000000LL),
                 OPAL_SUCCESS);
    cr_assert_eq(fake.nbatches, 1);
    cr_assert_eq(fake_decode(0, &b), OPAL_SUCCESS);
    cr_assert_neq(b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL, 0);
    cr_assert_eq(b.num_records, 0);
    cr_assert_eq(b.seq, 0);
    mca_common_evt_wire_batch_destruct(&b);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, finish_is_bounded)
{
    int64_t t0;
    int rc;

    fake_reset(FAKE_HOLD);
    build(65536, 4, true);
    cr_assert_eq(consume_n(ev_a, 0, 5), OPAL_SUCCESS);
    t0 = ompi_evt_pmix_now_ns();
    rc = ompi_evt_pmix_sender_finish(&s, t0 + 200 * 1000000LL);
    cr_assert_eq(rc, OPAL_ERR_TIMEOUT);
    cr_assert_lt(ompi_evt_pmix_now_ns() - t0, 2000 * 1000000LL);
    cr_assert_eq(atomic_load(&s.inflight), 1);
    /* the late completion still finds valid memory */
    cr_assert(fake_complete_one(PMIX_SUCCESS));
    cr_assert_eq(atomic_load(&s.inflight), 0);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, unconnected_batches_wait_then_leave_in_order)
{
    build(4096, 8, false);
    cr_assert_eq(consume_n(ev_a, 0, 500), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert_eq(ompi_evt_pmix_sender_progress(&s), 0);
    cr_assert_eq(fake.calls, 0);
    ompi_evt_pmix_sender_connect(&s);
    cr_assert_gt(fake.calls, 1);
    cr_assert_eq(fake_count_records("ompi.pmixtest_a", true), 500);
    for (int i = 0; i < fake.nbatches; ++i) {
        mca_common_evt_wire_batch_t b;
        cr_assert_eq(fake_decode(i, &b), OPAL_SUCCESS);
        cr_assert_eq(b.seq, (uint64_t) i);
        mca_common_evt_wire_batch_destruct(&b);
    }
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, unconnected_and_full_counts_instead_of_waiting)
{
    uint64_t i;
    int rc = OPAL_SUCCESS;

    build(4096, 1, false);
    for (i = 0; i < 100000 && OPAL_SUCCESS == rc; ++i) {
        rc = consume_n(ev_a, i, 1);
    }
    cr_assert_eq(rc, OPAL_ERR_TEMP_OUT_OF_RESOURCE, "never OPAL_ERR_WOULD_BLOCK unconnected");
    cr_assert_eq(atomic_load(&s.stats.records_dropped), 1);
    /* never connected: what waits is counted at the end */
    cr_assert_eq(ompi_evt_pmix_sender_finish(&s, ompi_evt_pmix_now_ns() + 100000000LL),
                 OPAL_ERR_UNREACH);
    cr_assert_eq(fake.calls, 0);
    cr_assert_eq(atomic_load(&s.stats.records_dropped), i);
    cr_assert_eq(mca_base_event_take_export_dropped(ev_a), i);
    ompi_evt_pmix_sender_destruct(&s);
}

Test(pmix_send, identity_changes_later_batches)
{
    mca_common_evt_wire_sender_t who;
    mca_common_evt_wire_batch_t b;

    build(65536, 4, false);
    cr_assert_eq(consume_n(ev_a, 0, 2), OPAL_SUCCESS);
    pmixtest_who(&who, "nodeB", 9);
    cr_assert_eq(ompi_evt_pmix_sender_set_identity(&s, &who), OPAL_SUCCESS);
    cr_assert_eq(consume_n(ev_a, 2, 3), OPAL_SUCCESS);
    ompi_evt_pmix_sender_connect(&s);
    cr_assert_eq(ompi_evt_pmix_sender_flush(&s), 1);
    cr_assert_eq(fake.nbatches, 2);
    cr_assert_eq(fake_decode(0, &b), OPAL_SUCCESS);
    cr_assert_str_eq(b.sender.host, "hostA");
    cr_assert_eq(b.num_records, 2);
    mca_common_evt_wire_batch_destruct(&b);
    cr_assert_eq(fake_decode(1, &b), OPAL_SUCCESS);
    cr_assert_str_eq(b.sender.host, "nodeB");
    cr_assert_eq(b.sender.rank, 9);
    cr_assert_eq(b.seq, 1);
    cr_assert_eq(b.num_records, 3);
    mca_common_evt_wire_batch_destruct(&b);
    ompi_evt_pmix_sender_destruct(&s);
}
