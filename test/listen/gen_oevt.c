/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Writes one evt/file recording (*.oevt) as evt/file would lay it out,
 * small enough to reason about, for the readers' tests:
 *
 *   gen_oevt FILE [--name NAME] [--size BYTES]
 *
 * One source, one event type NAME (default "ompi.gen.tick"; any bytes,
 * given as the argument is) with one uint64 element "v", one ring holding
 * three records, a header closed cleanly. --size makes the header claim
 * BYTES (the ring as large as fits, at most 2^31) and the file that long
 * but sparse: only the first pages hold data, the rest is a hole. */

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"

#define DICT_SIZE  4096u
#define DROPS_SIZE 4096u
#define DENSE_RING 4096u /* the part of the ring written */

static size_t put_entry(unsigned char *dict, size_t used, uint32_t kind, const void *body,
                        size_t body_len, const char *names, size_t nl)
{
    mca_common_evt_flight_dict_entry_t e;
    size_t size = (sizeof(e) + body_len + nl + 7) & ~(size_t) 7;

    memset(dict + used, 0, size);
    e.size = (uint32_t) size;
    e.kind = kind;
    e.sum = 0;
    memcpy(dict + used, &e, sizeof(e));
    memcpy(dict + used + sizeof(e), body, body_len);
    memcpy(dict + used + sizeof(e) + body_len, names, nl);
    e.sum = mca_common_evt_flight_sum(dict + used, size);
    memcpy(dict + used, &e, sizeof(e));
    return used + size;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *name = "ompi.gen.tick";
    uint64_t claim = 0, file_size, cap = DENSE_RING;
    size_t dense, used = 0;
    unsigned char *b, body[256], *slot, *data;
    mca_common_evt_flight_header_t h;
    mca_common_evt_flight_dict_source_t s;
    mca_common_evt_flight_dict_event_t e;
    mca_common_evt_flight_dict_element_t el;
    uint32_t tail = 0;
    int fd;

    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--name") && i + 1 < argc) {
            name = argv[++i];
        } else if (0 == strcmp(argv[i], "--size") && i + 1 < argc) {
            claim = strtoull(argv[++i], NULL, 10);
        } else if (NULL == path) {
            path = argv[i];
        } else {
            path = NULL;
            break;
        }
    }
    if (NULL == path || strlen(name) > 200) {
        fprintf(stderr, "usage: gen_oevt FILE [--name NAME] [--size BYTES]\n");
        return 2;
    }
    file_size = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE + DICT_SIZE + DROPS_SIZE
                + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    if (0 < claim) {
        while (2 * cap <= ((uint64_t) 1 << 31) && file_size + 2 * cap <= claim) {
            cap *= 2;
        }
    }
    file_size += cap;
    if (claim > file_size) {
        file_size = claim; /* the rest lies unused after the ring */
    }
    dense = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE + DICT_SIZE + DROPS_SIZE
            + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + DENSE_RING;
    b = calloc(1, dense);
    if (NULL == b) {
        return 1;
    }
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, MCA_COMMON_EVT_FLIGHT_MAGIC, 8);
    h.version = MCA_COMMON_EVT_FLIGHT_VERSION;
    h.endian = MCA_COMMON_EVT_FLIGHT_ENDIAN;
    h.header_size = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h.file_size = file_size;
    h.rank = 0;
    h.world_size = 1;
    h.pid = 4242;
    strcpy(h.host, "genhost");
    strcpy(h.job, "genjob");
    h.ring_count = 1;
    h.ring_capacity = (uint32_t) cap;
    h.dict_offset = MCA_COMMON_EVT_FLIGHT_HEADER_SIZE;
    h.dict_size = DICT_SIZE;
    h.drops_offset = h.dict_offset + DICT_SIZE;
    h.drops_count = DROPS_SIZE / 8;
    h.rings_offset = h.drops_offset + DROPS_SIZE;
    h.ring_stride = MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE + cap;
    h.ctl_size = MCA_COMMON_EVT_FLIGHT_CTL_SIZE;
    h.ring_hdr_size = MCA_COMMON_EVT_FLIGHT_RING_HDR_SIZE;
    h.rec_size = MCA_COMMON_EVT_FLIGHT_REC_SIZE;

    memset(&s, 0, sizeof(s));
    s.ticks_per_second = 1000000000;
    s.max_ticks = INT64_MAX;
    s.sample_ticks = 1000;
    s.sample_realtime_ns = 1700000000000000000;
    s.name_len = 3;
    used = put_entry(b + h.dict_offset, used, MCA_COMMON_EVT_FLIGHT_ENTRY_SOURCE, &s, sizeof(s),
                     "clk", 3);
    memset(&e, 0, sizeof(e));
    e.extent = 8;
    e.num_elements = 1;
    e.name_len = (uint32_t) strlen(name);
    memset(&el, 0, sizeof(el));
    el.type = MCA_COMMON_EVT_FLIGHT_TYPE_UINT64;
    el.name_len = 1;
    memcpy(body, &e, sizeof(e));
    memcpy(body + sizeof(e), &el, sizeof(el));
    {
        char names[256];
        memcpy(names, name, e.name_len);
        names[e.name_len] = 'v';
        used = put_entry(b + h.dict_offset, used, MCA_COMMON_EVT_FLIGHT_ENTRY_EVENT, body,
                         sizeof(e) + sizeof(el), names, e.name_len + 1);
    }
    h.dict_used = used;
    h.state = MCA_COMMON_EVT_FLIGHT_STATE_CLOSED;
    h.closed_ns = 1700000000000001000;
    h.header_sum = mca_common_evt_flight_sum(&h,
                                             offsetof(mca_common_evt_flight_header_t, header_sum));
    memcpy(b, &h, sizeof(h));

    slot = b + h.rings_offset;
    data = slot + MCA_COMMON_EVT_FLIGHT_RING_CTL_SPACE;
    for (uint64_t i = 0; i < 3; ++i) {
        uint32_t size = mca_common_evt_flight_record_size(8),
                 kind = MCA_COMMON_EVT_FLIGHT_KIND_RECORD, ev = 0;
        int64_t ts = (int64_t) (2000 + 100 * i);
        unsigned char *p = data + tail;
        memcpy(p, &size, 4);
        memcpy(p + 4, &kind, 4);
        memcpy(p + 8, &ev, 4);
        memcpy(p + 24, &ts, 8);
        memcpy(p + 40, &i, 8);
        tail += size;
    }
    memcpy(slot + MCA_COMMON_EVT_FLIGHT_CTL_TAIL, &tail, 4);

    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (0 > fd || (ssize_t) dense != write(fd, b, dense) || 0 != ftruncate(fd, (off_t) file_size)
        || 0 != close(fd)) {
        perror(path);
        return 1;
    }
    free(b);
    return 0;
}
