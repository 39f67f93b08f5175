/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Writes one evt/file recording (*.oevt) as evt/file lays it out, small
 * enough to reason about, for the readers' tests:
 *
 *   gen_oevt FILE [--name NAME] [--host HOST] [--forge-name NAME] [--size BYTES]
 *
 * One source, one event type NAME (default "ompi.gen.tick") with one
 * uint64 element "v", one ring holding three records, a header closed
 * cleanly. The dictionary entry is written by the wire encoder and the
 * flight writer, as evt/file writes it. --host puts HOST (any bytes) into
 * the header. --forge-name writes a dictionary entry whose event name is
 * NAME although the wire does not allow it (same length as the encoded
 * name, the checksum made to match: a forged file). --size makes the
 * header claim BYTES (the ring as large as fits, at most 2^31) and the
 * file that long but sparse: only the first pages hold data, the rest is
 * a hole. */

#include "ompi_config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_flight_write.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

#define DICT_SIZE  4096u
#define DROPS_SIZE 4096u
#define DENSE_RING 4096u /* the part of the ring written */

/* The dictionary: one entry describing NAME (or a stand-in for a forged
 * name, replaced in the encoded batch). @return its used size, 0 on error. */
static size_t write_dict(unsigned char *dict, const char *name, const char *forge)
{
    static const uint8_t elem_types[1] = {MCA_COMMON_EVT_WIRE_ELEM_UINT64};
    static const uint32_t elem_offsets[1] = {0};
    static const char *const elem_names[1] = {"v"};
    mca_common_evt_wire_source_desc_t src = {.name = "clk",
                                             .ticks_per_second = 1000000000,
                                             .pair_ticks = 1000,
                                             .pair_realtime_ns = 1700000000000000000};
    mca_common_evt_wire_type_desc_t type = {.source = &src,
                                            .num_elements = 1,
                                            .elem_types = elem_types,
                                            .elem_offsets = elem_offsets,
                                            .elem_names = elem_names};
    mca_common_evt_wire_layout_t layout = {.max_ticks = INT64_MAX, .extent = 8};
    mca_common_evt_wire_sender_t who = {.rank = 0, .pid = 4242};
    mca_common_evt_wire_encoder_t enc;
    char standin[256];
    const void *batch;
    unsigned char *copy;
    size_t len, used = 0;

    if (NULL != forge) {
        size_t n = strlen(forge);
        if (0 == n || sizeof(standin) <= n) {
            return 0;
        }
        memset(standin, 'x', n);
        standin[n] = '\0';
        name = standin;
    }
    type.name = name;
    strcpy(who.nspace, "genjob");
    strcpy(who.host, "genhost");
    if (OPAL_SUCCESS != mca_common_evt_wire_encoder_construct(&enc, &who, 65536)
        || OPAL_SUCCESS != mca_common_evt_wire_encoder_begin(&enc, 0, 0)
        || OPAL_SUCCESS != mca_common_evt_wire_encoder_add_type_desc(&enc, &type, &layout)
        || OPAL_SUCCESS != mca_common_evt_wire_encoder_finish(&enc, &batch, &len)) {
        fprintf(stderr, "gen_oevt: the encoder refused the type (name '%s')\n", name);
        return 0;
    }
    copy = malloc(len);
    if (NULL != copy) {
        memcpy(copy, batch, len);
        if (NULL != forge) {
            /* the stand-in occurs once: the event name */
            unsigned char *at = memmem(copy, len, standin, strlen(standin));
            if (NULL != at) {
                memcpy(at, forge, strlen(forge));
            }
        }
        used = mca_common_evt_flight_dict_put(dict, DICT_SIZE, 0, copy, len);
        free(copy);
    }
    mca_common_evt_wire_encoder_destruct(&enc);
    return used;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *name = "ompi.gen.tick", *host = "genhost", *forge = NULL;
    uint64_t claim = 0, file_size, cap = DENSE_RING;
    size_t dense;
    unsigned char *b, *slot, *data;
    mca_common_evt_flight_header_t h;
    uint32_t tail = 0;
    int fd;

    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--name") && i + 1 < argc) {
            name = argv[++i];
        } else if (0 == strcmp(argv[i], "--host") && i + 1 < argc) {
            host = argv[++i];
        } else if (0 == strcmp(argv[i], "--forge-name") && i + 1 < argc) {
            forge = argv[++i];
        } else if (0 == strcmp(argv[i], "--size") && i + 1 < argc) {
            claim = strtoull(argv[++i], NULL, 10);
        } else if (NULL == path) {
            path = argv[i];
        } else {
            path = NULL;
            break;
        }
    }
    if (NULL == path || strlen(name) > 200 || strlen(host) > 63) {
        fprintf(stderr, "usage: gen_oevt FILE [--name NAME] [--host HOST] [--forge-name NAME] "
                        "[--size BYTES]\n");
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
    strcpy(h.host, host);
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
    h.dict_used = write_dict(b + h.dict_offset, name, forge);
    if (0 == h.dict_used) {
        return 1;
    }
    h.state = MCA_COMMON_EVT_FLIGHT_STATE_CLOSED;
    h.closed_ns = 1700000000000001000;
    mca_common_evt_flight_header_seal(&h);
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
