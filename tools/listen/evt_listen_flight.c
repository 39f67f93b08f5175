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
 * The file is decoded whole by common/evt's flight reader (bounded: the
 * file has the fixed size evt_file_size), and its records, already in time
 * order, are re-expressed as wire batches of the process (sender = the
 * file's job, rank, host and pid; clocks = the file's clock pairs; types =
 * the file's dictionary) by the wire encoder, from descriptors of the
 * file's dictionary, then decoded by the wire decoder like any received
 * batch. So the rest of the listener (time mapping, merge, outputs,
 * summary) treats a crashed rank's flight recording and an exported job
 * alike, and nothing in this file trusts the recording beyond what the
 * flight reader validated.
 *
 * What has no place in a batch is counted on the input file: records
 * overwritten by the circular file (its capacity), records whose event
 * type or source the dictionary lacks or the wire cannot carry, depths
 * above 255. The last batch is FINAL when the writer closed the file
 * cleanly (MPI_Finalize); a rank that crashed shows as "ended early".
 */

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evt_listen.h"
#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_read.h"
#include "ompi/mca/common/evt/common_evt_input_open.h"

/* Records per batch, and the batch's byte bound: near 0.5 MiB for the
 * largest payloads. */
#define FLIGHT_BATCH_RECORDS 2048
#define FLIGHT_BATCH_BYTES   (1024u * 1024u)

struct listen_flight {
    mca_common_evt_flight_file_t *file; /* the image being read */
    int fd;
    uint64_t next_image; /* where the image after this one starts */
    bool last_image;     /* no image follows this one */
    size_t next;         /* next record */
    size_t next_drop;    /* next export drop counter, once the records are out */
    uint64_t seq;        /* next batch number */
    bool done;
    mca_common_evt_wire_sender_t sender;
    mca_common_evt_wire_source_desc_t *srcs; /* per dictionary source */
    mca_common_evt_wire_type_desc_t *types;  /* per dictionary event */
    uint8_t *elem_types;                     /* all events' elements, in a row */
    uint32_t *elem_offsets;
    const char **elem_names;
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

/* Can the record go into a batch at all? (Its type passed the probe at
 * open: listen_flight_open.) */
static bool carried(const listen_flight_t *fl, const mca_common_evt_flight_record_t *r)
{
    return NULL != r->event && fl->type_ok[event_slot(fl, r->event)] && r->depth <= UINT8_MAX
           && (NULL != r->payload || 0 == r->event->num_elements)
           && r->payload_len >= r->event->extent;
}

/* A sender string as the wire wants it: printable ASCII, 1..255 bytes. */
static void printable_into(char *dst, size_t size, const char *s)
{
    size_t n = 0;

    for (; '\0' != s[n] && n < MCA_COMMON_EVT_WIRE_NAME_MAX && n + 1 < size; ++n) {
        dst[n] = ' ' < s[n] && '~' >= s[n] ? s[n] : '?';
    }
    dst[n] = '\0';
    if (0 == n) {
        (void) snprintf(dst, size, "unknown");
    }
}

/* Describe the file's dictionary to the encoder. */
static int describe(listen_flight_t *fl)
{
    const mca_common_evt_flight_file_t *file = fl->file;
    size_t nelem = 0, at = 0;

    for (size_t e = 0; e < file->nevents; ++e) {
        nelem += file->events[e].num_elements;
    }
    fl->srcs = calloc(file->nsources + 1, sizeof(*fl->srcs));
    fl->types = calloc(file->nevents + 1, sizeof(*fl->types));
    fl->type_ok = calloc(file->nevents + 1, sizeof(*fl->type_ok));
    fl->elem_types = calloc(nelem + 1, sizeof(*fl->elem_types));
    fl->elem_offsets = calloc(nelem + 1, sizeof(*fl->elem_offsets));
    fl->elem_names = calloc(nelem + 1, sizeof(*fl->elem_names));
    if (NULL == fl->srcs || NULL == fl->types || NULL == fl->type_ok || NULL == fl->elem_types
        || NULL == fl->elem_offsets || NULL == fl->elem_names) {
        return -1;
    }
    for (size_t i = 0; i < file->nsources; ++i) {
        const mca_common_evt_flight_source_t *src = &file->sources[i];
        fl->srcs[i] = (mca_common_evt_wire_source_desc_t){
            .name = src->name,
            .unordered = 0 != src->ordering,
            .host_clock = src->host_clock,
            .ticks_per_second = 0 < src->ticks_per_second ? (uint64_t) src->ticks_per_second : 0,
            .pair_ticks = src->sample_ticks,
            .pair_realtime_ns = src->sample_realtime_ns,
        };
    }
    for (size_t e = 0; e < file->nevents; ++e) {
        const mca_common_evt_flight_event_t *ev = &file->events[e];
        for (uint32_t i = 0; i < ev->num_elements; ++i) {
            fl->elem_types[at + i] = ev->elements[i].type <= UINT8_MAX
                                         ? (uint8_t) ev->elements[i].type
                                         : 0;
            fl->elem_offsets[at + i] = ev->elements[i].offset;
            fl->elem_names[at + i] = ev->elements[i].name;
        }
        fl->types[e] = (mca_common_evt_wire_type_desc_t){
            .name = ev->name,
            .source = NULL == ev->source ? NULL : &fl->srcs[ev->source - file->sources],
            .num_elements = ev->num_elements,
            .elem_types = &fl->elem_types[at],
            .elem_offsets = &fl->elem_offsets[at],
            .elem_names = &fl->elem_names[at],
        };
        at += ev->num_elements;
    }
    return 0;
}

/* Can the wire carry this event type (names, element count and types,
 * payload size)? Asked of the encoder itself: the rule stays in one
 * place. A record's payload must also hold every element where its type
 * says. */
static bool probe_type(listen_flight_t *fl, mca_common_evt_wire_encoder_t *enc, size_t e)
{
    const mca_common_evt_flight_event_t *ev = &fl->file->events[e];

    if (NULL == ev->source) {
        return false;
    }
    for (uint32_t i = 0; i < ev->num_elements; ++i) {
        size_t n = mca_common_evt_wire_elem_size(fl->types[e].elem_types[i]);
        if (0 == n || (uint64_t) ev->elements[i].offset + n > ev->extent) {
            return false;
        }
    }
    return OPAL_SUCCESS == mca_common_evt_wire_encoder_begin(enc, 0, 0)
           && OPAL_SUCCESS == mca_common_evt_wire_encoder_add_type_drops(enc, &fl->types[e], 1);
}

/* Build the next batch into @p enc: up to FLIGHT_BATCH_RECORDS carried
 * records that fit; once the records are out, the file's export drops;
 * FINAL when all is out and the writer closed the file. */
static int build_batch(listen_flight_t *fl, listen_file_t *f, mca_common_evt_wire_encoder_t *enc)
{
    const mca_common_evt_flight_file_t *file = fl->file;
    size_t taken = 0;
    int rc = OPAL_SUCCESS;

    if (OPAL_SUCCESS != mca_common_evt_wire_encoder_begin(enc, fl->seq, 0)) {
        return -1;
    }
    for (; fl->next < file->nrecords && taken < FLIGHT_BATCH_RECORDS; ++fl->next) {
        const mca_common_evt_flight_record_t *r = &file->records[fl->next];
        if (!carried(fl, r)) {
            f->flight_uncarried++;
            continue;
        }
        rc = mca_common_evt_wire_encoder_add(enc, &fl->types[event_slot(fl, r->event)], r->depth,
                                             r->timestamp, r->payload);
        if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
            break; /* the next batch takes it */
        }
        if (OPAL_SUCCESS != rc) {
            f->flight_uncarried++;
            continue;
        }
        ++taken;
    }
    for (; fl->next >= file->nrecords && fl->next_drop < file->ndrops; ++fl->next_drop) {
        const mca_common_evt_flight_event_t *ev
            = mca_common_evt_flight_event(file, file->drops[fl->next_drop].event_index);
        if (NULL == ev || !fl->type_ok[event_slot(fl, ev)]) {
            continue;
        }
        rc = mca_common_evt_wire_encoder_add_type_drops(enc, &fl->types[event_slot(fl, ev)],
                                                        file->drops[fl->next_drop].count);
        if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
            break;
        }
    }
    fl->done = fl->next >= file->nrecords && fl->next_drop >= file->ndrops;
    if (fl->done && fl->last_image && file->closed) {
        (void) mca_common_evt_wire_encoder_set_flags(enc, MCA_COMMON_EVT_WIRE_FLAG_FINAL);
    }
    fl->seq++;
    return 0;
}

/* An encoder for this file's batches. One is made per batch, not per
 * file: a merge holds every input open at once. */
static int encoder_open(listen_flight_t *fl, mca_common_evt_wire_encoder_t *enc)
{
    return mca_common_evt_wire_encoder_construct(enc, &fl->sender, FLIGHT_BATCH_BYTES);
}

/* The dictionary-derived descriptors of the current image, freed. */
static void forget_image(listen_flight_t *fl)
{
    mca_common_evt_flight_free(fl->file);
    fl->file = NULL;
    free(fl->srcs);
    free(fl->types);
    free(fl->type_ok);
    free(fl->elem_types);
    free(fl->elem_offsets);
    free(fl->elem_names);
    fl->srcs = NULL;
    fl->types = NULL;
    fl->type_ok = NULL;
    fl->elem_types = NULL;
    fl->elem_offsets = NULL;
    fl->elem_names = NULL;
}

/* Decode the image at @p offset and describe its dictionary. The batch
 * numbers go on from the image before: the images are one recording.
 * @return 0, or -1 (err set). */
static int load_image(listen_flight_t *fl, listen_file_t *f, uint64_t offset, char *err,
                      size_t errlen)
{
    mca_common_evt_wire_encoder_t enc;
    struct stat st;

    forget_image(fl);
    if (0 != mca_common_evt_flight_open_image(fl->fd, offset, &fl->file, &fl->next_image)) {
        snprintf(err, errlen, "%s: cannot read the flight recording", f->path);
        return -1;
    }
    fl->last_image = 0 != fstat(fl->fd, &st) || fl->next_image >= (uint64_t) st.st_size
                     || !fl->file->header_valid;
    if (0 == offset) {
        printable_into(fl->sender.nspace, sizeof(fl->sender.nspace), fl->file->job);
        fl->sender.rank = (uint32_t) (0 > fl->file->rank ? 0 : fl->file->rank);
        printable_into(fl->sender.host, sizeof(fl->sender.host), fl->file->host);
        fl->sender.pid = fl->file->pid;
    }
    if (0 != describe(fl) || OPAL_SUCCESS != encoder_open(fl, &enc)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t e = 0; e < fl->file->nevents; ++e) {
        fl->type_ok[e] = probe_type(fl, &enc, e);
    }
    mca_common_evt_wire_encoder_destruct(&enc);
    fl->next = fl->next_drop = 0;
    f->flight_overwritten += fl->file->overwritten;
    f->damaged += fl->file->nproblems;
    if (0 < fl->file->nproblems && NULL == f->first_error) {
        f->first_error = strdup(fl->file->problems[0]);
    }
    /* without a valid header nothing in the image can be located */
    fl->done = !fl->file->header_valid;
    return 0;
}

listen_flight_t *listen_flight_open(listen_file_t *f, char *err, size_t errlen)
{
    listen_flight_t *fl = calloc(1, sizeof(*fl));
    char why[256];

    if (NULL == fl) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    fl->fd = -1;
    if (MCA_COMMON_EVT_INPUT_OK
        != mca_common_evt_input_open(AT_FDCWD, f->path, false, &fl->fd, NULL, why, sizeof(why))) {
        snprintf(err, errlen, "%s: cannot read the flight recording: %s", f->path, why);
        free(fl);
        return NULL;
    }
    /* per pass, as for node files */
    f->frames = f->invalid_batches = f->damaged = f->skipped_bytes = 0;
    f->truncated = f->read_error = false;
    f->flight_uncarried = 0;
    f->flight_overwritten = 0;
    if (0 != load_image(fl, f, 0, err, errlen)) {
        listen_flight_close(fl);
        return NULL;
    }
    snprintf(f->host, sizeof(f->host), "%s", fl->file->host);
    f->flight_world_size = fl->file->header_valid ? fl->file->world_size : -1;
    return fl;
}

int listen_flight_next(listen_flight_t *fl, listen_file_t *f, listen_batch_t **out)
{
    mca_common_evt_wire_encoder_t enc;
    const void *bytes;
    size_t len;
    listen_batch_t *b;
    int rc;

    while (fl->done) {
        char err[300];
        if (fl->last_image) {
            return 0;
        }
        if (0 != load_image(fl, f, fl->next_image, err, sizeof(err))) {
            if (NULL == f->first_error) {
                f->first_error = strdup(err);
            }
            f->damaged++;
            fl->last_image = true;
            fl->done = true;
            return 0;
        }
    }
    if (OPAL_SUCCESS != encoder_open(fl, &enc)) {
        return -1;
    }
    if (0 != build_batch(fl, f, &enc)
        || OPAL_SUCCESS != mca_common_evt_wire_encoder_finish(&enc, &bytes, &len)
        || NULL == (b = calloc(1, sizeof(*b)))) {
        mca_common_evt_wire_encoder_destruct(&enc);
        return -1;
    }
    b->bytes = malloc(len);
    if (NULL == b->bytes) {
        free(b);
        mca_common_evt_wire_encoder_destruct(&enc);
        return -1;
    }
    memcpy(b->bytes, bytes, len);
    b->len = len;
    mca_common_evt_wire_encoder_destruct(&enc);
    rc = mca_common_evt_wire_decode(b->bytes, b->len, &b->wire);
    if (OPAL_SUCCESS != rc) {
        /* what the encoder wrote, the decoder refused: the batch is lost,
         * said once */
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
    forget_image(fl);
    if (fl->fd >= 0) {
        (void) close(fl->fd);
    }
    free(fl);
}
