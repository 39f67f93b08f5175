/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * trace.json: the Chrome trace event format (Perfetto and chrome://tracing
 * open it). One process per rank (pid = process id + 1, named "rank R
 * (host)", sorted by rank); thread 0 holds the events as instants ("ph":"i")
 * with their fields as args; point-to-point completions are slices
 * ("ph":"X") from the request's start to its completion, on "p2p" threads
 * (lanes: overlapping requests of a rank go to different lanes, so slices
 * nest properly); collective completions are slices named after the call
 * ("MPI_Allreduce", ...) on "collectives" threads, lanes alike, so a
 * collective's slices on its ranks line up on the timeline (their fields,
 * cid and seq among them, say which belong together); one-sided calls
 * (ompi.mpi.rma_op, rma_sync) are slices named after the call ("MPI_Put",
 * "MPI_Win_fence", ...) on "one-sided" threads; a send and the
 * receive that matches it are joined by a
 * flow arrow ("ph":"s" / "ph":"f"). Matching: same namespace, sender,
 * receiver (world ranks) and tag, in the order they were started (MPI's
 * non-overtaking rule, whatever order they completed in), and equal byte
 * counts (evt_listen_match.c); communicators are not compared (their handles are
 * addresses local to each process), so messages of one pair and tag on
 * two communicators can be paired across them. The events carry no
 * message sequence number, so order identifies a message only when both
 * sides were read whole from their start: sends and receives of a rank
 * whose recording misses records (a lost batch, drops, a flight window
 * that overwrote its oldest records) are not paired (counted). Every flow
 * drawn is checked for causality: its receive must not complete before
 * its send started (counted in the summary, the worst one named, and said
 * on stderr). Timestamps are microseconds
 * (with nanosecond decimals) since the first event; otherData.origin_ns is
 * that instant on the job timeline (Unix epoch ns).
 */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "evt_listen.h"

#define LANES 32
/** Families of lanes: p2p, collectives, one-sided. */
#define FAMILIES   3
#define LANE_WORDS ((FAMILIES * LANES + 63) / 64)
typedef struct {
    listen_outbuf_t out; /**< trace.json (first: see listen_outbuf_new): metadata
                              through stdio, events composed in its buffer (ap()) */
    bool first;
    int64_t origin;
    listen_slots_t types; /**< listen_json_type_t per type id */
    uint32_t *ns_of;      /**< namespace number per process id */
    /** per process: p2p lanes, then collective lanes, then one-sided lanes */
    int64_t (*lane_end)[FAMILIES * LANES];
    uint64_t (*lanes_named)[LANE_WORDS]; /**< per process: a bit per lane named */
    uint64_t *uncertainty; /**< per process id, its most uncertain clock offset (ns) */
    size_t num_procs;
    listen_match_t match; /**< sends and receives waiting for their partner */
    uint64_t flow_id;
    uint64_t flows;
    uint64_t unsafe; /**< not paired: a side's recording misses records */
    /* flows whose receive completed before its send started (after clock
     * alignment): the worst, by how much, between which ranks */
    uint64_t acausal, acausal_beyond; /**< ... and by more than the offsets' uncertainty */
    int64_t worst_ns, worst_src, worst_dst;
    const listen_registry_t *reg;
} pf_t;

/* Events are composed in the output's buffer (an event, with its lane's
 * name and its flow, stays under LISTEN_OUTBUF_EVENT_MAX). */
static inline void ap(pf_t *s, const char *str, size_t n)
{
    memcpy(s->out.buf + s->out.used, str, n);
    s->out.used += n;
}
#define APS(s, lit) ap(s, lit, sizeof(lit) - 1)

static inline void ap_u64(pf_t *s, uint64_t u)
{
    mca_common_evt_wire_value_t v = {.type = MCA_COMMON_EVT_WIRE_ELEM_UINT64};
    v.v.u = u;
    s->out.used += listen_json_value(s->out.buf + s->out.used, LISTEN_JSON_VALUE_MAX, &v);
}

/* listen_slot_get: the names of type @p key as JSON text (args name
 * every element) */
static void *ptype_make(void *ctx, const void *key)
{
    (void) ctx;
    return listen_json_type_make(key, true);
}

/* Microseconds since the origin, with nanosecond decimals. */
static void ap_ts(pf_t *s, int64_t t, int64_t origin)
{
    __int128 d = (__int128) t - origin;
    uint64_t a = (uint64_t) (d < 0 ? -d : d);
    char frac[4] = {(char) ('0' + a % 1000 / 100), (char) ('0' + a % 100 / 10),
                    (char) ('0' + a % 10), 0};

    if (d < 0) {
        APS(s, "-");
    }
    ap_u64(s, a / 1000);
    APS(s, ".");
    ap(s, frac, 3);
}

/* Before stdio output (metadata at the start). */
static void sep(pf_t *s)
{
    if (!s->first) {
        fputs(",\n", s->out.f);
    }
    s->first = false;
}

/* Before buffered output (events). */
static void bsep(pf_t *s)
{
    if (!s->first) {
        APS(s, ",\n");
    }
    s->first = false;
}

static int pf_begin(void *ctx, const listen_registry_t *reg)
{
    pf_t *s = ctx;

    s->origin = reg->t_min <= reg->t_max ? reg->t_min : 0;
    s->reg = reg;
    s->num_procs = reg->num_procs;
    s->ns_of = calloc(reg->num_procs + 1, sizeof(*s->ns_of));
    s->lane_end = calloc(reg->num_procs + 1, sizeof(*s->lane_end));
    s->lanes_named = calloc(reg->num_procs + 1, sizeof(*s->lanes_named));
    s->uncertainty = calloc(reg->num_procs + 1, sizeof(*s->uncertainty));
    if (NULL == s->ns_of || NULL == s->lane_end || NULL == s->lanes_named
        || NULL == s->uncertainty) {
        return -1;
    }
    for (size_t i = 0; i < reg->num_procs; ++i) {
        for (size_t k = 0; k < reg->procs[i]->num_offsets; ++k) {
            if (reg->procs[i]->offsets[k].uncertainty_ns > s->uncertainty[i]) {
                s->uncertainty[i] = reg->procs[i]->offsets[k].uncertainty_ns;
            }
        }
    }
    fputs("{\"traceEvents\":[\n", s->out.f);
    s->first = true;
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        json_object *o = json_object_new_object(), *a = json_object_new_object();
        char label[600];

        /* namespaces numbered by first appearance */
        s->ns_of[i] = (uint32_t) i;
        for (size_t k = 0; k < i; ++k) {
            if (0 == strcmp(reg->procs[k]->nspace, p->nspace)) {
                s->ns_of[i] = s->ns_of[k];
                break;
            }
        }
        for (int l = 0; l < FAMILIES * LANES; ++l) {
            s->lane_end[i][l] = INT64_MIN;
        }
        if (NULL == o || NULL == a) {
            json_object_put(o);
            json_object_put(a);
            return -1;
        }
        snprintf(label, sizeof(label), "rank %u (%s)", p->rank, p->host);
        json_object_object_add(o, "ph", json_object_new_string("M"));
        json_object_object_add(o, "pid", json_object_new_int64((int64_t) p->id + 1));
        json_object_object_add(o, "name", json_object_new_string("process_name"));
        json_object_object_add(a, "name", json_object_new_string(label));
        json_object_object_add(a, "host", json_object_new_string(p->host));
        json_object_object_add(a, "nspace", json_object_new_string(p->nspace));
        json_object_object_add(a, "rank", json_object_new_int64(p->rank));
        json_object_object_add(o, "args", a);
        sep(s);
        fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), s->out.f);
        json_object_put(o);
        sep(s);
        fprintf(s->out.f,
                "{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":"
                "%u}}",
                p->id + 1, p->rank);
        sep(s);
        fprintf(s->out.f,
                "{\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"name\":\"thread_name\",\"args\":{\"name\":"
                "\"events\"}}",
                p->id + 1);
    }
    /* from here on events go through the buffer, straight to the file */
    return ferror(s->out.f) || 0 != fflush(s->out.f) ? -1 : 0;
}

static void write_args(pf_t *s, const listen_json_type_t *pt, const listen_event_t *ev)
{
    APS(s, ",\"args\":{");
    for (uint16_t i = 0; i < ev->wire_type->num_elements; ++i) {
        mca_common_evt_wire_value_t v;
        (void) mca_common_evt_wire_element_value(ev->wire_type, ev->payload, i, &v);
        if (0 < i) {
            APS(s, ",");
        }
        ap(s, pt->keys[i], pt->key_len[i]);
        s->out.used += listen_json_value(s->out.buf + s->out.used, LISTEN_JSON_VALUE_MAX, &v);
    }
    APS(s, "}}");
}

/* One end of the current flow arrow: @p head opens the event up to "id". */
static void flow_point(pf_t *s, const char *head, size_t head_len, const listen_msg_t *at)
{
    bsep(s);
    ap(s, head, head_len);
    ap_u64(s, s->flow_id);
    APS(s, ",\"pid\":");
    ap_u64(s, at->pid);
    APS(s, ",\"tid\":");
    ap_u64(s, at->tid);
    APS(s, ",\"ts\":");
    ap_ts(s, at->ts, s->origin);
    APS(s, ",\"name\":\"message\",\"cat\":\"p2p\"}");
}
#define FLOW_POINT(s, lit, at) flow_point(s, lit, sizeof(lit) - 1, at)

/* listen_match_pair_fn: a send and its receive, joined by an arrow
 * (pairs come a while after their events, many at a time) */
static int flow(void *ctx, const listen_msg_t *snd, const listen_msg_t *rcv)
{
    pf_t *s = ctx;

    if (0 != listen_outbuf_room(&s->out)) {
        return -1;
    }
    /* a receive cannot complete before its send started: a flow that
     * says so shows a clock alignment (or a pairing) that is wrong */
    if (rcv->end < snd->start) {
        int64_t by = snd->start - rcv->end;
        if ((uint64_t) by > snd->uncertainty + rcv->uncertainty) {
            s->acausal_beyond++;
        }
        if (0 == s->acausal++ || by > s->worst_ns) {
            s->worst_ns = by;
            s->worst_src = snd->rank;
            s->worst_dst = rcv->rank;
        }
    }
    s->flow_id++;
    FLOW_POINT(s, "{\"ph\":\"s\",\"id\":", snd);
    FLOW_POINT(s, "{\"ph\":\"f\",\"bp\":\"e\",\"id\":", rcv);
    s->flows++;
    return 0;
}

/**
 * A slice ("ph":"X") of event @p ev from @p start to @p end on the first
 * lane of @p family (0 p2p, 1 collectives, 2 one-sided) free at its start (records
 * come in completion order, so a lane's last end is its latest), named
 * @p name (JSON text). Its thread id in *@p tid_out when not NULL.
 */
static void slice(pf_t *s, const listen_json_type_t *pt, const listen_event_t *ev, int family,
                  int64_t start, int64_t end, const char *name, size_t name_len, uint32_t *tid_out)
{
    static const char *const families[FAMILIES] = {"p2p", "collectives", "one-sided"};
    uint32_t pid = ev->proc->id + 1;
    int lane = LANES - 1, at;

    if (end < start) {
        end = start;
    }
    for (int l = 0; l < LANES; ++l) {
        if (s->lane_end[ev->proc->id][family * LANES + l] <= start) {
            lane = l;
            break;
        }
    }
    at = family * LANES + lane;
    s->lane_end[ev->proc->id][at] = end;
    if (!(s->lanes_named[ev->proc->id][at / 64] & (UINT64_C(1) << (at % 64)))) {
        s->lanes_named[ev->proc->id][at / 64] |= UINT64_C(1) << (at % 64);
        bsep(s);
        APS(s, "{\"ph\":\"M\",\"pid\":");
        ap_u64(s, pid);
        APS(s, ",\"tid\":");
        ap_u64(s, (uint64_t) at + 1);
        APS(s, ",\"name\":\"thread_name\",\"args\":{\"name\":\"");
        ap(s, families[family], strlen(families[family]));
        APS(s, " ");
        ap_u64(s, (uint64_t) lane);
        APS(s, "\"}}");
    }
    bsep(s);
    APS(s, "{\"ph\":\"X\",\"pid\":");
    ap_u64(s, pid);
    APS(s, ",\"tid\":");
    ap_u64(s, (uint64_t) at + 1);
    APS(s, ",\"ts\":");
    ap_ts(s, start, s->origin);
    APS(s, ",\"dur\":");
    ap_ts(s, end, start);
    APS(s, ",\"name\":");
    ap(s, name, name_len);
    APS(s, ",\"cat\":");
    ap(s, pt->source, pt->source_len);
    write_args(s, pt, ev);
    if (NULL != tid_out) {
        *tid_out = (uint32_t) at + 1;
    }
}

static int pf_event(void *ctx, const listen_event_t *ev)
{
    pf_t *s = ctx;
    const listen_json_type_t *pt = listen_slot_get(&s->types, ev->type->id, ptype_make, NULL,
                                                   ev->type);
    const listen_type_t *t = ev->type;
    uint32_t pid = ev->proc->id + 1;

    if (NULL == pt || 0 != listen_outbuf_room(&s->out)) {
        return -1;
    }
    if (LISTEN_P2P_NONE == t->p2p) {
        bsep(s);
        APS(s, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":");
        ap_u64(s, pid);
        APS(s, ",\"tid\":0,\"ts\":");
        ap_ts(s, ev->time_ns, s->origin);
        APS(s, ",\"name\":");
        ap(s, pt->name, pt->name_len);
        APS(s, ",\"cat\":");
        ap(s, pt->source, pt->source_len);
        write_args(s, pt, ev);
    } else if (LISTEN_P2P_RMA_OP == t->p2p || LISTEN_P2P_RMA_SYNC == t->p2p) {
        listen_rma_t r;
        const char *call;
        listen_event_rma(ev, &r);
        call = LISTEN_P2P_RMA_OP == t->p2p ? listen_rma_op_name(r.kind)
                                           : listen_rma_sync_name(r.kind);
        if (NULL != call) {
            char name[40];
            int len = snprintf(name, sizeof(name), "\"%s\"", call);
            slice(s, pt, ev, 2, r.start, r.end, name, (size_t) len, NULL);
        } else {
            slice(s, pt, ev, 2, r.start, r.end, pt->name, pt->name_len, NULL);
        }
    } else if (LISTEN_P2P_COLL == t->p2p) {
        static const char *const kinds[] = {"MPI_Barrier",
                                            "MPI_Bcast",
                                            "MPI_Gather",
                                            "MPI_Gatherv",
                                            "MPI_Scatter",
                                            "MPI_Scatterv",
                                            "MPI_Allgather",
                                            "MPI_Allgatherv",
                                            "MPI_Alltoall",
                                            "MPI_Alltoallv",
                                            "MPI_Alltoallw",
                                            "MPI_Reduce",
                                            "MPI_Allreduce",
                                            "MPI_Reduce_scatter",
                                            "MPI_Reduce_scatter_block",
                                            "MPI_Scan",
                                            "MPI_Exscan",
                                            "MPI_Neighbor_allgather",
                                            "MPI_Neighbor_allgatherv",
                                            "MPI_Neighbor_alltoall",
                                            "MPI_Neighbor_alltoallv",
                                            "MPI_Neighbor_alltoallw"};
        listen_coll_t c;
        listen_event_coll(ev, &c);
        if (0 <= c.kind && c.kind < (int64_t) (sizeof(kinds) / sizeof(kinds[0]))) {
            char name[40];
            int len = snprintf(name, sizeof(name), "\"%s\"", kinds[c.kind]);
            slice(s, pt, ev, 1, c.start, c.end, name, (size_t) len, NULL);
        } else {
            slice(s, pt, ev, 1, c.start, c.end, pt->name, pt->name_len, NULL);
        }
    } else {
        listen_p2p_t p2p;
        uint32_t ns = s->ns_of[ev->proc->id];
        int64_t start, end;
        uint32_t tid;
        listen_msg_t me;

        listen_event_p2p(ev, &p2p);
        start = p2p.start;
        end = p2p.end < start ? start : p2p.end;
        slice(s, pt, ev, 0, start, end, pt->name, pt->name_len, &tid);
        /* inside the slice (the arrow binds to it): a send's arrow leaves at
         * its start, a receive's arrives just before its completion, so an
         * arrow never points back in time unless the flow is acausal */
        me.ts = LISTEN_P2P_SEND == t->p2p ? start : (end > start ? end - 1 : start);
        me.start = start;
        me.end = end;
        me.rank = ev->proc->rank;
        me.uncertainty = s->uncertainty[ev->proc->id];
        me.bytes = p2p.bytes;
        me.pid = pid;
        me.tid = tid;
        if (!listen_procs_pairable(s->reg, ev->proc, p2p.peer, LISTEN_P2P_SEND == t->p2p)) {
            s->unsafe++; /* order would join the wrong messages */
        } else if (LISTEN_P2P_SEND == t->p2p) {
            if (0
                != listen_match_add(&s->match, ns, ev->proc->rank, p2p.peer, p2p.tag, true, &me,
                                    ev->time_ns)) {
                return -1;
            }
        } else if (0
                   != listen_match_add(&s->match, ns, p2p.peer, ev->proc->rank, p2p.tag, false, &me,
                                       ev->time_ns)) {
            return -1;
        }
    }
    return 0;
}

static int pf_end(void *ctx, const listen_registry_t *reg)
{
    pf_t *s = ctx;
    json_object *o = json_object_new_object();
    const char *txt;

    if (NULL == o || 0 != listen_match_finish(&s->match) || 0 != listen_outbuf_flush(&s->out)) {
        json_object_put(o);
        return -1;
    }
    json_object_object_add(o, "origin_ns", json_object_new_int64(s->origin));
    json_object_object_add(o, "processes", json_object_new_int64((int64_t) reg->num_procs));
    json_object_object_add(o, "flows", json_object_new_uint64(s->flows));
    json_object_object_add(o, "unpaired_p2p",
                           json_object_new_uint64(s->match.pending + s->match.unpaired));
    json_object_object_add(o, "mismatched_p2p", json_object_new_uint64(s->match.mismatched));
    json_object_object_add(o, "unpairable_p2p", json_object_new_uint64(s->unsafe));
    json_object_object_add(o, "acausal_flows", json_object_new_uint64(s->acausal));
    json_object_object_add(o, "producer", json_object_new_string("ompi-evt-listen"));
    txt = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
    fprintf(s->out.f, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":%s\n}\n", txt);
    json_object_put(o);
    if (0 < s->acausal) {
        fprintf(stderr,
                "ompi-evt-listen: causality: %llu of %llu send->receive flows have their receive "
                "complete before the send started (worst by %.3f us, rank %lld -> rank %lld; "
                "%llu by more than the clock offsets' uncertainty): the clock alignment is "
                "wrong\n",
                (unsigned long long) s->acausal, (unsigned long long) s->flows,
                (double) s->worst_ns / 1e3, (long long) s->worst_src, (long long) s->worst_dst,
                (unsigned long long) s->acausal_beyond);
    }
    return listen_outbuf_commit(&s->out);
}

static void pf_report(void *ctx, FILE *f)
{
    pf_t *s = ctx;
    fprintf(f,
            "  trace.json: %llu send->receive flows; %llu sends or receives without a partner, "
            "%llu pairs with different byte counts (not joined), %llu not paired because "
            "their rank's or their peer's recording misses records (a batch lost, drops, "
            "an overwritten flight window: order no longer identifies the message)\n",
            (unsigned long long) s->flows,
            (unsigned long long) (s->match.pending + s->match.unpaired),
            (unsigned long long) s->match.mismatched, (unsigned long long) s->unsafe);
    fprintf(f,
            "  trace.json: %llu messages completed before one of their sender, receiver and tag "
            "started earlier (paired in order of their start, as MPI matches them), %llu paired "
            "with the oldest partner at once because %u waited\n",
            (unsigned long long) s->match.reordered, (unsigned long long) s->match.early,
            LISTEN_MATCH_MAX_PENDING);
    fprintf(f,
            "  causality: %llu violations of %llu flows (a receive completing before its "
            "send started, after clock alignment)",
            (unsigned long long) s->acausal, (unsigned long long) s->flows);
    if (0 < s->acausal) {
        fprintf(f,
                "; worst: %.3f us, rank %lld -> rank %lld; %llu by more than the clock "
                "offsets' uncertainty",
                (double) s->worst_ns / 1e3, (long long) s->worst_src, (long long) s->worst_dst,
                (unsigned long long) s->acausal_beyond);
    }
    fprintf(f, "\n");
}

static void pf_destroy(void *ctx)
{
    pf_t *s = ctx;

    listen_outbuf_close(&s->out);
    listen_slots_free(&s->types, listen_json_type_free);
    listen_match_fini(&s->match);
    free(s->ns_of);
    free(s->lane_end);
    free(s->lanes_named);
    free(s->uncertainty);
    free(s);
}

_Static_assert(0 == offsetof(pf_t, out), "listen_outbuf_new: the context begins with it");

int listen_sink_perfetto(listen_sink_t *sink, const char *dir, char *err, size_t errlen)
{
    pf_t *s = listen_outbuf_new(sizeof(*s), dir, "trace.json", err, errlen);

    if (NULL == s) {
        return -1;
    }
    listen_match_init(&s->match, flow, s);
    listen_sink_set(sink, "trace.json", s, pf_begin, pf_event, pf_end, pf_report, pf_destroy);
    return 0;
}
