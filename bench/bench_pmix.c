/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * evt/pmix benchmark (make bench; never in make check). Run under mpirun by
 * run_bench_pmix.sh: each rank is a PMIx client (PMIx_Init) that brings up
 * the engine and installs the evt/ring and evt/pmix modules itself, as the
 * evt base does, so that both run in one process.
 *
 *   bench_pmix raise          (np 1) ns per raise, ring (one local no-op
 *                             registration) and pmix (export only, no local
 *                             registration; and export + the registration),
 *                             alternated in rounds (ABAB), medians of batches
 *                             that fit in the ring; the drain between batches
 *                             (encode and send for pmix) is not timed
 *   bench_pmix stages         what a record costs in each stage without PMIx:
 *                             encode, decode (validate), node file append
 *   bench_pmix rate SECONDS FLAG  (np 2, node sink) rank 1 raises at fixed rates
 *                             for SECONDS each, the kit's timer draining and
 *                             sending: the highest rate without a drop
 *   bench_pmix e2e SECONDS    (np N, node sink) every rank raises at a fixed
 *                             share of an aggregate rate, raised step by step
 *                             until a step drops: the highest aggregate rate
 *                             carried into one node sink without a drop, and
 *                             the rate the sink saw arriving
 *   bench_pmix flood COUNT    (np N, node sink) every rank raises COUNT events
 *                             as fast as it can; the sink's rank measures the
 *                             time from the start (a fence) until every
 *                             rank's FINAL batch is in: delivered events/s
 *                             into one node sink, and how many were dropped
 *   bench_pmix latency MS     (np 2, node sink, default flush interval) rank 1
 *                             raises one event every millisecond for MS ms;
 *                             the sink's rank measures, in a PMIx handler of
 *                             its own beside the sink's (the append happens
 *                             in the same notification), the age of each
 *                             record when its batch arrives: median, p90, max
 * The MCA parameters (--mca evt_pmix_sink DIR, ...) come as for any job.
 */

#include "ompi_config.h"

#include <fcntl.h>
#include <pmix.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "ompi/constants.h"
#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_receive.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/pmix/evt_pmix.h"
#include "ompi/mca/evt/pmix/evt_pmix_send.h"
#include "ompi/mca/evt/pmix/evt_pmix_sink.h"
#include "ompi/mca/evt/ring/evt_ring.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/runtime/opal.h"

#define BATCH   8192 /* raises per timed batch: 8192 x 56 B = 448 KiB < the 1 MiB ring */
#define BATCHES 21
#define ROUNDS  5

typedef struct {
    uint64_t seq;
    uint64_t who;
} payload_t;

static mca_base_event_t *ev;
static pmix_proc_t me;

static void fence(void)
{
    if (PMIX_SUCCESS != PMIx_Fence(NULL, 0, NULL, 0)) {
        fprintf(stderr, "bench_pmix: PMIx_Fence failed\n");
        exit(1);
    }
}

static void make_event(void)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    mca_base_event_source_t *src = NULL;
    int si = mca_base_event_source_register("ompi.bench", "bench", MCA_BASE_EVENT_SOURCE_ORDERED,
                                            1000000000, OPAL_COUNT_MAX, NULL, true, NULL);

    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)
        || 0 > mca_base_event_register_ptr("ompi", "bench", NULL, "pmix", "bench event",
                                           OPAL_INFO_LVL_4, 2, types, offsets, NULL,
                                           MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &ev)) {
        fprintf(stderr, "bench_pmix: cannot register the event\n");
        exit(1);
    }
}

/* Install a module as the evt base does (register, open, init, install). */
static void install(const char *name)
{
    ompi_evt_base_component_t *c = 0 == strcmp(name, "ring") ? &mca_evt_ring_component.super
                                                             : &mca_evt_pmix_component.super;
    static bool registered[2];
    bool *reg = &registered['r' == name[0] ? 0 : 1];
    ompi_evt_base_module_t *m;
    int prio;

    if (!*reg) {
        if (OMPI_SUCCESS != c->evtc_version.mca_register_component_params()
            || (NULL != c->evtc_version.mca_open_component
                && OMPI_SUCCESS != c->evtc_version.mca_open_component())) {
            fprintf(stderr, "bench_pmix: cannot open %s\n", name);
            exit(1);
        }
        *reg = true;
        if ('r' == name[0]) {
            mca_evt_ring_component.ring_size = OMPI_EVT_PMIX_DEFAULT_RING_SIZE;
        }
    }
    m = c->evtc_init(&prio);
    if (NULL == m || OMPI_SUCCESS != ompi_evt_base_install(name, m, prio)) {
        fprintf(stderr, "bench_pmix: cannot install %s\n", name);
        exit(1);
    }
}

/* As MPI_Finalize does: a drain point, the module's notice (the FINAL
 * batch after the rings are empty), then the module goes. */
static void uninstall(void)
{
    (void) mca_base_event_flush();
    if (NULL != ompi_evt_base.module && NULL != ompi_evt_base.module->evtm_notice) {
        ompi_evt_base.module->evtm_notice(OMPI_EVT_NOTICE_MPI_FINALIZE_START);
    }
    ompi_evt_base_uninstall();
}

static double batch_raise(void)
{
    payload_t p = {0, me.rank};

    return bench_raise_batch(ev, &p, 0, BATCH);
}

/* Median ns per raise over BATCHES batches, flushing (untimed) between. */
static double raise_cost(void)
{
    double v[BATCHES];

    for (int b = 0; b < BATCHES; ++b) {
        v[b] = batch_raise();
        (void) mca_base_event_flush();
    }
    return bench_median(v, BATCHES);
}

static double clock_cost(void)
{
    double v[BATCHES];

    for (int b = 0; b < BATCHES; ++b) {
        v[b] = bench_clock_batch(ev->source, BATCH);
    }
    return bench_median(v, BATCHES);
}

/* ---- what one record costs in each stage, without PMIx ---- */
static void mode_stages(void)
{
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_sender_t who;
    mca_common_evt_wire_batch_t b;
    mca_common_evt_nodefile_t f;
    mca_base_event_record_t r;
    payload_t p = {0, 0};
    static unsigned char copy[OMPI_EVT_PMIX_DEFAULT_BATCH_BYTES];
    char dir[] = "/tmp/bench_pmix_stages.XXXXXX", cmd[128];
    const void *buf;
    size_t len = 0, per_batch;
    long n = 0, batches = 0;
    double t0, enc_ns, dec_ns, app_ns;
    const int reps = 200;

    memset(&who, 0, sizeof(who));
    snprintf(who.nspace, sizeof(who.nspace), "bench");
    snprintf(who.host, sizeof(who.host), "bench");
    memset(&r, 0, sizeof(r));
    r.event = ev;
    r.source = ev->source;
    r.data = &p;
    if (OPAL_SUCCESS
        != mca_common_evt_wire_encoder_construct(&enc, &who, OMPI_EVT_PMIX_DEFAULT_BATCH_BYTES)) {
        exit(1);
    }
    (void) mca_common_evt_wire_encoder_begin(&enc, 0, 0);
    t0 = bench_now_ns();
    while (n < 4000000) {
        p.seq = (uint64_t) n;
        r.timestamp = n;
        if (OPAL_SUCCESS != mca_common_evt_wire_encoder_add_record(&enc, &r)) {
            (void) mca_common_evt_wire_encoder_finish(&enc, &buf, &len);
            memcpy(copy, buf, len);
            (void) mca_common_evt_wire_encoder_begin(&enc, (uint64_t) ++batches, 0);
            continue;
        }
        ++n;
    }
    enc_ns = (bench_now_ns() - t0) / (double) n;
    mca_common_evt_wire_encoder_destruct(&enc);
    memset(&b, 0, sizeof(b));
    if (OPAL_SUCCESS != mca_common_evt_wire_decode(copy, len, &b)) {
        exit(1);
    }
    per_batch = b.num_records;
    mca_common_evt_wire_batch_destruct(&b);
    t0 = bench_now_ns();
    for (int i = 0; i < reps; ++i) {
        memset(&b, 0, sizeof(b));
        (void) mca_common_evt_wire_decode(copy, len, &b);
        mca_common_evt_wire_batch_destruct(&b);
    }
    dec_ns = (bench_now_ns() - t0) / (double) (reps * per_batch);
    if (NULL == mkdtemp(dir) || OPAL_SUCCESS != mca_common_evt_nodefile_open(&f, dir, "bench")) {
        exit(1);
    }
    t0 = bench_now_ns();
    for (int i = 0; i < reps; ++i) {
        (void) mca_common_evt_nodefile_append(&f, copy, len);
    }
    app_ns = (bench_now_ns() - t0) / (double) (reps * per_batch);
    mca_common_evt_nodefile_close(&f);
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    (void) system(cmd);
    printf("bench_pmix stages (16-byte payload, %zu records in a %zu-byte batch):\n", per_batch,
           len);
    printf("  encode (drain side)                %6.1f ns per record\n", enc_ns);
    printf("  decode = validate (sink, listener) %6.1f ns per record\n", dec_ns);
    printf("  node file append (validate, CRC-32C, write) %6.1f ns per record\n", app_ns);
}

static void mode_raise(void)
{
    double ring[ROUNDS], pmix[ROUNDS], both[ROUNDS], ratio[ROUNDS], clk;
    mca_base_event_registration_t *h = NULL;
    ompi_evt_pmix_sender_t *s;
    unsigned long exported = 0, dropped = 0;

    clk = clock_cost();
    for (int r = 0; r < ROUNDS; ++r) {
        install("ring");
        if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &h)
            || OPAL_SUCCESS
                   != mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL,
                                                       NULL, bench_noop_cb)) {
            exit(1);
        }
        ring[r] = raise_cost();
        (void) mca_base_event_handle_free(h, NULL, NULL);
        uninstall();

        install("pmix");
        pmix[r] = raise_cost();
        if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &h)
            || OPAL_SUCCESS
                   != mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL,
                                                       NULL, bench_noop_cb)) {
            exit(1);
        }
        both[r] = raise_cost();
        (void) mca_base_event_handle_free(h, NULL, NULL);
        (void) mca_base_event_flush();
        s = ompi_evt_pmix_test_sender();
        exported += atomic_load(&s->stats.records_encoded);
        dropped += atomic_load(&s->stats.records_dropped);
        uninstall();
        ratio[r] = pmix[r] / ring[r];
    }
    printf("bench_pmix raise: 16-byte payload, medians of %d batches of %d raises, %d rounds "
           "(ring, pmix alternated)\n",
           BATCHES, BATCH, ROUNDS);
    printf("  source clock read                   %6.2f ns\n", clk);
    for (int r = 0; r < ROUNDS; ++r) {
        printf("  round %d: ring %6.2f ns  pmix %6.2f ns  pmix+local %6.2f ns  pmix/ring %.3f\n", r,
               ring[r], pmix[r], both[r], ratio[r]);
    }
    printf("  median: ring %.2f ns, pmix %.2f ns (ratio %.3f; goal <= 1.10), pmix with a local "
           "registration %.2f ns\n",
           bench_median(ring, ROUNDS), bench_median(pmix, ROUNDS), bench_median(ratio, ROUNDS),
           bench_median(both, ROUNDS));
    printf("  exported %lu records, %lu not exported\n", exported, dropped);
}

/* ---- rate: the highest paced rate one rank sustains without a drop ---- */
/* Raise at @p rate for @p seconds, in bursts of 64 (sleeping in between);
 * with @p progress, call the kit's progress (what opal_progress does in an
 * MPI call) after every 1024 raises. *raised: how many. */
static unsigned long pace_run(double rate, double seconds, bool progress, uint64_t *raised)
{
    uint64_t n = 0;
    double t0 = bench_now_ns(), end = t0 + seconds * 1e9, t;
    payload_t p = {0, me.rank};

    ompi_evt_kit_test_stats_t st0, st1;

    /* the drops: records the ring refused at the raise (the only reason
     * here), from the kit's counters (the export drop counter itself is
     * taken by the sender as it goes) */
    ompi_evt_base_kit_test_stats(&st0);
    while ((t = bench_now_ns()) < end) {
        double due = (t - t0) * rate / 1e9;
        while ((double) n < due) {
            for (int k = 0; k < 64; ++k) {
                p.seq = n++;
                (void) mca_base_event_raise(ev, NULL, &p);
            }
            if (progress && 0 == (n & 1023)) {
                (void) ompi_evt_base_kit_progress();
            }
        }
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
    }
    *raised = n;
    ompi_evt_base_kit_test_stats(&st1);
    return (st1.dropped_full - st0.dropped_full) + (st1.dropped_pool - st0.dropped_pool);
}

/* Wait (at most 10 s) until nothing is in flight and the rings are empty:
 * a step starts without the previous one's backlog. */
static void settle(void)
{
    ompi_evt_pmix_sender_t *snd = ompi_evt_pmix_test_sender();
    double give_up = bench_now_ns() + 10e9;
    ompi_evt_kit_test_stats_t st;

    do {
        usleep(20000);
        ompi_evt_base_kit_test_stats(&st);
    } while ((0 < atomic_load(&snd->inflight) || st.stored != st.drained)
             && bench_now_ns() < give_up);
}

/* Rank 1 raises, rank 0 is the node sink. Rank 0 waits for the end in a
 * sleep loop on @p flag (a file rank 1 creates), not in a PMIx_Fence: with
 * its process blocked in PMIx_Fence, the notifications to it completed
 * about 140 per second here (the senders' slots fill, the rings drop). */
static void mode_rate(double seconds, const char *flag)
{
    const double rates[] = {0.25e6, 0.5e6, 1e6, 1.5e6, 2e6, 3e6, 4e6, 6e6, 8e6};

    install("pmix");
    fence();
    if (0 == me.rank) {
        while (0 != access(flag, F_OK)) {
            usleep(1000);
        }
    }
    if (1 == me.rank) {
        printf("bench_pmix rate: rank 1 raises at a fixed rate for %.1f s per step, batches "
               "leaving to the node sink of rank 0\n",
               seconds);
        for (int progress = 0; progress < 2; ++progress) {
            double best = 0;
            printf("  %s:\n", progress ? "drained by progress every 1024 raises (as in MPI "
                                         "calls) and the timer"
                                       : "drained by the kit's timer only (no MPI call)");
            for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); ++i) {
                ompi_evt_pmix_sender_t *snd = ompi_evt_pmix_test_sender();
                unsigned long wb0 = atomic_load(&snd->stats.would_block), wb;
                uint64_t raised;
                unsigned long d;

                settle();
                d = pace_run(rates[i], seconds, progress, &raised);
                wb = atomic_load(&snd->stats.would_block) - wb0;
                printf("    target %5.2f M/s: raised %.2f M/s, %lu dropped%s\n", rates[i] / 1e6,
                       (double) raised / seconds / 1e6, d,
                       0 < wb ? " (every notification slot was in flight at times)" : "");
                if (0 != d) {
                    break;
                }
                best = (double) raised / seconds;
            }
            printf("    highest rate without a drop: %.2f M raises/s\n", best / 1e6);
        }
        fflush(stdout);
        close(open(flag, O_CREAT | O_WRONLY, 0600));
    }
    fence();
    uninstall();
}

/* ---- the sink rank's own handler: arrival of FINAL batches, latency ---- */
static atomic_int finals;
static atomic_ulong records_in, drops_in;
static _Atomic double last_arrival;
static double *lat;
static atomic_int nlat;
static int max_lat;
static pthread_mutex_t lat_lock = PTHREAD_MUTEX_INITIALIZER;

static void bench_handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                          pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    double arrival = bench_now_ns();
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_record_t rec;
    size_t cursor = 0, len;
    const void *buf;

    memset(&b, 0, sizeof(b));
    if (MCA_COMMON_EVT_RECEIVED == mca_common_evt_receive_find(info, ninfo, &buf, &len)
        && MCA_COMMON_EVT_RECEIVED == mca_common_evt_receive_decode(source, buf, len, &b)) {
        atomic_fetch_add(&records_in, b.num_records);
        atomic_store(&last_arrival, arrival);
        for (uint32_t d = 0; d < b.num_drops; ++d) {
            atomic_fetch_add(&drops_in, b.drops[d].count);
        }
        if (NULL != lat) {
            pthread_mutex_lock(&lat_lock);
            while (mca_common_evt_wire_batch_next_record(&b, &cursor, &rec)) {
                if (0 == strcmp(b.types[rec.type].name, "ompi.bench_pmix") && nlat < max_lat) {
                    lat[atomic_fetch_add(&nlat, 1)] = arrival - (double) rec.timestamp;
                }
            }
            pthread_mutex_unlock(&lat_lock);
        }
        if (b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL) {
            atomic_fetch_add(&finals, 1);
        }
    }
    mca_common_evt_wire_batch_destruct(&b);
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

static void register_bench_handler(void)
{
    pmix_status_t code = MCA_COMMON_EVT_WIRE_PMIX_STATUS;
    size_t id = PMIx_Register_event_handler(&code, 1, NULL, 0, bench_handler, NULL, NULL);
    (void) id;
    usleep(100000); /* registration completes on PMIx's thread */
}

static int job_size(void)
{
    pmix_proc_t wild;
    pmix_value_t *val = NULL;
    int n = 1;

    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS == PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &val)) {
        n = (int) val->data.uint32;
        PMIX_VALUE_RELEASE(val);
    }
    return n;
}

static void mode_flood(unsigned long count)
{
    int size = job_size();
    double t0 = 0, t1;
    payload_t p = {0, me.rank};

    if (0 == me.rank) {
        register_bench_handler();
    }
    install("pmix");
    fence();
    t0 = bench_now_ns();
    for (unsigned long i = 0; i < count; ++i) {
        p.seq = i;
        (void) mca_base_event_raise(ev, NULL, &p);
    }
    /* the FINAL batches leave at the module's end */
    uninstall();
    if (0 == me.rank) {
        while (atomic_load(&finals) < size && bench_now_ns() - t0 < 120e9) {
            usleep(1000);
        }
        t1 = bench_now_ns();
        printf("bench_pmix flood: %d ranks x %lu raises as fast as possible into one node sink\n",
               size, count);
        printf("  %lu records arrived, %lu reported dropped (%.1f%%), in %.3f s: %.2f M "
               "events/s delivered (goal >= 1); raised %.2f M/s\n",
               atomic_load(&records_in), atomic_load(&drops_in),
               100.0 * (double) atomic_load(&drops_in) / (double) (size * count), (t1 - t0) / 1e9,
               (double) atomic_load(&records_in) / (t1 - t0) * 1e3,
               (double) (size * count) / (t1 - t0) * 1e3);
        fflush(stdout);
    }
    fence();
}

/* Sum of @p v over the ranks (PMIx_Put + a collecting fence + PMIx_Get). */
static unsigned long sum_over_ranks(int step, unsigned long v, int size)
{
    char key[64];
    pmix_value_t val, *got = NULL;
    pmix_info_t collect;
    bool yes = true;
    unsigned long sum = 0;

    snprintf(key, sizeof(key), "bench.drops.%d", step);
    val.type = PMIX_UINT64;
    val.data.uint64 = v;
    if (PMIX_SUCCESS != PMIx_Put(PMIX_GLOBAL, key, &val) || PMIX_SUCCESS != PMIx_Commit()) {
        exit(1);
    }
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    if (PMIX_SUCCESS != PMIx_Fence(NULL, 0, &collect, 1)) {
        exit(1);
    }
    for (int r = 0; r < size; ++r) {
        pmix_proc_t p;
        PMIX_LOAD_PROCID(&p, me.nspace, (pmix_rank_t) r);
        if (PMIX_SUCCESS == PMIx_Get(&p, key, NULL, 0, &got) && NULL != got) {
            sum += got->data.uint64;
            PMIX_VALUE_RELEASE(got);
        }
    }
    return sum;
}

/* Every rank raises at rate / size for @p seconds per step, rates going
 * up until a step drops: the highest aggregate rate the pipeline (drain,
 * encode, PMIx, the sink's write) carries into one node sink without a
 * drop, and the rate the sink saw arriving. */
static void mode_e2e(double seconds)
{
    const double rates[] = {0.25e6, 0.5e6, 0.75e6, 1e6, 1.25e6, 1.5e6, 2e6, 2.5e6, 3e6, 4e6};
    int size = job_size();
    double best = 0, best_in = 0;

    if (0 == me.rank) {
        register_bench_handler();
    }
    install("pmix");
    fence();
    if (0 == me.rank) {
        printf("bench_pmix e2e: %d ranks raise at a fixed aggregate rate for %.1f s per step "
               "into one node sink (rank 0's)\n",
               size, seconds);
    }
    ompi_evt_pmix_sink_t *sink = ompi_evt_pmix_test_sink();

    if (0 == me.rank && NULL == sink) {
        fprintf(stderr, "bench_pmix: rank 0 is not the node sink (evt_pmix_sink unset?)\n");
        exit(1);
    }
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); ++i) {
        unsigned long in0 = 0 == me.rank ? atomic_load(&sink->records) : 0, drops, raised_all;
        double t0 = bench_now_ns(), t1;
        uint64_t raised;
        unsigned long d = pace_run(rates[i] / size, seconds, false, &raised);

        drops = sum_over_ranks((int) (2 * i), d, size);
        raised_all = sum_over_ranks((int) (2 * i + 1), (unsigned long) raised, size);
        if (0 == me.rank) {
            /* every record of the step that was not dropped arrives: wait
             * for all of them (at most 20 s) */
            unsigned long n;
            double give_up = bench_now_ns() + 20e9;
            while ((n = atomic_load(&sink->records) - in0) + drops < raised_all
                   && bench_now_ns() < give_up) {
                usleep(1000);
            }
            if (n + drops != raised_all) {
                printf("  (%lu records raised, %lu dropped, %lu arrived: %ld unaccounted)\n",
                       raised_all, drops, n, (long) (raised_all - drops - n));
            }
            t1 = (double) atomic_load(&sink->last_append_ns);
            printf("  target %5.2f M/s: raised %5.2f M/s, %lu dropped; the sink received %lu "
                   "records at %.2f M/s\n",
                   rates[i] / 1e6, (double) raised_all / seconds / 1e6, drops, n,
                   (double) n / (t1 - t0) * 1e3);
            if (0 == drops) {
                best = (double) raised_all / seconds;
                best_in = (double) n / (t1 - t0) * 1e9;
            }
            fflush(stdout);
        }
        if (0 != drops) {
            break;
        }
        fence();
    }
    if (0 == me.rank) {
        printf("  highest aggregate rate without a drop: %.2f M events/s raised, %.2f M/s into "
               "the sink (goal >= 1)\n",
               best / 1e6, best_in / 1e6);
        printf("  (a second PMIx handler for the batches in the sink's process saw %lu of the "
               "%lu records the sink appended)\n",
               atomic_load(&records_in), atomic_load(&sink->records));
        fflush(stdout);
    }
    uninstall();
    fence();
}

static void mode_latency(int ms)
{
    payload_t p = {0, me.rank};

    if (0 == me.rank) {
        max_lat = ms + 16;
        lat = calloc((size_t) max_lat, sizeof(double));
        register_bench_handler();
    }
    install("pmix");
    fence();
    if (1 == me.rank) {
        double t0 = bench_now_ns();
        for (int i = 0; i < ms; ++i) {
            struct timespec ts;
            double due = t0 + (double) (i + 1) * 1e6, t = bench_now_ns();
            p.seq = (uint64_t) i;
            (void) mca_base_event_raise(ev, NULL, &p);
            if (due > t) {
                ts.tv_sec = 0;
                ts.tv_nsec = (long) (due - t);
                nanosleep(&ts, NULL);
            }
        }
    }
    uninstall();
    if (0 == me.rank) {
        int n;
        while (atomic_load(&finals) < 2) {
            usleep(1000);
        }
        pthread_mutex_lock(&lat_lock);
        n = atomic_load(&nlat);
        printf("bench_pmix latency: one raise per ms for %d ms, flush interval %d ms: %d "
               "records; raise -> sink's handler: median %.2f ms, p90 %.2f ms, max %.2f ms "
               "(goal: median <= 2 intervals)\n",
               ms, mca_evt_pmix_component.flush_interval, n, bench_quantile(lat, n, 0.5) / 1e6,
               bench_quantile(lat, n, 0.9) / 1e6, bench_quantile(lat, n, 1.0) / 1e6);
        pthread_mutex_unlock(&lat_lock);
        fflush(stdout);
    }
    fence();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "raise";

    if (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        fprintf(stderr, "bench_pmix: not a PMIx client (run it under mpirun)\n");
        return 1;
    }
    if (OPAL_SUCCESS != opal_init_util(&argc, &argv) || OPAL_SUCCESS != mca_base_event_init()) {
        return 1;
    }
    make_event();
    if (0 == strcmp(mode, "raise")) {
        mode_raise();
    } else if (0 == strcmp(mode, "stages")) {
        mode_stages();
    } else if (0 == strcmp(mode, "rate")) {
        if (argc < 4) {
            fprintf(stderr, "usage: %s rate SECONDS FLAGFILE\n", argv[0]);
            return 2;
        }
        mode_rate(atof(argv[2]), argv[3]);
    } else if (0 == strcmp(mode, "e2e")) {
        mode_e2e(argc > 2 ? atof(argv[2]) : 1.0);
    } else if (0 == strcmp(mode, "flood")) {
        mode_flood(argc > 2 ? strtoul(argv[2], NULL, 10) : 1000000);
    } else if (0 == strcmp(mode, "latency")) {
        mode_latency(argc > 2 ? atoi(argv[2]) : 2000);
    } else {
        fprintf(stderr,
                "usage: %s raise | stages | rate SECONDS FLAGFILE | e2e SECONDS | flood COUNT | "
                "latency MS\n",
                argv[0]);
        return 2;
    }
    (void) mca_base_event_finalize();
    (void) PMIx_Finalize(NULL, 0);
    return 0;
}
