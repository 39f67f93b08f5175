/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * report.html: one self-contained page (inline SVG and CSS, no script, no
 * network) with the pictures people ask of an MPI trace first, and
 * report.csv with the numbers behind every picture:
 *   - the communication matrix: point-to-point messages and bytes per
 *     sender and receiver (world ranks; from the senders' events, so a
 *     message counts once), colour on a log scale of bytes;
 *   - the message sizes per event type (point-to-point, collective bytes
 *     sent, one-sided bytes both ways), in power-of-two buckets;
 *   - a timeline overview per rank: the share of each of TIME_BINS slices
 *     of the job spent inside blocking point-to-point calls, blocking
 *     collectives and one-sided synchronisation calls (nonblocking
 *     operations overlap the rank's work: not counted as waiting);
 *   - late senders: for each sender and receiver, the receives posted
 *     before their matching send started, and how long they waited (from
 *     the receive's start to the send's start, or to the receive's
 *     completion if that came first); sends and receives are paired as
 *     trace.json pairs them (evt_listen_match.c);
 *   - the top event types, drops, batches lost, ranks that ended early,
 *     and each rank's clock offset and its uncertainty.
 * The matrix and the late senders are kept per pair that has messages (a
 * hash table), so their memory follows the pairs that talk, not the
 * square of the ranks; the page draws at most MATRIX_MAX ranks per side
 * (more are grouped, and the picture says by how many); the CSV has every
 * pair. The timeline draws at most 2 * MATRIX_MAX rows (more ranks are
 * grouped, their shares averaged, and the picture says so).
 */

#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evt_listen.h"

/** Slices of the job in the timeline overview. */
#define TIME_BINS 120
/** Ranks per side the matrix picture draws (more are grouped). */
#define MATRIX_MAX 64
/** Power-of-two size buckets: 0 bytes, then [2^(k-1), 2^k) for k = 1..64. */
#define SIZE_BUCKETS 65

/** What a rank's time inside MPI is spent in (the timeline overview). */
enum { W_P2P, W_COLL, W_RMA, W_KINDS };

/** A sender and receiver pair (process ids) that exchanged messages. */
typedef struct {
    uint32_t src, dst;
    bool used;
    uint64_t msgs, bytes;
    uint64_t late, late_ns, late_max_ns; /**< late-sender receives and their waits */
} pair_t;

/** Per event type: the size histogram and how many events. */
typedef struct {
    uint64_t events;
    uint64_t *sizes; /**< SIZE_BUCKETS, or NULL: not a type with sizes */
    int mode;        /**< element index of "mode", -1 none */
} rtype_t;

typedef struct {
    char *dir;
    const listen_registry_t *reg;
    uint32_t *ns_of; /**< per process id: its namespace number */
    size_t num_ns;
    char **ns_names;
    pair_t *pairs;
    size_t pcap, pn;
    rtype_t *types;
    size_t num_types;
    /** per process id: TIME_BINS x W_KINDS ns inside MPI */
    uint64_t (*bins)[TIME_BINS][W_KINDS];
    uint64_t (*inside)[W_KINDS]; /**< per process id: total ns in each kind */
    uint64_t *events;            /**< per process id */
    int64_t t0, t1;              /**< the job's span (job ns) */
    uint64_t unrecorded_msgs;    /**< sends to a rank with no recording */
    listen_match_t match;
    bool failed;
} rp_t;

/* ------------------------------------------------------------------------
 * Collecting
 * ------------------------------------------------------------------------ */

static uint64_t pair_hash(uint32_t a, uint32_t b)
{
    uint64_t h = ((uint64_t) a << 32 | b) * UINT64_C(0x9E3779B97F4A7C15);
    return h ^ (h >> 29);
}

/** The entry of (@p src, @p dst), made on first use; NULL: no memory. */
static pair_t *pair_of(rp_t *s, uint32_t src, uint32_t dst)
{
    size_t i;

    if (2 * (s->pn + 1) > s->pcap) {
        size_t nc = 0 == s->pcap ? 1024 : 2 * s->pcap;
        pair_t *np = calloc(nc, sizeof(*np));
        if (NULL == np) {
            return NULL;
        }
        for (size_t k = 0; k < s->pcap; ++k) {
            if (s->pairs[k].used) {
                size_t j = (size_t) pair_hash(s->pairs[k].src, s->pairs[k].dst) & (nc - 1);
                while (np[j].used) {
                    j = (j + 1) & (nc - 1);
                }
                np[j] = s->pairs[k];
            }
        }
        free(s->pairs);
        s->pairs = np;
        s->pcap = nc;
    }
    for (i = (size_t) pair_hash(src, dst) & (s->pcap - 1); s->pairs[i].used;
         i = (i + 1) & (s->pcap - 1)) {
        if (s->pairs[i].src == src && s->pairs[i].dst == dst) {
            return &s->pairs[i];
        }
    }
    s->pairs[i] = (pair_t){.src = src, .dst = dst, .used = true};
    s->pn++;
    return &s->pairs[i];
}

/** The process id of world rank @p rank of namespace @p ns, or UINT32_MAX. */
static uint32_t proc_of(const rp_t *s, uint32_t ns, int64_t rank)
{
    const listen_proc_t *p = listen_procs_find(s->reg, s->ns_names[ns], rank);
    return NULL != p ? p->id : UINT32_MAX;
}

static int size_bucket(uint64_t bytes)
{
    return 0 == bytes ? 0 : 64 - __builtin_clzll(bytes);
}

/* listen_match_pair_fn: a send and its receive; ts carries nothing here,
 * pid the process ids */
static int late_sender(void *ctx, const listen_msg_t *snd, const listen_msg_t *rcv)
{
    rp_t *s = ctx;
    pair_t *pr;
    int64_t until, wait;

    if (rcv->start >= snd->start) {
        return 0; /* the send had started: nobody waited for it */
    }
    until = rcv->end < snd->start ? rcv->end : snd->start;
    wait = until - rcv->start;
    pr = pair_of(s, snd->pid, rcv->pid);
    if (NULL == pr) {
        s->failed = true;
        return -1;
    }
    pr->late++;
    pr->late_ns += (uint64_t) wait;
    if ((uint64_t) wait > pr->late_max_ns) {
        pr->late_max_ns = (uint64_t) wait;
    }
    return 0;
}

/** Add [@p a, @p b) of process @p p to the bins of kind @p k (a bin
 *  holds at most its width: calls of several threads may overlap). */
static void inside_mpi(rp_t *s, uint32_t p, int k, int64_t a, int64_t b)
{
    double width = ((double) (s->t1 - s->t0) + 1.0) / TIME_BINS;
    int first, last;

    if (b <= a) {
        return;
    }
    s->inside[p][k] += (uint64_t) (b - a);
    first = (int) ((double) (a - s->t0) / width);
    last = (int) ((double) (b - s->t0) / width);
    first = first < 0 ? 0 : first;
    last = last >= TIME_BINS ? TIME_BINS - 1 : last;
    for (int i = first; i <= last; ++i) {
        double lo = (double) s->t0 + i * width, hi = lo + width;
        double from = (double) a > lo ? (double) a : lo, to = (double) b < hi ? (double) b : hi;
        if (to > from) {
            uint64_t *bin = &s->bins[p][i][k];
            *bin += (uint64_t) (to - from);
            if ((double) *bin > width) {
                *bin = (uint64_t) width;
            }
        }
    }
}

static int rp_begin(void *ctx, const listen_registry_t *reg)
{
    rp_t *s = ctx;
    size_t np = reg->num_procs + 1;

    s->reg = reg;
    s->t0 = reg->t_min;
    s->t1 = reg->t_max < reg->t_min ? reg->t_min : reg->t_max;
    s->ns_of = calloc(np, sizeof(*s->ns_of));
    s->ns_names = calloc(np, sizeof(*s->ns_names));
    s->bins = calloc(np, sizeof(*s->bins));
    s->inside = calloc(np, sizeof(*s->inside));
    s->events = calloc(np, sizeof(*s->events));
    s->num_types = reg->num_types;
    s->types = calloc(reg->num_types + 1, sizeof(*s->types));
    if (NULL == s->ns_of || NULL == s->ns_names || NULL == s->bins || NULL == s->inside
        || NULL == s->events || NULL == s->types) {
        return -1;
    }
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        size_t k;
        for (k = 0; k < s->num_ns && 0 != strcmp(s->ns_names[k], p->nspace); ++k) {
        }
        if (k == s->num_ns) {
            s->ns_names[s->num_ns++] = (char *) p->nspace;
        }
        s->ns_of[p->id] = (uint32_t) k;
    }
    for (size_t t = 0; t < reg->num_types; ++t) {
        const listen_type_t *lt = reg->types[t];
        const mca_common_evt_wire_type_t w = {.name = lt->name,
                                              .num_elements = lt->num_elements,
                                              .payload_size = lt->payload_size,
                                              .elements = lt->elements};
        s->types[t].mode = mca_common_evt_wire_element_find(&w, "mode");
        if (LISTEN_P2P_NONE != lt->p2p && LISTEN_P2P_RMA_SYNC != lt->p2p) {
            s->types[t].sizes = calloc(SIZE_BUCKETS, sizeof(uint64_t));
            if (NULL == s->types[t].sizes) {
                return -1;
            }
        }
    }
    return 0;
}

/** The "mode" element of @p ev (0 blocking), or 0 when its type has none. */
static int64_t event_mode(const rp_t *s, const listen_event_t *ev)
{
    mca_common_evt_wire_value_t v;
    int m = s->types[ev->type->id].mode;

    if (0 > m
        || 0 != mca_common_evt_wire_element_value(ev->wire_type, ev->payload, (unsigned) m, &v)) {
        return 0;
    }
    return listen_value_i64(&v);
}

static int rp_event(void *ctx, const listen_event_t *ev)
{
    rp_t *s = ctx;
    const listen_type_t *t = ev->type;
    rtype_t *rt = &s->types[t->id];
    uint32_t me = ev->proc->id;

    rt->events++;
    s->events[me]++;
    if (LISTEN_P2P_SEND == t->p2p || LISTEN_P2P_RECV == t->p2p) {
        listen_p2p_t p2p;
        uint32_t ns = s->ns_of[me];
        bool send = LISTEN_P2P_SEND == t->p2p;
        listen_msg_t msg;
        int rc;

        listen_event_p2p(ev, &p2p);
        rt->sizes[size_bucket(p2p.bytes)]++;
        if (0 == event_mode(s, ev)) {
            inside_mpi(s, me, W_P2P, p2p.start, p2p.end);
        }
        if (send) {
            uint32_t to = proc_of(s, ns, p2p.peer);
            pair_t *pr;
            if (UINT32_MAX == to) {
                s->unrecorded_msgs++;
            } else if (NULL == (pr = pair_of(s, me, to))) {
                return -1;
            } else {
                pr->msgs++;
                pr->bytes += p2p.bytes;
            }
        }
        /* late senders: pair as trace.json does, where order identifies
         * the message */
        msg = (listen_msg_t){.start = p2p.start,
                             .end = p2p.end < p2p.start ? p2p.start : p2p.end,
                             .rank = ev->proc->rank,
                             .bytes = p2p.bytes,
                             .pid = me};
        if (!listen_procs_pairable(s->reg, ev->proc, p2p.peer, send)) {
            return 0;
        }
        rc = send ? listen_match_add(&s->match, ns, ev->proc->rank, p2p.peer, p2p.tag, true, &msg,
                                     ev->time_ns)
                  : listen_match_add(&s->match, ns, p2p.peer, ev->proc->rank, p2p.tag, false, &msg,
                                     ev->time_ns);
        return 0 != rc || s->failed ? -1 : 0;
    }
    if (LISTEN_P2P_COLL == t->p2p) {
        listen_coll_t c;
        listen_event_coll(ev, &c);
        rt->sizes[size_bucket(c.sent)]++;
        if (0 == event_mode(s, ev)) {
            inside_mpi(s, me, W_COLL, c.start, c.end);
        }
    } else if (LISTEN_P2P_RMA_OP == t->p2p || LISTEN_P2P_RMA_SYNC == t->p2p) {
        listen_rma_t r;
        listen_event_rma(ev, &r);
        if (LISTEN_P2P_RMA_OP == t->p2p) {
            rt->sizes[size_bucket(r.sent + r.recv)]++;
        } else {
            inside_mpi(s, me, W_RMA, r.start, r.end);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Writing
 * ------------------------------------------------------------------------ */

/** @p text with <, >, &, " escaped. */
static void html(FILE *f, const char *text)
{
    for (const char *c = text; '\0' != *c; ++c) {
        switch (*c) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*c, f);
        }
    }
}

/** @p text as a CSV field (quoted when it holds a comma, quote or newline). */
static void csv_text(FILE *f, const char *text)
{
    if (NULL == strpbrk(text, ",\"\n\r")) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char *c = text; '\0' != *c; ++c) {
        if ('"' == *c) {
            fputc('"', f);
        }
        fputc(*c, f);
    }
    fputc('"', f);
}

/** A process's label: "R" in a single job, "R (nspace)" otherwise. */
static void label(const rp_t *s, char *buf, size_t n, const listen_proc_t *p)
{
    if (1 < s->num_ns) {
        snprintf(buf, n, "%u (%s)", p->rank, p->nspace);
    } else {
        snprintf(buf, n, "%u", p->rank);
    }
}

/** A colour from white (0) to dark blue (1). */
static void colour(FILE *f, double x)
{
    int r = (int) (247 - x * (247 - 8)), g = (int) (251 - x * (251 - 48)),
        b = (int) (255 - x * (255 - 107));
    fprintf(f, "#%02x%02x%02x", r, g, b);
}

static const char *bytes_text(uint64_t b, char *buf, size_t n)
{
    if (b >= (UINT64_C(1) << 30)) {
        snprintf(buf, n, "%.1f GiB", (double) b / (1 << 30));
    } else if (b >= (1 << 20)) {
        snprintf(buf, n, "%.1f MiB", (double) b / (1 << 20));
    } else if (b >= (1 << 10)) {
        snprintf(buf, n, "%.1f KiB", (double) b / (1 << 10));
    } else {
        snprintf(buf, n, "%" PRIu64 " B", b);
    }
    return buf;
}

static void write_matrix(const rp_t *s, FILE *f)
{
    size_t n = s->reg->num_procs, group = (n + MATRIX_MAX - 1) / MATRIX_MAX, side;
    uint64_t *cell_bytes, *cell_msgs, max = 0;
    int cw, x0 = 60, y0 = 40;
    char b1[32], l1[320], l2[320];

    if (0 == group) {
        group = 1;
    }
    side = (n + group - 1) / group;
    fprintf(f, "<h2 id=\"matrix\">Communication matrix</h2>\n<p>Point-to-point bytes sent, per "
               "sender (row) and receiver (column), counted from the senders' events");
    if (1 < group) {
        fprintf(f, "; ranks grouped by %zu (%zu ranks)", group, n);
    }
    fprintf(f,
            "; colour on a log scale. Sends to ranks with no recording: %" PRIu64
            ". Every pair is in report.csv (table <code>matrix</code>).</p>\n",
            s->unrecorded_msgs);
    if (0 == n) {
        return;
    }
    cell_bytes = calloc(side * side, sizeof(*cell_bytes));
    cell_msgs = calloc(side * side, sizeof(*cell_msgs));
    if (NULL == cell_bytes || NULL == cell_msgs) {
        free(cell_bytes);
        free(cell_msgs);
        fprintf(f, "<p>(no memory to draw it)</p>\n");
        return;
    }
    for (size_t i = 0; i < s->pcap; ++i) {
        const pair_t *pr = &s->pairs[i];
        size_t at;
        if (!pr->used || 0 == pr->msgs) {
            continue;
        }
        at = (pr->src / group) * side + pr->dst / group;
        cell_bytes[at] += pr->bytes;
        cell_msgs[at] += pr->msgs;
        if (cell_bytes[at] > max) {
            max = cell_bytes[at];
        }
    }
    cw = side <= 16 ? 28 : side <= 32 ? 16 : 9;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "role=\"img\" aria-label=\"communication matrix\">\n",
            x0 + (int) side * cw + 20, y0 + (int) side * cw + 40);
    fprintf(f, "<text x=\"%d\" y=\"14\" class=\"ax\">receiver</text>\n", x0);
    fprintf(f, "<text x=\"4\" y=\"%d\" class=\"ax\">sender</text>\n", y0 - 6);
    for (size_t r = 0; r < side; ++r) {
        const listen_proc_t *pr = s->reg->procs[r * group];
        label(s, l1, sizeof(l1), pr);
        if (side <= 32 || 0 == r % 4) {
            fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lb\" text-anchor=\"end\">", x0 - 4,
                    y0 + (int) r * cw + cw / 2 + 4);
            html(f, l1);
            fprintf(f, "</text>\n<text x=\"%d\" y=\"%d\" class=\"lb\" text-anchor=\"middle\">",
                    x0 + (int) r * cw + cw / 2, y0 - 6);
            html(f, l1);
            fprintf(f, "</text>\n");
        }
        for (size_t c = 0; c < side; ++c) {
            uint64_t b = cell_bytes[r * side + c];
            double x = 0 == b || 0 == max ? 0
                                          : 0.15 + 0.85 * log1p((double) b) / log1p((double) max);
            label(s, l2, sizeof(l2), s->reg->procs[c * group]);
            fprintf(f,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" stroke=\"#ddd\" "
                    "fill=\"",
                    x0 + (int) c * cw, y0 + (int) r * cw, cw, cw);
            colour(f, x);
            fprintf(f, "\"><title>");
            html(f, l1);
            fputs(" to ", f);
            html(f, l2);
            fprintf(f, ": %" PRIu64 " messages, %s</title></rect>\n", cell_msgs[r * side + c],
                    bytes_text(b, b1, sizeof(b1)));
        }
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lb\">most: %s</text>\n", x0,
            y0 + (int) side * cw + 20, bytes_text(max, b1, sizeof(b1)));
    fprintf(f, "</svg>\n");
    free(cell_bytes);
    free(cell_msgs);
}

static void write_sizes(const rp_t *s, FILE *f)
{
    fprintf(f, "<h2 id=\"sizes\">Message sizes</h2>\n<p>Events per size bucket (point-to-point: "
               "the message; collectives: bytes sent; one-sided: bytes both ways). Table "
               "<code>sizes</code> in report.csv.</p>\n");
    for (size_t t = 0; t < s->num_types; ++t) {
        const rtype_t *rt = &s->types[t];
        uint64_t max = 0;
        int lo = SIZE_BUCKETS, hi = -1, bw = 22;
        if (NULL == rt->sizes || 0 == rt->events) {
            continue;
        }
        for (int k = 0; k < SIZE_BUCKETS; ++k) {
            if (0 < rt->sizes[k]) {
                lo = k < lo ? k : lo;
                hi = k;
                max = rt->sizes[k] > max ? rt->sizes[k] : max;
            }
        }
        if (hi < 0) {
            continue;
        }
        fprintf(f, "<h3>");
        html(f, s->reg->types[t]->name);
        fprintf(f,
                "</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"150\" "
                "role=\"img\" aria-label=\"size histogram\">\n",
                40 + (hi - lo + 1) * bw + 20);
        for (int k = lo; k <= hi; ++k) {
            int h = (int) (100.0 * (double) rt->sizes[k] / (double) max);
            uint64_t from = 0 == k ? 0 : UINT64_C(1) << (k - 1);
            char b1[32];
            fprintf(f,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#2b6cb0\">"
                    "<title>%s and up: %" PRIu64 " events</title></rect>\n",
                    40 + (k - lo) * bw, 110 - h, bw - 3, h, bytes_text(from, b1, sizeof(b1)),
                    rt->sizes[k]);
            if (0 == (k - lo) % 3) {
                fprintf(f, "<text x=\"%d\" y=\"128\" class=\"lb\">%s</text>\n", 40 + (k - lo) * bw,
                        bytes_text(from, b1, sizeof(b1)));
            }
        }
        fprintf(f, "<text x=\"2\" y=\"14\" class=\"lb\">max %" PRIu64 "</text>\n</svg>\n", max);
    }
}

static void write_timeline(const rp_t *s, FILE *f)
{
    static const char *const kind_colour[W_KINDS] = {"#d97706", "#2563eb", "#16a34a"};
    static const char *const kind_name[W_KINDS] = {"point-to-point", "collective",
                                                   "one-sided synchronisation"};
    double width = ((double) (s->t1 - s->t0) + 1.0) / TIME_BINS;
    int bw = 6, rh = 14, x0 = 110;
    size_t n = s->reg->num_procs, group = (n + MATRIX_MAX * 2 - 1) / (MATRIX_MAX * 2), rows;

    group = 0 == group ? 1 : group;
    rows = (n + group - 1) / group;
    fprintf(f,
            "<h2 id=\"timeline\">Time inside MPI, per rank</h2>\n<p>Each row a rank%s, each "
            "column %.3f ms of the job: the share spent in blocking point-to-point calls "
            "(<span style=\"color:%s\">orange</span>), blocking collectives (<span "
            "style=\"color:%s\">blue</span>) and one-sided synchronisation (<span "
            "style=\"color:%s\">green</span>); the rest is outside those calls "
            "(nonblocking operations overlap the rank's work and are not counted). Table "
            "<code>ranks</code> in report.csv.</p>\n",
            1 < group ? " (ranks grouped, their shares averaged)" : "", width / 1e6, kind_colour[0],
            kind_colour[1], kind_colour[2]);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
            "aria-label=\"timeline overview\">\n",
            x0 + TIME_BINS * bw + 20, 10 + (int) rows * rh + 20);
    for (size_t row = 0; row < rows; ++row) {
        size_t from = row * group, to = from + group < n ? from + group : n;
        char l1[320], l2[320];
        label(s, l1, sizeof(l1), s->reg->procs[from]);
        label(s, l2, sizeof(l2), s->reg->procs[to - 1]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lb\" text-anchor=\"end\">rank ", x0 - 4,
                10 + (int) row * rh + rh - 3);
        html(f, l1);
        if (to - from > 1) {
            fputs("-", f);
            html(f, l2);
        }
        fprintf(f,
                "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                "fill=\"#f3f4f6\"/>\n",
                x0, 10 + (int) row * rh, TIME_BINS * bw, rh - 2);
        for (int b = 0; b < TIME_BINS; ++b) {
            double top = 10 + (double) row * rh, y = top + rh - 2;
            for (int k = 0; k < W_KINDS; ++k) {
                double share = 0, h;
                for (size_t p = from; p < to; ++p) {
                    share += (double) s->bins[p][b][k] / width;
                }
                share /= (double) (to - from);
                h = (rh - 2) * share;
                if (h < 0.05) {
                    continue;
                }
                if (h > y - top) {
                    h = y - top;
                }
                y -= h;
                fprintf(f,
                        "<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\">"
                        "<title>%s: %.0f%%</title></rect>\n",
                        x0 + b * bw, y, bw, h, kind_colour[k], kind_name[k], 100.0 * share);
            }
        }
    }
    fprintf(f, "</svg>\n");
}

static int by_wait(const void *a, const void *b)
{
    const pair_t *x = *(const pair_t *const *) a, *y = *(const pair_t *const *) b;
    return (x->late_ns < y->late_ns) - (x->late_ns > y->late_ns);
}

static void write_late(const rp_t *s, FILE *f)
{
    const pair_t **late = calloc(s->pn + 1, sizeof(*late));
    size_t nl = 0;
    uint64_t max = 0;

    fprintf(f,
            "<h2 id=\"late\">Late senders</h2>\n<p>Receives posted before their matching "
            "send started, per sender and receiver: how many, and how long they waited in all "
            "(from the receive's start to the send's start, or to the receive's completion "
            "if that came first). Pairs of %" PRIu64 " sends and receives, as trace.json "
            "pairs them; %" PRIu64 " not paired. Table <code>late_senders</code> in "
            "report.csv.</p>\n",
            s->match.paired, s->match.pending + s->match.unpaired + s->match.mismatched);
    if (NULL == late) {
        return;
    }
    for (size_t i = 0; i < s->pcap; ++i) {
        if (s->pairs[i].used && 0 < s->pairs[i].late) {
            late[nl++] = &s->pairs[i];
            max = s->pairs[i].late_ns > max ? s->pairs[i].late_ns : max;
        }
    }
    qsort(late, nl, sizeof(*late), by_wait);
    if (0 == nl) {
        fprintf(f, "<p>None.</p>\n");
    } else {
        fprintf(f, "<table><tr><th>sender</th><th>receiver</th><th>late receives</th><th>waited "
                   "(ms)</th><th>longest (ms)</th><th></th></tr>\n");
        for (size_t i = 0; i < nl && i < 50; ++i) {
            char l1[320], l2[320];
            label(s, l1, sizeof(l1), s->reg->procs[late[i]->src]);
            label(s, l2, sizeof(l2), s->reg->procs[late[i]->dst]);
            fprintf(f, "<tr><td>");
            html(f, l1);
            fprintf(f, "</td><td>");
            html(f, l2);
            fprintf(f,
                    "</td><td>%" PRIu64 "</td><td>%.3f</td><td>%.3f</td><td><svg "
                    "xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"10\"><rect "
                    "width=\"%.1f\" height=\"10\" fill=\"#dc2626\"/></svg></td></tr>\n",
                    late[i]->late, (double) late[i]->late_ns / 1e6,
                    (double) late[i]->late_max_ns / 1e6,
                    200.0 * (double) late[i]->late_ns / (double) max);
        }
        fprintf(f, "</table>\n");
        if (50 < nl) {
            fprintf(f, "<p>%zu more pairs in report.csv.</p>\n", nl - 50);
        }
    }
    free(late);
}

static int by_count(const void *a, const void *b, void *arg)
{
    const rp_t *s = arg;
    uint64_t x = s->types[*(const size_t *) a].events, y = s->types[*(const size_t *) b].events;
    return (x < y) - (x > y);
}

static void write_health(const rp_t *s, FILE *f)
{
    const listen_registry_t *reg = s->reg;
    size_t *order = calloc(s->num_types + 1, sizeof(*order));
    uint64_t drops_total = 0, lost_total = 0;

    fprintf(f, "<h2 id=\"types\">Event types</h2>\n<table><tr><th>event</th><th>events</th>"
               "<th>dropped</th></tr>\n");
    if (NULL != order) {
        for (size_t t = 0; t < s->num_types; ++t) {
            order[t] = t;
        }
        qsort_r(order, s->num_types, sizeof(*order), by_count, (void *) s);
        for (size_t i = 0; i < s->num_types; ++i) {
            size_t t = order[i];
            uint64_t drops = 0;
            for (size_t p = 0; p < reg->num_procs; ++p) {
                if (t < reg->procs[p]->types_alloc) {
                    drops += reg->procs[p]->drops[t];
                }
            }
            drops_total += drops;
            if (0 == s->types[t].events && 0 == drops) {
                continue;
            }
            fprintf(f, "<tr><td>");
            html(f, reg->types[t]->name);
            fprintf(f, "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td></tr>\n", s->types[t].events,
                    drops);
        }
        free(order);
    }
    fprintf(f, "</table>\n");
    fprintf(f,
            "<h2 id=\"ranks\">Ranks</h2>\n<p>Dropped events in all: %" PRIu64 ".</p>\n"
            "<table><tr><th>rank</th><th>host</th><th>events</th><th>dropped</th><th>batches "
            "lost</th><th>ended</th><th>clock offset (µs)</th><th>uncertainty "
            "(µs)</th></tr>\n",
            drops_total);
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        uint64_t drops = 0, lost = mca_common_evt_seqset_gaps(&p->seen);
        char l1[320];
        for (size_t t = 0; t < p->types_alloc; ++t) {
            drops += p->drops[t];
        }
        lost_total += lost;
        label(s, l1, sizeof(l1), p);
        fprintf(f, "<tr><td>");
        html(f, l1);
        fprintf(f, "</td><td>");
        html(f, p->host);
        fprintf(f,
                "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td%s>%" PRIu64 "</td><td%s>%s</td>",
                s->events[i], drops, 0 < lost ? " class=\"bad\"" : "", lost,
                p->final_seen ? "" : " class=\"bad\"",
                p->final_seen ? "normally" : "early (no FINAL batch)");
        if (0 < p->num_offsets) {
            const mca_common_evt_wire_offset_t *o = &p->offsets[p->num_offsets - 1];
            fprintf(f, "<td>%+.3f</td><td>%.3f</td></tr>\n", (double) o->offset_ns / 1e3,
                    (double) o->uncertainty_ns / 1e3);
        } else {
            fprintf(f, "<td>none</td><td></td></tr>\n");
        }
    }
    fprintf(f, "</table>\n<p>Batches lost in all: %" PRIu64 ".</p>\n", lost_total);
}

static void write_csv(const rp_t *s, FILE *f)
{
    const listen_registry_t *reg = s->reg;

    fprintf(f, "table,a,b,c,d,e,f,g,h,i\n");
    fprintf(f, "# matrix,sender,receiver,messages,bytes\n");
    fprintf(f, "# late_senders,sender,receiver,late_receives,waited_ns,longest_ns\n");
    for (size_t i = 0; i < s->pcap; ++i) {
        const pair_t *pr = &s->pairs[i];
        if (!pr->used) {
            continue;
        }
        if (0 < pr->msgs) {
            fprintf(f, "matrix,%u,%u,%" PRIu64 ",%" PRIu64 "\n", reg->procs[pr->src]->rank,
                    reg->procs[pr->dst]->rank, pr->msgs, pr->bytes);
        }
        if (0 < pr->late) {
            fprintf(f, "late_senders,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                    reg->procs[pr->src]->rank, reg->procs[pr->dst]->rank, pr->late, pr->late_ns,
                    pr->late_max_ns);
        }
    }
    fprintf(f, "# sizes,event,bucket_from_bytes,bucket_to_bytes,events\n");
    for (size_t t = 0; t < s->num_types; ++t) {
        if (NULL == s->types[t].sizes) {
            continue;
        }
        for (int k = 0; k < SIZE_BUCKETS; ++k) {
            if (0 < s->types[t].sizes[k]) {
                fprintf(f, "sizes,");
                csv_text(f, reg->types[t]->name);
                fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                        0 == k ? 0 : UINT64_C(1) << (k - 1),
                        0 == k    ? 0
                        : 64 == k ? UINT64_MAX
                                  : (UINT64_C(1) << k) - 1,
                        s->types[t].sizes[k]);
            }
        }
    }
    fprintf(f, "# ranks,rank,nspace,events,p2p_ns,coll_ns,rma_sync_ns,dropped,batches_lost,"
               "final\n");
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        uint64_t drops = 0;
        for (size_t t = 0; t < p->types_alloc; ++t) {
            drops += p->drops[t];
        }
        fprintf(f, "ranks,%u,", p->rank);
        csv_text(f, p->nspace);
        fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n",
                s->events[i], s->inside[i][W_P2P], s->inside[i][W_COLL], s->inside[i][W_RMA], drops,
                mca_common_evt_seqset_gaps(&p->seen), p->final_seen ? 1 : 0);
    }
    fprintf(f, "# types,event,events\n");
    for (size_t t = 0; t < s->num_types; ++t) {
        if (0 < s->types[t].events) {
            fprintf(f, "types,");
            csv_text(f, reg->types[t]->name);
            fprintf(f, ",%" PRIu64 "\n", s->types[t].events);
        }
    }
    fprintf(f, "# span,first_ns,last_ns\nspan,%" PRId64 ",%" PRId64 "\n", s->t0, s->t1);
}

static int rp_end(void *ctx, const listen_registry_t *reg)
{
    rp_t *s = ctx;
    char err[512], *tmp = NULL;
    FILE *f;

    (void) reg;
    if (0 != listen_match_finish(&s->match)) {
        fprintf(stderr, "ompi-evt-listen: report: out of memory\n");
        return -1;
    }
    f = listen_out_open(s->dir, "report.csv", &tmp, err, sizeof(err));
    if (NULL == f) {
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        return -1;
    }
    write_csv(s, f);
    if (0 != listen_out_commit(f, tmp, s->dir, "report.csv", err, sizeof(err))) {
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        free(tmp);
        return -1;
    }
    free(tmp);
    tmp = NULL;
    f = listen_out_open(s->dir, "report.html", &tmp, err, sizeof(err));
    if (NULL == f) {
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        return -1;
    }
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
               "<title>ompi-evt report</title>\n<style>\n"
               "body{font-family:sans-serif;margin:2em;color:#111;max-width:1200px}\n"
               "table{border-collapse:collapse;margin:.5em 0}\n"
               "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}\n"
               "td:first-child,th:first-child{text-align:left}\n"
               "th{background:#f3f4f6}\n.bad{color:#b91c1c;font-weight:bold}\n"
               ".lb{font-size:10px;fill:#333}\n.ax{font-size:12px;fill:#111}\n"
               "</style></head><body>\n<h1>ompi-evt report</h1>\n");
    fprintf(f,
            "<p>%zu ranks, %.6f s from the first event to the last. Sections: <a "
            "href=\"#matrix\">matrix</a>, <a href=\"#sizes\">sizes</a>, <a "
            "href=\"#timeline\">timeline</a>, <a href=\"#late\">late senders</a>, <a "
            "href=\"#types\">event types</a>, <a href=\"#ranks\">ranks</a>. The numbers are "
            "in report.csv.</p>\n",
            s->reg->num_procs, (double) (s->t1 - s->t0) / 1e9);
    write_matrix(s, f);
    write_sizes(s, f);
    write_timeline(s, f);
    write_late(s, f);
    write_health(s, f);
    fprintf(f, "</body></html>\n");
    if (0 != listen_out_commit(f, tmp, s->dir, "report.html", err, sizeof(err))) {
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

static void rp_report(void *ctx, FILE *f)
{
    rp_t *s = ctx;
    uint64_t late = 0, late_ns = 0;

    for (size_t i = 0; i < s->pcap; ++i) {
        if (s->pairs[i].used) {
            late += s->pairs[i].late;
            late_ns += s->pairs[i].late_ns;
        }
    }
    fprintf(f,
            "  report.html, report.csv: %zu sender/receiver pairs with messages or late "
            "receives, %" PRIu64 " late receives waiting %.3f ms in all\n",
            s->pn, late, (double) late_ns / 1e6);
}

static void rp_destroy(void *ctx)
{
    rp_t *s = ctx;

    listen_match_fini(&s->match);
    for (size_t t = 0; NULL != s->types && t < s->num_types; ++t) {
        free(s->types[t].sizes);
    }
    free(s->types);
    free(s->pairs);
    free(s->bins);
    free(s->inside);
    free(s->events);
    free(s->ns_of);
    free(s->ns_names);
    free(s->dir);
    free(s);
}

int listen_sink_report(listen_sink_t *sink, const char *dir, char *err, size_t errlen)
{
    rp_t *s = calloc(1, sizeof(*s));

    if (NULL == s || NULL == (s->dir = strdup(dir))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    listen_match_init(&s->match, late_sender, s);
    listen_sink_set(sink, "report.html", s, rp_begin, rp_event, rp_end, rp_report, rp_destroy);
    return 0;
}
