/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: the node sink's handling of batches (validation, the node's
 * own senders only, duplicates, gaps, FINAL batches awaited), without
 * PMIx: the batches are fed as the PMIx handler would. */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ompi/mca/evt/base/evt_base_nodefile.h"
#include "ompi/mca/evt/pmix/evt_pmix_sink.h"
#include "test_pmix_common.h"

static mca_base_event_t *ev;
static char dir[] = "/tmp/test_pmix_sink.XXXXXX";

static void setup(void)
{
    cr_assert_eq(pmixtest_engine_start(), 0);
    ev = pmixtest_event("a");
    cr_assert_not_null(ev);
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    (void) system(cmd);
}

/* A batch of @p nrec records from (host, rank), numbered seq. */
static void make_batch(const char *host, uint32_t rank, uint64_t seq, uint32_t flags, int nrec,
                       void **buf, size_t *len)
{
    ompi_evt_wire_encoder_t enc;
    ompi_evt_wire_sender_t who;
    const void *b;

    pmixtest_who(&who, host, rank);
    cr_assert_eq(ompi_evt_wire_encoder_construct(&enc, &who, 65536), OPAL_SUCCESS);
    cr_assert_eq(ompi_evt_wire_encoder_begin(&enc, seq, flags), OPAL_SUCCESS);
    for (int i = 0; i < nrec; ++i) {
        pmixtest_payload_t p;
        mca_base_event_record_t r = pmixtest_record(ev, &p, (uint64_t) i);
        cr_assert_eq(ompi_evt_wire_encoder_add_record(&enc, &r), OPAL_SUCCESS);
    }
    cr_assert_eq(ompi_evt_wire_encoder_finish(&enc, &b, len), OPAL_SUCCESS);
    *buf = malloc(*len);
    memcpy(*buf, b, *len);
    ompi_evt_wire_encoder_destruct(&enc);
}

static void feed(ompi_evt_pmix_sink_t *sink, const char *host, uint32_t rank, uint64_t seq,
                 uint32_t flags, int nrec)
{
    void *buf;
    size_t len;

    make_batch(host, rank, seq, flags, nrec, &buf, &len);
    ompi_evt_pmix_sink_take(sink, buf, len);
    free(buf);
}

TestSuite(pmix_sink, .init = setup, .fini = teardown);

Test(pmix_sink, appends_valid_batches_of_its_node)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[2] = {0, 1};
    ompi_evt_nodefile_reader_t rd;
    char path[512], garbage[100];
    const void *b;
    size_t len;
    uint64_t frames = 0;

    cr_assert_eq(ompi_evt_pmix_sink_test_open(&sink, dir, "nodeA", "pmixtest-job", peers, 2),
                 OPAL_SUCCESS);
    feed(&sink, "nodeA", 0, 0, 0, 5);
    feed(&sink, "nodeA", 1, 0, 0, 3);
    feed(&sink, "nodeA", 0, 1, 0, 2);
    feed(&sink, "nodeA", 0, 1, 0, 2); /* twice: a duplicate */
    feed(&sink, "nodeB", 2, 0, 0, 4); /* another node's */
    feed(&sink, "nodeA", 1, 3, 0, 1); /* 1 and 2 never came */
    memset(garbage, 0x5a, sizeof(garbage));
    ompi_evt_pmix_sink_take(&sink, garbage, sizeof(garbage));
    cr_assert_eq(atomic_load(&sink.batches), 4);
    cr_assert_eq(atomic_load(&sink.duplicates), 1);
    cr_assert_eq(atomic_load(&sink.foreign), 1);
    cr_assert_eq(atomic_load(&sink.missing), 2);
    cr_assert_eq(atomic_load(&sink.rejected), 1);
    /* nobody said FINAL yet */
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns() + 50000000LL), 2);
    feed(&sink, "nodeA", 1, 4, OMPI_EVT_WIRE_FLAG_FINAL, 0);
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns()), 1);
    feed(&sink, "nodeA", 0, 2, OMPI_EVT_WIRE_FLAG_FINAL, 1);
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns() + 5000000000LL), 0);
    ompi_evt_pmix_sink_close(&sink, 1000);

    snprintf(path, sizeof(path), "%s/nodeA.evt", dir);
    cr_assert_eq(ompi_evt_nodefile_reader_open(&rd, path), OPAL_SUCCESS);
    cr_assert_str_eq(rd.host, "nodeA");
    while (OPAL_SUCCESS == ompi_evt_nodefile_reader_next(&rd, &b, &len, NULL)) {
        ompi_evt_wire_batch_t batch;
        memset(&batch, 0, sizeof(batch));
        cr_assert_eq(ompi_evt_wire_decode(b, len, &batch), OPAL_SUCCESS);
        cr_assert_str_eq(batch.sender.host, "nodeA");
        ompi_evt_wire_batch_destruct(&batch);
        ++frames;
    }
    cr_assert_eq(frames, 6);
    cr_assert_eq(rd.stats.damaged, 0);
    ompi_evt_nodefile_reader_close(&rd);
}

Test(pmix_sink, waits_at_most_until_the_deadline)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[3] = {0, 1, 2};
    int64_t t0;

    cr_assert_eq(ompi_evt_pmix_sink_test_open(&sink, dir, "n", "pmixtest-job", peers, 3),
                 OPAL_SUCCESS);
    feed(&sink, "n", 1, 0, OMPI_EVT_WIRE_FLAG_FINAL, 1);
    /* a FINAL from a rank that is not one of the awaited peers does not count */
    feed(&sink, "n", 7, 0, OMPI_EVT_WIRE_FLAG_FINAL, 1);
    t0 = ompi_evt_pmix_now_ns();
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, t0 + 100000000LL), 2);
    cr_assert_geq(ompi_evt_pmix_now_ns() - t0, 100000000LL);
    cr_assert_lt(ompi_evt_pmix_now_ns() - t0, 3000000000LL);
    ompi_evt_pmix_sink_close(&sink, 1000);
}

Test(pmix_sink, refuses_an_existing_file)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[1] = {0};

    cr_assert_eq(ompi_evt_pmix_sink_test_open(&sink, dir, "dup", "j", peers, 1), OPAL_SUCCESS);
    ompi_evt_pmix_sink_close(&sink, 1000);
    cr_assert_neq(ompi_evt_pmix_sink_test_open(&sink, dir, "dup", "j", peers, 1), OPAL_SUCCESS);
    cr_assert_not(sink.open);
}
