/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What the batches say about processes and event types (pass 1), kept in
 * memory proportional to the number of processes, types, offset samples and
 * sequence gaps: never to the number of events.
 */

#include <stdlib.h>
#include <string.h>

#include "evt_listen.h"

/* ------------------------------------------------------------------------
 * A small hash map: byte-string keys -> pointers
 * ------------------------------------------------------------------------ */

typedef struct {
    uint64_t hash;
    char *key;
    size_t klen;
    void *value;
} slot_t;

typedef struct {
    slot_t *slots;
    size_t cap, n;
} map_t;

static uint64_t fnv(const void *p, size_t n)
{
    const uint8_t *s = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; ++i) {
        h = (h ^ s[i]) * 1099511628211ULL;
    }
    return h;
}

static void *map_get(const map_t *m, const void *key, size_t klen)
{
    uint64_t h;
    size_t i;

    if (0 == m->cap) {
        return NULL;
    }
    h = fnv(key, klen);
    for (i = h & (m->cap - 1); NULL != m->slots[i].key; i = (i + 1) & (m->cap - 1)) {
        const slot_t *s = &m->slots[i];
        if (s->hash == h && s->klen == klen && 0 == memcmp(s->key, key, klen)) {
            return s->value;
        }
    }
    return NULL;
}

static int map_put(map_t *m, const void *key, size_t klen, void *value)
{
    uint64_t h = fnv(key, klen);
    size_t i;

    if (2 * (m->n + 1) > m->cap) {
        size_t ncap = 0 == m->cap ? 64 : 2 * m->cap;
        slot_t *ns = calloc(ncap, sizeof(*ns));
        if (NULL == ns) {
            return -1;
        }
        for (size_t k = 0; k < m->cap; ++k) {
            if (NULL != m->slots[k].key) {
                size_t j = m->slots[k].hash & (ncap - 1);
                while (NULL != ns[j].key) {
                    j = (j + 1) & (ncap - 1);
                }
                ns[j] = m->slots[k];
            }
        }
        free(m->slots);
        m->slots = ns;
        m->cap = ncap;
    }
    for (i = h & (m->cap - 1); NULL != m->slots[i].key; i = (i + 1) & (m->cap - 1)) {
    }
    m->slots[i].key = malloc(klen);
    if (NULL == m->slots[i].key) {
        return -1;
    }
    memcpy(m->slots[i].key, key, klen);
    m->slots[i].hash = h;
    m->slots[i].klen = klen;
    m->slots[i].value = value;
    m->n++;
    return 0;
}

static void map_free(map_t *m)
{
    for (size_t i = 0; i < m->cap; ++i) {
        free(m->slots[i].key);
    }
    free(m->slots);
    memset(m, 0, sizeof(*m));
}

typedef struct {
    map_t types;
    map_t procs;
} reg_private_t;

/* ------------------------------------------------------------------------
 * Registry
 * ------------------------------------------------------------------------ */

void listen_registry_init(listen_registry_t *reg)
{
    memset(reg, 0, sizeof(*reg));
    reg->type_index = calloc(1, sizeof(reg_private_t));
    reg->t_min = INT64_MAX;
    reg->t_max = INT64_MIN;
}

static void type_free(listen_type_t *t)
{
    for (uint16_t i = 0; i < t->num_elements; ++i) {
        free((char *) t->elements[i].name);
    }
    free(t->elements);
    free(t->name);
    free(t->source);
    free(t);
}

void listen_registry_fini(listen_registry_t *reg)
{
    reg_private_t *pv = reg->type_index;

    for (size_t i = 0; i < reg->num_types; ++i) {
        type_free(reg->types[i]);
    }
    for (size_t i = 0; i < reg->num_procs; ++i) {
        listen_proc_t *p = reg->procs[i];
        mca_common_evt_seqset_free(&p->seen);
        mca_common_evt_seqset_free(&p->emitted);
        for (size_t k = 0; k < p->num_clocks; ++k) {
            free(p->clocks[k].name);
        }
        free(p->clocks);
        free(p->offsets);
        free(p->applied_offsets);
        free(p->drops);
        free(p->counts);
        free(p);
    }
    free(reg->types);
    free(reg->procs);
    free(reg->jobs);
    if (NULL != pv) {
        map_free(&pv->types);
        map_free(&pv->procs);
        free(pv);
    }
    memset(reg, 0, sizeof(*reg));
}

/* Grow every process's per-type arrays to the number of types. */
static int proc_types_fit(listen_proc_t *p, size_t ntypes)
{
    if (p->types_alloc >= ntypes) {
        return 0;
    }
    size_t n = p->types_alloc ? p->types_alloc : 16;
    while (n < ntypes) {
        n *= 2;
    }
    uint64_t *d = realloc(p->drops, n * sizeof(*d));
    if (NULL == d) {
        return -1;
    }
    p->drops = d;
    uint64_t *c = realloc(p->counts, n * sizeof(*c));
    if (NULL == c) {
        return -1;
    }
    p->counts = c;
    memset(p->drops + p->types_alloc, 0, (n - p->types_alloc) * sizeof(*d));
    memset(p->counts + p->types_alloc, 0, (n - p->types_alloc) * sizeof(*c));
    p->types_alloc = n;
    return 0;
}

/* Element @p e of @p t holds an integer (not a double, not a bool). */
static bool element_is_integer(const listen_type_t *t, int e)
{
    uint8_t et = t->elements[e].type;

    return MCA_COMMON_EVT_WIRE_ELEM_DOUBLE != et && MCA_COMMON_EVT_WIRE_ELEM_BOOL != et;
}

/* The collective completion event (this project's ompi.mpi.coll_complete,
 * or any event with the same name suffix and fields) */
static void classify_coll(listen_type_t *t, const mca_common_evt_wire_type_t *w)
{
    static const char *const names[LISTEN_COLL_FIELDS] = {"kind",       "root", "op",  "bytes_sent",
                                                          "bytes_recv", "cid",  "seq", "comm_rank",
                                                          "comm_size",  "flags"};
    const char *suffix = "coll_complete";
    size_t n = strlen(t->name);

    if (n < strlen(suffix) || 0 != strcmp(t->name + n - strlen(suffix), suffix)) {
        return;
    }
    t->p2p_start = mca_common_evt_wire_element_find(w, "start_time");
    t->p2p_complete = mca_common_evt_wire_element_find(w, "complete_time");
    if (0 > t->p2p_start || 0 > t->p2p_complete
        || MCA_COMMON_EVT_WIRE_ELEM_DOUBLE == t->elements[t->p2p_start].type
        || MCA_COMMON_EVT_WIRE_ELEM_BOOL == t->elements[t->p2p_start].type
        || MCA_COMMON_EVT_WIRE_ELEM_DOUBLE == t->elements[t->p2p_complete].type
        || MCA_COMMON_EVT_WIRE_ELEM_BOOL == t->elements[t->p2p_complete].type) {
        return;
    }
    for (int i = 0; i < LISTEN_COLL_FIELDS; ++i) {
        int e = mca_common_evt_wire_element_find(w, names[i]);
        uint8_t et;
        if (0 > e) {
            return;
        }
        et = t->elements[e].type;
        if (MCA_COMMON_EVT_WIRE_ELEM_DOUBLE == et || MCA_COMMON_EVT_WIRE_ELEM_BOOL == et) {
            return; /* the fields must be integers */
        }
        t->coll[i] = e;
    }
    t->p2p = LISTEN_P2P_COLL;
}

/* The one-sided events (this project's ompi.mpi.rma_op and rma_sync, or
 * any event with the same name suffix and fields) */
static void classify_rma(listen_type_t *t, const mca_common_evt_wire_type_t *w)
{
    /* per field: its name, and whether rma_op / rma_sync has it */
    static const struct {
        const char *name;
        bool op, sync;
    } fields[LISTEN_RMA_FIELDS] = {[LISTEN_RMA_WIN] = {"win", true, true},
                                   [LISTEN_RMA_KIND] = {"kind", true, true},
                                   [LISTEN_RMA_TARGET] = {"target", true, true},
                                   [LISTEN_RMA_PEER] = {"peer", true, true},
                                   [LISTEN_RMA_SENT] = {"bytes_sent", true, false},
                                   [LISTEN_RMA_RECV] = {"bytes_recv", true, false},
                                   [LISTEN_RMA_OP] = {"op", true, false},
                                   [LISTEN_RMA_LOCK] = {"lock_type", false, true}};
    size_t n = strlen(t->name);
    listen_p2p_kind_t kind;
    int start, complete;

    if (n >= 6 && 0 == strcmp(t->name + n - 6, "rma_op")) {
        kind = LISTEN_P2P_RMA_OP;
    } else if (n >= 8 && 0 == strcmp(t->name + n - 8, "rma_sync")) {
        kind = LISTEN_P2P_RMA_SYNC;
    } else {
        return;
    }
    start = mca_common_evt_wire_element_find(w, "start_time");
    complete = mca_common_evt_wire_element_find(w, "complete_time");
    if (0 > start || 0 > complete || !element_is_integer(t, start)
        || !element_is_integer(t, complete)) {
        return;
    }
    for (int i = 0; i < LISTEN_RMA_FIELDS; ++i) {
        int e = -1;
        if (LISTEN_P2P_RMA_OP == kind ? fields[i].op : fields[i].sync) {
            e = mca_common_evt_wire_element_find(w, fields[i].name);
            if (0 > e || !element_is_integer(t, e)) {
                return;
            }
        }
        t->rma[i] = e;
    }
    t->p2p_start = start;
    t->p2p_complete = complete;
    t->p2p = kind;
}

/* The p2p completion events (this project's ompi.mpi.p2p_*_complete, or any
 * event with the same name suffix and fields) */
static void classify_p2p(listen_type_t *t)
{
    const mca_common_evt_wire_type_t w = {.name = t->name,
                                          .num_elements = t->num_elements,
                                          .payload_size = t->payload_size,
                                          .elements = t->elements};
    size_t n = strlen(t->name);
    const char *send = "p2p_send_complete", *recv = "p2p_recv_complete";
    listen_p2p_kind_t kind = LISTEN_P2P_NONE;

    if (n >= strlen(send) && 0 == strcmp(t->name + n - strlen(send), send)) {
        kind = LISTEN_P2P_SEND;
    } else if (n >= strlen(recv) && 0 == strcmp(t->name + n - strlen(recv), recv)) {
        kind = LISTEN_P2P_RECV;
    }
    t->p2p_comm = mca_common_evt_wire_element_find(&w, "comm");
    t->p2p_bytes = mca_common_evt_wire_element_find(&w, "bytes");
    t->p2p_start = mca_common_evt_wire_element_find(&w, "start_time");
    t->p2p_complete = mca_common_evt_wire_element_find(&w, "complete_time");
    t->p2p_peer = mca_common_evt_wire_element_find(&w, "peer");
    t->p2p_tag = mca_common_evt_wire_element_find(&w, "tag");
    t->p2p_mode = mca_common_evt_wire_element_find(&w, "mode");
    if (0 <= t->p2p_mode
        && (MCA_COMMON_EVT_WIRE_ELEM_DOUBLE == t->elements[t->p2p_mode].type
            || MCA_COMMON_EVT_WIRE_ELEM_BOOL == t->elements[t->p2p_mode].type)) {
        t->p2p_mode = -1; /* not a mode this reader knows */
    }
    if (0 > t->p2p_comm || 0 > t->p2p_bytes || 0 > t->p2p_start || 0 > t->p2p_complete
        || 0 > t->p2p_peer || 0 > t->p2p_tag) {
        kind = LISTEN_P2P_NONE;
    } else {
        const int f[6] = {t->p2p_comm,     t->p2p_bytes, t->p2p_start,
                          t->p2p_complete, t->p2p_peer,  t->p2p_tag};
        for (int i = 0; i < 6; ++i) {
            uint8_t et = t->elements[f[i]].type;
            if (MCA_COMMON_EVT_WIRE_ELEM_DOUBLE == et || MCA_COMMON_EVT_WIRE_ELEM_BOOL == et) {
                kind = LISTEN_P2P_NONE; /* the fields must be integers */
            }
        }
    }
    t->p2p = kind;
    if (LISTEN_P2P_NONE == kind) {
        classify_coll(t, &w);
    }
    if (LISTEN_P2P_NONE == t->p2p) {
        classify_rma(t, &w);
    }
}

/* Key of a type: name, source, then (type byte, name) per element. */
static size_t type_key(const mca_common_evt_wire_type_t *w, const char *source, char *out)
{
    size_t n = 0, l;
    l = strlen(w->name) + 1;
    memcpy(out + n, w->name, l);
    n += l;
    l = strlen(source) + 1;
    memcpy(out + n, source, l);
    n += l;
    for (uint16_t i = 0; i < w->num_elements; ++i) {
        out[n++] = (char) w->elements[i].type;
        l = strlen(w->elements[i].name) + 1;
        memcpy(out + n, w->elements[i].name, l);
        n += l;
    }
    return n;
}

int listen_registry_map_types(listen_registry_t *reg, const mca_common_evt_wire_batch_t *b,
                              listen_type_t **map)
{
    reg_private_t *pv = reg->type_index;
    /* names <= 255, 256 elements: a key is at most 256 * 257 + 2 * 256 */
    static char key[256 * 257 + 1024];

    if (NULL == pv) {
        return -1;
    }
    for (uint32_t i = 0; i < b->num_types; ++i) {
        const mca_common_evt_wire_type_t *w = &b->types[i];
        const char *source = b->clocks[w->source].name;
        size_t klen = type_key(w, source, key);
        listen_type_t *t = map_get(&pv->types, key, klen);

        if (NULL == t && reg->frozen) {
            return 1;
        }
        if (NULL == t) {
            t = calloc(1, sizeof(*t));
            if (NULL == t) {
                return -1;
            }
            t->name = strdup(w->name);
            t->source = strdup(source);
            t->elements = calloc(w->num_elements + 1, sizeof(*t->elements));
            if (NULL == t->name || NULL == t->source || NULL == t->elements) {
                type_free(t);
                return -1;
            }
            t->num_elements = w->num_elements;
            t->payload_size = w->payload_size;
            for (uint16_t k = 0; k < w->num_elements; ++k) {
                t->elements[k] = w->elements[k];
                t->elements[k].name = strdup(w->elements[k].name);
                if (NULL == t->elements[k].name) {
                    type_free(t);
                    return -1;
                }
            }
            t->selected = NULL == reg->filter || listen_filter_match(reg->filter, t->name);
            classify_p2p(t);
            if (reg->num_types == reg->cap_types) {
                size_t nc = reg->cap_types ? 2 * reg->cap_types : 32;
                void *n = realloc(reg->types, nc * sizeof(*reg->types));
                if (NULL == n) {
                    type_free(t);
                    return -1;
                }
                reg->types = n;
                reg->cap_types = nc;
            }
            if (0 != map_put(&pv->types, key, klen, t)) {
                type_free(t);
                return -1;
            }
            t->id = (uint32_t) reg->num_types;
            reg->types[reg->num_types++] = t;
        }
        map[i] = t;
    }
    return 0;
}

int listen_registry_freeze(listen_registry_t *reg)
{
    /* a process's arrays were sized when its last batch was scanned; a
     * type another process added later would be past their end */
    for (size_t i = 0; i < reg->num_procs; ++i) {
        if (0 != proc_types_fit(reg->procs[i], reg->num_types)) {
            return -1;
        }
    }
    reg->frozen = true;
    return 0;
}

listen_proc_t *listen_registry_proc(listen_registry_t *reg, const mca_common_evt_wire_batch_t *b)
{
    reg_private_t *pv = reg->type_index;
    char key[MCA_COMMON_EVT_WIRE_NSPACE_MAX + 8];
    size_t nl = strlen(b->sender.nspace);
    listen_proc_t *p;

    memcpy(key, b->sender.nspace, nl);
    key[nl] = '\0';
    memcpy(key + nl + 1, &b->sender.rank, 4);
    p = map_get(&pv->procs, key, nl + 5);
    if (NULL != p || reg->frozen) {
        return p;
    }
    p = calloc(1, sizeof(*p));
    if (NULL == p) {
        return NULL;
    }
    strcpy(p->nspace, b->sender.nspace);
    strcpy(p->host, b->sender.host);
    p->rank = b->sender.rank;
    p->pid = b->sender.pid;
    if (reg->num_procs == reg->cap_procs) {
        size_t nc = reg->cap_procs ? 2 * reg->cap_procs : 16;
        void *n = realloc(reg->procs, nc * sizeof(*reg->procs));
        if (NULL == n) {
            free(p);
            return NULL;
        }
        reg->procs = n;
        reg->cap_procs = nc;
    }
    if (0 != map_put(&pv->procs, key, nl + 5, p)) {
        free(p);
        return NULL;
    }
    p->id = (uint32_t) reg->num_procs;
    reg->procs[reg->num_procs++] = p;
    return p;
}

listen_clock_t *listen_proc_clock(listen_proc_t *p, const char *name)
{
    for (size_t i = 0; i < p->num_clocks; ++i) {
        if (0 == strcmp(p->clocks[i].name, name)) {
            return &p->clocks[i];
        }
    }
    return NULL;
}

static int add_offset(listen_proc_t *p, const mca_common_evt_wire_offset_t *o)
{
    size_t i = 0;
    while (i < p->num_offsets && p->offsets[i].local_realtime_ns < o->local_realtime_ns) {
        ++i;
    }
    if (i < p->num_offsets && p->offsets[i].local_realtime_ns == o->local_realtime_ns) {
        return 0; /* every batch repeats the samples known when it was sent */
    }
    void *n = realloc(p->offsets, (p->num_offsets + 1) * sizeof(*p->offsets));
    if (NULL == n) {
        return -1;
    }
    p->offsets = n;
    memmove(&p->offsets[i + 1], &p->offsets[i], (p->num_offsets - i) * sizeof(*p->offsets));
    p->offsets[i] = *o;
    p->num_offsets++;
    return 0;
}

int listen_registry_scan(listen_registry_t *reg, const mca_common_evt_wire_batch_t *b)
{
    listen_type_t *stack_map[64];
    listen_type_t **map = stack_map;
    /* indexes into p->clocks, not pointers: a new source grows that array */
    size_t cmap_stack[64];
    size_t *cmap = cmap_stack;
    listen_proc_t *p;
    mca_common_evt_wire_record_t r;
    size_t cur = 0;
    int added, ret = 1;

    if (NULL != reg->only_nspace && 0 != strcmp(reg->only_nspace, b->sender.nspace)) {
        reg->ignored_batches++;
        return 0;
    }
    p = listen_registry_proc(reg, b);
    if (NULL == p) {
        return -1;
    }
    added = mca_common_evt_seqset_add(&p->seen, b->seq);
    if (0 > added) {
        return -1;
    }
    if (0 == added) {
        p->duplicates++;
        return 1; /* read again later and skipped then too */
    }
    if (b->num_types > 64) {
        map = malloc(b->num_types * sizeof(*map));
    }
    if (b->num_clocks > 64) {
        cmap = malloc(b->num_clocks * sizeof(*cmap));
    }
    if (NULL == map || NULL == cmap || 0 != listen_registry_map_types(reg, b, map)
        || 0 != proc_types_fit(p, reg->num_types)) {
        ret = -1;
        goto cleanup;
    }
    p->batches++;
    p->records += b->num_records;
    if (0 != strcmp(p->host, b->sender.host)) {
        p->host_changed = true;
    }
    if (b->flags & MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED) {
        p->not_stored++;
    }
    if (b->flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL) {
        p->final_seen = true;
        p->final_seq = b->seq;
    }
    for (uint32_t i = 0; i < b->num_drops; ++i) {
        uint64_t *d = &p->drops[map[b->drops[i].type]->id];
        *d = UINT64_MAX - *d < b->drops[i].count ? UINT64_MAX : *d + b->drops[i].count;
    }
    for (uint32_t i = 0; i < b->num_offsets; ++i) {
        if (0 != add_offset(p, &b->offsets[i])) {
            ret = -1;
            goto cleanup;
        }
    }
    /* each source's reference pair: the one of the lowest batch number */
    for (uint32_t i = 0; i < b->num_clocks; ++i) {
        const mca_common_evt_wire_clock_t *c = &b->clocks[i];
        listen_clock_t *lc = listen_proc_clock(p, c->name);
        if (NULL == lc) {
            void *n = realloc(p->clocks, (p->num_clocks + 1) * sizeof(*p->clocks));
            if (NULL == n) {
                ret = -1;
                goto cleanup;
            }
            p->clocks = n;
            lc = &p->clocks[p->num_clocks];
            memset(lc, 0, sizeof(*lc));
            lc->name = strdup(c->name);
            if (NULL == lc->name) {
                ret = -1;
                goto cleanup;
            }
            p->num_clocks++;
            lc->ref_seq = UINT64_MAX;
            lc->min_ticks = INT64_MAX;
            lc->max_ticks = INT64_MIN;
            lc->host_clock = c->host_clock;
        }
        /* one batch that does not say so is enough to keep the clock's own pair */
        lc->host_clock = lc->host_clock && c->host_clock;
        if (b->seq < lc->ref_seq) {
            lc->ref_seq = b->seq;
            lc->ticks_per_second = c->ticks_per_second;
            lc->ref_ticks = c->source_ticks;
            lc->ref_realtime_ns = c->realtime_ns;
        }
        cmap[i] = (size_t) (lc - p->clocks);
    }
    while (mca_common_evt_wire_batch_next_record(b, &cur, &r)) {
        listen_clock_t *lc = &p->clocks[cmap[b->types[r.type].source]];
        if (!map[r.type]->selected) {
            continue;
        }
        lc->any = true;
        if (r.timestamp < lc->min_ticks) {
            lc->min_ticks = r.timestamp;
        }
        if (LISTEN_P2P_NONE != map[r.type]->p2p) {
            /* a p2p slice starts before its record: the span covers it */
            mca_common_evt_wire_value_t v;
            if (OPAL_SUCCESS
                    == mca_common_evt_wire_element_value(&b->types[r.type], r.payload,
                                                         (unsigned) map[r.type]->p2p_start, &v)
                && listen_value_i64(&v) < lc->min_ticks && listen_value_i64(&v) <= r.timestamp) {
                lc->min_ticks = listen_value_i64(&v);
            }
        }
        if (r.timestamp > lc->max_ticks) {
            lc->max_ticks = r.timestamp;
        }
    }
cleanup:
    if (map != stack_map) {
        free(map);
    }
    if (cmap != cmap_stack) {
        free(cmap);
    }
    return ret;
}

/* The host clock of @p q to convert others by, or NULL. */
static const listen_clock_t *host_clock_of(const listen_proc_t *q, uint64_t ticks_per_second)
{
    for (size_t m = 0; m < q->num_clocks; ++m) {
        const listen_clock_t *d = &q->clocks[m];
        if (d->host_clock && UINT64_MAX != d->ref_seq && d->ticks_per_second == ticks_per_second) {
            return d;
        }
    }
    return NULL;
}

/* Does @p a come before @p b (namespace, rank, pid)? */
static bool proc_before(const listen_proc_t *a, const listen_proc_t *b)
{
    int c = strcmp(a->nspace, b->nspace);
    if (0 != c) {
        return c < 0;
    }
    return a->rank != b->rank ? a->rank < b->rank : a->pid < b->pid;
}

/* Every process of one host that reads the host's CLOCK_MONOTONIC gets the
 * same clock pair: the one of the host's first process (namespace, rank,
 * pid; whatever the order of the inputs). Each process sampled its own
 * pair between two CLOCK_REALTIME reads, so two pairs of one clock
 * disagree by up to their sampling error (tens of ns, more when a read was
 * preempted), enough to draw a receive before its send on one node. */
static void share_host_clocks(listen_registry_t *reg)
{
    for (size_t i = 0; i < reg->num_procs; ++i) {
        listen_proc_t *p = reg->procs[i];
        for (size_t k = 0; k < p->num_clocks; ++k) {
            listen_clock_t *c = &p->clocks[k];
            const listen_proc_t *first = p;
            const listen_clock_t *ref = c;
            if (!c->host_clock || UINT64_MAX == c->ref_seq) {
                continue;
            }
            for (size_t j = 0; j < reg->num_procs; ++j) {
                const listen_proc_t *q = reg->procs[j];
                const listen_clock_t *d;
                if (q == p || 0 != strcmp(q->host, p->host) || !proc_before(q, first)
                    || NULL == (d = host_clock_of(q, c->ticks_per_second))) {
                    continue;
                }
                first = q;
                ref = d;
            }
            c->ref_ticks = ref->ref_ticks;
            c->ref_realtime_ns = ref->ref_realtime_ns;
        }
    }
}

void listen_registry_finish(listen_registry_t *reg)
{
    share_host_clocks(reg);
    for (size_t i = 0; i < reg->num_procs; ++i) {
        (void) listen_time_settle(reg->procs[i]); /* out of memory: the samples' own */
    }
    reg->t_min = INT64_MAX;
    reg->t_max = INT64_MIN;
    for (size_t i = 0; i < reg->num_procs; ++i) {
        listen_proc_t *p = reg->procs[i];
        for (size_t k = 0; k < p->num_clocks; ++k) {
            const listen_clock_t *c = &p->clocks[k];
            int64_t lo, hi;
            if (!c->any) {
                continue;
            }
            lo = listen_time_map(p, c, c->min_ticks);
            hi = listen_time_map(p, c, c->max_ticks);
            if (lo < reg->t_min) {
                reg->t_min = lo;
            }
            if (hi > reg->t_max) {
                reg->t_max = hi;
            }
        }
    }
}
