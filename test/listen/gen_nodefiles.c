/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Writes node files as a job exporting through evt/pmix would leave them,
 * with the real encoder and the real node file writer, and the counts the
 * listener must find (EXPECTED file). A simulated job of N ranks on H nodes:
 * each rank raises ompi.mpi.initialization, a communicator_created, then per
 * iteration a ring exchange (rank r sends to r+1, receives from r-1, tag =
 * iteration, bytes = 8 * (iteration + 1)) as p2p_send_complete and
 * p2p_recv_complete records, then ompi.mpi.finalization and a FINAL batch.
 * Timestamps are source ticks of a per-node monotonic clock (each node
 * booted at another time), so only the batches' clock pairs put them on one
 * timeline.
 *
 * Usage: gen_nodefiles DIR EXPECTED [options]
 *   --ranks N (4) --nodes H (2) --iters K (50) --batch-bytes B (8192)
 *   --drops RANK:N       RANK reports N dropped p2p_send_complete records
 *   --lose RANK:SEQ      RANK's batch SEQ never reaches the node file
 *   --kill RANK          RANK stops halfway: no finalization, no FINAL batch
 *   --skew NODE:NS       NODE's CLOCK_REALTIME is off by NS; its ranks carry
 *                        offset samples (-NS) that put them right again
 *   --no-offsets         with --skew: the offset samples are left out
 *   --late-sample ERR:UNC with --skew: the skewed node's ranks carry a
 *                        second offset sample at the job's end, ERR ns off
 *                        the true offset, with uncertainty UNC ns
 *   --pair-error NS      odd ranks sample their clock pairs NS late (the
 *                        CLOCK_REALTIME read of a pair is NS off: its
 *                        sampling error); their host's CLOCK_MONOTONIC is
 *                        unchanged
 *   --duplicate RANK:SEQ RANK's batch SEQ reaches the node file twice
 *   --bench              minimal events (p2p only, no lifecycle), for speed
 *   --sources S          S clock sources per process (1..64): S-1 more, each
 *                        with an event gen.tick.K raised once at start and
 *                        then by one source per iteration; every batch
 *                        carries all S clock pairs (the most a batch holds)
 *   --missing RANK       RANK dies before its first batch: nothing of it reaches a file
 *   --window RANK:SEQ    RANK's batches before SEQ never reach the file (a flight
 *                        recorder that overwrote its oldest records)
 *   --same-tag           every message has tag 0 and 8 bytes: only order tells
 *                        messages of a pair apart (as NetPIPE's)
 *   --reverse-first      each node's ranks deliver a first batch right after
 *                        MPI_Init in reverse rank order (batches arrive out of
 *                        rank order)
 *
 * EXPECTED lines (sorted):
 *   count <event> <rank> <n>      events per type and rank
 *   drops <event> <rank> <n>
 *   lost <rank> <n>
 *   early <rank>
 *   flows <n>                     send/recv pairs both present, on ranks whose
 *                                 sends (receives) reach the files whole from
 *                                 their start: no batch lost, no drops
 *   total <n>
 *   ranks <n>                     the job size
 *   otf2_msgs <sends> <recvs>     p2p records with message records (MpiSend
 *                                 or MpiIsend, MpiRecv or MpiIrecv): those
 *                                 of pairs the listener pairs
 */

#include "opal_config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

#define MAXR 256
#define MAXS MCA_COMMON_EVT_WIRE_MAX_SOURCES
#define T0   1700000000000000000LL /* job start, CLOCK_REALTIME ns */

enum { E_INIT, E_FINI, E_COMM, E_SEND, E_RECV, E_N };
static const char *const enames[E_N] = {"ompi.mpi.initialization", "ompi.mpi.finalization",
                                        "ompi.mpi.communicator_created",
                                        "ompi.mpi.p2p_send_complete", "ompi.mpi.p2p_recv_complete"};
static mca_base_event_t *ev[E_N];
/* --sources: the extra sources and their events (index 0 unused: src) */
static int nsources = 1;
static mca_base_event_source_t *xsrc[MAXS];
static mca_base_event_t *xev[MAXS];
static uint64_t xcount[MAXR][MAXS];

typedef struct {
    mca_common_evt_wire_encoder_t enc;
    uint64_t seq;
    int node;
    bool dead;
    uint64_t pending[E_N];   /* records in the open batch, per type */
    uint64_t xpending[MAXS]; /* records of gen.tick.K in the open batch */
    uint64_t counted[E_N];   /* records in appended batches */
    uint64_t drops_to_report, drops_reported;
    unsigned char *sent_ok; /* per iteration: the send record reached a file */
    unsigned char *recv_ok;
    unsigned char *send_in; /* per iteration: in the open batch */
    unsigned char *recv_in;
} rank_t;

static rank_t R[MAXR];
static mca_common_evt_nodefile_t files[26];
static int nranks = 4, nnodes = 2, iters = 50;
static size_t batch_bytes = 8192;
static int lose_rank = -1, dup_rank = -1, kill_rank = -1, drops_rank = -1, skew_node = -1;
static int missing_rank = -1, window_rank = -1;
static uint64_t lose_seq, dup_seq, drops_n, window_seq;
static int64_t skew_ns, pair_error_ns, late_err_ns;
static uint64_t late_unc_ns;
static bool late_sample;
static bool bench, no_offsets, same_tag, reverse_first;
static mca_base_event_source_t *src;

/* per-node monotonic clock: booted at a node-dependent instant */
static int64_t boot_of(int node)
{
    return T0 - 3600LL * 1000000000LL * (node + 1) - 12345 * node;
}
static int64_t ticks_at(int node, int64_t real)
{
    return real - boot_of(node);
}
/* what the node's CLOCK_REALTIME says at true time @p real */
static int64_t realtime_at(int node, int64_t real)
{
    return real + (node == skew_node ? skew_ns : 0);
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "gen_nodefiles: %s failed (%d)\n", what, rc);
    exit(1);
}

static void begin(int r, int64_t now)
{
    rank_t *k = &R[r];
    int rc = mca_common_evt_wire_encoder_begin(&k->enc, k->seq, 0);
    if (OPAL_SUCCESS != rc) {
        die("begin", rc);
    }
    /* the clock pair, sampled "now" on the rank's node */
    rc = mca_common_evt_wire_encoder_add_clock(&k->enc, src, ticks_at(k->node, now),
                                               realtime_at(k->node, now)
                                                   + (r % 2 ? pair_error_ns : 0));
    if (OPAL_SUCCESS != rc) {
        die("add_clock", rc);
    }
    for (int s = 1; s < nsources; ++s) {
        rc = mca_common_evt_wire_encoder_add_clock(&k->enc, xsrc[s], ticks_at(k->node, now),
                                                   realtime_at(k->node, now));
        if (OPAL_SUCCESS != rc) {
            die("add_clock (--sources)", rc);
        }
    }
    /* drops travel in the next batch (again after the batch was lost) */
    if (drops_rank == r && k->drops_reported < k->drops_to_report) {
        rc = mca_common_evt_wire_encoder_add_drops(&k->enc, ev[E_SEND], k->drops_to_report);
        if (OPAL_SUCCESS != rc) {
            die("add_drops", rc);
        }
        k->drops_reported = k->drops_to_report;
    }
    memset(k->pending, 0, sizeof(k->pending));
    memset(k->xpending, 0, sizeof(k->xpending));
    memset(k->send_in, 0, (size_t) iters);
    memset(k->recv_in, 0, (size_t) iters);
}

/* Finish the open batch and deliver it (or lose it, or twice). */
static void flush(int r, bool final, int64_t now)
{
    rank_t *k = &R[r];
    const void *buf;
    size_t len;
    int rc;

    if (final) {
        (void) mca_common_evt_wire_encoder_set_flags(&k->enc, MCA_COMMON_EVT_WIRE_FLAG_FINAL);
    }
    rc = mca_common_evt_wire_encoder_finish(&k->enc, &buf, &len);
    if (OPAL_SUCCESS != rc) {
        die("finish", rc);
    }
    if (!(lose_rank == r && lose_seq == k->seq) && missing_rank != r
        && !(window_rank == r && k->seq < window_seq)) {
        rc = mca_common_evt_nodefile_append(&files[k->node], buf, len);
        if (OPAL_SUCCESS != rc) {
            die(files[k->node].error, rc);
        }
        if (dup_rank == r && dup_seq == k->seq
            && OPAL_SUCCESS != mca_common_evt_nodefile_append(&files[k->node], buf, len)) {
            die("append (duplicate)", rc);
        }
        for (int e = 0; e < E_N; ++e) {
            k->counted[e] += k->pending[e];
        }
        for (int x = 1; x < nsources; ++x) {
            xcount[r][x] += k->xpending[x];
        }
        for (int i = 0; i < iters; ++i) {
            k->sent_ok[i] |= k->send_in[i];
            k->recv_ok[i] |= k->recv_in[i];
        }
    } else if (drops_rank == r) {
        k->drops_reported = 0; /* the report was in the lost batch */
    }
    k->seq++;
    if (!final) {
        begin(r, now);
    }
}

static void add(int r, int e, int64_t real, const void *payload, int iter)
{
    rank_t *k = &R[r];
    mca_base_event_record_t rec;
    int rc;

    memset(&rec, 0, sizeof(rec));
    rec.event = ev[e];
    rec.source = src;
    rec.timestamp = ticks_at(k->node, real);
    rec.data = payload;
    rc = mca_common_evt_wire_encoder_add_record(&k->enc, &rec);
    if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
        flush(r, false, real);
        rc = mca_common_evt_wire_encoder_add_record(&k->enc, &rec);
    }
    if (OPAL_SUCCESS != rc) {
        die("add_record", rc);
    }
    k->pending[e]++;
    if (E_SEND == e) {
        k->send_in[iter] = 1;
    } else if (E_RECV == e) {
        k->recv_in[iter] = 1;
    }
}

/* A gen.tick.K record of extra source K (its ticks are the node's clock
 * too, so the clock pairs given in begin() hold for it). */
static void add_tick(int r, int x, int64_t real)
{
    rank_t *k = &R[r];
    mca_base_event_record_t rec;
    uint64_t payload = (uint64_t) x;
    int rc;

    memset(&rec, 0, sizeof(rec));
    rec.event = xev[x];
    rec.source = xsrc[x];
    rec.timestamp = ticks_at(k->node, real);
    rec.data = &payload;
    rc = mca_common_evt_wire_encoder_add_record(&k->enc, &rec);
    if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
        flush(r, false, real);
        rc = mca_common_evt_wire_encoder_add_record(&k->enc, &rec);
    }
    if (OPAL_SUCCESS != rc) {
        die("add_record (--sources)", rc);
    }
    k->xpending[x]++;
}

/* Register the extra sources and one event on each. */
static void register_sources(void)
{
    for (int x = 1; x < nsources; ++x) {
        static const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_UINT64_T};
        static const ptrdiff_t offsets[1] = {0};
        char name[64];
        int idx;

        snprintf(name, sizeof(name), "gen.clock.%d", x);
        idx = mca_base_event_source_register(name, "gen_nodefiles --sources",
                                             MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, INT64_MAX,
                                             NULL, false, NULL);
        if (0 > idx || OPAL_SUCCESS != mca_base_event_source_get_by_index(idx, &xsrc[x])) {
            die("source_register", idx);
        }
        snprintf(name, sizeof(name), "tick_%d", x);
        idx = mca_base_event_register_ptr("gen", "tick", "src", name, "one tick", OPAL_INFO_LVL_9,
                                          1, types, offsets, NULL, 0, 0, xsrc[x], NULL, &xev[x]);
        if (0 > idx) {
            die("event_register", idx);
        }
        {
            static const char *const enames_tick[1] = {"source"};
            if (OPAL_SUCCESS != mca_base_event_set_element_names(xev[x], enames_tick)) {
                die("set_element_names", 0);
            }
        }
    }
}

/* What reached the files of rank @p r starts at its first batch and has
 * no hole: the listener pairs its sends and receives by order. */
static bool whole(int r)
{
    return !(r == lose_rank && lose_seq < R[r].seq) && r != missing_rank
           && !(r == window_rank && 0 < window_seq);
}

/* Sends of @p src to @p dst the listener pairs with their receives. */
static bool pairable(int src, int dst)
{
    return whole(src) && 0 == R[src].drops_reported && whole(dst);
}

static int parse_pair(const char *s, int *a, uint64_t *b)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (':' != *end) {
        return -1;
    }
    *a = (int) x;
    *b = strtoull(end + 1, &end, 10);
    return '\0' == *end ? 0 : -1;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"ranks", 1, NULL, 'r'},
                                         {"nodes", 1, NULL, 'n'},
                                         {"iters", 1, NULL, 'i'},
                                         {"batch-bytes", 1, NULL, 'b'},
                                         {"drops", 1, NULL, 'd'},
                                         {"lose", 1, NULL, 'l'},
                                         {"kill", 1, NULL, 'k'},
                                         {"skew", 1, NULL, 's'},
                                         {"duplicate", 1, NULL, 'u'},
                                         {"bench", 0, NULL, 'B'},
                                         {"no-offsets", 0, NULL, 'O'},
                                         {"sources", 1, NULL, 'S'},
                                         {"missing", 1, NULL, 'm'},
                                         {"window", 1, NULL, 'w'},
                                         {"same-tag", 0, NULL, 'T'},
                                         {"reverse-first", 0, NULL, 'F'},
                                         {"pair-error", 1, NULL, 'P'},
                                         {"late-sample", 1, NULL, 'L'},
                                         {NULL, 0, NULL, 0}};
    const char *dir, *expected;
    uint64_t flows = 0, total = 0, mpi_sends = 0, mpi_recvs = 0;
    FILE *ex;
    int c, si;

    while (-1 != (c = getopt_long(argc, argv, "", opts, NULL))) {
        uint64_t v;
        switch (c) {
        case 'r':
            nranks = atoi(optarg);
            break;
        case 'n':
            nnodes = atoi(optarg);
            break;
        case 'i':
            iters = atoi(optarg);
            break;
        case 'b':
            batch_bytes = (size_t) strtoull(optarg, NULL, 10);
            break;
        case 'd':
            if (0 != parse_pair(optarg, &drops_rank, &drops_n)) {
                return 2;
            }
            break;
        case 'l':
            if (0 != parse_pair(optarg, &lose_rank, &lose_seq)) {
                return 2;
            }
            break;
        case 'u':
            if (0 != parse_pair(optarg, &dup_rank, &dup_seq)) {
                return 2;
            }
            break;
        case 'k':
            kill_rank = atoi(optarg);
            break;
        case 's':
            if (0 != parse_pair(optarg, &skew_node, &v)) {
                return 2;
            }
            skew_ns = (int64_t) v;
            break;
        case 'B':
            bench = true;
            break;
        case 'O':
            no_offsets = true;
            break;
        case 'S':
            nsources = atoi(optarg);
            break;
        case 'm':
            missing_rank = atoi(optarg);
            break;
        case 'w':
            if (0 != parse_pair(optarg, &window_rank, &window_seq)) {
                return 2;
            }
            break;
        case 'T':
            same_tag = true;
            break;
        case 'F':
            reverse_first = true;
            break;
        case 'P':
            pair_error_ns = strtoll(optarg, NULL, 10);
            break;
        case 'L': {
            char *end;
            late_err_ns = strtoll(optarg, &end, 10);
            if (':' != *end) {
                return 2;
            }
            late_unc_ns = strtoull(end + 1, NULL, 10);
            late_sample = true;
            break;
        }
        default:
            return 2;
        }
    }
    if (argc - optind != 2 || nranks < 2 || nranks > MAXR || nnodes < 1 || nnodes > 26
        || nnodes > nranks || iters < 1 || nsources < 1 || nsources > MAXS) {
        fprintf(stderr, "usage: gen_nodefiles DIR EXPECTED [--ranks N] [--nodes H] ...\n");
        return 2;
    }
    dir = argv[optind];
    expected = argv[optind + 1];

    if (OPAL_SUCCESS != opal_init_util(&argc, &argv) || OPAL_SUCCESS != mca_base_event_init()
        || OPAL_SUCCESS != ompi_evt_producers_register()) {
        die("engine init", 0);
    }
    for (int e = 0; e < E_N; ++e) {
        if (OPAL_SUCCESS != mca_base_event_get_by_name(enames[e], &ev[e])) {
            die(enames[e], 0);
        }
    }
    src = ev[E_SEND]->source;
    register_sources();
    (void) si;

    for (int n = 0; n < nnodes; ++n) {
        char host[16];
        snprintf(host, sizeof(host), "node%c", 'A' + n);
        if (OPAL_SUCCESS != mca_common_evt_nodefile_open(&files[n], dir, host)) {
            die(files[n].error, 0);
        }
    }
    for (int r = 0; r < nranks; ++r) {
        mca_common_evt_wire_sender_t snd;
        memset(&snd, 0, sizeof(snd));
        R[r].node = r * nnodes / nranks;
        strcpy(snd.nspace, "prterun-gen-1@1");
        snprintf(snd.host, sizeof(snd.host), "node%c", 'A' + R[r].node);
        snd.rank = (uint32_t) r;
        snd.pid = 1000 + (uint32_t) r;
        if (OPAL_SUCCESS != mca_common_evt_wire_encoder_construct(&R[r].enc, &snd, batch_bytes)) {
            die("construct", 0);
        }
        if (R[r].node == skew_node && !no_offsets) {
            mca_common_evt_wire_offset_t o = {realtime_at(R[r].node, T0), -skew_ns, 1000};
            (void) mca_common_evt_wire_encoder_add_offset(&R[r].enc, &o);
        }
        R[r].sent_ok = calloc((size_t) iters, 1);
        R[r].recv_ok = calloc((size_t) iters, 1);
        R[r].send_in = calloc((size_t) iters, 1);
        R[r].recv_in = calloc((size_t) iters, 1);
        R[r].drops_to_report = drops_rank == r ? drops_n : 0;
        begin(r, T0);
    }

    /* the job, in true time order; ranks start 1 us apart */
    for (int r = 0; r < nranks && !bench; ++r) {
        int64_t t = T0 + 1000 * r;
        ompi_evt_initialization_payload_t ip = {0, 3, r, nranks, 1};
        ompi_evt_comm_created_payload_t cp = {nranks, 0, 0x7f0000001000ULL + (uint64_t) r};
        add(r, E_INIT, t, &ip, 0);
        add(r, E_COMM, t + 500, &cp, 0);
    }
    for (int r = 0; r < nranks; ++r) {
        for (int x = 1; x < nsources; ++x) {
            add_tick(r, x, T0 + 1000 * r + 600 + x);
        }
    }
    for (int r = nranks - 1; r >= 0 && reverse_first; --r) {
        flush(r, false, T0 + 1000 * nranks);
    }
    for (int i = 0; i < iters; ++i) {
        /* iteration i: 10 us apart; the send starts at +1 us, the receive
         * was posted at +0 and completes at +3 us, the send completes at +2 */
        int64_t base = T0 + 100000 + (int64_t) i * 10000;
        for (int r = 0; r < nranks; ++r) {
            int to = (r + 1) % nranks, from = (r + nranks - 1) % nranks;
            ompi_evt_p2p_payload_t sp, rp;
            int64_t me = base + 37 * r;
            int64_t peer_send_start = base + 37 * from + 1000;

            if (r == kill_rank && i >= iters / 2) {
                R[r].dead = true;
                continue;
            }
            memset(&sp, 0, sizeof(sp));
            sp.comm = 0x7f0000000100ULL;
            sp.bytes = same_tag ? 8 : 8 * ((uint64_t) i + 1);
            sp.start_time = ticks_at(R[r].node, me + 1000);
            sp.complete_time = ticks_at(R[r].node, me + 2000);
            sp.peer = to;
            sp.tag = same_tag ? 0 : i;
            sp.mode = 1;
            sp.comm_peer = to;
            add(r, E_SEND, me + 2000, &sp, i);
            if (1 < nsources) {
                add_tick(r, 1 + i % (nsources - 1), me + 1500);
            }
            if (from == kill_rank && i >= iters / 2) {
                continue; /* nothing to receive from a dead rank */
            }
            rp = sp;
            rp.peer = from;
            rp.comm_peer = from;
            rp.bytes = sp.bytes;
            rp.start_time = ticks_at(R[r].node, me);
            /* completes after its send started (true time) */
            rp.complete_time = ticks_at(R[r].node,
                                        (peer_send_start > me ? peer_send_start : me) + 3000);
            add(r, E_RECV, (peer_send_start > me ? peer_send_start : me) + 3000, &rp, i);
        }
    }
    for (int r = 0; r < nranks && late_sample; ++r) {
        /* measured at the end, before the last batch: it carries it */
        int64_t t = T0 + 100000 + (int64_t) iters * 10000;
        if (R[r].node == skew_node && !no_offsets && !R[r].dead) {
            mca_common_evt_wire_offset_t o = {realtime_at(R[r].node, t), -skew_ns + late_err_ns,
                                              late_unc_ns};
            (void) mca_common_evt_wire_encoder_add_offset(&R[r].enc, &o);
        }
    }
    for (int r = 0; r < nranks; ++r) {
        int64_t t = T0 + 100000 + (int64_t) iters * 10000 + 1000 * r;
        if (R[r].dead) {
            /* killed: what was already sent stays; the open batch is lost */
            continue;
        }
        if (!bench) {
            ompi_evt_finalization_payload_t fp = {0, r, 1};
            add(r, E_FINI, t, &fp, 0);
        }
        flush(r, true, t);
    }
    for (int n = 0; n < nnodes; ++n) {
        mca_common_evt_nodefile_close(&files[n]);
    }

    ex = fopen(expected, "w");
    if (NULL == ex) {
        die("open EXPECTED", 0);
    }
    for (int r = 0; r < nranks; ++r) {
        for (int e = 0; e < E_N; ++e) {
            if (0 < R[r].counted[e]) {
                fprintf(ex, "count %s %d %llu\n", enames[e], r,
                        (unsigned long long) R[r].counted[e]);
                total += R[r].counted[e];
            }
        }
        for (int x = 1; x < nsources; ++x) {
            if (0 < xcount[r][x]) {
                fprintf(ex, "count %s %d %llu\n", xev[x]->name, r,
                        (unsigned long long) xcount[r][x]);
                total += xcount[r][x];
            }
        }
        if (0 < R[r].drops_reported) {
            fprintf(ex, "drops %s %d %llu\n", enames[E_SEND], r,
                    (unsigned long long) R[r].drops_reported);
        }
        if (r == lose_rank && lose_seq < R[r].seq) {
            fprintf(ex, "lost %d 1\n", r);
        }
        if (r == window_rank && 0 < window_seq && window_seq < R[r].seq) {
            fprintf(ex, "lost %d %llu\n", r, (unsigned long long) window_seq);
        }
        if (R[r].dead || r == missing_rank) {
            fprintf(ex, "early %d\n", r);
        }
        for (int i = 0; i < iters; ++i) {
            int to = (r + 1) % nranks;
            flows += R[r].sent_ok[i] && R[to].recv_ok[i] && pairable(r, to);
        }
        mpi_sends += pairable(r, (r + 1) % nranks) ? R[r].counted[E_SEND] : 0;
        mpi_recvs += pairable((r + nranks - 1) % nranks, r) ? R[r].counted[E_RECV] : 0;
    }
    fprintf(ex, "flows %llu\ntotal %llu\nranks %d\notf2_msgs %llu %llu\n",
            (unsigned long long) flows, (unsigned long long) total, nranks,
            (unsigned long long) mpi_sends, (unsigned long long) mpi_recvs);
    fclose(ex);
    for (int r = 0; r < nranks; ++r) {
        mca_common_evt_wire_encoder_destruct(&R[r].enc);
        free(R[r].sent_ok);
        free(R[r].recv_ok);
        free(R[r].send_in);
        free(R[r].recv_in);
    }
    (void) mca_base_event_finalize();
    return 0;
}
