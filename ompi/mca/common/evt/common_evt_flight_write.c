/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include <stddef.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_flight_write.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

uint32_t mca_common_evt_flight_header_crc(const mca_common_evt_flight_header_t *h)
{
    return mca_common_evt_wire_crc32c(0, h, offsetof(mca_common_evt_flight_header_t, header_crc));
}

void mca_common_evt_flight_header_seal(mca_common_evt_flight_header_t *h)
{
    h->header_crc = mca_common_evt_flight_header_crc(h);
}

size_t mca_common_evt_flight_dict_put(unsigned char *dict, size_t size, size_t used,
                                      const void *batch, size_t len)
{
    size_t entry = (size_t) mca_common_evt_flight_dict_entry_size(len);
    uint32_t head[2];

    if (NULL == dict || NULL == batch || 0 == len || UINT32_MAX < len || used > size
        || entry > size - used) {
        return 0;
    }
    head[0] = (uint32_t) len;
    head[1] = mca_common_evt_wire_crc32c(0, batch, len);
    memcpy(dict + used, head, sizeof(head));
    memcpy(dict + used + sizeof(head), batch, len);
    memset(dict + used + sizeof(head) + len, 0, entry - sizeof(head) - len);
    return used + entry;
}
