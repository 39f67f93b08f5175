/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * The evt/pmix tests' accounting: reads node files (what a node sink, or
 * the tests' listener, wrote), decodes every batch with the wire decoder,
 * and checks that every event evt_pmix_producer raised is there exactly
 * once or was reported as dropped, per rank and per event.
 *
 * usage: evt_pmix_check [options] FILE...
 *   -N NRANKS       ranks 0..NRANKS-1 of one namespace sent (every one must appear)
 *   -n N            numbered events raised per rank
 *   -b RANK         only RANK raised numbered events
 *   -c K            communicator created/freed pairs per rank
 *   -p TAG          the numbered events' tag
 *   -k RANK:AFTER   RANK was killed after AFTER numbered raises: its batches must be
 *                   numbered 0..L without a gap, none FINAL, and hold exactly numbered
 *                   0..AFTER-1 (it waited for them to leave); its built-in events after
 *                   MPI_Init are not expected
 *   -H HOST=R,R...  the file of HOST holds exactly these ranks' batches (repeatable)
 *   -P              partial (a receiver that vanished): per rank, batches 0..L without a
 *                   gap, FINAL not required, the numbered events a prefix 0..M-1; the
 *                   built-in events are not checked; prints what is missing
 *   -X              the built-in events were not exported (evt_pmix_events): none may be
 *                   in the files, neither records nor drops
 *   -Z              no drops at all allowed (every event arrived)
 *   -D              some numbered event must have been dropped (the run exercised the
 *                   drop accounting)
 *   -v              print each rank's summary
 * Exit status 0 when every check holds; the last line is "check: OK" or
 * "check: N FAILURES".
 */

#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "opal/constants.h"

#define MAX_RANKS 256
#define MAX_NAMES 64
#define MAX_HOSTS 16

typedef struct {
    char name[MCA_COMMON_EVT_WIRE_NAME_MAX + 1];
    uint64_t records, drops;
} tally_t;

typedef struct {
    bool seen;
    char host[MCA_COMMON_EVT_WIRE_HOST_MAX + 1];
    uint64_t batches, max_seq, dup_batches, finals, final_seq;
    uint8_t *seqs_seen; /* batch sequence numbers seen (bitmap, grown) */
    size_t seqs_cap;
    tally_t tally[MAX_NAMES];
    int ntally;
    uint8_t *numbered;     /* per numbered seq: times seen */
    uint64_t numbered_bad; /* wrong rank/tag/out of range */
} rank_t;

static rank_t ranks[MAX_RANKS];
static char nspace[MCA_COMMON_EVT_WIRE_NSPACE_MAX + 1];
static long n_numbered = 0, pairs = 0, kill_after = -1;
static int nranks = 0, only = -1, kill_rank = -1, verbose = 0, no_drops = 0, want_drops = 0,
           partial = 0, no_builtins = 0;
static uint64_t total_numbered_drops;
static unsigned tag = 7;
static int failures = 0;

static struct {
    char host[MCA_COMMON_EVT_WIRE_HOST_MAX + 1];
    bool want[MAX_RANKS];
    bool got[MAX_RANKS];
    bool file_seen;
} hosts[MAX_HOSTS];
static int nhosts;

#define FAIL(...)                              \
    do {                                       \
        ++failures;                            \
        fprintf(stdout, "FAIL: " __VA_ARGS__); \
        fputc('\n', stdout);                   \
    } while (0)

static tally_t *tally_of(rank_t *r, const char *name)
{
    for (int i = 0; i < r->ntally; ++i) {
        if (0 == strcmp(r->tally[i].name, name)) {
            return &r->tally[i];
        }
    }
    if (MAX_NAMES == r->ntally) {
        return NULL;
    }
    snprintf(r->tally[r->ntally].name, sizeof(r->tally[0].name), "%s", name);
    return &r->tally[r->ntally++];
}

static uint64_t get_u(const mca_common_evt_wire_type_t *t, const uint8_t *payload, unsigned i)
{
    mca_common_evt_wire_value_t v;

    if (OPAL_SUCCESS != mca_common_evt_wire_element_value(t, payload, i, &v)) {
        return UINT64_MAX;
    }
    return MCA_COMMON_EVT_WIRE_ELEM_INT32 == v.type || MCA_COMMON_EVT_WIRE_ELEM_INT64 == v.type
               ? (uint64_t) v.v.i
               : v.v.u;
}

static void take_batch(const char *file_host, const void *buf, size_t len)
{
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_record_t rec;
    size_t cursor = 0;
    rank_t *r;

    memset(&b, 0, sizeof(b));
    if (OPAL_SUCCESS != mca_common_evt_wire_decode(buf, len, &b)) {
        FAIL("a frame of %s's file is not a valid batch: %s", file_host, b.error);
        return;
    }
    if ('\0' == nspace[0]) {
        snprintf(nspace, sizeof(nspace), "%s", b.sender.nspace);
    } else if (0 != strcmp(nspace, b.sender.nspace)) {
        FAIL("batches of two namespaces: %s and %s", nspace, b.sender.nspace);
        goto out;
    }
    if (b.sender.rank >= MAX_RANKS || (0 < nranks && b.sender.rank >= (uint32_t) nranks)) {
        FAIL("a batch of rank %u, beyond the job", b.sender.rank);
        goto out;
    }
    r = &ranks[b.sender.rank];
    if (!r->seen) {
        r->seen = true;
        snprintf(r->host, sizeof(r->host), "%s", b.sender.host);
    } else if (0 != strcmp(r->host, b.sender.host)) {
        FAIL("rank %u's batches name two hosts: %s and %s", b.sender.rank, r->host, b.sender.host);
    }
    for (int h = 0; h < nhosts; ++h) {
        if (0 == strcmp(hosts[h].host, file_host)) {
            hosts[h].got[b.sender.rank] = true;
        }
    }
    if (b.seq >= r->seqs_cap * 8) {
        size_t cap = (size_t) (b.seq / 8 + 1) * 2;
        r->seqs_seen = realloc(r->seqs_seen, cap);
        memset(r->seqs_seen + r->seqs_cap, 0, cap - r->seqs_cap);
        r->seqs_cap = cap;
    }
    if (r->seqs_seen[b.seq / 8] & (1u << (b.seq % 8))) {
        ++r->dup_batches;
        goto out;
    }
    r->seqs_seen[b.seq / 8] |= (uint8_t) (1u << (b.seq % 8));
    ++r->batches;
    r->max_seq = b.seq > r->max_seq ? b.seq : r->max_seq;
    if (b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL) {
        ++r->finals;
        r->final_seq = b.seq;
    }
    for (uint32_t i = 0; i < b.num_drops; ++i) {
        tally_t *t = tally_of(r, b.types[b.drops[i].type].name);
        if (NULL != t) {
            t->drops += b.drops[i].count;
        }
    }
    while (mca_common_evt_wire_batch_next_record(&b, &cursor, &rec)) {
        const mca_common_evt_wire_type_t *type = &b.types[rec.type];
        tally_t *t = tally_of(r, type->name);

        if (NULL != t) {
            ++t->records;
        }
        if (0 == strcmp(type->name, "ompi.evt_pmix_test_numbered")) {
            uint64_t rk = get_u(type, rec.payload, 0), tg = get_u(type, rec.payload, 1),
                     seq = get_u(type, rec.payload, 2);
            if (rk != b.sender.rank || tg != tag || seq >= (uint64_t) n_numbered
                || NULL == r->numbered) {
                ++r->numbered_bad;
            } else if (255 > r->numbered[seq]) {
                ++r->numbered[seq];
            }
        }
    }
out:
    mca_common_evt_wire_batch_destruct(&b);
}

static void read_file(const char *path)
{
    mca_common_evt_nodefile_reader_t rd;
    const void *buf;
    size_t len;
    int rc;

    memset(&rd, 0, sizeof(rd));
    rc = mca_common_evt_nodefile_reader_open(&rd, path);
    if (OPAL_SUCCESS != rc) {
        FAIL("%s: not readable as a node file (%d): %s", path, rc, rd.error);
        return;
    }
    for (int h = 0; h < nhosts; ++h) {
        if (0 == strcmp(hosts[h].host, rd.host)) {
            hosts[h].file_seen = true;
        }
    }
    while (OPAL_SUCCESS == (rc = mca_common_evt_nodefile_reader_next(&rd, &buf, &len, NULL))) {
        take_batch(rd.host, buf, len);
    }
    if (0 < rd.stats.damaged || rd.stats.truncated) {
        FAIL("%s: damaged (%llu damaged regions%s): %s", path,
             (unsigned long long) rd.stats.damaged, rd.stats.truncated ? ", truncated" : "",
             rd.error);
    }
    if (verbose) {
        printf("%s: host %s, %llu batches\n", path, rd.host, (unsigned long long) rd.stats.frames);
    }
    mca_common_evt_nodefile_reader_close(&rd);
}

/* received + dropped of @p name must be @p want. */
static void expect(int rk, rank_t *r, const char *name, uint64_t want)
{
    tally_t *t = tally_of(r, name);
    uint64_t got = NULL == t ? 0 : t->records, drops = NULL == t ? 0 : t->drops;

    if (got + drops != want) {
        FAIL("rank %d: %s: %llu received + %llu reported dropped != %llu raised", rk, name,
             (unsigned long long) got, (unsigned long long) drops, (unsigned long long) want);
    }
    if (no_drops && 0 != drops) {
        FAIL("rank %d: %s: %llu dropped (none allowed)", rk, name, (unsigned long long) drops);
    }
}

static void check_rank_full(int rk);

/* -P: what a receiver that vanished holds must be a prefix. */
static void check_partial(int rk)
{
    rank_t *r = &ranks[rk];
    long m = 0;

    if (!r->seen) {
        printf("rank %d: nothing received: everything is missing\n", rk);
        return;
    }
    if (r->batches != r->max_seq + 1 || 0 < r->dup_batches) {
        FAIL("rank %d: batches 0..%llu with %llu missing and %llu twice", rk,
             (unsigned long long) r->max_seq, (unsigned long long) (r->max_seq + 1 - r->batches),
             (unsigned long long) r->dup_batches);
    }
    while (m < n_numbered && 1 == r->numbered[m]) {
        ++m;
    }
    for (long s = m; s < n_numbered; ++s) {
        if (0 != r->numbered[s]) {
            FAIL("rank %d: numbered %ld received after a hole at %ld", rk, s, m);
            break;
        }
    }
    printf("rank %d: batches 0..%llu%s, numbered 0..%ld received: %s\n", rk,
           (unsigned long long) r->max_seq, r->finals ? " (FINAL)" : "", m - 1,
           r->finals ? "nothing missing" : "what follows batch is missing");
}

static void check_rank(int rk)
{
    if (partial) {
        check_partial(rk);
        return;
    }
    check_rank_full(rk);
}

static void check_rank_full(int rk)
{
    rank_t *r = &ranks[rk];
    bool killed = rk == kill_rank;
    long want = 0 <= only && rk != only ? 0 : killed ? kill_after : n_numbered;
    uint64_t once = 0, twice = 0;

    if (!r->seen) {
        FAIL("rank %d: no batch at all", rk);
        return;
    }
    if (0 < r->dup_batches) {
        FAIL("rank %d: %llu batches twice", rk, (unsigned long long) r->dup_batches);
    }
    if (killed) {
        if (0 != r->finals) {
            FAIL("rank %d was killed but sent a FINAL batch", rk);
        }
        if (r->batches != r->max_seq + 1) {
            FAIL("rank %d (killed): batches 0..%llu with %llu missing", rk,
                 (unsigned long long) r->max_seq,
                 (unsigned long long) (r->max_seq + 1 - r->batches));
        }
    } else {
        if (1 != r->finals) {
            FAIL("rank %d: %llu FINAL batches (want 1)", rk, (unsigned long long) r->finals);
        } else if (r->final_seq != r->max_seq) {
            FAIL("rank %d: the FINAL batch (%llu) is not the last (%llu)", rk,
                 (unsigned long long) r->final_seq, (unsigned long long) r->max_seq);
        }
    }
    for (long s = 0; NULL != r->numbered && s < n_numbered; ++s) {
        once += 1 == r->numbered[s];
        twice += 1 < r->numbered[s];
        if (killed && s < kill_after && 1 != r->numbered[s]) {
            FAIL("rank %d (killed): numbered %ld is missing", rk, s);
            break;
        }
        if (s >= want && 0 != r->numbered[s]) {
            FAIL("rank %d: numbered %ld was never raised", rk, s);
            break;
        }
    }
    if (0 < twice || 0 < r->numbered_bad) {
        FAIL("rank %d: %llu numbered events twice, %llu with a wrong rank, tag or number", rk,
             (unsigned long long) twice, (unsigned long long) r->numbered_bad);
    }
    {
        tally_t *t = tally_of(r, "ompi.evt_pmix_test_numbered");
        uint64_t drops = NULL == t ? 0 : t->drops;
        total_numbered_drops += drops;
        if (once + drops != (uint64_t) want) {
            FAIL("rank %d: %llu distinct numbered events + %llu reported dropped != %ld raised", rk,
                 (unsigned long long) once, (unsigned long long) drops, want);
        }
        if (no_drops && 0 != drops) {
            FAIL("rank %d: %llu numbered events dropped (none allowed)", rk,
                 (unsigned long long) drops);
        }
    }
    if (no_builtins) {
        for (int i = 0; i < r->ntally; ++i) {
            if (0 == strncmp(r->tally[i].name, "ompi.mpi.", 9)) {
                FAIL("rank %d: %s was exported (%llu + %llu dropped) though filtered out", rk,
                     r->tally[i].name, (unsigned long long) r->tally[i].records,
                     (unsigned long long) r->tally[i].drops);
            }
        }
    } else {
        expect(rk, r, "ompi.mpi.initialization", 1);
    }
    if (!killed && !no_builtins) {
        expect(rk, r, "ompi.mpi.finalization", 1);
        expect(rk, r, "ompi.mpi.communicator_created", (uint64_t) pairs);
        expect(rk, r, "ompi.mpi.communicator_freed", (uint64_t) pairs);
    }
    if (verbose) {
        printf("rank %d on %s: %llu batches (last %llu%s)", rk, r->host,
               (unsigned long long) r->batches, (unsigned long long) r->max_seq,
               r->finals ? ", FINAL" : ", no FINAL");
        for (int i = 0; i < r->ntally; ++i) {
            printf("; %s %llu+%llu dropped", r->tally[i].name,
                   (unsigned long long) r->tally[i].records,
                   (unsigned long long) r->tally[i].drops);
        }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    int opt;

    while (-1 != (opt = getopt(argc, argv, "N:n:b:c:p:k:H:ZDPXv"))) {
        switch (opt) {
        case 'N':
            nranks = atoi(optarg);
            break;
        case 'n':
            n_numbered = atol(optarg);
            break;
        case 'b':
            only = atoi(optarg);
            break;
        case 'c':
            pairs = atol(optarg);
            break;
        case 'p':
            tag = (unsigned) atoi(optarg);
            break;
        case 'k':
            if (2 != sscanf(optarg, "%d:%ld", &kill_rank, &kill_after)) {
                return 2;
            }
            break;
        case 'H': {
            char *eq = strchr(optarg, '='), *p;
            if (NULL == eq || MAX_HOSTS == nhosts) {
                return 2;
            }
            snprintf(hosts[nhosts].host, sizeof(hosts[0].host), "%.*s", (int) (eq - optarg),
                     optarg);
            for (p = eq + 1; '\0' != *p;) {
                int rk = (int) strtol(p, &p, 10);
                if (0 > rk || MAX_RANKS <= rk) {
                    return 2;
                }
                hosts[nhosts].want[rk] = true;
                p += ',' == *p;
            }
            ++nhosts;
            break;
        }
        case 'Z':
            no_drops = 1;
            break;
        case 'D':
            want_drops = 1;
            break;
        case 'P':
            partial = 1;
            break;
        case 'X':
            no_builtins = 1;
            break;
        case 'v':
            verbose = 1;
            break;
        default:
            return 2;
        }
    }
    if (optind >= argc || 1 > nranks || MAX_RANKS < nranks) {
        fprintf(stderr,
                "usage: %s -N NRANKS [-n N] [-b RANK] [-c K] [-p TAG] [-k RANK:AFTER] "
                "[-H HOST=R,R...] [-Z] [-D] [-P] [-X] [-v] FILE...\n",
                argv[0]);
        return 2;
    }
    for (int rk = 0; rk < nranks; ++rk) {
        ranks[rk].numbered = calloc((size_t) (0 < n_numbered ? n_numbered : 1), 1);
    }
    for (int i = optind; i < argc; ++i) {
        read_file(argv[i]);
    }
    for (int rk = 0; rk < nranks; ++rk) {
        check_rank(rk);
    }
    for (int h = 0; h < nhosts; ++h) {
        if (!hosts[h].file_seen) {
            FAIL("no node file of host %s", hosts[h].host);
        }
        for (int rk = 0; rk < MAX_RANKS; ++rk) {
            if (hosts[h].want[rk] != hosts[h].got[rk]) {
                FAIL("host %s's file %s rank %d's batches", hosts[h].host,
                     hosts[h].got[rk] ? "holds" : "lacks", rk);
            }
        }
    }
    if (want_drops && 0 == total_numbered_drops) {
        FAIL("no numbered event was dropped: the run did not exercise the drop accounting");
    }
    printf("numbered events reported dropped: %llu\n", (unsigned long long) total_numbered_drops);
    printf("check: %s", 0 == failures ? "OK\n" : "");
    if (0 != failures) {
        printf("%d FAILURES\n", failures);
    }
    return 0 == failures ? 0 : 1;
}
