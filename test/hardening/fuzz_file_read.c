/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* libFuzzer target for the flight-recorder decoder (ompi/mca/common/evt/common_evt_flight_read.c):
 * any bytes in, never a crash, a leak or undefined behaviour, and every
 * record returned lies inside the input. Built with -DEVT_FUZZING, which
 * makes the decoder accept wrong checksums (else nearly every mutation
 * stops at the header sum and the fuzzer never reaches the dictionary and
 * the rings; the sums are tested in test/unit/test_file_recorder.c).
 *
 *   make fuzz-file-read [FUZZ_FILE_SECONDS=60]      (clang; not in make check)
 *
 * The seed corpus is one valid file made here (FUZZ_FILE_WRITE_SEED=path):
 * a header, two sources, two event types, two rings of which one wrapped
 * (a skip record, evictions), written as evt/file would (the dictionary by
 * the same encoder and flight writer). The decoder's checks of the
 * dictionary's batches are the wire decoder's, fuzzed on their own too
 * (test/fuzz). */
#include "ompi_config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_read.h"
#include "ompi/mca/common/evt/common_evt_flight_write.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

#define SEED_CAP 4096u

/* The dictionary: two sources, two event types, one entry each, written
 * by the wire encoder and the flight writer as evt/file writes them.
 * @return its used size, 0 on error. */
static size_t put_dict(unsigned char *dict, size_t size)
{
    static const uint8_t t0[2] = {MCA_COMMON_EVT_WIRE_ELEM_UINT64, MCA_COMMON_EVT_WIRE_ELEM_INT32};
    static const uint32_t o0[2] = {0, 8};
    static const char *const n0[2] = {"", "rank"};
    static const uint8_t t1[1] = {MCA_COMMON_EVT_WIRE_ELEM_DOUBLE};
    static const uint32_t o1[1] = {0};
    mca_common_evt_wire_source_desc_t src[2] = {{.name = "srcA",
                                                 .ticks_per_second = 1000000000,
                                                 .pair_ticks = 1000,
                                                 .pair_realtime_ns = 1700000000000000000},
                                                {.name = "srcB",
                                                 .unordered = true,
                                                 .ticks_per_second = 1000000000,
                                                 .pair_ticks = 1000,
                                                 .pair_realtime_ns = 1700000000000000000}};
    mca_common_evt_wire_type_desc_t type[2] = {{.name = "ompi.fuzzrank",
                                                .source = &src[0],
                                                .num_elements = 2,
                                                .elem_types = t0,
                                                .elem_offsets = o0,
                                                .elem_names = n0},
                                               {.name = "ompi.fuzz2",
                                                .source = &src[1],
                                                .num_elements = 1,
                                                .elem_types = t1,
                                                .elem_offsets = o1}};
    mca_common_evt_wire_layout_t layout[2]
        = {{.event_index = 0, .source_index = 0, .max_ticks = INT64_MAX, .extent = 16},
           {.event_index = 1, .source_index = 1, .max_ticks = INT64_MAX, .extent = 8}};
    mca_common_evt_wire_sender_t who = {.rank = 3, .pid = 42};
    mca_common_evt_wire_encoder_t enc;
    size_t used = 0;

    strcpy(who.nspace, "fuzzjob");
    strcpy(who.host, "fuzzhost");
    if (OPAL_SUCCESS != mca_common_evt_wire_encoder_construct(&enc, &who, 16384)) {
        return 0;
    }
    for (int i = 0; i < 2 && (0 == i || 0 < used); ++i) {
        const void *batch;
        size_t len;
        if (OPAL_SUCCESS != mca_common_evt_wire_encoder_begin(&enc, (uint64_t) i, 0)
            || OPAL_SUCCESS != mca_common_evt_wire_encoder_add_type_desc(&enc, &type[i], &layout[i])
            || OPAL_SUCCESS != mca_common_evt_wire_encoder_finish(&enc, &batch, &len)) {
            used = 0;
            break;
        }
        used = mca_common_evt_flight_dict_put(dict, size, used, batch, len);
    }
    mca_common_evt_wire_encoder_destruct(&enc);
    return used;
}

static void put_record(unsigned char *data, uint32_t *tail, uint32_t ev, uint32_t extent,
                       uint64_t seq)
{
    uint32_t size = mca_common_evt_flight_record_size(extent), off = *tail % SEED_CAP, kind;
    int64_t ts = (int64_t) (1000 + seq);

    if (SEED_CAP - off < size) { /* skip record to the end */
        uint32_t skip = SEED_CAP - off;
        kind = MCA_COMMON_EVT_FLIGHT_KIND_SKIP;
        memcpy(data + off, &skip, 4);
        memcpy(data + off + 4, &kind, 4);
        *tail += skip;
        off = 0;
    }
    kind = MCA_COMMON_EVT_FLIGHT_KIND_RECORD;
    memset(data + off, 0, size);
    memcpy(data + off, &size, 4);
    memcpy(data + off + 4, &kind, 4);
    memcpy(data + off + 8, &ev, 4);
    memcpy(data + off + 24, &ts, 8);
    memcpy(data + off + 40, &seq, 8);
    *tail += size;
}

static unsigned char *make_seed(size_t *len)
{
    const size_t rings = 2, dict_size = 4096, drops = 4096;
    size_t file_size = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE + dict_size + drops
                       + rings * (MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + SEED_CAP);
    unsigned char *b = calloc(1, file_size);
    mca_common_evt_flight_header_t h;

    if (NULL == b) {
        return NULL;
    }
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, MCA_COMMON_EVT_FLIGHT_MAGIC, 8);
    h.version = MCA_COMMON_EVT_FLIGHT_VERSION;
    h.endian = MCA_COMMON_EVT_FLIGHT_ENDIAN;
    h.header_size = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h.file_size = file_size;
    h.rank = 3;
    h.world_size = 4;
    h.pid = 42;
    strcpy(h.host, "fuzzhost");
    strcpy(h.job, "fuzzjob");
    h.ring_count = (uint32_t) rings;
    h.ring_capacity = SEED_CAP;
    h.dict_offset = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h.dict_size = dict_size;
    h.drops_offset = h.dict_offset + dict_size;
    h.drops_count = (uint32_t) (drops / 8);
    h.rings_offset = h.drops_offset + drops;
    h.ring_stride = MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + SEED_CAP;
    h.ctl_size = MCA_COMMON_EVT_FLIGHT_CTL_SIZE;
    h.ring_hdr_size = MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE;
    h.rec_size = MCA_COMMON_EVT_FLIGHT_REC_SIZE;

    h.dict_used = put_dict(b + h.dict_offset, dict_size);
    if (0 == h.dict_used) {
        free(b);
        return NULL;
    }
    h.state = MCA_COMMON_EVT_FLIGHT_STATE_OPEN;
    mca_common_evt_flight_header_seal(&h);
    memcpy(b, &h, sizeof(h));
    {
        uint64_t d = 5;
        memcpy(b + h.drops_offset + 8, &d, 8);
    }
    for (size_t r = 0; r < rings; ++r) {
        unsigned char *slot = b + h.rings_offset + r * h.ring_stride;
        unsigned char *data = slot + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
        uint32_t tail = 0, oldest = 0;
        uint64_t evicted = 0, mark;
        int n = 0 == r ? 20 : 150; /* ring 1 wraps */

        for (int i = 0; i < n; ++i) {
            uint32_t ev = (uint32_t) (i % 2), size = mca_common_evt_flight_record_size(ev ? 8 : 16);
            uint32_t off = tail % SEED_CAP,
                     need = size + (SEED_CAP - off < size ? SEED_CAP - off : 0);
            while (need > SEED_CAP - (tail - oldest)) {
                uint32_t osz, okind;
                memcpy(&osz, data + oldest % SEED_CAP, 4);
                memcpy(&okind, data + oldest % SEED_CAP + 4, 4);
                evicted += MCA_COMMON_EVT_FLIGHT_KIND_SKIP != okind;
                oldest += osz;
            }
            put_record(data, &tail, ev, ev ? 8 : 16, (uint64_t) i);
        }
        mark = ((uint64_t) (uint32_t) evicted << 32) | oldest;
        memcpy(slot + MCA_COMMON_EVT_FLIGHT_CTL_TAIL, &tail, 4);
        memcpy(slot + MCA_COMMON_EVT_FLIGHT_CTL_OLDEST, &oldest, 4);
        memcpy(slot + MCA_COMMON_EVT_FLIGHT_CTL_EVICTED, &evicted, 8);
        memcpy(slot + MCA_COMMON_EVT_FLIGHT_CTL_EVICT_MARK, &mark, 8);
    }
    *len = file_size;
    return b;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *path = getenv("FUZZ_FILE_WRITE_SEED");
    mca_common_evt_flight_file_t *f;
    unsigned char *b;
    size_t len;
    FILE *fp;

    if (NULL == path) {
        return 0;
    }
    b = make_seed(&len);
    /* the seed itself must be valid */
    if (NULL == b || 0 != mca_common_evt_flight_decode(b, len, &f) || 0 != f->nproblems
        || 0 == f->nrecords || 0 == f->overwritten) {
        fprintf(stderr, "fuzz_file_read: the seed is not a valid file\n");
        exit(1);
    }
    mca_common_evt_flight_free(f);
    fp = fopen(path, "wb");
    if (NULL == fp || len != fwrite(b, 1, len, fp)) {
        exit(1);
    }
    fclose(fp);
    free(b);
    exit(0);
}

/* The input twice, back to back in a file, read as a chain of images
 * (mca_common_evt_flight_open_image): every step moves forward, and ends
 * at the file's end. */
static void read_as_chain(const uint8_t *data, size_t size)
{
    int fd = memfd_create("chain", MFD_CLOEXEC);
    uint64_t at = 0, next, total = 2 * (uint64_t) size;

    if (fd < 0) {
        return;
    }
    if ((ssize_t) size != write(fd, data, size) || (ssize_t) size != write(fd, data, size)) {
        (void) close(fd);
        return;
    }
    while (at < total) {
        mca_common_evt_flight_file_t *f;
        if (0 != mca_common_evt_flight_open_image(fd, at, &f, &next)) {
            break;
        }
        if (next <= at || next > total) {
            __builtin_trap();
        }
        mca_common_evt_flight_free(f);
        at = next;
    }
    (void) close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mca_common_evt_flight_file_t *f;

    if (0 != mca_common_evt_flight_decode(data, size, &f)) {
        return 0;
    }
    for (size_t i = 0; i < f->nrecords; ++i) {
        const mca_common_evt_flight_record_t *r = &f->records[i];
        mca_common_evt_flight_value_t v;
        /* payloads lie inside the decoder's copy */
        if (r->payload < f->buf || r->payload + r->payload_len > f->buf + f->len) {
            __builtin_trap();
        }
        for (uint32_t j = 0; NULL != r->event && j < r->event->num_elements; ++j) {
            (void) mca_common_evt_flight_element(r, j, &v);
        }
    }
    mca_common_evt_flight_free(f);
    read_as_chain(data, size);
    return 0;
}
