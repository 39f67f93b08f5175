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
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
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
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_sender_t who;
    const void *b;

    pmixtest_who(&who, host, rank);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &who, 65536), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, seq, flags), OPAL_SUCCESS);
    for (int i = 0; i < nrec; ++i) {
        pmixtest_payload_t p;
        mca_base_event_record_t r = pmixtest_record(ev, &p, (uint64_t) i);
        cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r), OPAL_SUCCESS);
    }
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &b, len), OPAL_SUCCESS);
    *buf = malloc(*len);
    memcpy(*buf, b, *len);
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* The PMIx source of a notification from @p rank of the test job. */
static pmix_proc_t source_of(uint32_t rank)
{
    pmix_proc_t p;

    PMIX_LOAD_PROCID(&p, "pmixtest-job", rank);
    return p;
}

/* A batch sent by the rank it names. */
static void feed(ompi_evt_pmix_sink_t *sink, const char *host, uint32_t rank, uint64_t seq,
                 uint32_t flags, int nrec)
{
    pmix_proc_t from = source_of(rank);
    void *buf;
    size_t len;

    make_batch(host, rank, seq, flags, nrec, &buf, &len);
    ompi_evt_pmix_sink_take(sink, &from, buf, len);
    free(buf);
}

TestSuite(pmix_sink, .init = setup, .fini = teardown);

/* Batches out of order (PMIx runs handlers on several threads): a late
 * batch fills its gap and is written, a true repeat is a duplicate, and
 * the missing count follows what is still missing. */
Test(pmix_sink, late_batches_fill_gaps)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[1] = {0};

    cr_assert_eq(ompi_evt_pmix_sink_test_open(&sink, dir, "nodeA", "pmixtest-job", peers, 1),
                 OPAL_SUCCESS);
    feed(&sink, "nodeA", 0, 0, 0, 1);
    feed(&sink, "nodeA", 0, 3, 0, 1); /* 1 and 2 not yet */
    cr_assert_eq(atomic_load(&sink.missing), 2);
    feed(&sink, "nodeA", 0, 2, 0, 1); /* late */
    cr_assert_eq(atomic_load(&sink.missing), 1);
    cr_assert_eq(atomic_load(&sink.duplicates), 0);
    feed(&sink, "nodeA", 0, 2, 0, 1); /* a repeat */
    cr_assert_eq(atomic_load(&sink.duplicates), 1);
    feed(&sink, "nodeA", 0, 1, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 1); /* late, and FINAL */
    cr_assert_eq(atomic_load(&sink.missing), 0);
    cr_assert_eq(atomic_load(&sink.batches), 4);
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns() + 5000000000LL), 0);
    ompi_evt_pmix_sink_close(&sink, 1000);
}

/* A sender that numbers a batch near UINT64_MAX (forged, or broken): the
 * count of missing batches stays at its most, it does not wrap below what
 * the other senders are missing. */
Test(pmix_sink, a_huge_batch_number_saturates_the_missing_count)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[2] = {0, 1};

    cr_assert_eq(ompi_evt_pmix_sink_test_open(&sink, dir, "nodeA", "pmixtest-job", peers, 2),
                 OPAL_SUCCESS);
    feed(&sink, "nodeA", 0, 0, 0, 1);
    feed(&sink, "nodeA", 0, 1, 0, 1);
    feed(&sink, "nodeA", 0, 3, 0, 1); /* 2 never comes */
    cr_assert_eq(atomic_load(&sink.missing), 1);
    feed(&sink, "nodeA", 1, UINT64_MAX, 0, 1);
    cr_assert_eq(atomic_load(&sink.missing), ULONG_MAX);
    feed(&sink, "nodeA", 1, 0, 0, 1); /* late: nothing can tell which are still missing */
    cr_assert_eq(atomic_load(&sink.missing), ULONG_MAX);
    feed(&sink, "nodeA", 0, 4, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 1);
    feed(&sink, "nodeA", 1, 1, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 1);
    cr_assert_eq(atomic_load(&sink.missing), ULONG_MAX);
    ompi_evt_pmix_sink_close(&sink, 1000);
}

Test(pmix_sink, appends_valid_batches_of_its_node)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[2] = {0, 1};
    mca_common_evt_nodefile_reader_t rd;
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
    {
        pmix_proc_t from = source_of(0);
        ompi_evt_pmix_sink_take(&sink, &from, garbage, sizeof(garbage));
    }
    cr_assert_eq(atomic_load(&sink.batches), 4);
    cr_assert_eq(atomic_load(&sink.duplicates), 1);
    cr_assert_eq(atomic_load(&sink.foreign), 1);
    cr_assert_eq(atomic_load(&sink.missing), 2);
    cr_assert_eq(atomic_load(&sink.rejected), 1);
    /* nobody said FINAL yet */
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns() + 50000000LL), 2);
    feed(&sink, "nodeA", 1, 4, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 0);
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns()), 1);
    feed(&sink, "nodeA", 0, 2, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 1);
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns() + 5000000000LL), 0);
    ompi_evt_pmix_sink_close(&sink, 1000);

    snprintf(path, sizeof(path), "%s/nodeA.evt", dir);
    cr_assert_eq(mca_common_evt_nodefile_reader_open(&rd, path), OPAL_SUCCESS);
    cr_assert_str_eq(rd.host, "nodeA");
    while (OPAL_SUCCESS == mca_common_evt_nodefile_reader_next(&rd, &b, &len, NULL)) {
        mca_common_evt_wire_batch_t batch;
        memset(&batch, 0, sizeof(batch));
        cr_assert_eq(mca_common_evt_wire_decode(b, len, &batch), OPAL_SUCCESS);
        cr_assert_str_eq(batch.sender.host, "nodeA");
        mca_common_evt_wire_batch_destruct(&batch);
        ++frames;
    }
    cr_assert_eq(frames, 6);
    cr_assert_eq(rd.stats.damaged, 0);
    mca_common_evt_nodefile_reader_close(&rd);
}

Test(pmix_sink, waits_at_most_until_the_deadline)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[3] = {0, 1, 2};
    int64_t t0;

    cr_assert_eq(ompi_evt_pmix_sink_test_open(&sink, dir, "n", "pmixtest-job", peers, 3),
                 OPAL_SUCCESS);
    feed(&sink, "n", 1, 0, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 1);
    /* a FINAL from a rank that is not one of the awaited peers does not count */
    feed(&sink, "n", 7, 0, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 1);
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

/* Frames of the node file of @p host: per rank, the batch numbers seen,
 * the records and drops of event "a", and the batches flagged NOT_STORED. */
typedef struct {
    uint64_t seqs[4][64];
    int nseqs[4];
    uint64_t records[4], drops[4], not_stored[4];
    int final[4];
} sink_content_t;

static void read_back(const char *host, sink_content_t *c)
{
    mca_common_evt_nodefile_reader_t rd;
    char path[512];
    const void *b;
    size_t len;

    memset(c, 0, sizeof(*c));
    snprintf(path, sizeof(path), "%s/%s.evt", dir, host);
    cr_assert_eq(mca_common_evt_nodefile_reader_open(&rd, path), OPAL_SUCCESS, "%s", rd.error);
    while (OPAL_SUCCESS == mca_common_evt_nodefile_reader_next(&rd, &b, &len, NULL)) {
        mca_common_evt_wire_batch_t batch;
        mca_common_evt_wire_record_t rec;
        size_t cursor = 0;
        uint32_t r;

        memset(&batch, 0, sizeof(batch));
        cr_assert_eq(mca_common_evt_wire_decode(b, len, &batch), OPAL_SUCCESS);
        r = batch.sender.rank;
        cr_assert_lt(r, 4);
        cr_assert_lt(c->nseqs[r], 64);
        c->seqs[r][c->nseqs[r]++] = batch.seq;
        while (mca_common_evt_wire_batch_next_record(&batch, &cursor, &rec)) {
            c->records[r]++;
        }
        for (uint32_t i = 0; i < batch.num_drops; ++i) {
            c->drops[r] += batch.drops[i].count;
        }
        c->not_stored[r] += 0 != (batch.flags & MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED);
        c->final[r] += 0 != (batch.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL);
        mca_common_evt_wire_batch_destruct(&batch);
    }
    cr_assert_eq(rd.stats.damaged, 0, "%s", rd.error);
    mca_common_evt_nodefile_reader_close(&rd);
}

/* Another process of the job writes a batch in rank 0's name (a batch
 * number far ahead, flagged FINAL), and one in another job's name: both
 * are refused, rank 0's own batches all still count, and rank 0 is still
 * awaited until its own FINAL. */
Test(pmix_sink, refuses_a_batch_its_source_did_not_send)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[2] = {0, 1};
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_sender_t who;
    pmix_proc_t rank1 = source_of(1);
    sink_content_t c;
    const void *b;
    void *buf;
    size_t len;

    cr_assert_eq(ompi_evt_pmix_sink_test_open(&sink, dir, "nodeF", "pmixtest-job", peers, 2),
                 OPAL_SUCCESS);
    feed(&sink, "nodeF", 0, 0, 0, 5);
    /* from rank 1, claiming rank 0 */
    make_batch("nodeF", 0, 1000, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 7, &buf, &len);
    ompi_evt_pmix_sink_take(&sink, &rank1, buf, len);
    free(buf);
    /* from rank 1, claiming rank 1 of another job */
    pmixtest_who(&who, "nodeF", 1);
    snprintf(who.nspace, sizeof(who.nspace), "other-job");
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &who, 65536), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &b, &len), OPAL_SUCCESS);
    ompi_evt_pmix_sink_take(&sink, &rank1, b, len);
    mca_common_evt_wire_encoder_destruct(&enc);
    /* without a source nothing is believed */
    make_batch("nodeF", 1, 0, 0, 2, &buf, &len);
    ompi_evt_pmix_sink_take(&sink, NULL, buf, len);
    free(buf);
    cr_assert_eq(atomic_load(&sink.forged), 3);
    /* rank 0 is not done: the forged FINAL did not count */
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns()), 2);
    feed(&sink, "nodeF", 0, 1, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 3);
    feed(&sink, "nodeF", 1, 0, MCA_COMMON_EVT_WIRE_FLAG_FINAL, 2);
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns() + 5000000000LL), 0);
    cr_assert_eq(atomic_load(&sink.duplicates), 0);
    ompi_evt_pmix_sink_close(&sink, 1000);

    read_back("nodeF", &c);
    cr_assert_eq(c.nseqs[0], 2);
    cr_assert_eq(c.seqs[0][0], 0);
    cr_assert_eq(c.seqs[0][1], 1);
    cr_assert_eq(c.records[0], 8);
    cr_assert_eq(c.nseqs[1], 1);
    cr_assert_eq(c.records[1], 2);
}

/* A file that cannot grow (RLIMIT_FSIZE: the same refusal as a full file
 * system, without root): every batch still has its number in the file,
 * those that did not fit as counts of dropped events, flagged NOT_STORED,
 * so that records + drops == what was sent, and the FINAL flags stay. */
Test(pmix_sink, keeps_what_does_not_fit_as_drops)
{
    ompi_evt_pmix_sink_t sink;
    const uint32_t peers[2] = {0, 1};
    struct rlimit lim = {.rlim_cur = OMPI_EVT_PMIX_SINK_RESERVE + 48 * 1024,
                         .rlim_max = RLIM_INFINITY};
    const int nbatches = 30, nrec = 200;
    sink_content_t c;

    (void) getrlimit(RLIMIT_FSIZE, &lim);
    lim.rlim_cur = OMPI_EVT_PMIX_SINK_RESERVE + 48 * 1024;
    /* a write past the limit must fail, not kill the test (it should not
     * happen: the sink checks first) */
    signal(SIGXFSZ, SIG_IGN);
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    cr_assert_eq(ompi_evt_pmix_sink_test_open(&sink, dir, "nodeS", "pmixtest-job", peers, 2),
                 OPAL_SUCCESS);
    for (int i = 0; i < nbatches; ++i) {
        const uint32_t flags = nbatches - 1 == i ? MCA_COMMON_EVT_WIRE_FLAG_FINAL : 0;
        feed(&sink, "nodeS", 0, (uint64_t) i, flags, nrec);
        feed(&sink, "nodeS", 1, (uint64_t) i, flags, nrec);
    }
    cr_assert_eq(ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns() + 5000000000LL), 0);
    cr_assert_gt(atomic_load(&sink.unstored), 0);
    cr_assert_eq(atomic_load(&sink.uncounted), 0);
    ompi_evt_pmix_sink_close(&sink, 1000);

    read_back("nodeS", &c);
    for (int r = 0; r < 2; ++r) {
        cr_assert_eq(c.nseqs[r], nbatches, "rank %d: %d batches in the file", r, c.nseqs[r]);
        for (int i = 0; i < nbatches; ++i) {
            cr_assert_eq(c.seqs[r][i], (uint64_t) i);
        }
        cr_assert_eq(c.records[r] + c.drops[r], (uint64_t) (nbatches * nrec),
                     "rank %d: %llu records + %llu drops", r, (unsigned long long) c.records[r],
                     (unsigned long long) c.drops[r]);
        cr_assert_gt(c.not_stored[r], 0);
        cr_assert_eq(c.drops[r], c.not_stored[r] * nrec);
        cr_assert_eq(c.final[r], 1);
    }
}
