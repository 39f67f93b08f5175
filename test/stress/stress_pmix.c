/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Stress: evt/pmix's hand-offs between threads, as PMIx makes them.
 *  1. The sender: a drainer thread encodes records (retrying those the
 *     in-flight cap holds back, as the kit's drain does), a "PMIx" thread
 *     completes the notifications in its own time (one in ten with an
 *     error: the batch is counted back as dropped), a "raiser" thread
 *     counts export drops as full rings do. Checked: every record of every
 *     successful batch plus every drop count they carry is exactly what was
 *     encoded plus what was counted dropped, and the last batch is FINAL.
 *  2. The node sink: four threads hand it batches at once (PMIx 4.2 runs
 *     handlers on several threads): every frame of the node file intact,
 *     every FINAL seen.
 * Plain C (TSan). */
#include "ompi_config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "../unit/test_pmix_common.h"
#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/evt/pmix/evt_pmix_sink.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "test/evt_test_check.h"

#define RECORDS   200000
#define EXT_DROPS 5000

static mca_base_event_t *ev_a, *ev_b;
static ompi_evt_pmix_sender_t s;

/* ---- the PMIx thread: a queue of notifications to complete ---- */
typedef struct item_t {
    pmix_op_cbfunc_t cb;
    void *cbdata;
    void *batch;
    size_t len;
    struct item_t *next;
} item_t;
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;
static item_t *q_head, *q_tail;
static bool q_stop;
/* tallies of the successful batches (PMIx thread only) */
static uint64_t got_records, got_drops, got_batches, failed_batches, finals;
static int64_t last_seq = -1;

static pmix_status_t queue_notify(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, const pmix_info_t info[], size_t ninfo,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    item_t *it = calloc(1, sizeof(*it));

    it->cb = cbfunc;
    it->cbdata = cbdata;
    /* PMIx copies the batch before the completion (the slot is reused after) */
    it->len = info[0].value.data.bo.size;
    it->batch = malloc(it->len);
    memcpy(it->batch, info[0].value.data.bo.bytes, it->len);
    pthread_mutex_lock(&q_lock);
    if (NULL == q_tail) {
        q_head = it;
    } else {
        q_tail->next = it;
    }
    q_tail = it;
    pthread_cond_signal(&q_cond);
    pthread_mutex_unlock(&q_lock);
    return PMIX_SUCCESS;
}

static void *pmix_thread(void *arg)
{
    unsigned seed = 7;

    for (;;) {
        item_t *it;
        mca_common_evt_wire_batch_t b;

        pthread_mutex_lock(&q_lock);
        while (NULL == q_head && !q_stop) {
            pthread_cond_wait(&q_cond, &q_lock);
        }
        it = q_head;
        if (NULL == it) {
            pthread_mutex_unlock(&q_lock);
            return NULL;
        }
        q_head = it->next;
        if (NULL == q_head) {
            q_tail = NULL;
        }
        pthread_mutex_unlock(&q_lock);
        if (0 == rand_r(&seed) % 4) {
            sched_yield(); /* completions come late, in batches */
        }
        memset(&b, 0, sizeof(b));
        CHECK(OPAL_SUCCESS == mca_common_evt_wire_decode(it->batch, it->len, &b), "a batch");
        CHECK((int64_t) b.seq > last_seq, "batches in order (%llu after %lld)",
              (unsigned long long) b.seq, (long long) last_seq);
        last_seq = (int64_t) b.seq;
        if (0 == (b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL) && 0 == rand_r(&seed) % 10) {
            ++failed_batches;
            it->cb(PMIX_ERROR, it->cbdata);
        } else {
            ++got_batches;
            got_records += b.num_records;
            for (uint32_t i = 0; i < b.num_drops; ++i) {
                got_drops += b.drops[i].count;
            }
            finals += 0 != (b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL);
            it->cb(PMIX_SUCCESS, it->cbdata);
        }
        mca_common_evt_wire_batch_destruct(&b);
        free(it->batch);
        free(it);
    }
}

static void *raiser_thread(void *arg)
{
    for (int i = 0; i < EXT_DROPS; ++i) {
        mca_base_event_count_export_dropped(0 == (i & 1) ? ev_a : ev_b, 1);
        if (0 == (i & 63)) {
            sched_yield();
        }
    }
    return NULL;
}

static void sender_stress(void)
{
    ompi_evt_pmix_send_params_t p;
    mca_common_evt_wire_sender_t who;
    pthread_t pt, rt;
    uint64_t encoded = 0, refused = 0;

    ompi_evt_pmix_test_set_notify(queue_notify);
    pmixtest_sender_params(&p, 4096, 8);
    p.flush_interval_ns = 1000000; /* 1 ms: time flushes happen too */
    pmixtest_who(&who, "stress", 0);
    CHECK(OPAL_SUCCESS == ompi_evt_pmix_sender_construct(&s, &who, &p), "construct");
    ompi_evt_pmix_sender_connect(&s);
    pthread_create(&pt, NULL, pmix_thread, NULL);
    pthread_create(&rt, NULL, raiser_thread, NULL);
    for (uint64_t i = 0; i < RECORDS;) {
        pmixtest_payload_t pl;
        mca_base_event_record_t r = pmixtest_record(0 == (i % 3) ? ev_b : ev_a, &pl, i);
        int rc = ompi_evt_pmix_sender_consume(&s, &r);

        if (OPAL_ERR_WOULD_BLOCK == rc) {
            /* the kit's drain stops; progress runs; the record comes again */
            (void) ompi_evt_pmix_sender_progress(&s);
            sched_yield();
            continue;
        }
        CHECK(OPAL_SUCCESS == rc, "consume %d", rc);
        ++encoded;
        ++i;
        if (0 == (i & 255)) {
            (void) ompi_evt_pmix_sender_progress(&s);
        }
    }
    pthread_join(rt, NULL);
    CHECK(OPAL_SUCCESS == ompi_evt_pmix_sender_finish(&s, ompi_evt_pmix_now_ns() + 30000000000LL),
          "finish");
    pthread_mutex_lock(&q_lock);
    q_stop = true;
    pthread_cond_signal(&q_cond);
    pthread_mutex_unlock(&q_lock);
    pthread_join(pt, NULL);
    refused = atomic_load(&s.stats.records_dropped);
    CHECK(1 == finals, "one FINAL batch (%llu)", (unsigned long long) finals);
    CHECK(0 < failed_batches, "some batches failed (%llu)", (unsigned long long) failed_batches);
    CHECK(got_records + got_drops == RECORDS + EXT_DROPS,
          "%llu records + %llu drops reported != %d encoded + %d dropped (%llu counted back)",
          (unsigned long long) got_records, (unsigned long long) got_drops, RECORDS, EXT_DROPS,
          (unsigned long long) refused);
    CHECK(encoded == RECORDS, "encoded");
    ompi_evt_pmix_sender_destruct(&s);
}

/* ---- the sink, four handler threads at once ---- */
#define SINK_THREADS 4
#define SINK_BATCHES 300
static ompi_evt_pmix_sink_t sink;

static void *sink_thread(void *arg)
{
    uint32_t rank = (uint32_t) (uintptr_t) arg;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_sender_t who;

    pmix_proc_t source;

    pmixtest_who(&who, "node", rank);
    PMIX_LOAD_PROCID(&source, who.nspace, rank);
    if (OPAL_SUCCESS != mca_common_evt_wire_encoder_construct(&enc, &who, 8192)) {
        return NULL;
    }
    for (int i = 0; i < SINK_BATCHES; ++i) {
        const void *buf;
        size_t len;

        (void) mca_common_evt_wire_encoder_begin(&enc, (uint64_t) i,
                                                 SINK_BATCHES - 1 == i
                                                     ? MCA_COMMON_EVT_WIRE_FLAG_FINAL
                                                     : 0);
        for (int k = 0; k < 20; ++k) {
            pmixtest_payload_t pl;
            mca_base_event_record_t r = pmixtest_record(ev_a, &pl, (uint64_t) k);
            (void) mca_common_evt_wire_encoder_add_record(&enc, &r);
        }
        (void) mca_common_evt_wire_encoder_finish(&enc, &buf, &len);
        ompi_evt_pmix_sink_take(&sink, &source, buf, len);
    }
    mca_common_evt_wire_encoder_destruct(&enc);
    return NULL;
}

static void sink_stress(void)
{
    char dir[] = "/tmp/stress_pmix_sink.XXXXXX", path[256], cmd[300];
    uint32_t peers[SINK_THREADS];
    pthread_t t[SINK_THREADS];
    mca_common_evt_nodefile_reader_t rd;
    const void *b;
    size_t len;
    uint64_t frames = 0;

    CHECK(NULL != mkdtemp(dir), "mkdtemp");
    for (int i = 0; i < SINK_THREADS; ++i) {
        peers[i] = (uint32_t) i;
    }
    CHECK(OPAL_SUCCESS
              == ompi_evt_pmix_sink_test_open(&sink, dir, "node", "pmixtest-job", peers,
                                              SINK_THREADS),
          "sink open");
    for (uintptr_t i = 0; i < SINK_THREADS; ++i) {
        pthread_create(&t[i], NULL, sink_thread, (void *) i);
    }
    for (int i = 0; i < SINK_THREADS; ++i) {
        pthread_join(t[i], NULL);
    }
    CHECK(0 == ompi_evt_pmix_sink_wait(&sink, ompi_evt_pmix_now_ns()), "every FINAL seen");
    CHECK(SINK_THREADS * SINK_BATCHES == atomic_load(&sink.batches), "batches %lu",
          atomic_load(&sink.batches));
    ompi_evt_pmix_sink_close(&sink, 1000);
    snprintf(path, sizeof(path), "%s/node.evt", dir);
    CHECK(OPAL_SUCCESS == mca_common_evt_nodefile_reader_open(&rd, path), "reader");
    while (OPAL_SUCCESS == mca_common_evt_nodefile_reader_next(&rd, &b, &len, NULL)) {
        ++frames;
    }
    CHECK(SINK_THREADS * SINK_BATCHES == frames, "frames %llu", (unsigned long long) frames);
    CHECK(0 == rd.stats.damaged && !rd.stats.truncated, "no damage");
    mca_common_evt_nodefile_reader_close(&rd);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    (void) system(cmd);
}

int main(void)
{
    if (0 != pmixtest_engine_start()) {
        return 1;
    }
    ev_a = pmixtest_event("a");
    ev_b = pmixtest_event("b");
    sender_stress();
    sink_stress();
    return evt_test_report("stress_pmix");
}
