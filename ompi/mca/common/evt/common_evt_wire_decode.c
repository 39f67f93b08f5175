/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The validating wire decoder (layout: common_evt_wire.h). Every input is
 * hostile: each read goes through a cursor that checks the bytes left
 * first, each count is checked against the bytes that must follow it
 * before anything is sized from it, each index against what it indexes,
 * each name against the name rules. Decoding runs the same parser twice:
 * the first pass validates and measures (strings, elements), the second
 * fills one allocation of exactly that size. Records are validated once
 * (every type id, every payload's size and booleans) and then read in
 * place by mca_common_evt_wire_batch_next_record().
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/common/evt/common_evt_wire_internal.h"

/** Bytes of a record before its payload. */
#define RECORD_HEAD 12
/* Bytes of a LAYOUTS entry before its offsets. */
#define LAYOUT_HEAD 30

/* ------------------------------------------------------------------------
 * Element types (used by the encoder too)
 * ------------------------------------------------------------------------ */

size_t mca_common_evt_wire_elem_size(uint8_t elem_type)
{
    switch (elem_type) {
    case MCA_COMMON_EVT_WIRE_ELEM_INT32:
    case MCA_COMMON_EVT_WIRE_ELEM_UINT32:
        return 4;
    case MCA_COMMON_EVT_WIRE_ELEM_INT64:
    case MCA_COMMON_EVT_WIRE_ELEM_UINT64:
    case MCA_COMMON_EVT_WIRE_ELEM_DOUBLE:
        return 8;
    case MCA_COMMON_EVT_WIRE_ELEM_BOOL:
        return 1;
    default:
        return 0;
    }
}

const char *mca_common_evt_wire_elem_name(uint8_t elem_type)
{
    switch (elem_type) {
    case MCA_COMMON_EVT_WIRE_ELEM_INT32:
        return "i32";
    case MCA_COMMON_EVT_WIRE_ELEM_UINT32:
        return "u32";
    case MCA_COMMON_EVT_WIRE_ELEM_INT64:
        return "i64";
    case MCA_COMMON_EVT_WIRE_ELEM_UINT64:
        return "u64";
    case MCA_COMMON_EVT_WIRE_ELEM_DOUBLE:
        return "double";
    case MCA_COMMON_EVT_WIRE_ELEM_BOOL:
        return "bool";
    default:
        return "?";
    }
}

/** A bounded reader over [p, end). */
typedef struct {
    const uint8_t *p;
    const uint8_t *end;
} cur_t;

static inline bool need(const cur_t *c, size_t n)
{
    return (size_t) (c->end - c->p) >= n;
}

static inline bool rd8(cur_t *c, uint8_t *v)
{
    if (!need(c, 1)) {
        return false;
    }
    *v = *c->p++;
    return true;
}

static inline bool rd16(cur_t *c, uint16_t *v)
{
    if (!need(c, 2)) {
        return false;
    }
    *v = wire_get16(c->p);
    c->p += 2;
    return true;
}

static inline bool rd32(cur_t *c, uint32_t *v)
{
    if (!need(c, 4)) {
        return false;
    }
    *v = wire_get32(c->p);
    c->p += 4;
    return true;
}

static inline bool rd64(cur_t *c, uint64_t *v)
{
    if (!need(c, 8)) {
        return false;
    }
    *v = wire_get64(c->p);
    c->p += 8;
    return true;
}

/** A string: its bytes stay in the buffer until copied. */
static inline bool rdstr(cur_t *c, const uint8_t **s, uint16_t *len)
{
    if (!rd16(c, len) || !need(c, *len)) {
        return false;
    }
    *s = c->p;
    c->p += *len;
    return true;
}

/** Storage being measured (fill false) or filled (fill true). */
typedef struct {
    bool fill;
    uint8_t *base;
    size_t used;
} arena_t;

/* Reserve @p n bytes aligned to 8; NULL while measuring. */
static void *arena_take(arena_t *a, size_t n)
{
    void *p = NULL;
    size_t at = (a->used + 7) & ~(size_t) 7;

    if (a->fill) {
        p = a->base + at;
    }
    a->used = at + n;
    return p;
}

/* Copy a string with its NUL; the empty string when measuring. */
static const char *arena_str(arena_t *a, const uint8_t *s, size_t len)
{
    size_t at = a->used;
    char *out;

    a->used += len + 1;
    if (!a->fill) {
        return "";
    }
    out = (char *) a->base + at;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

#define FAIL(why)                       \
    do {                                \
        b->error = (why);               \
        return OPAL_ERR_UNPACK_FAILURE; \
    } while (0)

static int parse_sender(cur_t *c, mca_common_evt_wire_batch_t *b)
{
    const uint8_t *s;
    uint16_t n;

    if (!rdstr(c, &s, &n)) {
        FAIL("sender: truncated nspace");
    }
    if (!wire_text_ok(s, n)) {
        FAIL("sender: bad nspace");
    }
    memcpy(b->sender.nspace, s, n);
    b->sender.nspace[n] = '\0';
    if (!rd32(c, &b->sender.rank)) {
        FAIL("sender: truncated rank");
    }
    if (!rdstr(c, &s, &n)) {
        FAIL("sender: truncated host");
    }
    if (!wire_text_ok(s, n)) {
        FAIL("sender: bad host");
    }
    memcpy(b->sender.host, s, n);
    b->sender.host[n] = '\0';
    if (!rd32(c, &b->sender.pid)) {
        FAIL("sender: truncated pid");
    }
    if (c->p != c->end) {
        FAIL("sender: trailing bytes");
    }
    return OPAL_SUCCESS;
}

static int parse_clocks(cur_t *c, mca_common_evt_wire_batch_t *b, arena_t *a)
{
    mca_common_evt_wire_clock_t *clocks;
    uint16_t n;

    if (!rd16(c, &n)) {
        FAIL("clocks: truncated count");
    }
    /* each entry is at least 2 + 1 + 1 + 24 bytes */
    if (!need(c, (size_t) n * 28)) {
        FAIL("clocks: count larger than the section");
    }
    clocks = arena_take(a, (size_t) n * sizeof(*clocks));
    for (uint16_t i = 0; i < n; ++i) {
        mca_common_evt_wire_clock_t e;
        const uint8_t *s;
        uint16_t len;
        uint64_t tps, ticks, rt;

        if (!rdstr(c, &s, &len) || !rd8(c, &e.ordering) || !rd64(c, &tps) || !rd64(c, &ticks)
            || !rd64(c, &rt)) {
            FAIL("clocks: truncated entry");
        }
        if (!wire_name_ok(s, len)) {
            FAIL("clocks: bad source name");
        }
        if (0
            != (e.ordering
                & ~(MCA_COMMON_EVT_WIRE_CLOCK_UNORDERED | MCA_COMMON_EVT_WIRE_CLOCK_HOST))) {
            FAIL("clocks: bad clock flags");
        }
        e.host_clock = 0 != (e.ordering & MCA_COMMON_EVT_WIRE_CLOCK_HOST);
        e.ordering &= MCA_COMMON_EVT_WIRE_CLOCK_UNORDERED;
        if (0 == tps || tps > (uint64_t) INT64_MAX) {
            FAIL("clocks: bad ticks per second");
        }
        e.name = arena_str(a, s, len);
        e.ticks_per_second = tps;
        e.source_ticks = (int64_t) ticks;
        e.realtime_ns = (int64_t) rt;
        if (a->fill) {
            clocks[i] = e;
        }
    }
    if (c->p != c->end) {
        FAIL("clocks: trailing bytes");
    }
    b->num_clocks = n;
    b->clocks = clocks;
    return OPAL_SUCCESS;
}

static int parse_offsets(cur_t *c, mca_common_evt_wire_batch_t *b, arena_t *a)
{
    mca_common_evt_wire_offset_t *offs;
    uint16_t n;

    if (!rd16(c, &n)) {
        FAIL("offsets: truncated count");
    }
    if ((size_t) (c->end - c->p) != (size_t) n * 24) {
        FAIL("offsets: count does not match the section");
    }
    offs = arena_take(a, (size_t) n * sizeof(*offs));
    for (uint16_t i = 0; i < n; ++i) {
        /* the section's length was checked against the count above */
        if (a->fill) {
            offs[i].local_realtime_ns = (int64_t) wire_get64(c->p);
            offs[i].offset_ns = (int64_t) wire_get64(c->p + 8);
            offs[i].uncertainty_ns = wire_get64(c->p + 16);
        }
        c->p += 24;
    }
    b->num_offsets = n;
    b->offsets = offs;
    return OPAL_SUCCESS;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *) x, *(const char *const *) y);
}

/* Element names of one type are unique (readers key fields by name). */
static bool names_unique(const mca_common_evt_wire_element_t *el, unsigned n, const char **scratch)
{
    unsigned k = 0;

    for (unsigned i = 0; i < n; ++i) {
        if ('\0' != el[i].name[0]) {
            scratch[k++] = el[i].name;
        }
    }
    if (k < 2) {
        return true;
    }
    qsort(scratch, k, sizeof(*scratch), cmp_str);
    for (unsigned i = 1; i < k; ++i) {
        if (0 == strcmp(scratch[i - 1], scratch[i])) {
            return false;
        }
    }
    return true;
}

static int parse_types(cur_t *c, mca_common_evt_wire_batch_t *b, arena_t *a)
{
    mca_common_evt_wire_type_t *types;
    uint16_t n;

    if (!rd16(c, &n)) {
        FAIL("types: truncated count");
    }
    /* each entry is at least 2 + 2 + 1 + 2 bytes */
    if (!need(c, (size_t) n * 7)) {
        FAIL("types: count larger than the section");
    }
    types = arena_take(a, (size_t) n * sizeof(*types));
    for (uint16_t i = 0; i < n; ++i) {
        mca_common_evt_wire_type_t t;
        mca_common_evt_wire_element_t *el;
        const uint8_t *s;
        uint16_t len, ne;
        size_t payload = 0;

        if (!rd16(c, &t.source) || !rdstr(c, &s, &len) || !rd16(c, &ne)) {
            FAIL("types: truncated entry");
        }
        if (t.source >= b->num_clocks) {
            FAIL("types: source id out of range");
        }
        if (!wire_name_ok(s, len)) {
            FAIL("types: bad event name");
        }
        if (MCA_COMMON_EVT_WIRE_MAX_ELEMENTS < ne) {
            FAIL("types: too many elements");
        }
        if (!need(c, (size_t) ne * 3)) {
            FAIL("types: element count larger than the section");
        }
        t.name = arena_str(a, s, len);
        el = arena_take(a, (size_t) ne * sizeof(*el));
        for (uint16_t k = 0; k < ne; ++k) {
            mca_common_evt_wire_element_t e;
            const uint8_t *en;
            uint16_t enl;
            size_t sz;

            if (!rd8(c, &e.type) || !rdstr(c, &en, &enl)) {
                FAIL("types: truncated element");
            }
            sz = mca_common_evt_wire_elem_size(e.type);
            if (0 == sz) {
                FAIL("types: unknown element type");
            }
            if (0 < enl && !wire_elem_name_ok(en, enl)) {
                FAIL("types: bad element name");
            }
            e.offset = (uint16_t) payload;
            payload += sz;
            if (MCA_COMMON_EVT_WIRE_MAX_PAYLOAD < payload) {
                FAIL("types: payload too large");
            }
            e.name = arena_str(a, en, enl);
            if (a->fill) {
                el[k] = e;
            }
        }
        t.num_elements = ne;
        t.payload_size = (uint16_t) payload;
        t.elements = el;
        if (a->fill) {
            const char *scratch[MCA_COMMON_EVT_WIRE_MAX_ELEMENTS];
            if (!names_unique(el, ne, scratch)) {
                FAIL("types: repeated element name");
            }
            types[i] = t;
        }
    }
    if (c->p != c->end) {
        FAIL("types: trailing bytes");
    }
    b->num_types = n;
    b->types = types;
    return OPAL_SUCCESS;
}

static int parse_drops(cur_t *c, mca_common_evt_wire_batch_t *b, arena_t *a)
{
    mca_common_evt_wire_drop_t *drops;
    uint16_t n;

    if (!rd16(c, &n)) {
        FAIL("drops: truncated count");
    }
    if ((size_t) (c->end - c->p) != (size_t) n * 10) {
        FAIL("drops: count does not match the section");
    }
    drops = arena_take(a, (size_t) n * sizeof(*drops));
    for (uint16_t i = 0; i < n; ++i) {
        /* the section's length was checked against the count above */
        uint16_t type = wire_get16(c->p);
        uint64_t count = wire_get64(c->p + 2);
        c->p += 10;
        if (type >= b->num_types) {
            FAIL("drops: type id out of range");
        }
        if (a->fill) {
            drops[i].type = type;
            drops[i].count = count;
        }
    }
    b->num_drops = n;
    b->drops = drops;
    return OPAL_SUCCESS;
}

/* Walk every record once: type ids, sizes, booleans. */
static int parse_records(cur_t *c, mca_common_evt_wire_batch_t *b)
{
    uint32_t n;

    if (!rd32(c, &n)) {
        FAIL("records: truncated count");
    }
    if ((size_t) (c->end - c->p) / RECORD_HEAD < n) {
        FAIL("records: count larger than the section");
    }
    b->records = c->p;
    b->records_len = (size_t) (c->end - c->p);
    for (uint32_t i = 0; i < n; ++i) {
        const mca_common_evt_wire_type_t *t;
        uint16_t id;

        if (!need(c, RECORD_HEAD)) {
            FAIL("records: truncated record");
        }
        id = wire_get16(c->p);
        if (id >= b->num_types) {
            FAIL("records: type id out of range");
        }
        t = &b->types[id];
        c->p += RECORD_HEAD;
        if (!need(c, t->payload_size)) {
            FAIL("records: truncated payload");
        }
        for (uint16_t k = 0; k < t->num_elements; ++k) {
            if (MCA_COMMON_EVT_WIRE_ELEM_BOOL == t->elements[k].type
                && 1 < c->p[t->elements[k].offset]) {
                FAIL("records: boolean neither 0 nor 1");
            }
        }
        c->p += t->payload_size;
    }
    if (c->p != c->end) {
        FAIL("records: trailing bytes");
    }
    b->num_records = n;
    return OPAL_SUCCESS;
}

/* LAYOUTS: validated against the types, so in the filling pass only; the
 * sizing pass reserves the same storage (the entries, and at most one u16
 * offset per two bytes of the section). */
static int parse_layouts(cur_t *c, mca_common_evt_wire_batch_t *b, arena_t *a)
{
    mca_common_evt_wire_layout_t *ls;
    uint16_t *offs;
    uint8_t seen[(UINT16_MAX + 1) / 8];
    size_t body = (size_t) (c->end - c->p), used = 0;
    uint16_t n;

    if (!rd16(c, &n)) {
        FAIL("layouts: truncated count");
    }
    if (!need(c, (size_t) n * LAYOUT_HEAD)) {
        FAIL("layouts: count larger than the section");
    }
    ls = arena_take(a, (size_t) n * sizeof(*ls));
    offs = arena_take(a, body);
    b->num_layouts = n;
    b->layouts = ls;
    if (!a->fill) {
        return OPAL_SUCCESS;
    }
    memset(seen, 0, sizeof(seen));
    for (uint16_t i = 0; i < n; ++i) {
        mca_common_evt_wire_layout_t l;
        const mca_common_evt_wire_type_t *t;
        uint32_t ev, src, ext, fl, bind;
        uint64_t max;

        if (!rd16(c, &l.type) || !rd32(c, &ev) || !rd32(c, &src) || !rd64(c, &max) || !rd32(c, &ext)
            || !rd32(c, &fl) || !rd32(c, &bind)) {
            FAIL("layouts: truncated entry");
        }
        if (l.type >= b->num_types) {
            FAIL("layouts: type id out of range");
        }
        if (seen[l.type / 8] & (1u << (l.type % 8))) {
            FAIL("layouts: two layouts of one type");
        }
        seen[l.type / 8] |= (uint8_t) (1u << (l.type % 8));
        l.event_index = (int32_t) ev;
        l.source_index = (int32_t) src;
        l.max_ticks = (int64_t) max;
        l.extent = ext;
        l.flags = fl;
        l.bind = (int32_t) bind;
        if (0 > l.event_index || 0 > l.source_index) {
            FAIL("layouts: negative index");
        }
        if (0 >= l.max_ticks) {
            FAIL("layouts: bad max ticks");
        }
        if (MCA_COMMON_EVT_WIRE_MAX_PAYLOAD < l.extent) {
            FAIL("layouts: extent too large");
        }
        t = &b->types[l.type];
        if (!need(c, 2 * (size_t) t->num_elements)) {
            FAIL("layouts: truncated offsets");
        }
        l.offsets = offs + used;
        for (uint16_t k = 0; k < t->num_elements; ++k) {
            size_t sz = mca_common_evt_wire_elem_size(t->elements[k].type);
            uint16_t off = wire_get16(c->p);
            c->p += 2;
            if (off > l.extent || sz > l.extent - off) {
                FAIL("layouts: element outside the extent");
            }
            offs[used++] = off;
        }
        ls[i] = l;
    }
    if (c->p != c->end) {
        FAIL("layouts: trailing bytes");
    }
    return OPAL_SUCCESS;
}

int mca_common_evt_wire_peek(const void *buf, size_t len, uint64_t *seq, uint32_t *flags)
{
    const uint8_t *p = buf;

    if (NULL == buf || len < MCA_COMMON_EVT_WIRE_HEADER_BYTES
        || 0 != memcmp(p, MCA_COMMON_EVT_WIRE_MAGIC, 4)
        || MCA_COMMON_EVT_WIRE_VERSION != wire_get16(p + 4) || wire_get32(p + 24) != len) {
        return OPAL_ERR_UNPACK_FAILURE;
    }
    if (NULL != seq) {
        *seq = wire_get64(p + 16);
    }
    if (NULL != flags) {
        *flags = wire_get32(p + 8);
    }
    return OPAL_SUCCESS;
}

/* One pass over the sections (measuring or filling). */
static int parse(const uint8_t *buf, size_t len, mca_common_evt_wire_batch_t *b, arena_t *a)
{
    cur_t c = {buf, buf + len};
    uint16_t version, hlen;
    uint32_t nsections, total;
    int last_kind = 0;
    int rc;

    if (len < MCA_COMMON_EVT_WIRE_HEADER_BYTES) {
        FAIL("shorter than a header");
    }
    if (0 != memcmp(buf, MCA_COMMON_EVT_WIRE_MAGIC, 4)) {
        FAIL("bad magic: not a batch");
    }
    version = wire_get16(buf + 4);
    if (MCA_COMMON_EVT_WIRE_VERSION != version) {
        b->error = "unsupported format version";
        return OPAL_ERR_NOT_SUPPORTED;
    }
    hlen = wire_get16(buf + 6);
    if (hlen < MCA_COMMON_EVT_WIRE_HEADER_BYTES || hlen > len) {
        FAIL("bad header length");
    }
    total = wire_get32(buf + 24);
    if (total != len) {
        FAIL("length field does not match the batch");
    }
    b->version = version;
    b->flags = wire_get32(buf + 8);
    nsections = wire_get32(buf + 12);
    b->seq = wire_get64(buf + 16);
    c.p += hlen;
    if ((size_t) (c.end - c.p) / MCA_COMMON_EVT_WIRE_SECTION_BYTES < nsections) {
        FAIL("section count larger than the batch");
    }
    for (uint32_t i = 0; i < nsections; ++i) {
        uint16_t kind, sflags;
        uint32_t blen;
        cur_t body;

        if (!rd16(&c, &kind) || !rd16(&c, &sflags) || !rd32(&c, &blen)) {
            FAIL("truncated section header");
        }
        if (!need(&c, blen)) {
            FAIL("section longer than the batch");
        }
        body.p = c.p;
        body.end = c.p + blen;
        c.p += blen;
        if (0 == i && MCA_COMMON_EVT_WIRE_SECTION_SENDER != kind) {
            FAIL("first section is not the sender");
        }
        if (kind < MCA_COMMON_EVT_WIRE_SECTION_SENDER
            || kind > MCA_COMMON_EVT_WIRE_SECTION_LAYOUTS) {
            if (MCA_COMMON_EVT_WIRE_SECTION_REQUIRED & sflags) {
                b->error = "unknown section marked required";
                return OPAL_ERR_NOT_SUPPORTED;
            }
            continue; /* a later minor addition: skipped */
        }
        if (kind <= last_kind) {
            FAIL("sections repeated or out of order");
        }
        last_kind = kind;
        switch (kind) {
        case MCA_COMMON_EVT_WIRE_SECTION_SENDER:
            rc = parse_sender(&body, b);
            break;
        case MCA_COMMON_EVT_WIRE_SECTION_CLOCKS:
            rc = parse_clocks(&body, b, a);
            break;
        case MCA_COMMON_EVT_WIRE_SECTION_OFFSETS:
            rc = parse_offsets(&body, b, a);
            break;
        case MCA_COMMON_EVT_WIRE_SECTION_TYPES:
            rc = parse_types(&body, b, a);
            break;
        case MCA_COMMON_EVT_WIRE_SECTION_DROPS:
            rc = parse_drops(&body, b, a);
            break;
        case MCA_COMMON_EVT_WIRE_SECTION_LAYOUTS:
            rc = parse_layouts(&body, b, a);
            break;
        default: /* RECORDS: validated in the filling pass (needs the types) */
            rc = a->fill ? parse_records(&body, b) : OPAL_SUCCESS;
            break;
        }
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    if (c.p != c.end) {
        FAIL("trailing bytes after the last section");
    }
    if (0 == last_kind) {
        FAIL("no sender");
    }
    return OPAL_SUCCESS;
}

int mca_common_evt_wire_decode(const void *buf, size_t len, mca_common_evt_wire_batch_t *batch)
{
    arena_t a = {false, NULL, 0};
    int rc;

    if (NULL == batch) {
        return OPAL_ERR_BAD_PARAM;
    }
    memset(batch, 0, sizeof(*batch));
    if (NULL == buf) {
        batch->error = "no buffer";
        return OPAL_ERR_BAD_PARAM;
    }
    if (len > MCA_COMMON_EVT_WIRE_MAX_BATCH) {
        batch->error = "batch larger than MCA_COMMON_EVT_WIRE_MAX_BATCH";
        return OPAL_ERR_UNPACK_FAILURE;
    }
    rc = parse(buf, len, batch, &a);
    if (OPAL_SUCCESS != rc) {
        const char *why = batch->error;
        memset(batch, 0, sizeof(*batch));
        batch->error = why;
        return rc;
    }
    a.fill = true;
    a.base = malloc(0 == a.used ? 1 : a.used);
    if (NULL == a.base) {
        memset(batch, 0, sizeof(*batch));
        batch->error = "out of memory";
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    a.used = 0;
    rc = parse(buf, len, batch, &a);
    if (OPAL_SUCCESS != rc) {
        const char *why = batch->error;
        free(a.base);
        memset(batch, 0, sizeof(*batch));
        batch->error = why;
        return rc;
    }
    batch->storage = a.base;
    batch->error = NULL;
    return OPAL_SUCCESS;
}

void mca_common_evt_wire_batch_destruct(mca_common_evt_wire_batch_t *batch)
{
    if (NULL == batch) {
        return;
    }
    free(batch->storage);
    memset(batch, 0, sizeof(*batch));
}

bool mca_common_evt_wire_batch_next_record(const mca_common_evt_wire_batch_t *batch, size_t *cursor,
                                           mca_common_evt_wire_record_t *rec)
{
    const uint8_t *p;
    const mca_common_evt_wire_type_t *t;
    uint16_t id;

    /* the decode validated the whole section: only the end is checked */
    if (NULL == batch || NULL == cursor || NULL == rec || NULL == batch->records
        || *cursor + RECORD_HEAD > batch->records_len) {
        return false;
    }
    p = batch->records + *cursor;
    id = wire_get16(p);
    if (id >= batch->num_types) {
        return false;
    }
    t = &batch->types[id];
    if (*cursor + RECORD_HEAD + t->payload_size > batch->records_len) {
        return false;
    }
    rec->type = id;
    rec->depth = p[2];
    rec->timestamp = (int64_t) wire_get64(p + 4);
    rec->payload = p + RECORD_HEAD;
    *cursor += RECORD_HEAD + t->payload_size;
    return true;
}

int mca_common_evt_wire_element_value(const mca_common_evt_wire_type_t *type,
                                      const uint8_t *payload, unsigned i,
                                      mca_common_evt_wire_value_t *value)
{
    const uint8_t *p;

    if (NULL == type || NULL == payload || NULL == value || i >= type->num_elements) {
        return OPAL_ERR_BAD_PARAM;
    }
    p = payload + type->elements[i].offset;
    value->type = type->elements[i].type;
    switch (value->type) {
    case MCA_COMMON_EVT_WIRE_ELEM_INT32:
        value->v.i = (int32_t) wire_get32(p);
        break;
    case MCA_COMMON_EVT_WIRE_ELEM_UINT32:
        value->v.u = wire_get32(p);
        break;
    case MCA_COMMON_EVT_WIRE_ELEM_INT64:
        value->v.i = (int64_t) wire_get64(p);
        break;
    case MCA_COMMON_EVT_WIRE_ELEM_UINT64:
        value->v.u = wire_get64(p);
        break;
    case MCA_COMMON_EVT_WIRE_ELEM_DOUBLE: {
        uint64_t bits = wire_get64(p);
        memcpy(&value->v.d, &bits, 8);
        break;
    }
    case MCA_COMMON_EVT_WIRE_ELEM_BOOL:
        value->v.b = 0 != *p;
        break;
    default:
        return OPAL_ERR_BAD_PARAM;
    }
    return OPAL_SUCCESS;
}

int mca_common_evt_wire_element_find(const mca_common_evt_wire_type_t *type, const char *name)
{
    if (NULL == type || NULL == name || '\0' == name[0]) {
        return -1;
    }
    for (unsigned i = 0; i < type->num_elements; ++i) {
        if (0 == strcmp(type->elements[i].name, name)) {
            return (int) i;
        }
    }
    return -1;
}
