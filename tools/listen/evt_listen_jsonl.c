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
 *    "offset_ns":O,"uncertainty_ns":U},...]}
 * (the clock alignment samples applied to the rank's events).
 * Strings are json-c's (escaped once per name and cached), numbers are
 * written exactly (64-bit integers as integers, doubles by json-c).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "evt_listen.h"

typedef struct {
    char *head; /**< ,"event":"E","source":"S","elements":[ */
    size_t head_len;
    char **keys; /**< "name": per element, NULL when unnamed */
    size_t *key_len;
    uint16_t n; /**< elements */
} jtype_t;

typedef struct {
    char *dir;
    FILE *f;
    char *tmp;
    char **proc_head; /**< ,"rank":R,"host":"H","nspace":"NS" per process id */
    size_t *proc_len;
    size_t num_procs;
    jtype_t **types; /**< per type id */
    size_t num_types;
    char *buf; /**< lines not yet handed to stdio */
    size_t used;
    char err[512];
} jsonl_t;

static void jtype_free(jtype_t *t)
{
    if (NULL == t) {
        return;
    }
    for (uint16_t i = 0; NULL != t->keys && i < t->n; ++i) {
        free(t->keys[i]);
    }
    free(t->keys);
    free(t->key_len);
    free(t->head);
    free(t);
}

static jtype_t *jtype_make(const listen_type_t *t)
{
    jtype_t *j = calloc(1, sizeof(*j));
    char *en = listen_json_string(t->name), *es = listen_json_string(t->source);
    size_t n;

    if (NULL == j || NULL == en || NULL == es) {
        goto fail;
    }
    n = strlen(en) + strlen(es) + 64;
    j->head = malloc(n);
    j->keys = calloc(t->num_elements + 1, sizeof(*j->keys));
    j->key_len = calloc(t->num_elements + 1, sizeof(*j->key_len));
    if (NULL == j->head || NULL == j->keys || NULL == j->key_len) {
        goto fail;
    }
    j->n = t->num_elements;
    j->head_len = (size_t) snprintf(j->head, n, ",\"event\":%s,\"source\":%s,\"elements\":[", en,
                                    es);
    for (uint16_t i = 0; i < t->num_elements; ++i) {
        char *k;
        if ('\0' == t->elements[i].name[0]) {
            continue;
        }
        k = listen_json_string(t->elements[i].name);
        if (NULL == k) {
            goto fail;
        }
        j->key_len[i] = strlen(k) + 1;
        j->keys[i] = malloc(j->key_len[i] + 1);
        if (NULL == j->keys[i]) {
            free(k);
            goto fail;
        }
        memcpy(j->keys[i], k, j->key_len[i] - 1);
        j->keys[i][j->key_len[i] - 1] = ':';
        j->keys[i][j->key_len[i]] = '\0';
        free(k);
    }
    free(en);
    free(es);
    return j;
fail:
    free(en);
    free(es);
    jtype_free(j);
    return NULL;
}

static int jl_begin(void *ctx, const listen_registry_t *reg)
{
    (void) ctx;
    (void) reg;
    return 0;
}

static const char *proc_head(jsonl_t *s, const listen_proc_t *p, size_t *len)
{
    if (p->id >= s->num_procs) {
        size_t n = (size_t) p->id + 1;
        char **h = realloc(s->proc_head, n * sizeof(*h));
        size_t *l;
        if (NULL == h) {
            return NULL;
        }
        s->proc_head = h;
        l = realloc(s->proc_len, n * sizeof(*l));
        if (NULL == l) {
            return NULL;
        }
        s->proc_len = l;
        memset(h + s->num_procs, 0, (n - s->num_procs) * sizeof(*h));
        s->num_procs = n;
    }
    if (NULL == s->proc_head[p->id]) {
        char *eh = listen_json_string(p->host), *en = listen_json_string(p->nspace);
        size_t n;
        if (NULL == eh || NULL == en) {
            free(eh);
            free(en);
            return NULL;
        }
        n = strlen(eh) + strlen(en) + 64;
        s->proc_head[p->id] = malloc(n);
        if (NULL != s->proc_head[p->id]) {
            s->proc_len[p->id] = (size_t) snprintf(s->proc_head[p->id], n,
                                                   ",\"rank\":%u,\"host\":%s,\"nspace\":%s",
                                                   p->rank, eh, en);
        }
        free(eh);
        free(en);
        if (NULL == s->proc_head[p->id]) {
            return NULL;
        }
    }
    *len = s->proc_len[p->id];
    return s->proc_head[p->id];
}

static jtype_t *type_cache(jsonl_t *s, const listen_type_t *t)
{
    if (t->id >= s->num_types) {
        size_t n = (size_t) t->id + 16;
        jtype_t **a = realloc(s->types, n * sizeof(*a));
        if (NULL == a) {
            return NULL;
        }
        memset(a + s->num_types, 0, (n - s->num_types) * sizeof(*a));
        s->types = a;
        s->num_types = n;
    }
    if (NULL == s->types[t->id]) {
        s->types[t->id] = jtype_make(t);
    }
    return s->types[t->id];
}

/* A line is at most: 40 + process head (~600) + type head (~600) + per
 * element (key 260 + value 48 twice): under 160 KiB for 256 elements. */
#define LINE_MAX_BYTES (160 * 1024)
/* Lines are composed in a buffer of our own and written in large pieces. */
#define BUF_BYTES (4 * 1024 * 1024)

/* Straight to the file: stdio's buffer is empty (only jl_end uses it). */
static int flush_buf(jsonl_t *s)
{
    size_t done = 0;

    while (done < s->used) {
        ssize_t w = write(fileno(s->f), s->buf + done, s->used - done);
        if (w < 0) {
            if (EINTR == errno) {
                continue;
            }
            return -1;
        }
        done += (size_t) w;
    }
    s->used = 0;
    return 0;
}

static int jl_event(void *ctx, const listen_event_t *ev)
{
    jsonl_t *s = ctx;
    size_t vat[OMPI_EVT_WIRE_MAX_ELEMENTS], vlen[OMPI_EVT_WIRE_MAX_ELEMENTS];
    size_t plen = 0;
    const char *ph = proc_head(s, ev->proc, &plen);
    jtype_t *jt = type_cache(s, ev->type);
    ompi_evt_wire_value_t v;
    bool any = false;
    char *line;
    size_t n;

    if (NULL == ph || NULL == jt) {
        return -1;
    }
    if (BUF_BYTES - s->used < LINE_MAX_BYTES && 0 != flush_buf(s)) {
        return -1;
    }
    line = s->buf + s->used;
    memcpy(line, "{\"time_ns\":", 11);
    n = 11;
    v.type = OMPI_EVT_WIRE_ELEM_INT64;
    v.v.i = ev->time_ns;
    n += listen_json_value(line + n, LISTEN_JSON_VALUE_MAX, &v);
    if (LISTEN_P2P_NONE != ev->type->p2p
        && OPAL_SUCCESS
               == ompi_evt_wire_element_value(ev->wire_type, ev->payload,
                                              (unsigned) ev->type->p2p_start, &v)) {
        memcpy(line + n, ",\"start_ns\":", 12);
        n += 12;
        v.v.i = listen_time_map(ev->proc, ev->clock, listen_value_i64(&v));
        v.type = OMPI_EVT_WIRE_ELEM_INT64;
        n += listen_json_value(line + n, LISTEN_JSON_VALUE_MAX, &v);
    }
    memcpy(line + n, ph, plen);
    n += plen;
    memcpy(line + n, jt->head, jt->head_len);
    n += jt->head_len;
    for (uint16_t i = 0; i < ev->wire_type->num_elements; ++i) {
        (void) ompi_evt_wire_element_value(ev->wire_type, ev->payload, i, &v);
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
    s->used += n;
    return 0;
}

static int jl_end(void *ctx, const listen_registry_t *reg)
{
    jsonl_t *s = ctx;

    if (0 != flush_buf(s)) {
        return -1;
    }
    for (size_t i = 0; i < reg->num_procs; ++i) {
        const listen_proc_t *p = reg->procs[i];
        json_object *o = json_object_new_object(), *d = json_object_new_object(), *a;
        const char *txt;

        if (NULL == o || NULL == d) {
            json_object_put(o);
            json_object_put(d);
            return -1;
        }
        json_object_object_add(o, "rank", json_object_new_int64(p->rank));
        json_object_object_add(o, "host", json_object_new_string(p->host));
        json_object_object_add(o, "nspace", json_object_new_string(p->nspace));
        for (size_t t = 0; t < reg->num_types && t < p->types_alloc; ++t) {
            if (0 < p->drops[t] && reg->types[t]->selected) {
                json_object_object_add(d, reg->types[t]->name, json_object_new_uint64(p->drops[t]));
            }
        }
        json_object_object_add(o, "drops", d);
        json_object_object_add(o, "lost_batches",
                               json_object_new_uint64(listen_seqset_gaps(&p->seen)));
        json_object_object_add(o, "ended_early", json_object_new_boolean(!p->final_seen));
        a = json_object_new_array();
        for (size_t k = 0; NULL != a && k < p->num_offsets; ++k) {
            json_object *x = json_object_new_object();
            json_object_object_add(x, "local_realtime_ns",
                                   json_object_new_int64(p->offsets[k].local_realtime_ns));
            json_object_object_add(x, "offset_ns", json_object_new_int64(p->offsets[k].offset_ns));
            json_object_object_add(x, "uncertainty_ns",
                                   json_object_new_uint64(p->offsets[k].uncertainty_ns));
            json_object_array_add(a, x);
        }
        json_object_object_add(o, "clock_offsets", a);
        txt = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN
                                                    | JSON_C_TO_STRING_NOSLASHESCAPE);
        fprintf(s->f, "%s\n", txt);
        json_object_put(o);
    }
    if (0 != listen_out_commit(s->f, s->tmp, s->dir, "events.jsonl", s->err, sizeof(s->err))) {
        s->f = NULL;
        fprintf(stderr, "ompi-evt-listen: %s\n", s->err);
        return -1;
    }
    s->f = NULL;
    return 0;
}

static void jl_destroy(void *ctx)
{
    jsonl_t *s = ctx;

    if (NULL != s->f) {
        fclose(s->f);
        unlink(s->tmp);
    }
    for (size_t i = 0; i < s->num_procs; ++i) {
        free(s->proc_head[i]);
    }
    for (size_t i = 0; i < s->num_types; ++i) {
        jtype_free(s->types[i]);
    }
    free(s->buf);
    free(s->proc_head);
    free(s->proc_len);
    free(s->types);
    free(s->tmp);
    free(s->dir);
    free(s);
}

int listen_sink_jsonl(listen_sink_t *sink, const char *dir, char *err, size_t errlen)
{
    jsonl_t *s = calloc(1, sizeof(*s));

    if (NULL == s || NULL == (s->dir = strdup(dir)) || NULL == (s->buf = malloc(BUF_BYTES))) {
        if (NULL != s) {
            free(s->dir);
        }
        free(s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->f = listen_out_open(dir, "events.jsonl", &s->tmp, err, errlen);
    if (NULL == s->f) {
        free(s->buf);
        free(s->dir);
        free(s);
        return -1;
    }
    sink->name = "events.jsonl";
    sink->ctx = s;
    sink->begin = jl_begin;
    sink->event = jl_event;
    sink->end = jl_end;
    sink->report = NULL;
    sink->destroy = jl_destroy;
    return 0;
}
