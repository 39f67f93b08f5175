/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Writing the checksummed parts of a flight-recorder file
 * (common_evt_flight_format.h): the header's seal and the dictionary's
 * entries. One writer of these bytes for evt/file and for the programs
 * that make recordings to test readers with, so that what the reader
 * checks is what every writer wrote.
 */

#ifndef MCA_COMMON_EVT_FLIGHT_WRITE_H
#define MCA_COMMON_EVT_FLIGHT_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/** CRC-32C of a header's fixed part (the bytes before header_crc).
 *  Context: ANY but SIGNAL. */
uint32_t mca_common_evt_flight_header_crc(const mca_common_evt_flight_header_t *h);

/** Set @p h's header_crc from its fixed part, which must not change after.
 *  Context: INIT. */
void mca_common_evt_flight_header_seal(mca_common_evt_flight_header_t *h);

/**
 * Write one dictionary entry: @p batch (a wire batch of @p len bytes),
 * framed with its length and CRC-32C and padded with zeros to a multiple
 * of 8, at @p used in the dictionary @p dict of @p size bytes. The entry
 * is not published: the caller then stores the returned used size (with
 * release, where a reader may look at the file while it is written).
 * @return the dictionary's used size with the entry, or 0 when it does not
 *         fit (nothing written) or the arguments are invalid
 * Context: ANY but SIGNAL. No allocation, no lock.
 */
size_t mca_common_evt_flight_dict_put(unsigned char *dict, size_t size, size_t used,
                                      const void *batch, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COMMON_EVT_FLIGHT_WRITE_H */
