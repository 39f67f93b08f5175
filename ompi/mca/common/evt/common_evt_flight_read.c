/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The flight-recorder decoder (common_evt_flight_read.h): header, dictionary, drop
 * counters, rings. Every read goes through rd_*() helpers that check the
 * bounds first; integers are read with memcpy (the buffer may be
 * unaligned). See common_evt_flight_format.h for the format and the commit protocol
 * this decoder relies on.
 */

#include "ompi_config.h"

#include "ompi/mca/common/evt/common_evt_flight_read.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_write.h"
#include "ompi/mca/common/evt/common_evt_input_open.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

/* Bounds: the most rings, elements, dictionary entries a writer makes. */
#define FR_MAX_RINGS 4096
/* The fuzzer (test/hardening/fuzz_file_read.c) builds with EVT_FUZZING:
 * checksums are then not enforced, so that its mutations reach the
 * dictionary and the rings. Never set in a real build. */
#ifdef EVT_FUZZING
#    define FR_CHECK_SUMS 0
#else
#    define FR_CHECK_SUMS 1
#endif
/* Files larger than this are refused (a writer's rings are < 2^31 each).
 * A file is mapped, not read (mca_common_evt_flight_open_fd), so this bounds address
 * space only; memory follows what the header locates. */
#define FR_MAX_FILE ((uint64_t) 1 << 40)
/* Parts up to this size whose rings are three quarters full are read into
 * memory rather than mapped. The recorder's spools are images of 16 MiB
 * or so; decoding full ones from a mapping of the page cache took 1.9 s
 * where reading them into a buffer took 1.3 s (two ranks' 9.3 million
 * records, user time 1.75 -> 1.0 s): the decoder's first touch of each
 * line stalled on the mapping's small pages, while the kernel's copy
 * streams and the buffer, anonymous memory, gets huge pages. A mostly
 * empty image is mapped (reading it would copy its empty space: 0.35 ->
 * 0.5 s for a short job's images), and so is a larger part (a whole
 * flight file): only the pages the decoder visits are loaded. */
#define FR_READ_MAX ((uint64_t) 64 << 20)

/* ---- bounded reads ---- */

static bool in_bounds(size_t len, uint64_t off, uint64_t n)
{
    return off <= len && n <= len - off;
}

static uint32_t rd32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static uint64_t rd64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/* ---- problems ---- */

static int problem(mca_common_evt_flight_file_t *f, const char *fmt, ...)
{
    char buf[512], **p;
    va_list ap;

    va_start(ap, fmt);
    (void) vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    p = realloc(f->problems, (f->nproblems + 1) * sizeof(*p));
    if (NULL == p) {
        return -1;
    }
    f->problems = p;
    p[f->nproblems] = strdup(buf);
    if (NULL == p[f->nproblems]) {
        return -1;
    }
    ++f->nproblems;
    return 0;
}

void mca_common_evt_flight_printable(char *s)
{
    for (; '\0' != *s; ++s) {
        if ((unsigned char) *s < 0x20 || (unsigned char) *s > 0x7e) {
            *s = '?';
        }
    }
}

static void free_event(mca_common_evt_flight_event_t *ev)
{
    for (uint32_t j = 0; j < ev->num_elements; ++j) {
        free(ev->elements[j].name);
    }
    free(ev->elements);
    free(ev->name);
}

const char *mca_common_evt_flight_type_name(uint32_t type)
{
    switch (type) {
    case MCA_COMMON_EVT_FLIGHT_TYPE_INT32:
        return "int32";
    case MCA_COMMON_EVT_FLIGHT_TYPE_UINT32:
        return "uint32";
    case MCA_COMMON_EVT_FLIGHT_TYPE_INT64:
        return "int64";
    case MCA_COMMON_EVT_FLIGHT_TYPE_UINT64:
        return "uint64";
    case MCA_COMMON_EVT_FLIGHT_TYPE_DOUBLE:
        return "double";
    case MCA_COMMON_EVT_FLIGHT_TYPE_BOOL:
        return "bool";
    default:
        return "unknown";
    }
}

/* ---- header ---- */

/* @return true when the header is usable. */
static bool decode_header(mca_common_evt_flight_file_t *f)
{
    const unsigned char *b = f->buf;
    mca_common_evt_flight_header_t h;

    if (f->len < sizeof(h)) {
        (void) problem(f, "header: file has %zu bytes, the header needs %zu", f->len, sizeof(h));
        return false;
    }
    memcpy(&h, b, sizeof(h));
    if (0 != memcmp(h.magic, MCA_COMMON_EVT_FLIGHT_MAGIC, sizeof(h.magic))) {
        (void) problem(f, "header: not an evt/file recording (bad magic)");
        return false;
    }
    if (MCA_COMMON_EVT_FLIGHT_ENDIAN != h.endian) {
        (void) problem(f, "header: written with another byte order, or damaged (0x%08x)", h.endian);
        return false;
    }
    if (MCA_COMMON_EVT_FLIGHT_VERSION != h.version) {
        (void) problem(f,
                       "header: format version %u%s; this reader reads version %u only (read "
                       "the file with the ompi-evt that wrote it)",
                       h.version,
                       h.version < MCA_COMMON_EVT_FLIGHT_VERSION ? " (an earlier ompi-evt's)"
                                                                 : " (a later ompi-evt's)",
                       MCA_COMMON_EVT_FLIGHT_VERSION);
        return false;
    }
    if (FR_CHECK_SUMS && h.header_crc != mca_common_evt_flight_header_crc(&h)) {
        (void) problem(f, "header: checksum mismatch (damaged)");
        return false;
    }
    /* The sum matched, but a writer of a future minor change or a forged
     * file could still say anything: check the layout as if untrusted. */
    if (MCA_COMMON_EVT_FLIGHT_HEADER_SIZE != h.header_size
        || MCA_COMMON_EVT_FLIGHT_CTL_SIZE != h.ctl_size
        || MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE != h.ring_hdr_size
        || MCA_COMMON_EVT_FLIGHT_REC_SIZE != h.rec_size || 0 == h.ring_count
        || FR_MAX_RINGS < h.ring_count || h.ring_capacity < 64
        || h.ring_capacity > ((uint32_t) 1 << 31) || 0 != (h.ring_capacity & (h.ring_capacity - 1))
        || (uint64_t) MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + h.ring_capacity != h.ring_stride
        || FR_MAX_FILE < h.file_size || 0 != h.file_size % MCA_COMMON_EVT_FLIGHT_ALIGN
        || h.dict_offset < h.header_size || h.dict_size > h.file_size
        || h.dict_offset > h.file_size - h.dict_size || h.drops_offset > h.file_size
        || h.drops_count > (h.file_size - h.drops_offset) / 8 || h.rings_offset > h.file_size
        || (uint64_t) h.ring_count * h.ring_stride > h.file_size - h.rings_offset) {
        (void) problem(f, "header: inconsistent layout");
        return false;
    }
    f->version = h.version;
    f->rank = h.rank;
    f->world_size = h.world_size;
    f->pid = h.pid;
    memcpy(f->host, h.host, sizeof(h.host));
    f->host[sizeof(f->host) - 1] = '\0';
    f->host[sizeof(h.host)] = '\0';
    memcpy(f->job, h.job, sizeof(h.job));
    f->job[sizeof(h.job)] = '\0';
    mca_common_evt_flight_printable(f->host);
    mca_common_evt_flight_printable(f->job);
    f->created_ns = h.created_ns;
    f->closed = MCA_COMMON_EVT_FLIGHT_STATE_CLOSED == h.state;
    f->closed_ns = f->closed ? h.closed_ns : 0;
    if (MCA_COMMON_EVT_FLIGHT_STATE_CLOSED != h.state
        && MCA_COMMON_EVT_FLIGHT_STATE_OPEN != h.state) {
        (void) problem(f, "header: unknown writer state %u", h.state);
    }
    f->ring_count = h.ring_count;
    f->ring_capacity = h.ring_capacity;
    f->file_size = h.file_size;
    f->dict_refused = h.dict_refused;
    f->drops_other = h.drops_other;
    if (f->len < h.file_size) {
        (void) problem(f, "file: truncated: %zu of %llu bytes", f->len,
                       (unsigned long long) h.file_size);
    } else if (f->len > h.file_size) {
        (void) problem(f, "file: %zu bytes, the header says %llu", f->len,
                       (unsigned long long) h.file_size);
    }
    return true;
}

/* ---- dictionary ---- */

/* The source with engine index @p index, added from @p c when new (a source
 * described again keeps its first clock pair). */
static mca_common_evt_flight_source_t *dict_source(mca_common_evt_flight_file_t *f,
                                                   const mca_common_evt_wire_clock_t *c,
                                                   const mca_common_evt_wire_layout_t *l)
{
    mca_common_evt_flight_source_t *n;

    for (size_t i = 0; i < f->nsources; ++i) {
        if (f->sources[i].index == l->source_index) {
            return &f->sources[i];
        }
    }
    n = realloc(f->sources, (f->nsources + 1) * sizeof(*n));
    if (NULL == n) {
        return NULL;
    }
    f->sources = n;
    n = &f->sources[f->nsources];
    memset(n, 0, sizeof(*n));
    n->name = strdup(c->name); /* the decoder checked it: [A-Za-z0-9._-] */
    if (NULL == n->name) {
        return NULL;
    }
    n->index = l->source_index;
    n->ordering = c->ordering;
    n->ticks_per_second = (int64_t) c->ticks_per_second;
    n->max_ticks = l->max_ticks;
    n->sample_ticks = c->source_ticks;
    n->sample_realtime_ns = c->realtime_ns;
    n->host_clock = c->host_clock;
    ++f->nsources;
    return n;
}

/* The event a layout describes, added, or replacing an earlier description
 * of the same index. */
static bool dict_event(mca_common_evt_flight_file_t *f, const mca_common_evt_wire_batch_t *b,
                       const mca_common_evt_wire_layout_t *l)
{
    const mca_common_evt_wire_type_t *t = &b->types[l->type];
    mca_common_evt_flight_event_t ev, *slot = NULL;

    if (NULL == dict_source(f, &b->clocks[t->source], l)) {
        return false;
    }
    memset(&ev, 0, sizeof(ev));
    ev.index = l->event_index;
    ev.source_index = l->source_index;
    ev.extent = l->extent;
    ev.flags = l->flags;
    ev.bind = l->bind;
    ev.name = strdup(t->name);
    ev.elements = calloc((size_t) t->num_elements + 1, sizeof(*ev.elements));
    if (NULL == ev.name || NULL == ev.elements) {
        free(ev.name);
        free(ev.elements);
        return false;
    }
    for (uint16_t k = 0; k < t->num_elements; ++k) {
        ev.elements[k].type = t->elements[k].type;
        ev.elements[k].offset = l->offsets[k];
        ev.elements[k].name = strdup(t->elements[k].name);
        if (NULL == ev.elements[k].name) {
            ev.num_elements = k;
            free_event(&ev);
            return false;
        }
    }
    ev.num_elements = t->num_elements;
    for (size_t i = 0; i < f->nevents; ++i) {
        if (f->events[i].index == ev.index) {
            slot = &f->events[i];
            free_event(slot);
        }
    }
    if (NULL == slot) {
        slot = realloc(f->events, (f->nevents + 1) * sizeof(*slot));
        if (NULL == slot) {
            free_event(&ev);
            return false;
        }
        f->events = slot;
        slot = &f->events[f->nevents++];
    }
    *slot = ev;
    return true;
}

static void decode_dict(mca_common_evt_flight_file_t *f)
{
    mca_common_evt_flight_header_t h;
    uint64_t off, end, used;

    memcpy(&h, f->buf, sizeof(h));
    used = h.dict_used;
    if (used > h.dict_size) {
        (void) problem(f, "dictionary: %llu bytes used of %llu (damaged)",
                       (unsigned long long) used, (unsigned long long) h.dict_size);
        used = h.dict_size;
    }
    off = h.dict_offset;
    end = h.dict_offset + used;
    while (off < end) {
        mca_common_evt_wire_batch_t batch;
        uint32_t len, crc;
        uint64_t size;
        int rc;

        if (end - off < MCA_COMMON_EVT_FLIGHT_DICT_ENTRY_HEAD
            || !in_bounds(f->len, off, MCA_COMMON_EVT_FLIGHT_DICT_ENTRY_HEAD)) {
            (void) problem(f, "dictionary: truncated at offset %llu", (unsigned long long) off);
            return;
        }
        len = rd32(f->buf + off);
        crc = rd32(f->buf + off + 4);
        size = mca_common_evt_flight_dict_entry_size(len);
        if (0 == len || size > end - off) {
            (void) problem(f, "dictionary: damaged entry at offset %llu (length %u)",
                           (unsigned long long) off, len);
            return;
        }
        if (!in_bounds(f->len, off, size)) {
            (void) problem(f, "dictionary: truncated at offset %llu", (unsigned long long) off);
            return;
        }
        if (FR_CHECK_SUMS
            && crc
                   != mca_common_evt_wire_crc32c(0,
                                                 f->buf + off
                                                     + MCA_COMMON_EVT_FLIGHT_DICT_ENTRY_HEAD,
                                                 len)) {
            (void) problem(f, "dictionary: checksum mismatch in the entry at offset %llu",
                           (unsigned long long) off);
            return;
        }
        rc = mca_common_evt_wire_decode(f->buf + off + MCA_COMMON_EVT_FLIGHT_DICT_ENTRY_HEAD, len,
                                        &batch);
        if (OPAL_SUCCESS != rc) {
            (void) problem(f, "dictionary: invalid entry at offset %llu: %s",
                           (unsigned long long) off,
                           NULL != batch.error ? batch.error : "cannot decode");
            return;
        }
        for (uint32_t i = 0; i < batch.num_layouts; ++i) {
            if (!dict_event(f, &batch, &batch.layouts[i])) {
                (void) problem(f, "dictionary: out of memory");
                mca_common_evt_wire_batch_destruct(&batch);
                return;
            }
        }
        mca_common_evt_wire_batch_destruct(&batch);
        off += size;
    }
}

/* Link events to their sources once the dictionary is read. */
static void link_sources(mca_common_evt_flight_file_t *f)
{
    for (size_t i = 0; i < f->nevents; ++i) {
        for (size_t j = 0; j < f->nsources; ++j) {
            if (f->sources[j].index == f->events[i].source_index) {
                f->events[i].source = &f->sources[j];
            }
        }
    }
}

const mca_common_evt_flight_event_t *
mca_common_evt_flight_event(const mca_common_evt_flight_file_t *file, uint32_t index)
{
    for (size_t i = 0; NULL != file && i < file->nevents; ++i) {
        if ((uint32_t) file->events[i].index == index) {
            return &file->events[i];
        }
    }
    return NULL;
}

/* ---- drops ---- */

static void decode_drops(mca_common_evt_flight_file_t *f)
{
    mca_common_evt_flight_header_t h;

    memcpy(&h, f->buf, sizeof(h));
    for (uint32_t i = 0; i < h.drops_count; ++i) {
        uint64_t off = h.drops_offset + (uint64_t) i * 8, d;
        void *p;

        if (!in_bounds(f->len, off, 8)) {
            (void) problem(f, "drop counters: truncated");
            return;
        }
        d = rd64(f->buf + off);
        if (0 == d) {
            continue;
        }
        p = realloc(f->drops, (f->ndrops + 1) * sizeof(*f->drops));
        if (NULL == p) {
            return;
        }
        f->drops = p;
        f->drops[f->ndrops].event_index = i;
        f->drops[f->ndrops].count = d;
        ++f->ndrops;
    }
}

/* ---- rings ---- */

/* Room for @p more records: a ring's positions bound its records, so one
 * allocation per ring instead of a doubling every few thousand records. */
static bool reserve_records(mca_common_evt_flight_file_t *f, size_t *cap, size_t more)
{
    mca_common_evt_flight_record_t *p;

    if (*cap - f->nrecords >= more) {
        return true;
    }
    p = realloc(f->records, (f->nrecords + more) * sizeof(*p));
    if (NULL == p) {
        return false;
    }
    f->records = p;
    *cap = f->nrecords + more;
    return true;
}

static bool add_record(mca_common_evt_flight_file_t *f, size_t *cap,
                       const mca_common_evt_flight_record_t *r)
{
    /* double; where memory is short, grow by an eighth */
    if (f->nrecords == *cap && !reserve_records(f, cap, 0 == *cap ? 256 : *cap)
        && !reserve_records(f, cap, *cap / 8 < 256 ? 256 : *cap / 8)) {
        return false;
    }
    f->records[f->nrecords++] = *r;
    return true;
}

static void record_time(mca_common_evt_flight_record_t *r)
{
    const mca_common_evt_flight_source_t *s = NULL == r->event ? NULL : r->event->source;
    long double ns;

    r->has_time = false;
    if (NULL == s || 0 >= s->ticks_per_second) {
        return;
    }
    if (1000000000 == s->ticks_per_second) {
        /* nanosecond ticks (the default clock): exact in integers */
        int64_t t;
        if (!__builtin_sub_overflow(r->timestamp, s->sample_ticks, &t)
            && !__builtin_add_overflow(t, s->sample_realtime_ns, &r->time_ns)) {
            r->has_time = true;
        }
        return;
    }
    ns = (long double) s->sample_realtime_ns
         + ((long double) r->timestamp - (long double) s->sample_ticks) * 1e9L
               / (long double) s->ticks_per_second;
    if (ns > (long double) INT64_MAX || ns < (long double) INT64_MIN) {
        return;
    }
    r->time_ns = (int64_t) ns;
    r->has_time = true;
}

/* Walk ring @p i from oldest to tail. */
static void decode_ring(mca_common_evt_flight_file_t *f, uint32_t i, size_t *cap)
{
    mca_common_evt_flight_header_t h;
    mca_common_evt_flight_ring_t *acct = &f->rings[i];
    uint64_t slot, data_off, avail;
    uint32_t tail, oldest, mark_pos, mark_cnt, mask, pos;
    uint64_t evicted, mark;
    /* records mostly repeat an event: remember the last lookup */
    const mca_common_evt_flight_event_t *last_ev = NULL;
    uint32_t last_index = UINT32_MAX;

    memcpy(&h, f->buf, sizeof(h));
    mask = h.ring_capacity - 1;
    slot = h.rings_offset + (uint64_t) i * h.ring_stride;
    if (!in_bounds(f->len, slot, MCA_COMMON_EVT_FLIGHT_CTL_SIZE)) {
        (void) problem(f, "ring %u: missing (truncated file)", i);
        acct->damaged = true;
        return;
    }
    tail = rd32(f->buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_TAIL);
    oldest = rd32(f->buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST);
    evicted = rd64(f->buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_EVICTED);
    mark = rd64(f->buf + slot + MCA_COMMON_EVT_FLIGHT_CTL_EVICT_MARK);
    mark_pos = (uint32_t) mark;
    mark_cnt = (uint32_t) (mark >> 32);
    /* Make (oldest, evicted) agree (common_evt_flight_format.h): the writer stores
     * evicted, then the mark, then oldest. */
    if (mark_pos != oldest) {
        if ((uint32_t) (tail - mark_pos) <= (uint32_t) (tail - oldest)) {
            oldest = mark_pos; /* died between the mark and oldest */
        } else {
            (void) problem(f, "ring %u: eviction mark outside the ring (damaged)", i);
        }
    }
    if ((uint32_t) evicted != mark_cnt && mark_pos == oldest) {
        /* died between evicted and the mark: the count of this oldest */
        evicted -= (uint32_t) ((uint32_t) evicted - mark_cnt);
    }
    acct->overwritten = evicted;
    if (0 != tail % MCA_COMMON_EVT_FLIGHT_ALIGN || 0 != oldest % MCA_COMMON_EVT_FLIGHT_ALIGN
        || (uint32_t) (tail - oldest) > h.ring_capacity) {
        (void) problem(f, "ring %u: positions damaged (oldest %u, tail %u)", i, oldest, tail);
        acct->damaged = true;
        return;
    }
    data_off = slot + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    avail = f->len > data_off ? f->len - data_off : 0;
    if (avail > h.ring_capacity) {
        avail = h.ring_capacity;
    }
    /* Room for the most records the ring can hold in what the file has of
     * it. Only a hint: the positions are not trusted yet, so a refusal leaves
     * the records to add_record()'s growth, bounded by what is really there. */
    (void) reserve_records(f, cap,
                           (size_t) (avail < (uint32_t) (tail - oldest) ? avail : tail - oldest)
                               / (MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE
                                  + MCA_COMMON_EVT_FLIGHT_REC_SIZE));
    for (pos = oldest; pos != tail;) {
        const unsigned char *p;
        uint32_t off = pos & mask, size, kind;
        mca_common_evt_flight_record_t r;

        if ((uint64_t) off + MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE > avail) {
            (void) problem(f, "ring %u: truncated at position %u", i, pos);
            acct->damaged = true;
            return;
        }
        p = f->buf + data_off + off;
        size = rd32(p);
        kind = rd32(p + 4);
        if (size < MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE || 0 != size % MCA_COMMON_EVT_FLIGHT_ALIGN
            || size > h.ring_capacity - off || size > (uint32_t) (tail - pos)) {
            (void) problem(f,
                           "ring %u: damaged record at position %u (size %u): %u bytes after "
                           "it not read",
                           i, pos, size, (uint32_t) (tail - pos));
            acct->damaged = true;
            return;
        }
        if ((uint64_t) off + size > avail) {
            (void) problem(f, "ring %u: truncated at position %u", i, pos);
            acct->damaged = true;
            return;
        }
        if (MCA_COMMON_EVT_FLIGHT_KIND_SKIP == kind) {
            if (off + size != h.ring_capacity) {
                (void) problem(f,
                               "ring %u: damaged skip record at position %u: %u bytes after "
                               "it not read",
                               i, pos, (uint32_t) (tail - pos));
                acct->damaged = true;
                return;
            }
            pos += size;
            continue;
        }
        if (MCA_COMMON_EVT_FLIGHT_KIND_RECORD != kind
            || size < MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE + MCA_COMMON_EVT_FLIGHT_REC_SIZE) {
            (void) problem(f,
                           "ring %u: damaged record at position %u (kind %u, size %u): %u "
                           "bytes after it not read",
                           i, pos, kind, size, (uint32_t) (tail - pos));
            acct->damaged = true;
            return;
        }
        memset(&r, 0, sizeof(r));
        p += MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE;
        r.event_index = rd32(p);
        memcpy(&r.depth, p + 4, 2);
        memcpy(&r.flags, p + 6, 2);
        r.obj = rd64(p + 8);
        r.timestamp = (int64_t) rd64(p + 16);
        r.ring = i;
        if (r.event_index != last_index) {
            last_index = r.event_index;
            last_ev = mca_common_evt_flight_event(f, r.event_index);
        }
        r.event = last_ev;
        r.payload = p + MCA_COMMON_EVT_FLIGHT_REC_SIZE;
        if (NULL != r.event) {
            if (size != mca_common_evt_flight_record_size(r.event->extent)) {
                (void) problem(f,
                               "ring %u: record at position %u has %u bytes, event %s needs "
                               "%u: %u bytes after it not read",
                               i, pos, size, r.event->name,
                               mca_common_evt_flight_record_size(r.event->extent),
                               (uint32_t) (tail - pos));
                acct->damaged = true;
                return;
            }
            r.payload_len = r.event->extent;
        } else {
            r.payload_len = size - MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE
                            - MCA_COMMON_EVT_FLIGHT_REC_SIZE;
        }
        record_time(&r);
        if (!add_record(f, cap, &r)) {
            /* the rest of the ring is not read: say it as a cut ring */
            (void) problem(f, "ring %u: out of memory at position %u: %u bytes after it not read",
                           i, pos, (uint32_t) (tail - pos));
            acct->damaged = true;
            return;
        }
        ++acct->records;
        pos += size;
    }
}

/* Order key: CLOCK_REALTIME when known, else the raw timestamp. */
static int64_t rec_key(const mca_common_evt_flight_record_t *r)
{
    return r->has_time ? r->time_ns : r->timestamp;
}

/* Does ring @p a's next record go before ring @p b's? Earlier key first,
 * the lower ring on a tie (as a scan of the rings in order would pick). */
static bool merge_before(const mca_common_evt_flight_file_t *f, const size_t *next, uint32_t a,
                         uint32_t b)
{
    int64_t ka = rec_key(&f->records[next[a]]), kb = rec_key(&f->records[next[b]]);

    return ka < kb || (ka == kb && a < b);
}

/* Restore the heap property below heap[i] (n rings in the heap). */
static void merge_sift(const mca_common_evt_flight_file_t *f, const size_t *next, uint32_t *heap,
                       uint32_t n, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i, t;
        if (l < n && merge_before(f, next, heap[l], heap[m])) {
            m = l;
        }
        if (r < n && merge_before(f, next, heap[r], heap[m])) {
            m = r;
        }
        if (m == i) {
            return;
        }
        t = heap[i];
        heap[i] = heap[m];
        heap[m] = t;
        i = m;
    }
}

/* Merge the per-ring runs (each in ring order) by time, stable: a record
 * never moves before an older one of its own ring. A heap of the rings
 * (O(records x log rings): a scan of every ring per record took 40 s for
 * 4096 rings of 409 records). Without the memory for it the records stay
 * in ring order, and that is said: what was decoded is not thrown away for
 * want of a second copy. */
static void merge_rings(mca_common_evt_flight_file_t *f)
{
    size_t *next, *end, out = 0, start = 0;
    mca_common_evt_flight_record_t *merged;
    uint32_t with_records = 0, *heap, n = 0;

    for (uint32_t i = 0; i < f->ring_count; ++i) {
        with_records += 0 != f->rings[i].records;
    }
    if (with_records < 2) {
        return; /* one run: already in order */
    }
    next = calloc(f->ring_count, sizeof(*next));
    end = calloc(f->ring_count, sizeof(*end));
    heap = calloc(f->ring_count, sizeof(*heap));
    merged = malloc(f->nrecords * sizeof(*merged));
    if (NULL == next || NULL == end || NULL == heap || NULL == merged) {
        free(next);
        free(end);
        free(heap);
        free(merged);
        (void) problem(f, "out of memory: the records are in ring order, not merged by time");
        return;
    }
    for (uint32_t i = 0; i < f->ring_count; ++i) {
        next[i] = start;
        start += f->rings[i].records;
        end[i] = start;
        if (next[i] < end[i]) {
            heap[n++] = i;
        }
    }
    for (uint32_t i = n / 2; i-- > 0;) {
        merge_sift(f, next, heap, n, i);
    }
    while (out < f->nrecords && 0 < n) {
        uint32_t best = heap[0];
        merged[out++] = f->records[next[best]++];
        if (next[best] == end[best]) {
            heap[0] = heap[--n];
        }
        merge_sift(f, next, heap, n, 0);
    }
    free(f->records);
    f->records = merged;
    free(next);
    free(end);
    free(heap);
}

/* Decode @p buf, which becomes the file's (freed or unmapped with it).
 * On failure a malloc'ed @p buf is freed here, a mapped one is the
 * caller's to unmap. */
static int fr_decode_take(unsigned char *buf, size_t len, bool mapped,
                          mca_common_evt_flight_file_t **out)
{
    mca_common_evt_flight_file_t *f;
    size_t cap = 0;

    *out = NULL;
    f = calloc(1, sizeof(*f));
    if (NULL == f) {
        if (!mapped) {
            free(buf);
        }
        errno = ENOMEM;
        return -1;
    }
    f->buf = buf;
    f->len = len;
    f->mapped = mapped;
    f->rank = -1;
    f->world_size = -1;
    f->header_valid = decode_header(f);
    if (f->header_valid) {
        decode_dict(f);
        link_sources(f);
        decode_drops(f);
        f->rings = calloc(f->ring_count, sizeof(*f->rings));
        if (NULL == f->rings) {
            f->buf = f->mapped ? NULL : f->buf; /* the caller unmaps */
            mca_common_evt_flight_free(f);
            errno = ENOMEM;
            return -1;
        }
        for (uint32_t i = 0; i < f->ring_count; ++i) {
            decode_ring(f, i, &cap);
            f->overwritten += f->rings[i].overwritten;
        }
        merge_rings(f);
    }
    *out = f;
    return 0;
}

int mca_common_evt_flight_decode(const void *buf, size_t len, mca_common_evt_flight_file_t **out)
{
    unsigned char *copy;

    if (NULL == out || (NULL == buf && 0 != len)) {
        errno = EINVAL;
        return -1;
    }
    copy = malloc(len ? len : 1);
    if (NULL == copy) {
        *out = NULL;
        errno = ENOMEM;
        return -1;
    }
    if (0 != len) {
        memcpy(copy, buf, len);
    }
    return fr_decode_take(copy, len, false, out);
}

/* Do the records of the image at @p offset fill three quarters of its @p
 * len bytes? A guess from its header and ring positions, unchecked (the
 * decoder checks them): it only chooses how the image is loaded. */
static bool mostly_records(int fd, uint64_t offset, uint64_t len)
{
    mca_common_evt_flight_header_t h;
    uint64_t live = 0;

    if ((ssize_t) sizeof(h) != pread(fd, &h, sizeof(h), (off_t) offset)
        || 0 != memcmp(h.magic, MCA_COMMON_EVT_FLIGHT_MAGIC, sizeof(h.magic))
        || MCA_COMMON_EVT_FLIGHT_ENDIAN != h.endian || FR_MAX_RINGS < h.ring_count) {
        return false;
    }
    for (uint32_t i = 0; i < h.ring_count; ++i) {
        uint32_t pos[2]; /* tail, oldest: adjacent at the ring's start */
        _Static_assert(0 == MCA_COMMON_EVT_FLIGHT_CTL_TAIL && 4 == MCA_COMMON_EVT_FLIGHT_CTL_OLDEST,
                       "ring positions");
        uint64_t at = h.rings_offset + (uint64_t) i * h.ring_stride;
        if (at > len
            || (ssize_t) sizeof(pos) != pread(fd, pos, sizeof(pos), (off_t) (offset + at))) {
            return false;
        }
        live += pos[0] - pos[1] < h.ring_capacity ? pos[0] - pos[1] : h.ring_capacity;
    }
    return live >= len / 4 * 3;
}

/* Unmap what decode_part() mapped: @p buf lies in the mapping's first
 * page (the image's offset in it), @p len bytes from there. */
static void unmap_part(unsigned char *buf, size_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t skew = page > 0 ? (uintptr_t) buf % (uintptr_t) page : 0;

    (void) munmap(buf - skew, len + skew);
}

/* Whether @p fd is on tmpfs, where a read fault on a hole allocates a page:
 * on a full one it fails, and a mapping's reader dies of SIGBUS (the
 * spool's images keep the unused part of each ring as a hole). */
static bool on_tmpfs(int fd)
{
    struct statfs sf;

    return 0 == fstatfs(fd, &sf) && TMPFS_MAGIC == (unsigned long) sf.f_type;
}

/* Anonymous memory of @p skew + @p len bytes (reads of what is not written
 * map the zero page: no allocation, no SIGBUS) holding, from @p skew, the
 * data of @p fd's [@p offset, @p offset + @p len); its holes stay zeros and
 * are not read. MAP_FAILED (errno) on failure. */
static unsigned char *read_extents(int fd, uint64_t offset, uint64_t len, uint64_t skew)
{
    unsigned char *map = mmap(NULL, (size_t) (len + skew), PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    uint64_t at = offset, end = offset + len;

    if (MAP_FAILED == (void *) map) {
        return map;
    }
    while (at < end) {
        off_t data = lseek(fd, (off_t) at, SEEK_DATA), hole;
        if (data < 0 || (uint64_t) data >= end) {
            break; /* ENXIO: no data after at */
        }
        hole = lseek(fd, data, SEEK_HOLE);
        if (hole < 0 || (uint64_t) hole > end) {
            hole = (off_t) end;
        }
        for (at = (uint64_t) data; at < (uint64_t) hole;) {
            ssize_t r = pread(fd, map + skew + (at - offset), (size_t) ((uint64_t) hole - at),
                              (off_t) at);
            if (r < 0 && EINTR == errno) {
                continue;
            }
            if (r <= 0) {
                at = end; /* the file ends here: the rest reads as zeros */
                break;
            }
            at += (uint64_t) r;
        }
    }
    (void) mprotect(map, (size_t) (len + skew), PROT_READ);
    return map;
}

/* Decode @p len bytes of the regular file @p fd at @p offset: read when
 * small and mostly records (FR_READ_MAX); on tmpfs its data read into
 * anonymous memory (read_extents()); mapped otherwise, from the page
 * boundary at or before @p offset (only the pages the decoder visits are
 * loaded, whatever the offset: the rest of a damaged chain may be a huge
 * hole; an image's offset is a multiple of 8, as every file_size the header
 * check accepts, so the decoded bytes keep their alignment; MAP_PRIVATE: what the writer changes
 * later may or may not show, which the decoder tolerates as it does a file still being written). */
static int decode_part(int fd, uint64_t offset, uint64_t len, mca_common_evt_flight_file_t **out)
{
    long page = sysconf(_SC_PAGESIZE);
    uint64_t skew;
    unsigned char *map;
    int rc;

    if (0 == len) {
        return mca_common_evt_flight_decode(NULL, 0, out);
    }
    if (page <= 0 || (len <= FR_READ_MAX && mostly_records(fd, offset, len))) {
        unsigned char *buf = malloc((size_t) len);
        uint64_t got = 0;
        if (NULL == buf) {
            errno = ENOMEM;
            return -1;
        }
        while (got < len) {
            ssize_t r = pread(fd, buf + got, (size_t) (len - got), (off_t) (offset + got));
            if (r < 0 && EINTR == errno) {
                continue;
            }
            if (r <= 0) {
                break;
            }
            got += (uint64_t) r;
        }
        return fr_decode_take(buf, (size_t) got, false, out);
    }
    skew = offset % (uint64_t) page;
    if (on_tmpfs(fd)) {
        map = read_extents(fd, offset, len, skew);
    } else {
        map = mmap(NULL, (size_t) (len + skew), PROT_READ, MAP_PRIVATE, fd,
                   (off_t) (offset - skew));
    }
    if (MAP_FAILED == (void *) map) {
        return -1;
    }
    rc = fr_decode_take(map + skew, (size_t) len, true, out);
    if (0 != rc) {
        int e = errno;
        unmap_part(map + skew, (size_t) len);
        errno = e;
    }
    return rc;
}

/* The regular file @p fd's size, or -1 (errno). */
static int regular_size(int fd, uint64_t *size)
{
    struct stat st;

    if (0 != fstat(fd, &st)) {
        return -1;
    }
    if (!S_ISREG(st.st_mode) || (uint64_t) st.st_size > FR_MAX_FILE) {
        errno = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
        return -1;
    }
    *size = (uint64_t) st.st_size;
    return 0;
}

int mca_common_evt_flight_open_fd(int fd, mca_common_evt_flight_file_t **out)
{
    uint64_t size;

    *out = NULL;
    if (0 != regular_size(fd, &size)) {
        return -1;
    }
    return decode_part(fd, 0, size, out);
}

int mca_common_evt_flight_open_image(int fd, uint64_t offset, mca_common_evt_flight_file_t **out,
                                     uint64_t *next)
{
    mca_common_evt_flight_header_t h;
    uint64_t size, len;

    *out = NULL;
    if (0 != regular_size(fd, &size)) {
        return -1;
    }
    len = offset < size ? size - offset : 0;
    /* The image's own size when its header says one that fits; otherwise
     * the rest of the file, which the decoder then finds damaged or cut. */
    if (0 < len && (ssize_t) sizeof(h) == pread(fd, &h, sizeof(h), (off_t) offset)
        && 0 == memcmp(h.magic, MCA_COMMON_EVT_FLIGHT_MAGIC, sizeof(h.magic))
        && MCA_COMMON_EVT_FLIGHT_ENDIAN == h.endian && sizeof(h) <= h.file_size
        && h.file_size < len) {
        len = h.file_size;
    }
    *next = offset + len;
    return decode_part(fd, offset, len, out);
}

int mca_common_evt_flight_open(const char *path, mca_common_evt_flight_file_t **out)
{
    char why[256];
    int fd, rc, e;

    *out = NULL;
    switch (mca_common_evt_input_open(AT_FDCWD, path, false, &fd, NULL, why, sizeof(why))) {
    case MCA_COMMON_EVT_INPUT_OK:
        break;
    case MCA_COMMON_EVT_INPUT_UNREADABLE:
        return -1; /* errno from open() or stat() */
    default:
        errno = EINVAL;
        return -1;
    }
    rc = mca_common_evt_flight_open_fd(fd, out);
    e = errno;
    (void) close(fd);
    errno = e;
    return rc;
}

void mca_common_evt_flight_free(mca_common_evt_flight_file_t *f)
{
    if (NULL == f) {
        return;
    }
    for (size_t i = 0; i < f->nsources; ++i) {
        free(f->sources[i].name);
    }
    for (size_t i = 0; i < f->nevents; ++i) {
        free_event(&f->events[i]);
    }
    for (size_t i = 0; i < f->nproblems; ++i) {
        free(f->problems[i]);
    }
    free(f->sources);
    free(f->events);
    free(f->records);
    free(f->rings);
    free(f->drops);
    free(f->problems);
    if (f->mapped && NULL != f->buf) {
        unmap_part(f->buf, f->len);
    } else if (!f->mapped) {
        free(f->buf);
    }
    free(f);
}

bool mca_common_evt_flight_element(const mca_common_evt_flight_record_t *r, uint32_t i,
                                   mca_common_evt_flight_value_t *value)
{
    const mca_common_evt_flight_element_t *el;
    const unsigned char *p;

    if (NULL == r || NULL == r->event || i >= r->event->num_elements || NULL == value) {
        return false;
    }
    el = &r->event->elements[i];
    /* checked at decode: offset + size <= extent == payload_len */
    p = r->payload + el->offset;
    value->type = el->type;
    switch (el->type) {
    case MCA_COMMON_EVT_FLIGHT_TYPE_INT32: {
        int32_t v;
        memcpy(&v, p, 4);
        value->v.i = v;
        break;
    }
    case MCA_COMMON_EVT_FLIGHT_TYPE_UINT32:
        value->v.u = rd32(p);
        break;
    case MCA_COMMON_EVT_FLIGHT_TYPE_INT64:
        value->v.i = (int64_t) rd64(p);
        break;
    case MCA_COMMON_EVT_FLIGHT_TYPE_UINT64:
        value->v.u = rd64(p);
        break;
    case MCA_COMMON_EVT_FLIGHT_TYPE_DOUBLE:
        memcpy(&value->v.d, p, 8);
        break;
    case MCA_COMMON_EVT_FLIGHT_TYPE_BOOL:
        value->v.b = 0 != p[0];
        break;
    default:
        return false;
    }
    return true;
}
