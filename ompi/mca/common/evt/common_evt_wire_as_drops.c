/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * A batch whose records could not be kept, restated as drops
 * (mca_common_evt_wire_batch_as_drops() in common_evt_wire.h): what a receiver
 * writes in place of a batch it has no room for, so that a reader still
 * sees every batch number and counts every event of it.
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/common/evt/common_evt_wire_internal.h"

int mca_common_evt_wire_batch_as_drops(const void *buf, size_t len,
                                       const mca_common_evt_wire_batch_t *batch, uint32_t add_flags,
                                       void **out, size_t *out_len)
{
    const uint8_t *in = buf, *p, *end;
    uint64_t *counts = NULL;
    mca_common_evt_wire_record_t rec;
    uint32_t nsections = 0;
    uint16_t hlen, ndrops = 0;
    size_t cursor = 0, used, cap;
    uint8_t *o;

    if (NULL == buf || NULL == batch || NULL == batch->storage || NULL == out || NULL == out_len
        || len < MCA_COMMON_EVT_WIRE_HEADER_BYTES) {
        return OPAL_ERR_BAD_PARAM;
    }
    *out = NULL;
    *out_len = 0;
    counts = calloc(batch->num_types + 1, sizeof(*counts));
    if (NULL == counts) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    /* the batch's own drops plus its records, per type, saturating */
    for (uint32_t i = 0; i < batch->num_drops; ++i) {
        uint64_t *c = &counts[batch->drops[i].type];
        *c = UINT64_MAX - *c < batch->drops[i].count ? UINT64_MAX : *c + batch->drops[i].count;
    }
    while (mca_common_evt_wire_batch_next_record(batch, &cursor, &rec)) {
        if (UINT64_MAX != counts[rec.type]) {
            ++counts[rec.type];
        }
    }
    for (uint32_t t = 0; t < batch->num_types; ++t) {
        ndrops += 0 != counts[t] ? 1 : 0;
    }
    /* never larger than the batch plus a DROPS section of every type */
    cap = len + MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2 + (size_t) batch->num_types * 10;
    o = malloc(cap);
    if (NULL == o) {
        free(counts);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    /* the decode validated the layout: header, then sections in order */
    hlen = wire_get16(in + 6);
    memcpy(o, in, hlen);
    used = hlen;
    p = in + hlen;
    end = in + len;
    while (p + MCA_COMMON_EVT_WIRE_SECTION_BYTES <= end) {
        uint16_t kind = wire_get16(p);
        uint32_t blen = wire_get32(p + 4);

        /* sender, clocks, offsets and types stay as they were; the records
         * and the old drops go (restated below), as does any section of a
         * later version, which might speak of the records */
        if (MCA_COMMON_EVT_WIRE_SECTION_SENDER <= kind
            && MCA_COMMON_EVT_WIRE_SECTION_TYPES >= kind) {
            memcpy(o + used, p, MCA_COMMON_EVT_WIRE_SECTION_BYTES + blen);
            used += MCA_COMMON_EVT_WIRE_SECTION_BYTES + blen;
            ++nsections;
        }
        p += MCA_COMMON_EVT_WIRE_SECTION_BYTES + blen;
    }
    if (0 < ndrops) {
        uint8_t *s = o + used;
        wire_put16(s, MCA_COMMON_EVT_WIRE_SECTION_DROPS);
        wire_put16(s + 2, 0);
        wire_put32(s + 4, 2 + 10u * ndrops);
        wire_put16(s + 8, ndrops);
        s += MCA_COMMON_EVT_WIRE_SECTION_BYTES + 2;
        for (uint32_t t = 0; t < batch->num_types; ++t) {
            if (0 != counts[t]) {
                wire_put16(s, (uint16_t) t);
                wire_put64(s + 2, counts[t]);
                s += 10;
            }
        }
        used = (size_t) (s - o);
        ++nsections;
    }
    wire_put32(o + 8, batch->flags | add_flags);
    wire_put32(o + 12, nsections);
    wire_put32(o + 24, (uint32_t) used);
    free(counts);
    *out = o;
    *out_len = used;
    return OPAL_SUCCESS;
}
