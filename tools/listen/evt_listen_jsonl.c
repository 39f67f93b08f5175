/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * events.jsonl: one event a line, in time order,
 *   {"time_ns":T,"rank":R,"host":"H","nspace":"NS","event":"E","source":"S",
 *    "elements":[v,...],"fields":{"name":v,...}}
 * (fields holds the named elements only; a point-to-point completion also
 * has "start_ns":T after time_ns, its start_time on the job timeline),
 * then one line per process:
 *   {"rank":R,"host":"H","nspace":"NS","drops":{"E":n,...},
 *    "lost_batches":n,"ended_early":b,"clock_offsets":[{"local_realtime_ns":L,
 *    "offset_ns":O,"uncertainty_ns":U,"applied_offset_ns":A},...]}
 * (the clock alignment samples applied to the rank's events).
 * Strings are json-c's (escaped once per name and cached), numbers are
 * written exactly (64-bit integers as integers, doubles by json-c).
 */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "evt_listen.h"

typedef struct {
    size_t len;
    char text[]; /**< ,"rank":R,"host":"H","nspace":"NS" */
} jproc_t;

typedef struct {
    listen_outbuf_t out;  /**< events.jsonl (first: see listen_outbuf_new); lines are
                               composed in its buffer */
    listen_slots_t procs; /**< jproc_t per process id */
    listen_slots_t types; /**< listen_json_type_t per type id */
} jsonl_t;

/* listen_slot_get: the names of type @p key as JSON text (the fields
 * object holds the named elements only) */
static void *jtype_make(void *ctx, const void *key)
{
    (void) ctx;
    return listen_json_type_make(key, false);
}

/* listen_slot_get: the piece of a line of process @p key */
static void *jproc_make(void *ctx, const void *key)
{
    const listen_proc_t *p = key;
    char *eh = listen_json_string(p->host), *en = listen_json_string(p->nspace);
    jproc_t *j = NULL;

    (void) ctx;
    if (NULL != eh && NULL != en) {
        size_t n = strlen(eh) + strlen(en) + 64;
        j = malloc(sizeof(*j) + n);
        if (NULL != j) {
            j->len = (size_t) snprintf(j->text, n, ",\"rank\":%u,\"host\":%s,\"nspace\":%s",
                                       p->rank, eh, en);
        }
    }
    free(eh);
    free(en);
    return j;
}

/* A line is at most: 40 + process head (~600) + type head (~600) + per
 * element (key 260 + value 48 twice): under LISTEN_OUTBUF_EVENT_MAX
 * (160 KiB) for 256 elements. */

static int jl_event(void *ctx, const listen_event_t *ev)
{
    jsonl_t *s = ctx;
    size_t vat[MCA_COMMON_EVT_WIRE_MAX_ELEMENTS], vlen[MCA_COMMON_EVT_WIRE_MAX_ELEMENTS];
    const jproc_t *ph = listen_slot_get(&s->procs, ev->proc->id, jproc_make, NULL, ev->proc);
    const listen_json_type_t *jt = listen_slot_get(&s->types, ev->type->id, jtype_make, NULL,
                                                   ev->type);
    mca_common_evt_wire_value_t v;
    bool any = false;
    char *line;
    size_t n;

    if (NULL == ph || NULL == jt || 0 != listen_outbuf_room(&s->out)) {
        return -1;
    }
    line = s->out.buf + s->out.used;
    memcpy(line, "{\"time_ns\":", 11);
    n = 11;
    v.type = MCA_COMMON_EVT_WIRE_ELEM_INT64;
    v.v.i = ev->time_ns;
    n += listen_json_value(line + n, LISTEN_JSON_VALUE_MAX, &v);
    if (LISTEN_P2P_NONE != ev->type->p2p) {
        listen_p2p_t p2p;
        listen_event_p2p(ev, &p2p);
        memcpy(line + n, ",\"start_ns\":", 12);
        n += 12;
        v.v.i = p2p.start;
        n += listen_json_value(line + n, LISTEN_JSON_VALUE_MAX, &v);
    }
    memcpy(line + n, ph->text, ph->len);
    n += ph->len;
    memcpy(line + n, ",\"event\":", 9);
    n += 9;
    memcpy(line + n, jt->name, jt->name_len);
    n += jt->name_len;
    memcpy(line + n, ",\"source\":", 10);
    n += 10;
    memcpy(line + n, jt->source, jt->source_len);
    n += jt->source_len;
    memcpy(line + n, ",\"elements\":[", 13);
    n += 13;
    for (uint16_t i = 0; i < ev->wire_type->num_elements; ++i) {
        (void) mca_common_evt_wire_element_value(ev->wire_type, ev->payload, i, &v);
        if (0 < i) {
            line[n++] = ',';
        }
        vat[i] = n;
        vlen[i] = listen_json_value(line + n, LISTEN_JSON_VALUE_MAX, &v);
        n += vlen[i];
    }
    memcpy(line + n, "],\"fields\":{", 12);
    n += 12;
    for (uint16_t i = 0; i < ev->wire_type->num_elements; ++i) {
        if (NULL == jt->keys[i]) {
            continue;
        }
        if (any) {
            line[n++] = ',';
        }
        any = true;
        memcpy(line + n, jt->keys[i], jt->key_len[i]);
        n += jt->key_len[i];
        memcpy(line + n, line + vat[i], vlen[i]); /* the value written above */
        n += vlen[i];
    }
    memcpy(line + n, "}}\n", 3);
    n += 3;
    s->out.used += n;
    return 0;
}

/* The per-rank line of @p p, or of rank @p rank of @p nspace that never
 * sent a batch (p NULL: it ended before its first one). */
static int rank_line(FILE *f, const listen_registry_t *reg, const listen_proc_t *p,
                     const char *nspace, int64_t rank)
{
    json_object *o = json_object_new_object(), *d = json_object_new_object(), *a;
    const char *txt;

    if (NULL == o || NULL == d) {
        json_object_put(o);
        json_object_put(d);
        return -1;
    }
    json_object_object_add(o, "rank", json_object_new_int64(rank));
    json_object_object_add(o, "host", json_object_new_string(NULL == p ? "" : p->host));
    json_object_object_add(o, "nspace", json_object_new_string(nspace));
    for (size_t t = 0; NULL != p && t < reg->num_types && t < p->types_alloc; ++t) {
        if (0 < p->drops[t] && reg->types[t]->selected) {
            json_object_object_add(d, reg->types[t]->name, json_object_new_uint64(p->drops[t]));
        }
    }
    json_object_object_add(o, "drops", d);
    json_object_object_add(o, "lost_batches",
                           json_object_new_uint64(
                               NULL == p ? 0 : mca_common_evt_seqset_gaps(&p->seen)));
    json_object_object_add(o, "ended_early", json_object_new_boolean(NULL == p || !p->final_seen));
    if (NULL == p) {
        json_object_object_add(o, "never_reported", json_object_new_boolean(true));
    }
    a = json_object_new_array();
    for (size_t k = 0; NULL != p && NULL != a && k < p->num_offsets; ++k) {
        json_object *x = json_object_new_object();
        json_object_object_add(x, "local_realtime_ns",
                               json_object_new_int64(p->offsets[k].local_realtime_ns));
        json_object_object_add(x, "offset_ns", json_object_new_int64(p->offsets[k].offset_ns));
        json_object_object_add(x, "uncertainty_ns",
                               json_object_new_uint64(p->offsets[k].uncertainty_ns));
        json_object_object_add(x, "applied_offset_ns",
                               json_object_new_int64(NULL != p->applied_offsets
                                                         ? p->applied_offsets[k]
                                                         : p->offsets[k].offset_ns));
        json_object_array_add(a, x);
    }
    json_object_object_add(o, "clock_offsets", a);
    txt = json_object_to_json_string_ext(o,
                                         JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    fprintf(f, "%s\n", txt);
    json_object_put(o);
    return 0;
}

static int jl_end(void *ctx, const listen_registry_t *reg)
{
    jsonl_t *s = ctx;

    if (0 != listen_outbuf_flush(&s->out)) {
        return -1;
    }
    /* every rank of every job, in rank order */
    for (size_t k = 0; k < reg->num_jobs; ++k) {
        const listen_job_t *j = &reg->jobs[k];
        const listen_proc_t *p;
        int64_t r = 0;
        size_t at = j->first;
        while (listen_procs_step(reg, j, &r, &at, &p)) {
            if (0 != rank_line(s->out.f, reg, p, j->nspace, r - 1)) {
                return -1;
            }
        }
    }
    return listen_outbuf_commit(&s->out);
}

static void jl_destroy(void *ctx)
{
    jsonl_t *s = ctx;

    listen_outbuf_close(&s->out);
    listen_slots_free(&s->procs, free);
    listen_slots_free(&s->types, listen_json_type_free);
    free(s);
}

_Static_assert(0 == offsetof(jsonl_t, out), "listen_outbuf_new: the context begins with it");

int listen_sink_jsonl(listen_sink_t *sink, const char *dir, char *err, size_t errlen)
{
    jsonl_t *s = listen_outbuf_new(sizeof(*s), dir, "events.jsonl", err, errlen);

    if (NULL == s) {
        return -1;
    }
    listen_sink_set(sink, "events.jsonl", s, NULL, jl_event, jl_end, NULL, jl_destroy);
    return 0;
}
