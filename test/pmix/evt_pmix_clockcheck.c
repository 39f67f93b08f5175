/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Checks the job timeline of an events.jsonl (ompi-evt-listen --read) of a
 * run whose nodes' clocks were skewed (evt_pmix_test_clock_skew):
 *   - pairs every point-to-point send with its receive (sender, receiver,
 *     tag, in order: MPI's non-overtaking rule; equal byte counts) and
 *     counts the receives that complete (time_ns) before their send
 *     started (start_ns): causality violations;
 *   - compares every clock offset sample of every rank (the per-rank lines'
 *     clock_offsets) with the injected skew: a rank on node H must be
 *     off by skew(node of rank 0) - skew(H): the measured and the applied
 *     offsets within the tolerance or the sample's own uncertainty,
 *     whichever is larger (a round trip stretched by load measures less
 *     precisely, and says so). Where a rank's uncertainty exceeds the
 *     tolerance, a receive before its send by less than that uncertainty
 *     is reported, not counted as a violation.
 * Usage: evt_pmix_clockcheck [-S HOST=SECONDS]... [-t TOLERANCE_NS]
 *                            [-m MIN_PAIRS] [-a] EVENTS.JSONL
 *   -a  the control run (no alignment): succeed only if some receive
 *       completes before its send started (the check can fail), and
 *       no rank carries offsets.
 * Prints what it measured; exit status 0 when every check held. */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#define MAX_SKEWS 8
#define MAX_RANKS 1024

typedef struct {
    int64_t src, dst, tag, bytes;
    int64_t t;      /* send: start_ns; receive: time_ns (its completion) */
    uint64_t order; /* line number: the rank's own order */
} msg_t;

typedef struct {
    msg_t *v;
    size_t n, cap;
} msgs_t;

static struct {
    char host[256];
    double seconds;
} skews[MAX_SKEWS];
static int nskews;

static double skew_of(const char *host)
{
    for (int i = 0; i < nskews; ++i) {
        if (0 == strcmp(skews[i].host, host)) {
            return skews[i].seconds;
        }
    }
    return 0.0;
}

static void push(msgs_t *m, const msg_t *x)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 1024;
        m->v = realloc(m->v, m->cap * sizeof(*m->v));
        if (NULL == m->v) {
            perror("realloc");
            exit(2);
        }
    }
    m->v[m->n++] = *x;
}

static int by_key(const void *a, const void *b)
{
    const msg_t *x = a, *y = b;
    if (x->src != y->src) {
        return x->src < y->src ? -1 : 1;
    }
    if (x->dst != y->dst) {
        return x->dst < y->dst ? -1 : 1;
    }
    if (x->tag != y->tag) {
        return x->tag < y->tag ? -1 : 1;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

static int64_t get_i64(json_object *o, const char *k, bool *ok)
{
    json_object *v;
    if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_int)) {
        *ok = false;
        return 0;
    }
    return json_object_get_int64(v);
}

/* Per-rank offsets: every sample within tolerance of the expected one. */
static int check_offsets(json_object *o, const char *ref_host, int64_t tol, bool control,
                         int *ranks_seen)
{
    json_object *a, *h;
    bool ok = true;
    int64_t rank = get_i64(o, "rank", &ok);
    const char *host;
    double expect;
    size_t n;
    int bad = 0;

    if (!ok || !json_object_object_get_ex(o, "host", &h)
        || !json_object_object_get_ex(o, "clock_offsets", &a)
        || !json_object_is_type(a, json_type_array)) {
        printf("FAIL: a per-rank line without rank, host or clock_offsets\n");
        return 1;
    }
    host = json_object_get_string(h);
    n = json_object_array_length(a);
    ++*ranks_seen;
    if (control) {
        printf("rank %" PRId64 " on %s: %zu offset samples (control run: want none)\n", rank, host,
               n);
        return 0 == n ? 0 : 1;
    }
    expect = (skew_of(ref_host) - skew_of(host)) * 1e9;
    if (n < 2) {
        printf("FAIL: rank %" PRId64 " on %s has %zu offset samples (want 2: MPI_Init, "
               "MPI_Finalize)\n",
               rank, host, n);
        bad++;
    }
    for (size_t i = 0; i < n; ++i) {
        json_object *s = json_object_array_get_idx(a, i);
        bool sok = true;
        int64_t off = get_i64(s, "offset_ns", &sok), unc = get_i64(s, "uncertainty_ns", &sok);
        int64_t applied = get_i64(s, "applied_offset_ns", &sok);
        double err = (double) off - expect, aerr = (double) applied - expect;
        double allowed = (double) (unc > tol ? unc : tol);
        bool good = sok && err <= allowed && err >= -allowed && aerr <= allowed && aerr >= -allowed;

        printf("rank %" PRId64 " on %s: offset sample %zu: recovered %+" PRId64
               " ns, injected %+.0f ns, error %+.0f ns (uncertainty %" PRId64
               " ns); applied %+" PRId64 " ns, error %+.0f ns%s\n",
               rank, host, i, off, expect, err, unc, applied, aerr, good ? "" : "  <-- FAIL");
        if (!good) {
            bad++;
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    msgs_t sends = {0}, recvs = {0};
    int64_t tol = 100000, min_pairs = 1, worst = 0, min_margin = INT64_MAX;
    uint64_t line_no = 0, pairs = 0, violations = 0, mismatched = 0, within_unc = 0;
    static int64_t unc_of[MAX_RANKS];
    char host_of[MAX_RANKS][256];
    bool control = false;
    json_object **rank_lines = NULL;
    size_t nrank_lines = 0;
    int opt, failures = 0, ranks_seen = 0;
    char *line = NULL;
    size_t cap = 0;
    FILE *f;

    memset(host_of, 0, sizeof(host_of));
    while (-1 != (opt = getopt(argc, argv, "S:t:m:a"))) {
        char *eq;
        switch (opt) {
        case 'S':
            eq = strrchr(optarg, '=');
            if (NULL == eq || MAX_SKEWS == nskews || (size_t) (eq - optarg) >= 256) {
                fprintf(stderr, "bad -S %s\n", optarg);
                return 2;
            }
            memcpy(skews[nskews].host, optarg, (size_t) (eq - optarg));
            skews[nskews].seconds = atof(eq + 1);
            nskews++;
            break;
        case 't':
            tol = atoll(optarg);
            break;
        case 'm':
            min_pairs = atoll(optarg);
            break;
        case 'a':
            control = true;
            break;
        default:
            fprintf(stderr, "usage: %s [-S HOST=SECONDS]... [-t NS] [-m PAIRS] [-a] FILE\n",
                    argv[0]);
            return 2;
        }
    }
    if (optind + 1 != argc || NULL == (f = fopen(argv[optind], "r"))) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], optind < argc ? argv[optind] : "?");
        return 2;
    }
    while (-1 != getline(&line, &cap, f)) {
        json_object *o = json_tokener_parse(line), *ev, *fields, *h;
        const char *name;
        bool ok = true;
        msg_t m;

        ++line_no;
        if (NULL == o) {
            printf("FAIL: line %" PRIu64 " is not JSON\n", line_no);
            failures++;
            continue;
        }
        if (!json_object_object_get_ex(o, "event", &ev)) {
            rank_lines = realloc(rank_lines, (nrank_lines + 1) * sizeof(*rank_lines));
            rank_lines[nrank_lines++] = o; /* checked once rank 0's host is known */
            continue;
        }
        name = json_object_get_string(ev);
        m.order = line_no;
        if (json_object_object_get_ex(o, "host", &h)) {
            int64_t r = get_i64(o, "rank", &ok);
            if (ok && 0 <= r && r < MAX_RANKS) {
                snprintf(host_of[r], sizeof(host_of[r]), "%s", json_object_get_string(h));
            }
        }
        if ((0 == strcmp(name, "ompi.mpi.p2p_send_complete")
             || 0 == strcmp(name, "ompi.mpi.p2p_recv_complete"))
            && json_object_object_get_ex(o, "fields", &fields)) {
            bool is_send = 0 == strcmp(name, "ompi.mpi.p2p_send_complete");
            int64_t rank = get_i64(o, "rank", &ok), peer = get_i64(fields, "peer", &ok);

            m.tag = get_i64(fields, "tag", &ok);
            m.bytes = get_i64(fields, "bytes", &ok);
            m.src = is_send ? rank : peer;
            m.dst = is_send ? peer : rank;
            m.t = is_send ? get_i64(o, "start_ns", &ok) : get_i64(o, "time_ns", &ok);
            if (!ok) {
                printf("FAIL: line %" PRIu64 ": a p2p completion without rank, peer, tag, "
                       "bytes, time_ns or start_ns\n",
                       line_no);
                failures++;
            } else {
                push(is_send ? &sends : &recvs, &m);
            }
        }
        json_object_put(o);
    }
    fclose(f);
    free(line);

    /* Each rank's largest offset uncertainty. A measurement that could not
     * reach the tolerance (round trips stretched by a loaded machine) can
     * place the rank's events only within its uncertainty: a receive
     * before its send by less than that is not held against it. */
    for (size_t i = 0; i < nrank_lines; ++i) {
        json_object *a;
        bool ok = true;
        int64_t r = get_i64(rank_lines[i], "rank", &ok);
        if (!ok || 0 > r || r >= MAX_RANKS
            || !json_object_object_get_ex(rank_lines[i], "clock_offsets", &a)) {
            continue;
        }
        for (size_t k = 0; k < json_object_array_length(a); ++k) {
            bool sok = true;
            int64_t u = get_i64(json_object_array_get_idx(a, k), "uncertainty_ns", &sok);
            if (sok && u > unc_of[r]) {
                unc_of[r] = u;
            }
        }
    }

    /* the k-th send of (src, dst, tag) matches the k-th receive */
    qsort(sends.v, sends.n, sizeof(msg_t), by_key);
    qsort(recvs.v, recvs.n, sizeof(msg_t), by_key);
    for (size_t i = 0, j = 0; i < sends.n && j < recvs.n;) {
        const msg_t *s = &sends.v[i], *r = &recvs.v[j];
        int c = s->src != r->src   ? (s->src < r->src ? -1 : 1)
                : s->dst != r->dst ? (s->dst < r->dst ? -1 : 1)
                : s->tag != r->tag ? (s->tag < r->tag ? -1 : 1)
                                   : 0;
        if (c < 0) {
            ++i;
        } else if (c > 0) {
            ++j;
        } else {
            int64_t margin = r->t - s->t;
            if (s->bytes != r->bytes) {
                mismatched++;
            }
            pairs++;
            if (margin < 0) {
                int64_t u = 0;
                if (0 <= s->src && s->src < MAX_RANKS && 0 <= s->dst && s->dst < MAX_RANKS) {
                    u = unc_of[s->src] > unc_of[s->dst] ? unc_of[s->src] : unc_of[s->dst];
                }
                if (u > tol && -margin <= u) {
                    within_unc++;
                } else {
                    violations++;
                    worst = margin < worst ? margin : worst;
                }
            }
            min_margin = margin < min_margin ? margin : min_margin;
            ++i;
            ++j;
        }
    }
    printf("%zu sends, %zu receives, %" PRIu64 " pairs (%" PRIu64 " with unequal sizes), %" PRIu64
           " receives completing before their send started (worst by %" PRId64
           " ns); smallest send-start to receive-completion: %" PRId64 " ns\n",
           sends.n, recvs.n, pairs, mismatched, violations, -worst, 0 < pairs ? min_margin : 0);
    if (0 < within_unc) {
        printf("%" PRIu64 " more receives before their send by less than the clock offsets' "
               "uncertainty, which was above the tolerance (%" PRId64 " ns): not judged\n",
               within_unc, tol);
    }
    if ((int64_t) pairs < min_pairs) {
        printf("FAIL: %" PRIu64 " pairs (want at least %" PRId64 ")\n", pairs, min_pairs);
        failures++;
    }
    if (0 < mismatched) {
        printf("FAIL: pairs with unequal byte counts\n");
        failures++;
    }
    if (control ? 0 == violations : 0 < violations) {
        printf("FAIL: %s\n", control ? "no receive precedes its send: the skew did not show"
                                     : "receives complete before their send started");
        failures++;
    }
    for (size_t i = 0; i < nrank_lines; ++i) {
        failures += check_offsets(rank_lines[i], host_of[0], tol, control, &ranks_seen);
        json_object_put(rank_lines[i]);
    }
    free(rank_lines);
    if (0 == ranks_seen) {
        printf("FAIL: no per-rank lines\n");
        failures++;
    }
    if ('\0' == host_of[0][0]) {
        printf("FAIL: no event of rank 0 (the reference)\n");
        failures++;
    }
    free(sends.v);
    free(recvs.v);
    printf("%s\n", 0 == failures ? "clockcheck: PASS" : "clockcheck: FAIL");
    return 0 == failures ? 0 : 1;
}
