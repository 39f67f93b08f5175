/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/file recordings (flight-recorder files, *.oevt) as listener input.
 * The file is decoded whole with tools/evt_file_read (bounded: the file
 * has the fixed size evt_file_size), and its records, already in time
 * order, are re-expressed as wire batches of the process (sender = the
 * file's job, rank, host and pid; clocks = the file's clock pairs; types =
 * the file's dictionary) in the byte layout of common_evt_wire.h, then
 * decoded by the wire decoder like any received batch. So the rest of the
 * listener (time mapping, merge, outputs, summary) treats a crashed rank's
 * flight recording and an exported job alike, and nothing in this file
 * trusts the recording beyond what evt_file_read validated.
 *
 * What has no place in a batch is counted on the input file: records
 * overwritten by the circular file (its capacity), records whose event
 * type or source the dictionary lacks, depths above 255. The last batch is
 * FINAL when the writer closed the file cleanly (MPI_Finalize); a rank
 * that crashed shows as "ended early".
 */

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evt_listen.h"
#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_read.h"
#include "ompi/mca/common/evt/common_evt_input_open.h"

/* Records per batch: keeps a batch near 0.5 MiB for the largest payloads. */
#define FLIGHT_BATCH_RECORDS 2048

/* A growing little-endian byte buffer. */
typedef struct {
    uint8_t *p;
    size_t len, cap;
    bool failed;
} wbuf_t;

static void put(wbuf_t *w, const void *src, size_t n)
{
    if (w->failed) {
        return;
    }
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        uint8_t *p;
        while (cap < w->len + n) {
            cap *= 2;
        }
        p = realloc(w->p, cap);
        if (NULL == p) {
            w->failed = true;
            return;
        }
        w->p = p;
        w->cap = cap;
    }
    memcpy(w->p + w->len, src, n);
    w->len += n;
}

static void put_le(wbuf_t *w, uint64_t v, size_t n)
{
    uint8_t b[8];
    for (size_t i = 0; i < n; ++i) {
        b[i] = (uint8_t) (v >> (8 * i));
    }
    put(w, b, n);
}

/* Overwrite n little-endian bytes at @p at (a length known only later). */
static void patch_le(wbuf_t *w, size_t at, uint64_t v, size_t n)
{
    for (size_t i = 0; !w->failed && i < n; ++i) {
        w->p[at + i] = (uint8_t) (v >> (8 * i));
    }
}

/* A wire "str"; names longer than the wire allows are cut (the decoder
 * then judges the characters). */
static void put_str(wbuf_t *w, const char *s)
{
    size_t n = NULL == s ? 0 : strlen(s);
    n = n > MCA_COMMON_EVT_WIRE_NAME_MAX ? MCA_COMMON_EVT_WIRE_NAME_MAX : n;
    put_le(w, n, 2);
    put(w, s, n);
}

/* Start a section; returns where its body length goes. */
static size_t section_begin(wbuf_t *w, uint16_t kind)
{
    size_t at;
    put_le(w, kind, 2);
    put_le(w, MCA_COMMON_EVT_WIRE_SECTION_SENDER == kind ? MCA_COMMON_EVT_WIRE_SECTION_REQUIRED : 0,
           2);
    at = w->len;
    put_le(w, 0, 4);
    return at;
}

static void section_end(wbuf_t *w, size_t at)
{
    patch_le(w, at, w->len - at - 4, 4);
}

/* The file's element type codes are the wire's: a value's type passes as
 * it is. */
_Static_assert(
    (int) MCA_COMMON_EVT_FLIGHT_TYPE_INT32 == (int) MCA_COMMON_EVT_WIRE_ELEM_INT32
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_UINT32 == (int) MCA_COMMON_EVT_WIRE_ELEM_UINT32
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_INT64 == (int) MCA_COMMON_EVT_WIRE_ELEM_INT64
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_UINT64 == (int) MCA_COMMON_EVT_WIRE_ELEM_UINT64
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_DOUBLE == (int) MCA_COMMON_EVT_WIRE_ELEM_DOUBLE
        && (int) MCA_COMMON_EVT_FLIGHT_TYPE_BOOL == (int) MCA_COMMON_EVT_WIRE_ELEM_BOOL,
    "evt/file and wire element type codes");

struct listen_flight {
    mca_common_evt_flight_file_t *file;
    size_t next;  /* next record */
    uint64_t seq; /* next batch number */
    bool done;
    int32_t *type_of; /* per dictionary event: batch-local type id, or -1 */
    int32_t *src_of;  /* per dictionary source: batch-local source id, or -1 */
    const mca_common_evt_flight_event_t **types;
    size_t ntypes;
    const mca_common_evt_flight_source_t **srcs;
    size_t nsrcs;
    bool *type_ok; /* per dictionary event: the wire can carry its type */
};

bool listen_flight_is_recording(const char *path)
{
    char magic[sizeof(MCA_COMMON_EVT_FLIGHT_MAGIC) - 1], why[256];
    bool yes;
    int fd;

    /* never blocks on a FIFO, never follows a link */
    if (MCA_COMMON_EVT_INPUT_OK
        != mca_common_evt_input_open(AT_FDCWD, path, false, &fd, NULL, why, sizeof(why))) {
        return false;
    }
    yes = (ssize_t) sizeof(magic) == pread(fd, magic, sizeof(magic), 0)
          && 0 == memcmp(magic, MCA_COMMON_EVT_FLIGHT_MAGIC, sizeof(magic));
    (void) close(fd);
    return yes;
}

static size_t event_slot(const listen_flight_t *fl, const mca_common_evt_flight_event_t *ev)
{
    return (size_t) (ev - fl->file->events);
}

static size_t source_slot(const listen_flight_t *fl, const mca_common_evt_flight_source_t *s)
{
    return (size_t) (s - fl->file->sources);
}

/* Can the record go into a batch at all? (Its type passed the probe at
 * open: listen_flight_open.) */
static bool carried(const listen_flight_t *fl, const mca_common_evt_flight_record_t *r)
{
    return NULL != r->event && fl->type_ok[event_slot(fl, r->event)] && r->depth <= UINT8_MAX;
}

/* Enter an event type (and its source) into the batch's dictionary. */
static void use_type(listen_flight_t *fl, const mca_common_evt_flight_event_t *ev)
{
    size_t e = event_slot(fl, ev), s = source_slot(fl, ev->source);

    if (0 > fl->src_of[s]) {
        fl->src_of[s] = (int32_t) fl->nsrcs;
        fl->srcs[fl->nsrcs++] = ev->source;
    }
    if (0 > fl->type_of[e]) {
        fl->type_of[e] = (int32_t) fl->ntypes;
        fl->types[fl->ntypes++] = ev;
    }
}

static void put_types(wbuf_t *w, const listen_flight_t *fl)
{
    size_t at = section_begin(w, MCA_COMMON_EVT_WIRE_SECTION_TYPES);

    put_le(w, fl->ntypes, 2);
    for (size_t t = 0; t < fl->ntypes; ++t) {
        const mca_common_evt_flight_event_t *ev = fl->types[t];
        put_le(w, (uint64_t) fl->src_of[source_slot(fl, ev->source)], 2);
        put_str(w, ev->name);
        put_le(w, ev->num_elements, 2);
        for (uint32_t i = 0; i < ev->num_elements; ++i) {
            put_le(w, ev->elements[i].type, 1);
            put_str(w, ev->elements[i].name);
        }
    }
    section_end(w, at);
}

static void put_record(wbuf_t *w, const listen_flight_t *fl,
                       const mca_common_evt_flight_record_t *r)
{
    put_le(w, (uint64_t) fl->type_of[event_slot(fl, r->event)], 2);
    put_le(w, r->depth, 1);
    put_le(w, 0, 1);
    put_le(w, (uint64_t) r->timestamp, 8);
    for (uint32_t i = 0; i < r->event->num_elements; ++i) {
        mca_common_evt_flight_value_t v;
        size_t n = mca_common_evt_wire_elem_size((uint8_t) r->event->elements[i].type);
        uint64_t bits = 0;

        if (mca_common_evt_flight_element(r, i, &v)) {
            if (MCA_COMMON_EVT_WIRE_ELEM_DOUBLE == v.type) {
                memcpy(&bits, &v.v.d, sizeof(bits));
            } else if (MCA_COMMON_EVT_WIRE_ELEM_BOOL == v.type) {
                bits = v.v.b;
            } else {
                bits = v.v.u;
            }
        }
        put_le(w, bits, n);
    }
}

/* A drop count the last batch can carry. */
static const mca_common_evt_flight_event_t *drop_event(const listen_flight_t *fl, size_t d)
{
    const mca_common_evt_flight_event_t *ev = mca_common_evt_flight_event(fl->file,
                                                                          fl->file->drops[d]
                                                                              .event_index);
    return NULL != ev && fl->type_ok[event_slot(fl, ev)] && 0 < fl->file->drops[d].count ? ev
                                                                                         : NULL;
}

static void dict_reset(listen_flight_t *fl)
{
    memset(fl->type_of, 0xff, fl->file->nevents * sizeof(*fl->type_of));
    memset(fl->src_of, 0xff, fl->file->nsources * sizeof(*fl->src_of));
    fl->ntypes = fl->nsrcs = 0;
}

/* A sender string as the wire wants it: printable ASCII, 1..255 bytes. */
static void put_printable(wbuf_t *w, const char *s)
{
    char tmp[MCA_COMMON_EVT_WIRE_NAME_MAX + 1];
    size_t n = 0;

    for (; '\0' != s[n] && n < MCA_COMMON_EVT_WIRE_NAME_MAX; ++n) {
        tmp[n] = ' ' < s[n] && '~' >= s[n] ? s[n] : '?';
    }
    tmp[n] = '\0';
    put_str(w, 0 < n ? tmp : "unknown");
}

/* Write a batch of the dictionary chosen (fl->types, fl->srcs) and the
 * carried records of [from, to); the last one carries the drops. */
static void write_batch(listen_flight_t *fl, wbuf_t *w, size_t from, size_t to, size_t taken,
                        bool last)
{
    const mca_common_evt_flight_file_t *file = fl->file;
    size_t at;

    /* header: magic, version, header length, flags, sections, seq, length, reserved */
    put(w, MCA_COMMON_EVT_WIRE_MAGIC, 4);
    put_le(w, MCA_COMMON_EVT_WIRE_VERSION, 2);
    put_le(w, MCA_COMMON_EVT_WIRE_HEADER_BYTES, 2);
    put_le(w, last && file->closed ? MCA_COMMON_EVT_WIRE_FLAG_FINAL : 0, 4);
    put_le(w, last ? 5 : 4, 4);
    put_le(w, fl->seq, 8);
    put_le(w, 0, 4); /* total length, patched below */
    put_le(w, 0, 4);

    at = section_begin(w, MCA_COMMON_EVT_WIRE_SECTION_SENDER);
    put_printable(w, file->job);
    put_le(w, (uint64_t) (uint32_t) (0 > file->rank ? 0 : file->rank), 4);
    put_printable(w, file->host);
    put_le(w, file->pid, 4);
    section_end(w, at);

    at = section_begin(w, MCA_COMMON_EVT_WIRE_SECTION_CLOCKS);
    put_le(w, fl->nsrcs, 2);
    for (size_t s = 0; s < fl->nsrcs; ++s) {
        put_str(w, fl->srcs[s]->name);
        put_le(w,
               (fl->srcs[s]->ordering ? MCA_COMMON_EVT_WIRE_CLOCK_UNORDERED : 0)
                   | (fl->srcs[s]->host_clock ? MCA_COMMON_EVT_WIRE_CLOCK_HOST : 0),
               1);
        put_le(w, (uint64_t) fl->srcs[s]->ticks_per_second, 8);
        put_le(w, (uint64_t) fl->srcs[s]->sample_ticks, 8);
        put_le(w, (uint64_t) fl->srcs[s]->sample_realtime_ns, 8);
    }
    section_end(w, at);

    put_types(w, fl);

    if (last) {
        size_t n = 0, count_at;
        at = section_begin(w, MCA_COMMON_EVT_WIRE_SECTION_DROPS);
        count_at = w->len;
        put_le(w, 0, 2);
        for (size_t d = 0; d < file->ndrops; ++d) {
            const mca_common_evt_flight_event_t *ev = drop_event(fl, d);
            if (NULL != ev) {
                put_le(w, (uint64_t) fl->type_of[event_slot(fl, ev)], 2);
                put_le(w, file->drops[d].count, 8);
                ++n;
            }
        }
        patch_le(w, count_at, n, 2);
        section_end(w, at);
    }

    at = section_begin(w, MCA_COMMON_EVT_WIRE_SECTION_RECORDS);
    put_le(w, taken, 4);
    for (size_t i = from; i < to; ++i) {
        if (carried(fl, &file->records[i])) {
            put_record(w, fl, &file->records[i]);
        }
    }
    section_end(w, at);
    patch_le(w, 24, w->len, 4);
}

/* Build the next batch: up to FLIGHT_BATCH_RECORDS carried records; the
 * last one also carries the file's export drops and is FINAL when the
 * writer closed the file. */
static int build_batch(listen_flight_t *fl, listen_file_t *f, wbuf_t *w)
{
    const mca_common_evt_flight_file_t *file = fl->file;
    size_t end = fl->next, taken = 0;
    bool last;

    dict_reset(fl);
    for (; end < file->nrecords && taken < FLIGHT_BATCH_RECORDS; ++end) {
        const mca_common_evt_flight_record_t *r = &file->records[end];
        if (!carried(fl, r)) {
            f->flight_uncarried++;
            continue;
        }
        use_type(fl, r->event);
        ++taken;
    }
    last = end >= file->nrecords;
    for (size_t d = 0; last && d < file->ndrops; ++d) {
        if (NULL != drop_event(fl, d)) {
            use_type(fl, drop_event(fl, d));
        }
    }
    write_batch(fl, w, fl->next, end, taken, last);
    fl->next = end;
    fl->seq++;
    fl->done = last;
    return w->failed ? -1 : 0;
}

/* Can the wire carry this event type (names, element count, payload
 * size)? Asked of the wire decoder itself, with a batch holding only the
 * type: the rule stays in one place. */
static bool probe_type(listen_flight_t *fl, const mca_common_evt_flight_event_t *ev)
{
    wbuf_t w = {NULL, 0, 0, false};
    mca_common_evt_wire_batch_t b;
    bool ok;

    if (NULL == ev->source || MCA_COMMON_EVT_WIRE_MAX_ELEMENTS < ev->num_elements) {
        return false;
    }
    for (uint32_t i = 0; i < ev->num_elements; ++i) {
        if (0 == mca_common_evt_wire_elem_size((uint8_t) ev->elements[i].type)) {
            return false;
        }
    }
    dict_reset(fl);
    use_type(fl, ev);
    write_batch(fl, &w, 0, 0, 0, false);
    memset(&b, 0, sizeof(b));
    ok = !w.failed && OPAL_SUCCESS == mca_common_evt_wire_decode(w.p, w.len, &b);
    mca_common_evt_wire_batch_destruct(&b);
    free(w.p);
    return ok;
}

listen_flight_t *listen_flight_open(listen_file_t *f, char *err, size_t errlen)
{
    listen_flight_t *fl = calloc(1, sizeof(*fl));

    if (NULL == fl) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (0 != mca_common_evt_flight_open(f->path, &fl->file)) {
        snprintf(err, errlen, "%s: cannot read the flight recording", f->path);
        free(fl);
        return NULL;
    }
    fl->type_of = calloc(fl->file->nevents + 1, sizeof(*fl->type_of));
    fl->src_of = calloc(fl->file->nsources + 1, sizeof(*fl->src_of));
    fl->types = calloc(fl->file->nevents + 1, sizeof(*fl->types));
    fl->srcs = calloc(fl->file->nsources + 1, sizeof(*fl->srcs));
    fl->type_ok = calloc(fl->file->nevents + 1, sizeof(*fl->type_ok));
    if (NULL == fl->type_of || NULL == fl->src_of || NULL == fl->types || NULL == fl->srcs
        || NULL == fl->type_ok) {
        snprintf(err, errlen, "out of memory");
        listen_flight_close(fl);
        return NULL;
    }
    for (size_t e = 0; e < fl->file->nevents; ++e) {
        fl->type_ok[e] = probe_type(fl, &fl->file->events[e]);
    }
    snprintf(f->host, sizeof(f->host), "%s", fl->file->host);
    /* per pass, as for node files */
    f->frames = f->invalid_batches = f->damaged = f->skipped_bytes = 0;
    f->truncated = f->read_error = false;
    f->flight_uncarried = 0;
    f->flight_overwritten = fl->file->overwritten;
    f->flight_world_size = fl->file->header_valid ? fl->file->world_size : -1;
    f->damaged = fl->file->nproblems;
    if (0 < fl->file->nproblems && NULL == f->first_error) {
        f->first_error = strdup(fl->file->problems[0]);
    }
    /* without a valid header nothing in the file can be located */
    fl->done = !fl->file->header_valid;
    return fl;
}

int listen_flight_next(listen_flight_t *fl, listen_file_t *f, listen_batch_t **out)
{
    wbuf_t w = {NULL, 0, 0, false};
    listen_batch_t *b;
    int rc;

    if (fl->done) {
        return 0;
    }
    if (0 != build_batch(fl, f, &w)) {
        free(w.p);
        return -1;
    }
    b = calloc(1, sizeof(*b));
    if (NULL == b) {
        free(w.p);
        return -1;
    }
    b->bytes = w.p;
    b->len = w.len;
    rc = mca_common_evt_wire_decode(b->bytes, b->len, &b->wire);
    if (OPAL_SUCCESS != rc) {
        /* a name the wire cannot carry: the batch is lost, said once */
        char msg[300];
        f->invalid_batches++;
        snprintf(msg, sizeof(msg), "the records of batch %llu cannot be expressed as a batch (%s)",
                 (unsigned long long) fl->seq - 1, NULL == b->wire.error ? "?" : b->wire.error);
        if (NULL == f->first_error) {
            f->first_error = strdup(msg);
        }
        listen_batch_free(b);
        return OPAL_ERR_OUT_OF_RESOURCE == rc ? -1 : listen_flight_next(fl, f, out);
    }
    f->frames++;
    *out = b;
    return 1;
}

void listen_flight_close(listen_flight_t *fl)
{
    if (NULL == fl) {
        return;
    }
    mca_common_evt_flight_free(fl->file);
    free(fl->type_of);
    free(fl->src_of);
    free(fl->types);
    free(fl->srcs);
    free(fl->type_ok);
    free(fl);
}
