/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Checks the outputs of ompi-evt-listen against what gen_nodefiles wrote:
 *   events.jsonl  every line parsed by json-c; keys and types; time order;
 *                 p2p values (peer, bytes) consistent with the generator's
 *                 ring; counts per (event, rank); the per-rank drop lines
 *   trace.json    parsed by json-c; instants and slices per (event, rank);
 *                 every flow start has its finish; slice durations >= 0;
 *                 otherData.flows
 *   trace.otf2/   read back with otf2-print: Enter records per (region,
 *                 rank), message records (MpiSend or MpiIsend, MpiRecv or
 *                 MpiIrecv) counted, time order per location
 *   summary.txt   the per (event, rank) counts, drops, lost batches, ranks
 *                 that ended early
 * and requires the counts of all three formats to equal EXPECTED's.
 * With --causal: no receive completes before its matching send started
 * (the slices joined by each flow arrow); with --acausal, some does (the
 * control run of the clock test: skewed clocks, no offsets).
 * Usage: check_listen OUTDIR EXPECTED OTF2_PRINT|- [--formats LIST] [--causal|--acausal]
 * Prints "N passed, M failed"; exit status 0 when nothing failed. */

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#define MAXK 4096

typedef struct {
    char name[128];
    long rank;
    uint64_t n;
} cnt_t;

typedef struct {
    cnt_t c[MAXK];
    size_t n;
} counts_t;

static int passed, failed;
static int causal; /* 1 must hold, -1 must be violated somewhere, 0 not checked */
static const char *formats = "jsonl,perfetto,otf2";

static void check(bool ok, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        passed++;
        return;
    }
    failed++;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static void bump(counts_t *c, const char *name, long rank, uint64_t by)
{
    for (size_t i = 0; i < c->n; ++i) {
        if (c->c[i].rank == rank && 0 == strcmp(c->c[i].name, name)) {
            c->c[i].n += by;
            return;
        }
    }
    if (c->n < MAXK) {
        snprintf(c->c[c->n].name, sizeof(c->c[c->n].name), "%s", name);
        c->c[c->n].rank = rank;
        c->c[c->n].n = by;
        c->n++;
    }
}

static uint64_t get(const counts_t *c, const char *name, long rank)
{
    for (size_t i = 0; i < c->n; ++i) {
        if (c->c[i].rank == rank && 0 == strcmp(c->c[i].name, name)) {
            return c->c[i].n;
        }
    }
    return 0;
}

/* every entry of a in b with the same count, and the other way round */
static void same(const counts_t *a, const counts_t *b, const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < a->n; ++i) {
        uint64_t other = get(b, a->c[i].name, a->c[i].rank);
        if (other != a->c[i].n) {
            if (bad++ < 5) {
                fprintf(stderr, "  %s: %s rank %ld: %" PRIu64 " vs %" PRIu64 "\n", what,
                        a->c[i].name, a->c[i].rank, a->c[i].n, other);
            }
        }
    }
    for (size_t i = 0; i < b->n; ++i) {
        if (0 == get(a, b->c[i].name, b->c[i].rank) && 0 < b->c[i].n) {
            if (bad++ < 5) {
                fprintf(stderr, "  %s: %s rank %ld only on one side\n", what, b->c[i].name,
                        b->c[i].rank);
            }
        }
    }
    check(0 == bad, "%s: counts per (event, rank) equal (%zu differences)", what, bad);
}

/* ------------------------------------------------------------------------ */

typedef struct {
    counts_t count, drops;
    long lost[1024];
    bool early[1024];
    long nranks;
    uint64_t flows, total;
    uint64_t mpi_sends, mpi_recvs;
    bool have_msgs;
} expected_t;

static void read_expected(const char *path, expected_t *e)
{
    FILE *f = fopen(path, "r");
    char line[512];

    memset(e, 0, sizeof(*e));
    if (NULL == f) {
        check(false, "cannot open %s", path);
        return;
    }
    while (fgets(line, sizeof(line), f)) {
        char name[128];
        long r;
        unsigned long long n, m;
        if (3 == sscanf(line, "count %127s %ld %llu", name, &r, &n)) {
            bump(&e->count, name, r, n);
            if (r + 1 > e->nranks) {
                e->nranks = r + 1;
            }
        } else if (3 == sscanf(line, "drops %127s %ld %llu", name, &r, &n)) {
            bump(&e->drops, name, r, n);
        } else if (2 == sscanf(line, "lost %ld %llu", &r, &n) && r >= 0 && r < 1024) {
            e->lost[r] = (long) n;
        } else if (1 == sscanf(line, "early %ld", &r) && r >= 0 && r < 1024) {
            e->early[r] = true;
        } else if (1 == sscanf(line, "flows %llu", &n)) {
            e->flows = n;
        } else if (1 == sscanf(line, "total %llu", &n)) {
            e->total = n;
        } else if (1 == sscanf(line, "ranks %ld", &r) && r > e->nranks && r <= 1024) {
            e->nranks = r;
        } else if (2 == sscanf(line, "otf2_msgs %llu %llu", &n, &m)) {
            e->mpi_sends = n;
            e->mpi_recvs = m;
            e->have_msgs = true;
        }
    }
    fclose(f);
}

static json_object *key(json_object *o, const char *k, json_type t)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, t)) {
        return NULL;
    }
    return v;
}

static void check_jsonl(const char *dir, const expected_t *e)
{
    char path[4096], *line = NULL;
    size_t cap = 0;
    ssize_t len;
    FILE *f;
    counts_t got, drops;
    int64_t last = INT64_MIN;
    uint64_t lines = 0, bad_lines = 0, bad_keys = 0, order = 0, bad_vals = 0, drop_lines = 0;
    bool in_drops = false, mixed = false;

    memset(&got, 0, sizeof(got));
    memset(&drops, 0, sizeof(drops));
    snprintf(path, sizeof(path), "%s/events.jsonl", dir);
    f = fopen(path, "r");
    check(NULL != f, "events.jsonl exists");
    if (NULL == f) {
        return;
    }
    while (0 < (len = getline(&line, &cap, f))) {
        json_tokener *tok = json_tokener_new();
        json_object *o = json_tokener_parse_ex(tok, line, (int) len);
        enum json_tokener_error je = json_tokener_get_error(tok);
        json_tokener_free(tok);
        lines++;
        if (NULL == o || json_tokener_success != je || !json_object_is_type(o, json_type_object)) {
            bad_lines++;
            json_object_put(o);
            continue;
        }
        if (NULL != key(o, "drops", json_type_object)) {
            /* per-rank line: {"rank","host","nspace","drops","lost_batches","ended_early"} */
            json_object *r = key(o, "rank", json_type_int), *d = key(o, "drops", json_type_object);
            json_object *lb = key(o, "lost_batches", json_type_int);
            json_object *ee = key(o, "ended_early", json_type_boolean);
            long rank = NULL == r ? -1 : (long) json_object_get_int64(r);
            in_drops = true;
            drop_lines++;
            if (NULL == r || NULL == lb || NULL == ee || NULL == key(o, "host", json_type_string)) {
                bad_keys++;
            } else {
                json_object_object_foreach(d, k, v)
                {
                    bump(&drops, k, rank, (uint64_t) json_object_get_int64(v));
                }
                check(json_object_get_int64(lb) == (rank < 1024 ? e->lost[rank] : 0),
                      "jsonl rank %ld: lost_batches %" PRId64, rank, json_object_get_int64(lb));
                check(json_object_get_boolean(ee) == (rank < 1024 && e->early[rank]),
                      "jsonl rank %ld: ended_early", rank);
            }
        } else {
            json_object *t = key(o, "time_ns", json_type_int), *r = key(o, "rank", json_type_int);
            json_object *ev = key(o, "event", json_type_string);
            json_object *el = key(o, "elements", json_type_array);
            json_object *fl = key(o, "fields", json_type_object);
            if (in_drops) {
                mixed = true;
            }
            if (NULL == t || NULL == r || NULL == ev || NULL == el || NULL == fl
                || NULL == key(o, "host", json_type_string)
                || NULL == key(o, "source", json_type_string)) {
                bad_keys++;
            } else {
                const char *name = json_object_get_string(ev);
                long rank = (long) json_object_get_int64(r);
                int64_t tn = json_object_get_int64(t);
                if (tn < last) {
                    order++;
                }
                last = tn;
                bump(&got, name, rank, 1);
                if (json_object_object_length(fl) != (int) json_object_array_length(el)) {
                    bad_vals++; /* the built-in events name every element */
                }
                if (NULL != strstr(name, "p2p_") && 0 < e->nranks) {
                    json_object *peer = key(fl, "peer", json_type_int);
                    json_object *tag = key(fl, "tag", json_type_int);
                    json_object *bytes = key(fl, "bytes", json_type_int);
                    bool send = NULL != strstr(name, "send");
                    long want = send ? (rank + 1) % e->nranks
                                     : (rank + e->nranks - 1) % e->nranks;
                    if (NULL == peer || NULL == tag || NULL == bytes
                        || json_object_get_int64(peer) != want
                        || (uint64_t) json_object_get_int64(bytes)
                               != 8 * ((uint64_t) json_object_get_int64(tag) + 1)) {
                        bad_vals++;
                    }
                }
            }
        }
        json_object_put(o);
    }
    free(line);
    fclose(f);
    check(0 < lines && 0 == bad_lines, "events.jsonl: %" PRIu64 " lines, all valid JSON (%" PRIu64
          " not)", lines, bad_lines);
    check(0 == bad_keys, "events.jsonl: every line has its keys (%" PRIu64 " without)", bad_keys);
    check(0 == order, "events.jsonl: in time order (%" PRIu64 " steps back)", order);
    check(0 == bad_vals, "events.jsonl: values as generated (%" PRIu64 " wrong)", bad_vals);
    check(!mixed, "events.jsonl: the per-rank lines come last");
    check(drop_lines == (uint64_t) e->nranks, "events.jsonl: one per-rank line per rank (%" PRIu64
          ")", drop_lines);
    same(&e->count, &got, "events.jsonl vs expected");
    same(&e->drops, &drops, "events.jsonl drops vs expected");
}

static void check_perfetto(const char *dir, const expected_t *e)
{
    char path[4096];
    json_object *root, *evs, *od, *fl;
    counts_t got;
    long pid_rank[4096];
    size_t n;
    uint64_t starts = 0, finishes = 0, bad = 0, negdur = 0, acausal = 0;
    static uint64_t sid[1 << 20];
    static struct {
        long pid, tid;
        double ts, dur;
    } sl[1 << 16];
    static struct {
        long pid, tid;
        double ts;
    } fs[1 << 16], ff[1 << 16];
    size_t nsid = 0, nsl = 0, nfs = 0, nff = 0;

    memset(&got, 0, sizeof(got));
    for (size_t i = 0; i < 4096; ++i) {
        pid_rank[i] = -1;
    }
    snprintf(path, sizeof(path), "%s/trace.json", dir);
    root = json_object_from_file(path);
    check(NULL != root, "trace.json parses as JSON (%s)", json_util_get_last_err());
    if (NULL == root) {
        return;
    }
    evs = key(root, "traceEvents", json_type_array);
    check(NULL != evs, "trace.json: traceEvents");
    check(NULL != key(root, "displayTimeUnit", json_type_string), "trace.json: displayTimeUnit");
    if (NULL == evs) {
        json_object_put(root);
        return;
    }
    n = json_object_array_length(evs);
    /* process names first: pid -> rank */
    for (size_t i = 0; i < n; ++i) {
        json_object *x = json_object_array_get_idx(evs, i), *ph = key(x, "ph", json_type_string);
        json_object *nm = key(x, "name", json_type_string), *pid = key(x, "pid", json_type_int);
        if (NULL != ph && 0 == strcmp("M", json_object_get_string(ph)) && NULL != nm
            && 0 == strcmp("process_name", json_object_get_string(nm)) && NULL != pid) {
            json_object *args = key(x, "args", json_type_object);
            json_object *r = NULL == args ? NULL : key(args, "rank", json_type_int);
            long p = (long) json_object_get_int64(pid);
            if (NULL != r && p >= 0 && p < 4096) {
                pid_rank[p] = (long) json_object_get_int64(r);
            }
        }
    }
    for (size_t i = 0; i < n; ++i) {
        json_object *x = json_object_array_get_idx(evs, i), *ph = key(x, "ph", json_type_string);
        const char *p = NULL == ph ? "" : json_object_get_string(ph);
        json_object *pid = key(x, "pid", json_type_int);
        if (NULL == ph || NULL == pid) {
            bad++;
            continue;
        }
        if (0 == strcmp(p, "i") || 0 == strcmp(p, "X")) {
            json_object *nm = key(x, "name", json_type_string);
            long pp = (long) json_object_get_int64(pid);
            if (NULL == nm || NULL == key(x, "args", json_type_object)
                || NULL == json_object_object_get(x, "ts") || pp < 0 || pp >= 4096
                || 0 > pid_rank[pp]) {
                bad++;
                continue;
            }
            bump(&got, json_object_get_string(nm), pid_rank[pp], 1);
            if ('X' == p[0] && json_object_get_double(json_object_object_get(x, "dur")) < 0) {
                negdur++;
            }
            if ('X' == p[0] && nsl < sizeof(sl) / sizeof(sl[0])) {
                sl[nsl].pid = pp;
                sl[nsl].tid = (long) json_object_get_int64(json_object_object_get(x, "tid"));
                sl[nsl].ts = json_object_get_double(json_object_object_get(x, "ts"));
                sl[nsl].dur = json_object_get_double(json_object_object_get(x, "dur"));
                nsl++;
            }
        } else if (0 == strcmp(p, "s")) {
            starts++;
            if (nfs < sizeof(fs) / sizeof(fs[0])) {
                fs[nfs].pid = (long) json_object_get_int64(pid);
                fs[nfs].tid = (long) json_object_get_int64(json_object_object_get(x, "tid"));
                fs[nfs].ts = json_object_get_double(json_object_object_get(x, "ts"));
                nfs++;
            }
            if (nsid < sizeof(sid) / sizeof(sid[0])) {
                sid[nsid++] = (uint64_t) json_object_get_int64(json_object_object_get(x, "id"));
            }
        } else if (0 == strcmp(p, "f")) {
            uint64_t id = (uint64_t) json_object_get_int64(json_object_object_get(x, "id"));
            bool found = false;
            finishes++;
            if (nff < sizeof(ff) / sizeof(ff[0])) {
                ff[nff].pid = (long) json_object_get_int64(pid);
                ff[nff].tid = (long) json_object_get_int64(json_object_object_get(x, "tid"));
                ff[nff].ts = json_object_get_double(json_object_object_get(x, "ts"));
                nff++;
            }
            for (size_t k = nsid; k > 0 && !found; --k) {
                found = sid[k - 1] == id;
            }
            if (!found) {
                bad++;
            }
        }
    }
    /* flows are written as s, f pairs: the i-th start goes with the i-th finish */
    for (size_t i = 0; causal && i < nfs && i < nff; ++i) {
        double send_start = -1, recv_end = -1;
        for (size_t k = 0; k < nsl; ++k) {
            if (sl[k].pid == fs[i].pid && sl[k].tid == fs[i].tid && sl[k].ts <= fs[i].ts
                && fs[i].ts <= sl[k].ts + sl[k].dur) {
                send_start = sl[k].ts;
            }
            if (sl[k].pid == ff[i].pid && sl[k].tid == ff[i].tid && sl[k].ts <= ff[i].ts
                && ff[i].ts <= sl[k].ts + sl[k].dur) {
                recv_end = sl[k].ts + sl[k].dur;
            }
        }
        if (send_start < 0 || recv_end < 0) {
            bad++; /* an arrow end outside every slice */
        } else if (recv_end < send_start) {
            acausal++;
        }
    }
    if (1 == causal) {
        check(0 == acausal && 0 < nfs, "trace.json: no receive completes before its send started "
              "(%" PRIu64 " do, of %zu)", acausal, nfs);
    } else if (-1 == causal) {
        check(0 < acausal, "trace.json (control): receives before their sends (%" PRIu64 ")",
              acausal);
    }
    check(0 == bad, "trace.json: every event well formed, every flow finish has its start (%"
          PRIu64 " bad)", bad);
    check(0 == negdur, "trace.json: no slice with a negative duration");
    check(starts == finishes && starts == e->flows,
          "trace.json: %" PRIu64 " flow starts, %" PRIu64 " finishes, expected %" PRIu64, starts,
          finishes, e->flows);
    od = key(root, "otherData", json_type_object);
    fl = NULL == od ? NULL : key(od, "flows", json_type_int);
    check(NULL != fl && (uint64_t) json_object_get_int64(fl) == e->flows, "trace.json: otherData.flows");
    same(&e->count, &got, "trace.json vs expected");
    json_object_put(root);
}

static void check_otf2(const char *dir, const char *otf2_print, const expected_t *e)
{
    char cmd[8192], line[4096];
    long loc_rank[4096];
    uint64_t last[4096];
    counts_t got;
    uint64_t sends = 0, recvs = 0, exp_sends = 0, exp_recvs = 0, order = 0, events = 0;
    FILE *p;

    memset(&got, 0, sizeof(got));
    memset(last, 0, sizeof(last));
    for (size_t i = 0; i < 4096; ++i) {
        loc_rank[i] = -1;
    }
    snprintf(cmd, sizeof(cmd), "%s -G '%s/trace.otf2/traces.otf2' 2>&1", otf2_print, dir);
    p = popen(cmd, "r");
    check(NULL != p, "run %s -G", otf2_print);
    if (NULL == p) {
        return;
    }
    while (fgets(line, sizeof(line), p)) {
        long id, rank;
        if (2 == sscanf(line, "LOCATION %ld Name: \"rank %ld", &id, &rank) && id >= 0 && id < 4096) {
            loc_rank[id] = rank;
            /* one job: location (and location group) ids are the ranks */
            check(id == rank, "otf2: location %ld is rank %ld", id, rank);
        }
        /* otf2-print warns (on stderr, here merged) about definitions
         * out of id order */
        check(NULL == strstr(line, "arning") && NULL == strstr(line, "out of order"),
              "otf2-print -G without a warning: %s", line);
    }
    check(0 == pclose(p), "otf2-print -G reads the definitions");
    snprintf(cmd, sizeof(cmd), "%s '%s/trace.otf2/traces.otf2' 2>&1", otf2_print, dir);
    p = popen(cmd, "r");
    if (NULL == p) {
        return;
    }
    while (fgets(line, sizeof(line), p)) {
        char what[64], region[256];
        long loc;
        unsigned long long ts;
        check(NULL == strstr(line, "arning") && NULL == strstr(line, "out of order"),
              "otf2-print without a warning: %s", line);
        if (3 > sscanf(line, "%63s %ld %llu", what, &loc, &ts) || loc < 0 || loc >= 4096) {
            continue;
        }
        events++;
        if (ts < last[loc]) {
            order++;
        }
        last[loc] = ts;
        if (0 == strcmp(what, "ENTER")) {
            char *q = strstr(line, "Region: \"");
            if (NULL != q && 1 == sscanf(q, "Region: \"%255[^\"]\"", region)) {
                bump(&got, region, loc_rank[loc], 1);
            }
        } else if (0 == strcmp(what, "MPI_SEND") || 0 == strcmp(what, "MPI_ISEND")) {
            sends++; /* a blocking call's, or a request's at its start */
        } else if (0 == strcmp(what, "MPI_RECV") || 0 == strcmp(what, "MPI_IRECV")) {
            recvs++;
        }
    }
    check(0 == pclose(p), "otf2-print reads the events");
    check(0 < events, "otf2: %" PRIu64 " records", events);
    check(0 == order, "otf2: time order per location (%" PRIu64 " steps back)", order);
    for (size_t i = 0; i < e->count.n; ++i) {
        if (NULL != strstr(e->count.c[i].name, "p2p_send")) {
            exp_sends += e->count.c[i].n;
        } else if (NULL != strstr(e->count.c[i].name, "p2p_recv")) {
            exp_recvs += e->count.c[i].n;
        }
    }
    if (e->have_msgs) {
        /* only messages the listener could pair by order */
        exp_sends = e->mpi_sends;
        exp_recvs = e->mpi_recvs;
    }
    check(sends == exp_sends && recvs == exp_recvs,
          "otf2: %" PRIu64 " MPI_[I]SEND / %" PRIu64 " MPI_[I]RECV, expected %" PRIu64
          " / %" PRIu64,
          sends, recvs, exp_sends, exp_recvs);
    same(&e->count, &got, "trace.otf2 vs expected");
}

static void check_summary(const char *dir, const expected_t *e)
{
    char path[4096], line[1024];
    FILE *f;
    counts_t got, drops;
    int section = 0;
    long lost[1024] = {0};
    bool early[1024] = {false};
    bool causality_seen = false;
    unsigned long long viol, nfl;

    memset(&got, 0, sizeof(got));
    memset(&drops, 0, sizeof(drops));
    snprintf(path, sizeof(path), "%s/summary.txt", dir);
    f = fopen(path, "r");
    check(NULL != f, "summary.txt exists");
    if (NULL == f) {
        return;
    }
    while (fgets(line, sizeof(line), f)) {
        char name[128], ns[256];
        long r;
        unsigned long long n;
        if (0 == strncmp(line, "events per type and rank", 24)) {
            section = 1;
        } else if (0 == strncmp(line, "drops per type and rank", 23)) {
            section = 2;
        } else if (0 == strncmp(line, "batches lost", 12)) {
            section = 3;
        } else if (0 == strncmp(line, "ranks that ended early", 22)) {
            char *q = strchr(line, ':');
            long prev = -1;
            section = 0;
            while (NULL != q && *q) {
                char *end;
                long v = strtol(q + 1, &end, 10);
                if (end == q + 1) {
                    break;
                }
                check(v > prev, "summary.txt: ranks that ended early in rank order: %s", line);
                prev = v;
                if (v >= 0 && v < 1024) {
                    early[v] = true;
                }
                q = end;
            }
        } else if (2 == sscanf(line, "  causality: %llu violations of %llu flows", &viol, &nfl)) {
            causality_seen = true;
            check(nfl == e->flows, "summary.txt: causality checked on %llu flows, expected %llu",
                  nfl, (unsigned long long) e->flows);
            check(causal != 1 || 0 == viol, "summary.txt: no causality violation (%llu)", viol);
            check(causal != -1 || 0 < viol, "summary.txt (control): causality violations (%llu)",
                  viol);
        } else if ('\n' == line[0] || ' ' != line[0]) {
            section = 0;
        } else if (1 == section && 4 == sscanf(line, " %127s rank %ld %255s %llu", name, &r, ns, &n)) {
            bump(&got, name, r, n);
        } else if (2 == section && 4 == sscanf(line, " %127s rank %ld %255s %llu", name, &r, ns, &n)) {
            bump(&drops, name, r, n);
        } else if (3 == section && 3 == sscanf(line, " rank %ld %255s %llu", &r, ns, &n) && r >= 0
                   && r < 1024) {
            lost[r] = (long) n;
        }
    }
    fclose(f);
    check(causality_seen || !strstr(formats, "perfetto"), "summary.txt: a causality line");
    same(&e->count, &got, "summary.txt vs expected");
    same(&e->drops, &drops, "summary.txt drops vs expected");
    for (long r = 0; r < e->nranks && r < 1024; ++r) {
        check(lost[r] == e->lost[r], "summary.txt: rank %ld lost %ld batches (expected %ld)", r,
              lost[r], e->lost[r]);
        check(early[r] == e->early[r], "summary.txt: rank %ld ended early: %d", r, early[r]);
    }
}

int main(int argc, char **argv)
{
    expected_t *e = calloc(1, sizeof(*e));

    if (argc < 4 || NULL == e) {
        fprintf(stderr, "usage: check_listen OUTDIR EXPECTED OTF2_PRINT|- [--formats LIST]\n");
        return 2;
    }
    for (int i = 4; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--formats") && i + 1 < argc) {
            formats = argv[++i];
        } else if (0 == strcmp(argv[i], "--causal")) {
            causal = 1;
        } else if (0 == strcmp(argv[i], "--acausal")) {
            causal = -1;
        } else {
            fprintf(stderr, "check_listen: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    read_expected(argv[2], e);
    check(0 < e->total, "expected counts read");
    if (strstr(formats, "jsonl")) {
        check_jsonl(argv[1], e);
    }
    if (strstr(formats, "perfetto")) {
        check_perfetto(argv[1], e);
    }
    if (strstr(formats, "otf2") && 0 != strcmp(argv[3], "-")) {
        check_otf2(argv[1], argv[3], e);
    }
    check_summary(argv[1], e);
    printf("%d passed, %d failed\n", passed, failed);
    free(e);
    return 0 == failed ? 0 : 1;
}
