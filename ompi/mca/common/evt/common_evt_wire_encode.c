/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The wire encoder (layout: common_evt_wire.h). Two faces on one byte
 * layer: plain descriptors of sources and event types
 * (mca_common_evt_wire_encoder_add(), for what is not a live engine
 * object: a recording read back, a test) and the engine's own objects
 * (add_record(), add_drops(), add_clock(), for a component exporting what
 * it drains). Both become the same views (src_view_t, type_view_t) when a
 * type first enters a batch; after that a record is found by its key (the
 * descriptor's or the engine object's address) and packed from the
 * batch's type table alone. A batch is built in three
 * scratch areas allocated at construct (the type dictionary, the records,
 * the finished batch) plus fixed tables (clocks, drops, the event -> type
 * id map), so adding a record never allocates. The byte count of the
 * batch-to-be is kept exact at every step: a record that would not fit is
 * refused before anything is written (OPAL_ERR_TEMP_OUT_OF_RESOURCE), and
 * finish only assembles the sections.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/common/evt/common_evt_wire_internal.h"

/** Slots of the event -> type id map (open addressing, twice the types). */
#define TMAP_SLOTS (2 * MCA_COMMON_EVT_WIRE_MAX_TYPES)
_Static_assert(0 == (TMAP_SLOTS & (TMAP_SLOTS - 1)), "power of two");
_Static_assert(MCA_COMMON_EVT_WIRE_MAX_TYPES <= UINT16_MAX, "type ids are u16");

/** Bytes of a record before its payload: u16 type, u8 depth, u8 0, i64 ts. */
#define RECORD_HEAD 12

typedef struct {
    const void *key; /**< the type's descriptor or engine event; NULL: free */
    uint32_t gen;    /**< batch generation that filled it */
    uint16_t id;
} tmap_slot_t;

/** A type of the open batch: what packing one of its records needs. */
typedef struct {
    uint16_t payload; /**< packed bytes */
    bool contiguous;  /**< native layout == packed layout (one memcpy) */
    uint16_t num_elements;
    uint8_t wire_types[MCA_COMMON_EVT_WIRE_MAX_ELEMENTS];
    uint16_t offsets[MCA_COMMON_EVT_WIRE_MAX_ELEMENTS]; /**< in a record's data */
} type_info_t;

/** A source of the open batch (its CLOCKS entry). */
typedef struct {
    const void *key; /**< the source's descriptor or engine source */
    const char *name;
    uint8_t flags; /**< MCA_COMMON_EVT_WIRE_CLOCK_* */
    uint64_t ticks_per_second;
    int64_t ticks;
    int64_t realtime_ns;
} clock_entry_t;

/** A source as the byte layer sees it, whatever described it. */
typedef struct {
    const void *key;
    const char *name;
    uint8_t flags;
    uint64_t ticks_per_second;
    opal_count_t (*now)(void *ctx); /**< NULL: the fixed pair below */
    void *ctx;
    int64_t pair_ticks, pair_realtime_ns;
} src_view_t;

/** An event type as the byte layer sees it, whatever described it. */
typedef struct {
    const char *name;
    src_view_t src;
    int num_elements;
    uint8_t wire_types[MCA_COMMON_EVT_WIRE_MAX_ELEMENTS]; /**< 0: not carried */
    size_t offsets[MCA_COMMON_EVT_WIRE_MAX_ELEMENTS];
    const char *names[MCA_COMMON_EVT_WIRE_MAX_ELEMENTS]; /**< NULL: none */
} type_view_t;

typedef struct {
    uint16_t type;
    uint64_t count;
} drop_entry_t;

/** Bytes of a LAYOUTS entry before its offsets. */
#define LAYOUT_HEAD 30

struct mca_common_evt_wire_enc_state_t {
    mca_common_evt_wire_sender_t sender;
    size_t sender_body; /**< bytes of the SENDER body */
    uint8_t *out;       /**< the finished batch (max_bytes) */
    uint8_t *types;     /**< TYPES entries (max_bytes) */
    size_t types_len;
    uint32_t num_types;
    uint8_t *records; /**< RECORDS entries (max_bytes) */
    size_t records_len;
    uint32_t flags;
    uint32_t gen;      /**< batch generation: tmap slots of older ones are free */
    size_t clocks_len; /**< bytes of the CLOCKS entries */
    uint32_t num_clocks;
    uint32_t num_drops;
    uint32_t num_layouts;
    size_t layouts_len;        /**< bytes of the LAYOUTS entries */
    uint32_t num_offsets;      /**< samples kept (carried from the next batch on) */
    uint32_t batch_offsets;    /**< of them, carried by the open batch (the first ones) */
    int64_t (*realtime)(void); /**< CLOCK_REALTIME reader of the clock pairs */
    clock_entry_t clocks[MCA_COMMON_EVT_WIRE_MAX_SOURCES];
    drop_entry_t drops[MCA_COMMON_EVT_WIRE_MAX_TYPES];
    mca_common_evt_wire_offset_t offsets[MCA_COMMON_EVT_WIRE_MAX_OFFSETS];
    mca_common_evt_wire_layout_t layouts[MCA_COMMON_EVT_WIRE_MAX_TYPES]; /**< type: its id */
    tmap_slot_t tmap[TMAP_SLOTS];
    type_info_t tinfo[MCA_COMMON_EVT_WIRE_MAX_TYPES];
};

/* ------------------------------------------------------------------------
 * Element types
 * ------------------------------------------------------------------------ */

/* The flight-recorder file names element types with the wire's codes, so
 * that one mapping from the engine's types serves both and a recording's
 * types pass into a batch as they are. */
_Static_assert(
    (int) MCA_COMMON_EVT_FLIGHT_TYPE_INT32 == (int) MCA_COMMON_EVT_WIRE_ELEM_INT32
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_UINT32 == (int) MCA_COMMON_EVT_WIRE_ELEM_UINT32
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_INT64 == (int) MCA_COMMON_EVT_WIRE_ELEM_INT64
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_UINT64 == (int) MCA_COMMON_EVT_WIRE_ELEM_UINT64
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_DOUBLE == (int) MCA_COMMON_EVT_WIRE_ELEM_DOUBLE
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_BOOL == (int) MCA_COMMON_EVT_WIRE_ELEM_BOOL,
    "the flight file's element type codes are the wire's");

uint8_t mca_common_evt_wire_elem_type_of(mca_base_var_type_t t)
{
    switch (t) {
    case MCA_BASE_VAR_TYPE_INT32_T:
        return MCA_COMMON_EVT_WIRE_ELEM_INT32;
    case MCA_BASE_VAR_TYPE_UINT32_T:
        return MCA_COMMON_EVT_WIRE_ELEM_UINT32;
    case MCA_BASE_VAR_TYPE_INT64_T:
        return MCA_COMMON_EVT_WIRE_ELEM_INT64;
    case MCA_BASE_VAR_TYPE_UINT64_T:
        return MCA_COMMON_EVT_WIRE_ELEM_UINT64;
    case MCA_BASE_VAR_TYPE_DOUBLE:
        return MCA_COMMON_EVT_WIRE_ELEM_DOUBLE;
    case MCA_BASE_VAR_TYPE_BOOL:
        return sizeof(bool) == 1 ? MCA_COMMON_EVT_WIRE_ELEM_BOOL : 0;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------------
 * Sizes
 * ------------------------------------------------------------------------ */

/* Exact size of the batch as it stands, plus @p extra_* of what is about to
 * be added. Sections: SENDER, CLOCKS, TYPES, RECORDS always; OFFSETS,
 * DROPS and LAYOUTS when not empty. */
static size_t batch_size(const struct mca_common_evt_wire_enc_state_t *st, size_t extra_clocks,
                         size_t extra_types, size_t extra_records, uint32_t drops)
{
    size_t n = MCA_COMMON_EVT_WIRE_HEADER_BYTES;

    n += MCA_COMMON_EVT_WIRE_SECTION_BYTES + st->sender_body;
    n += MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2 + st->clocks_len + extra_clocks;
    if (0 < st->batch_offsets) {
        n += MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2 + 24 * (size_t) st->batch_offsets;
    }
    n += MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2 + st->types_len + extra_types;
    if (0 < drops) {
        n += MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2 + 10 * (size_t) drops;
    }
    n += MCA_COMMON_EVT_WIRE_SECTION_BYTES + 4 + st->records_len + extra_records;
    if (0 < st->num_layouts) {
        n += MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2 + st->layouts_len;
    }
    return n;
}

static size_t clock_entry_size(const src_view_t *src)
{
    return 2 + strlen(src->name) + 1 + 8 + 8 + 8;
}

/* ------------------------------------------------------------------------
 * Construct / destruct / begin
 * ------------------------------------------------------------------------ */

static int64_t realtime_now(void)
{
    struct timespec ts;
    (void) clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int mca_common_evt_wire_encoder_construct(mca_common_evt_wire_encoder_t *enc,
                                          const mca_common_evt_wire_sender_t *sender,
                                          size_t max_bytes)
{
    struct mca_common_evt_wire_enc_state_t *st;
    size_t ns, hl;

    if (NULL == enc || NULL == sender) {
        return OPAL_ERR_BAD_PARAM;
    }
    memset(enc, 0, sizeof(*enc));
    ns = strnlen(sender->nspace, sizeof(sender->nspace));
    hl = strnlen(sender->host, sizeof(sender->host));
    if (!wire_text_ok((const uint8_t *) sender->nspace, ns)
        || !wire_text_ok((const uint8_t *) sender->host, hl)
        || max_bytes < MCA_COMMON_EVT_WIRE_MIN_BATCH || max_bytes > MCA_COMMON_EVT_WIRE_MAX_BATCH) {
        return OPAL_ERR_BAD_PARAM;
    }
    st = calloc(1, sizeof(*st));
    if (NULL == st) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    st->out = malloc(max_bytes);
    st->types = malloc(max_bytes);
    st->records = malloc(max_bytes);
    if (NULL == st->out || NULL == st->types || NULL == st->records) {
        free(st->out);
        free(st->types);
        free(st->records);
        free(st);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    st->sender = *sender;
    st->sender.nspace[ns] = '\0';
    st->sender.host[hl] = '\0';
    st->sender_body = 2 + ns + 4 + 2 + hl + 4;
    st->gen = 1;
    st->realtime = realtime_now;
    enc->state = st;
    enc->max_bytes = max_bytes;
    return OPAL_SUCCESS;
}

void mca_common_evt_wire_encoder_destruct(mca_common_evt_wire_encoder_t *enc)
{
    if (NULL == enc || NULL == enc->state) {
        return;
    }
    free(enc->state->out);
    free(enc->state->types);
    free(enc->state->records);
    free(enc->state);
    memset(enc, 0, sizeof(*enc));
}

int mca_common_evt_wire_encoder_begin(mca_common_evt_wire_encoder_t *enc, uint64_t seq,
                                      uint32_t flags)
{
    struct mca_common_evt_wire_enc_state_t *st;

    if (NULL == enc || NULL == enc->state) {
        return OPAL_ERR_BAD_PARAM;
    }
    st = enc->state;
    st->types_len = 0;
    st->num_types = 0;
    st->records_len = 0;
    st->clocks_len = 0;
    st->num_clocks = 0;
    st->num_drops = 0;
    st->num_layouts = 0;
    st->layouts_len = 0;
    st->batch_offsets = st->num_offsets;
    st->flags = flags;
    /* a new generation frees every tmap slot at once; at the wrap (after
     * 4 billion batches) clear them for real */
    if (0 == ++st->gen) {
        memset(st->tmap, 0, sizeof(st->tmap));
        st->gen = 1;
    }
    enc->seq = seq;
    enc->num_records = 0;
    enc->open = true;
    return OPAL_SUCCESS;
}

int mca_common_evt_wire_encoder_set_flags(mca_common_evt_wire_encoder_t *enc, uint32_t flags)
{
    if (NULL == enc || NULL == enc->state || !enc->open) {
        return OPAL_ERR_BAD_PARAM;
    }
    enc->state->flags = flags;
    return OPAL_SUCCESS;
}

/* ------------------------------------------------------------------------
 * Dictionary: sources (clocks) and event types
 * ------------------------------------------------------------------------ */

static int find_clock(const struct mca_common_evt_wire_enc_state_t *st, const void *key)
{
    for (uint32_t i = 0; i < st->num_clocks; ++i) {
        if (st->clocks[i].key == key) {
            return (int) i;
        }
    }
    return -1;
}

/* Append a clock entry (space already checked). */
static int push_clock(struct mca_common_evt_wire_enc_state_t *st, const src_view_t *src,
                      int64_t ticks, int64_t realtime_ns)
{
    clock_entry_t *c = &st->clocks[st->num_clocks];

    c->key = src->key;
    c->name = src->name;
    c->flags = src->flags;
    c->ticks_per_second = src->ticks_per_second;
    c->ticks = ticks;
    c->realtime_ns = realtime_ns;
    st->clocks_len += clock_entry_size(src);
    return (int) st->num_clocks++;
}

/* The pair of @p src: its fixed one, or sampled now: CLOCK_REALTIME on
 * both sides of the source's clock, the midpoint taken; the tightest of a
 * few tries, so that a preemption between two reads does not become the
 * pair's error. */
static void sample_clock(const struct mca_common_evt_wire_enc_state_t *st, const src_view_t *src,
                         int64_t *ticks, int64_t *realtime)
{
    int64_t best = INT64_MAX;

    if (NULL == src->now) {
        *ticks = src->pair_ticks;
        *realtime = src->pair_realtime_ns;
        return;
    }
    for (int i = 0; i < 4; ++i) {
        int64_t r1 = st->realtime();
        int64_t t = (int64_t) src->now(src->ctx);
        int64_t r2 = st->realtime();
        if (0 == i || r2 - r1 < best) {
            best = r2 - r1;
            *ticks = t;
            *realtime = r1 + (r2 - r1) / 2;
        }
    }
}

static bool src_view_ok(const src_view_t *src)
{
    return NULL != src->name && 0 < src->ticks_per_second
           && wire_name_ok((const uint8_t *) src->name, strlen(src->name));
}

/* The view of an engine source; false when it has none to give. */
static bool view_engine_source(const mca_base_event_source_t *src, src_view_t *v)
{
    if (NULL == src || NULL == src->get_timestamp || 0 >= src->ticks_per_second) {
        return false;
    }
    memset(v, 0, sizeof(*v));
    v->key = src;
    v->name = src->name;
    v->flags = (MCA_BASE_EVENT_SOURCE_UNORDERED == src->ordering
                    ? MCA_COMMON_EVT_WIRE_CLOCK_UNORDERED
                    : 0)
               | (mca_base_event_source_on_host_clock(src) ? MCA_COMMON_EVT_WIRE_CLOCK_HOST : 0);
    v->ticks_per_second = (uint64_t) src->ticks_per_second;
    v->now = src->get_timestamp;
    v->ctx = src->ctx;
    return true;
}

/* The view of a source descriptor. */
static bool view_desc_source(const mca_common_evt_wire_source_desc_t *src, src_view_t *v)
{
    if (NULL == src) {
        return false;
    }
    memset(v, 0, sizeof(*v));
    v->key = src;
    v->name = src->name;
    v->flags = (src->unordered ? MCA_COMMON_EVT_WIRE_CLOCK_UNORDERED : 0)
               | (src->host_clock ? MCA_COMMON_EVT_WIRE_CLOCK_HOST : 0);
    v->ticks_per_second = src->ticks_per_second;
    v->now = src->now;
    v->ctx = src->ctx;
    v->pair_ticks = src->pair_ticks;
    v->pair_realtime_ns = src->pair_realtime_ns;
    return true;
}

/* The view of an engine event type; false when it is not one the wire can
 * describe (an element of a type it has no code for stays 0 and is
 * refused by type_entry_size()). */
static bool view_engine_type(const mca_base_event_t *ev, type_view_t *v)
{
    if (NULL == ev->name || 0 > ev->num_elements
        || MCA_COMMON_EVT_WIRE_MAX_ELEMENTS < ev->num_elements
        || (0 < ev->num_elements && (NULL == ev->types || NULL == ev->offsets))
        || !view_engine_source(ev->source, &v->src)) {
        return false;
    }
    v->name = ev->name;
    v->num_elements = ev->num_elements;
    for (int i = 0; i < ev->num_elements; ++i) {
        if (0 > ev->offsets[i]) {
            return false;
        }
        v->wire_types[i] = mca_common_evt_wire_elem_type_of(ev->types[i]);
        v->offsets[i] = (size_t) ev->offsets[i];
        v->names[i] = mca_base_event_element_name(ev, i);
    }
    return true;
}

/* The view of a type descriptor. */
static bool view_desc_type(const mca_common_evt_wire_type_desc_t *t, type_view_t *v)
{
    if (NULL == t->name || MCA_COMMON_EVT_WIRE_MAX_ELEMENTS < t->num_elements
        || (0 < t->num_elements && (NULL == t->elem_types || NULL == t->elem_offsets))
        || !view_desc_source(t->source, &v->src)) {
        return false;
    }
    v->name = t->name;
    v->num_elements = (int) t->num_elements;
    for (unsigned i = 0; i < t->num_elements; ++i) {
        v->wire_types[i] = 0 == mca_common_evt_wire_elem_size(t->elem_types[i]) ? 0
                                                                                : t->elem_types[i];
        v->offsets[i] = t->elem_offsets[i];
        v->names[i] = NULL == t->elem_names ? NULL : t->elem_names[i];
    }
    return true;
}

/* Bytes of the TYPES entry of @p tv; 0 when the wire cannot carry it.
 * Fills @p ti's packed layout. */
static size_t type_entry_size(const type_view_t *tv, type_info_t *ti)
{
    size_t n, payload = 0, nlen = strlen(tv->name);
    bool contiguous = true;

    if (!wire_name_ok((const uint8_t *) tv->name, nlen)) {
        return 0;
    }
    n = 2 + 2 + nlen + 2;
    for (int i = 0; i < tv->num_elements; ++i) {
        uint8_t wt = tv->wire_types[i];
        const char *en = tv->names[i];
        size_t enl = NULL == en ? 0 : strlen(en);

        if (0 == wt || (0 < enl && !wire_elem_name_ok((const uint8_t *) en, enl))
            || UINT16_MAX < tv->offsets[i]) {
            return 0;
        }
        if (tv->offsets[i] != payload || MCA_COMMON_EVT_WIRE_ELEM_BOOL == wt) {
            contiguous = false;
        }
        ti->wire_types[i] = wt;
        ti->offsets[i] = (uint16_t) tv->offsets[i];
        payload += mca_common_evt_wire_elem_size(wt);
        n += 1 + 2 + enl;
    }
    if (MCA_COMMON_EVT_WIRE_MAX_PAYLOAD < payload) {
        return 0;
    }
    ti->num_elements = (uint16_t) tv->num_elements;
    ti->payload = (uint16_t) payload;
    ti->contiguous = contiguous && WIRE_NATIVE_IS_LE;
    return n;
}

/* Write the TYPES entry of @p tv (space already checked). */
static void write_type_entry(struct mca_common_evt_wire_enc_state_t *st, const type_view_t *tv,
                             const type_info_t *ti, uint16_t source_id)
{
    uint8_t *p = st->types + st->types_len;
    size_t nlen = strlen(tv->name);

    wire_put16(p, source_id);
    p += 2;
    wire_put16(p, (uint16_t) nlen);
    memcpy(p + 2, tv->name, nlen);
    p += 2 + nlen;
    wire_put16(p, (uint16_t) tv->num_elements);
    p += 2;
    for (int i = 0; i < tv->num_elements; ++i) {
        const char *en = tv->names[i];
        size_t enl = NULL == en ? 0 : strlen(en);

        *p++ = ti->wire_types[i];
        wire_put16(p, (uint16_t) enl);
        if (0 < enl) {
            memcpy(p + 2, en, enl);
        }
        p += 2 + enl;
    }
    st->types_len = (size_t) (p - st->types);
}

static tmap_slot_t *tmap_lookup(struct mca_common_evt_wire_enc_state_t *st, const void *key)
{
    uint64_t h = (uint64_t) (uintptr_t) key * 0x9e3779b97f4a7c15ULL;
    size_t i = (size_t) (h >> 40) & (TMAP_SLOTS - 1);

    /* at most MAX_TYPES of TMAP_SLOTS slots are ever in use: a free slot
     * (older generation) is always found */
    for (;;) {
        tmap_slot_t *s = &st->tmap[i];
        if (s->gen != st->gen || s->key == key) {
            return s;
        }
        i = (i + 1) & (TMAP_SLOTS - 1);
    }
}

/** How a type that is not yet in the batch is described: one of the two. */
typedef struct {
    const mca_base_event_t *event;
    const mca_common_evt_wire_type_desc_t *desc;
} type_ref_t;

/**
 * The batch-local id of the type @p ref names (its key: @p key), adding
 * the type (and its source's clock) when new.
 * @param[in] extra         bytes that must fit besides (a record head, ...)
 * @param[in] with_payload  one payload of the type must fit besides too
 * @param[in] drops         drop entries the batch will have
 */
static int type_id(mca_common_evt_wire_encoder_t *enc, const void *key, type_ref_t ref,
                   size_t extra, bool with_payload, uint32_t drops, uint16_t *id)
{
    struct mca_common_evt_wire_enc_state_t *st = enc->state;
    tmap_slot_t *slot = tmap_lookup(st, key);
    type_view_t tv;
    type_info_t probe;
    size_t tsize, csize = 0;
    int ci;

    if (slot->gen == st->gen) {
        *id = slot->id;
        if (with_payload) {
            extra += st->tinfo[slot->id].payload;
        }
        if (batch_size(st, 0, 0, extra, drops) > enc->max_bytes) {
            return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
        }
        return OPAL_SUCCESS;
    }
    if (!(NULL != ref.event ? view_engine_type(ref.event, &tv) : view_desc_type(ref.desc, &tv))
        || !src_view_ok(&tv.src)) {
        return OPAL_ERR_BAD_PARAM;
    }
    tsize = type_entry_size(&tv, &probe);
    if (0 == tsize) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (with_payload) {
        extra += probe.payload;
    }
    ci = find_clock(st, tv.src.key);
    if (0 > ci) {
        csize = clock_entry_size(&tv.src);
    }
    if (batch_size(st, csize, tsize, extra, drops) > enc->max_bytes
        || st->num_types >= MCA_COMMON_EVT_WIRE_MAX_TYPES
        || (0 > ci && st->num_clocks >= MCA_COMMON_EVT_WIRE_MAX_SOURCES)) {
        /* does it fit into an empty batch at all? Otherwise a retry could
         * never succeed: say so instead of "full" */
        size_t alone = MCA_COMMON_EVT_WIRE_HEADER_BYTES + 4 * MCA_COMMON_EVT_WIRE_SECTION_BYTES
                       + st->sender_body + 2 + clock_entry_size(&tv.src) + 2 + tsize + 4 + extra
                       + (0 < st->batch_offsets ? MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2
                                                      + 24 * (size_t) st->batch_offsets
                                                : 0)
                       + (0 < drops ? MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2 + 10 : 0);
        return alone > enc->max_bytes ? OPAL_ERR_VALUE_OUT_OF_BOUNDS
                                      : OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    if (0 > ci) {
        int64_t ticks, realtime;
        sample_clock(st, &tv.src, &ticks, &realtime);
        ci = push_clock(st, &tv.src, ticks, realtime);
    }
    st->tinfo[st->num_types] = probe;
    write_type_entry(st, &tv, &probe, (uint16_t) ci);
    slot->key = key;
    slot->gen = st->gen;
    slot->id = (uint16_t) st->num_types;
    *id = slot->id;
    st->num_types++;
    return OPAL_SUCCESS;
}

/* ------------------------------------------------------------------------
 * Adding
 * ------------------------------------------------------------------------ */

/* Pack one record of type @p ref (key @p key) into the open batch. */
static int add_one(mca_common_evt_wire_encoder_t *enc, const void *key, type_ref_t ref,
                   uint32_t depth, int64_t timestamp, const uint8_t *data)
{
    struct mca_common_evt_wire_enc_state_t *st = enc->state;
    const type_info_t *ti;
    uint8_t *p;
    uint16_t id;
    int rc;

    rc = type_id(enc, key, ref, RECORD_HEAD, true, st->num_drops, &id);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    ti = &st->tinfo[id];
    p = st->records + st->records_len;
    wire_put16(p, id);
    p[2] = depth > UINT8_MAX ? UINT8_MAX : (uint8_t) depth;
    p[3] = 0;
    wire_put64(p + 4, (uint64_t) timestamp);
    p += RECORD_HEAD;
    if (ti->contiguous) {
        if (0 < ti->payload) { /* data may be NULL for a type without elements */
            memcpy(p, data, ti->payload);
        }
        p += ti->payload;
    } else {
        for (unsigned i = 0; i < ti->num_elements; ++i) {
            const uint8_t *src = data + ti->offsets[i];
            switch (ti->wire_types[i]) {
            case MCA_COMMON_EVT_WIRE_ELEM_INT32:
            case MCA_COMMON_EVT_WIRE_ELEM_UINT32: {
                uint32_t v;
                memcpy(&v, src, 4);
                wire_put32(p, v);
                p += 4;
                break;
            }
            case MCA_COMMON_EVT_WIRE_ELEM_BOOL:
                *p++ = 0 != *src ? 1 : 0;
                break;
            default: {
                uint64_t v;
                memcpy(&v, src, 8);
                wire_put64(p, v);
                p += 8;
                break;
            }
            }
        }
    }
    st->records_len = (size_t) (p - st->records);
    enc->num_records++;
    return OPAL_SUCCESS;
}

int mca_common_evt_wire_encoder_add_record(mca_common_evt_wire_encoder_t *enc,
                                           const mca_base_event_record_t *rec)
{
    if (NULL == enc || NULL == enc->state || !enc->open || NULL == rec || NULL == rec->event
        || NULL == rec->data) {
        return OPAL_ERR_BAD_PARAM;
    }
    return add_one(enc, rec->event, (type_ref_t){.event = rec->event}, rec->depth, rec->timestamp,
                   rec->data);
}

int mca_common_evt_wire_encoder_add(mca_common_evt_wire_encoder_t *enc,
                                    const mca_common_evt_wire_type_desc_t *type, uint32_t depth,
                                    int64_t timestamp, const void *data)
{
    if (NULL == enc || NULL == enc->state || !enc->open || NULL == type
        || (NULL == data && 0 < type->num_elements)) {
        return OPAL_ERR_BAD_PARAM;
    }
    return add_one(enc, type, (type_ref_t){.desc = type}, depth, timestamp, data);
}

/* Count @p count drops of type @p ref (key @p key) in the open batch. */
static int drops_of(mca_common_evt_wire_encoder_t *enc, const void *key, type_ref_t ref,
                    uint64_t count)
{
    struct mca_common_evt_wire_enc_state_t *st = enc->state;
    tmap_slot_t *slot = tmap_lookup(st, key);
    uint16_t id;
    int rc;

    if (0 == count) {
        return OPAL_SUCCESS;
    }
    if (slot->gen == st->gen) {
        for (uint32_t i = 0; i < st->num_drops; ++i) {
            if (st->drops[i].type == slot->id) {
                uint64_t c = st->drops[i].count;
                st->drops[i].count = UINT64_MAX - c < count ? UINT64_MAX : c + count;
                return OPAL_SUCCESS;
            }
        }
    }
    rc = type_id(enc, key, ref, 0, false, st->num_drops + 1, &id);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    st->drops[st->num_drops].type = id;
    st->drops[st->num_drops].count = count;
    st->num_drops++;
    return OPAL_SUCCESS;
}

int mca_common_evt_wire_encoder_add_drops(mca_common_evt_wire_encoder_t *enc,
                                          mca_base_event_t *event, uint64_t count)
{
    if (NULL == enc || NULL == enc->state || !enc->open || NULL == event) {
        return OPAL_ERR_BAD_PARAM;
    }
    return drops_of(enc, event, (type_ref_t){.event = event}, count);
}

int mca_common_evt_wire_encoder_add_type_drops(mca_common_evt_wire_encoder_t *enc,
                                               const mca_common_evt_wire_type_desc_t *type,
                                               uint64_t count)
{
    if (NULL == enc || NULL == enc->state || !enc->open || NULL == type) {
        return OPAL_ERR_BAD_PARAM;
    }
    return drops_of(enc, type, (type_ref_t){.desc = type}, count);
}

/* Does @p layout describe the type @p ref names (every element within the
 * extent, the engine's indexes valid)? */
static bool layout_ok(type_ref_t ref, const mca_common_evt_wire_layout_t *layout)
{
    type_view_t tv;

    if (0 > layout->event_index || 0 > layout->source_index || 0 >= layout->max_ticks
        || MCA_COMMON_EVT_WIRE_MAX_PAYLOAD < layout->extent
        || !(NULL != ref.event ? view_engine_type(ref.event, &tv)
                               : view_desc_type(ref.desc, &tv))) {
        return false;
    }
    for (int i = 0; i < tv.num_elements; ++i) {
        size_t sz = mca_common_evt_wire_elem_size(tv.wire_types[i]);
        if (0 == sz || tv.offsets[i] > layout->extent || sz > layout->extent - tv.offsets[i]) {
            return false;
        }
    }
    return true;
}

/* Enter the type @p ref names into the open batch with its layout. */
static int type_with_layout(mca_common_evt_wire_encoder_t *enc, const void *key, type_ref_t ref,
                            unsigned num_elements, const mca_common_evt_wire_layout_t *layout)
{
    struct mca_common_evt_wire_enc_state_t *st = enc->state;
    tmap_slot_t *slot = tmap_lookup(st, key);
    size_t entry = LAYOUT_HEAD + 2 * (size_t) num_elements;
    mca_common_evt_wire_layout_t *l;
    uint16_t id;
    int rc;

    if (slot->gen == st->gen) {
        for (uint32_t i = 0; i < st->num_layouts; ++i) {
            if (st->layouts[i].type == slot->id) {
                return OPAL_ERR_BAD_PARAM;
            }
        }
    }
    if (!layout_ok(ref, layout)) {
        return OPAL_ERR_BAD_PARAM;
    }
    rc = type_id(enc, key, ref,
                 entry + (0 == st->num_layouts ? MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2 : 0), false,
                 st->num_drops, &id);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    l = &st->layouts[st->num_layouts++];
    *l = *layout;
    l->type = id;
    l->offsets = NULL; /* the type's own: tinfo[id].offsets */
    st->layouts_len += entry;
    return OPAL_SUCCESS;
}

int mca_common_evt_wire_encoder_add_type(mca_common_evt_wire_encoder_t *enc,
                                         const mca_base_event_t *event)
{
    mca_common_evt_wire_layout_t layout;

    if (NULL == enc || NULL == enc->state || !enc->open || NULL == event || NULL == event->source
        || 0 > event->num_elements || (size_t) MCA_COMMON_EVT_WIRE_MAX_PAYLOAD < event->extent) {
        return OPAL_ERR_BAD_PARAM;
    }
    memset(&layout, 0, sizeof(layout));
    layout.event_index = event->index;
    layout.source_index = event->source->index;
    layout.max_ticks = (int64_t) event->source->max_ticks;
    layout.extent = (uint32_t) event->extent;
    layout.flags = event->flags;
    layout.bind = event->bind;
    return type_with_layout(enc, event, (type_ref_t){.event = event},
                            (unsigned) event->num_elements, &layout);
}

int mca_common_evt_wire_encoder_add_type_desc(mca_common_evt_wire_encoder_t *enc,
                                              const mca_common_evt_wire_type_desc_t *type,
                                              const mca_common_evt_wire_layout_t *layout)
{
    if (NULL == enc || NULL == enc->state || !enc->open || NULL == type || NULL == layout) {
        return OPAL_ERR_BAD_PARAM;
    }
    return type_with_layout(enc, type, (type_ref_t){.desc = type}, type->num_elements, layout);
}

int mca_common_evt_wire_encoder_add_clock(mca_common_evt_wire_encoder_t *enc,
                                          const mca_base_event_source_t *source,
                                          int64_t source_ticks, int64_t realtime_ns)
{
    struct mca_common_evt_wire_enc_state_t *st;
    src_view_t src;

    if (NULL == enc || NULL == enc->state || !enc->open || !view_engine_source(source, &src)
        || !src_view_ok(&src)) {
        return OPAL_ERR_BAD_PARAM;
    }
    st = enc->state;
    if (0 <= find_clock(st, source)) {
        return OPAL_ERR_BAD_PARAM;
    }
    if (st->num_clocks >= MCA_COMMON_EVT_WIRE_MAX_SOURCES
        || batch_size(st, clock_entry_size(&src), 0, 0, st->num_drops) > enc->max_bytes) {
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    (void) push_clock(st, &src, source_ticks, realtime_ns);
    return OPAL_SUCCESS;
}

int mca_common_evt_wire_encoder_add_offset(mca_common_evt_wire_encoder_t *enc,
                                           const mca_common_evt_wire_offset_t *sample)
{
    struct mca_common_evt_wire_enc_state_t *st;
    uint32_t carried;

    if (NULL == enc || NULL == enc->state || NULL == sample) {
        return OPAL_ERR_BAD_PARAM;
    }
    st = enc->state;
    if (st->num_offsets >= MCA_COMMON_EVT_WIRE_MAX_OFFSETS) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    st->offsets[st->num_offsets++] = *sample;
    if (!enc->open) {
        return OPAL_SUCCESS; /* the next begin takes it */
    }
    /* the open batch carries it if it still fits, else the next one does */
    carried = st->batch_offsets;
    st->batch_offsets = st->num_offsets;
    if (batch_size(st, 0, 0, 0, st->num_drops) > enc->max_bytes) {
        st->batch_offsets = carried;
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    return OPAL_SUCCESS;
}

bool mca_common_evt_wire_encoder_offsets_pending(const mca_common_evt_wire_encoder_t *enc)
{
    return NULL != enc && NULL != enc->state && enc->open
           && enc->state->batch_offsets < enc->state->num_offsets;
}

int mca_common_evt_wire_encoder_set_realtime(mca_common_evt_wire_encoder_t *enc,
                                             int64_t (*realtime_ns)(void))
{
    if (NULL == enc || NULL == enc->state) {
        return OPAL_ERR_BAD_PARAM;
    }
    enc->state->realtime = NULL == realtime_ns ? realtime_now : realtime_ns;
    return OPAL_SUCCESS;
}

/* ------------------------------------------------------------------------
 * Finish
 * ------------------------------------------------------------------------ */

static uint8_t *section(uint8_t *p, uint16_t kind, uint16_t flags, size_t body)
{
    wire_put16(p, kind);
    wire_put16(p + 2, flags);
    wire_put32(p + 4, (uint32_t) body);
    return p + MCA_COMMON_EVT_WIRE_SECTION_BYTES;
}

static uint8_t *put_str(uint8_t *p, const char *s)
{
    size_t n = strlen(s);
    wire_put16(p, (uint16_t) n);
    memcpy(p + 2, s, n);
    return p + 2 + n;
}

int mca_common_evt_wire_encoder_finish(mca_common_evt_wire_encoder_t *enc, const void **buf,
                                       size_t *len)
{
    struct mca_common_evt_wire_enc_state_t *st;
    uint32_t nsections = 4;
    size_t total;
    uint8_t *p;

    if (NULL == enc || NULL == enc->state || !enc->open || NULL == buf || NULL == len) {
        return OPAL_ERR_BAD_PARAM;
    }
    st = enc->state;
    total = batch_size(st, 0, 0, 0, st->num_drops);
    nsections += (0 < st->batch_offsets) + (0 < st->num_drops) + (0 < st->num_layouts);

    p = st->out;
    memcpy(p, MCA_COMMON_EVT_WIRE_MAGIC, 4);
    wire_put16(p + 4, MCA_COMMON_EVT_WIRE_VERSION);
    wire_put16(p + 6, MCA_COMMON_EVT_WIRE_HEADER_BYTES);
    wire_put32(p + 8, st->flags);
    wire_put32(p + 12, nsections);
    wire_put64(p + 16, enc->seq);
    wire_put32(p + 24, (uint32_t) total);
    wire_put32(p + 28, 0);
    p += MCA_COMMON_EVT_WIRE_HEADER_BYTES;

    p = section(p, MCA_COMMON_EVT_WIRE_SECTION_SENDER, MCA_COMMON_EVT_WIRE_SECTION_REQUIRED,
                st->sender_body);
    p = put_str(p, st->sender.nspace);
    wire_put32(p, st->sender.rank);
    p = put_str(p + 4, st->sender.host);
    wire_put32(p, st->sender.pid);
    p += 4;

    p = section(p, MCA_COMMON_EVT_WIRE_SECTION_CLOCKS, MCA_COMMON_EVT_WIRE_SECTION_REQUIRED,
                2 + st->clocks_len);
    wire_put16(p, (uint16_t) st->num_clocks);
    p += 2;
    for (uint32_t i = 0; i < st->num_clocks; ++i) {
        const clock_entry_t *c = &st->clocks[i];
        p = put_str(p, c->name);
        *p++ = c->flags;
        wire_put64(p, c->ticks_per_second);
        wire_put64(p + 8, (uint64_t) c->ticks);
        wire_put64(p + 16, (uint64_t) c->realtime_ns);
        p += 24;
    }

    if (0 < st->batch_offsets) {
        p = section(p, MCA_COMMON_EVT_WIRE_SECTION_OFFSETS, 0, 2 + 24 * (size_t) st->batch_offsets);
        wire_put16(p, (uint16_t) st->batch_offsets);
        p += 2;
        for (uint32_t i = 0; i < st->batch_offsets; ++i) {
            wire_put64(p, (uint64_t) st->offsets[i].local_realtime_ns);
            wire_put64(p + 8, (uint64_t) st->offsets[i].offset_ns);
            wire_put64(p + 16, st->offsets[i].uncertainty_ns);
            p += 24;
        }
    }

    p = section(p, MCA_COMMON_EVT_WIRE_SECTION_TYPES, MCA_COMMON_EVT_WIRE_SECTION_REQUIRED,
                2 + st->types_len);
    wire_put16(p, (uint16_t) st->num_types);
    memcpy(p + 2, st->types, st->types_len);
    p += 2 + st->types_len;

    if (0 < st->num_drops) {
        p = section(p, MCA_COMMON_EVT_WIRE_SECTION_DROPS, MCA_COMMON_EVT_WIRE_SECTION_REQUIRED,
                    2 + 10 * (size_t) st->num_drops);
        wire_put16(p, (uint16_t) st->num_drops);
        p += 2;
        for (uint32_t i = 0; i < st->num_drops; ++i) {
            wire_put16(p, st->drops[i].type);
            wire_put64(p + 2, st->drops[i].count);
            p += 10;
        }
    }

    p = section(p, MCA_COMMON_EVT_WIRE_SECTION_RECORDS, MCA_COMMON_EVT_WIRE_SECTION_REQUIRED,
                4 + st->records_len);
    wire_put32(p, enc->num_records);
    memcpy(p + 4, st->records, st->records_len);
    p += 4 + st->records_len;

    if (0 < st->num_layouts) {
        p = section(p, MCA_COMMON_EVT_WIRE_SECTION_LAYOUTS, 0, 2 + st->layouts_len);
        wire_put16(p, (uint16_t) st->num_layouts);
        p += 2;
        for (uint32_t i = 0; i < st->num_layouts; ++i) {
            const mca_common_evt_wire_layout_t *l = &st->layouts[i];
            const type_info_t *ti = &st->tinfo[l->type];
            wire_put16(p, l->type);
            wire_put32(p + 2, (uint32_t) l->event_index);
            wire_put32(p + 6, (uint32_t) l->source_index);
            wire_put64(p + 10, (uint64_t) l->max_ticks);
            wire_put32(p + 18, l->extent);
            wire_put32(p + 22, l->flags);
            wire_put32(p + 26, (uint32_t) l->bind);
            p += LAYOUT_HEAD;
            for (unsigned k = 0; k < ti->num_elements; ++k) {
                wire_put16(p, ti->offsets[k]);
                p += 2;
            }
        }
    }

    *buf = st->out;
    *len = (size_t) (p - st->out);
    enc->open = false;
    return *len == total ? OPAL_SUCCESS : OPAL_ERROR; /* never: the sizes are exact */
}
