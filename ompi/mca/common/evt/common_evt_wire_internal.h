/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Private helpers of the wire encoder, decoder and node files: unaligned
 * little-endian loads and stores, the name rules, CRC-32C. Not installed.
 * Context: ANY (pure functions).
 */

#ifndef MCA_COMMON_EVT_WIRE_INTERNAL_H
#define MCA_COMMON_EVT_WIRE_INTERNAL_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_wire.h"

#if !defined(__BYTE_ORDER__) || !defined(__ORDER_LITTLE_ENDIAN__)
#    error "the wire helpers need __BYTE_ORDER__ (GCC or clang)"
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#    define WIRE_LE16(x)      (x)
#    define WIRE_LE32(x)      (x)
#    define WIRE_LE64(x)      (x)
#    define WIRE_NATIVE_IS_LE 1
#else
#    define WIRE_LE16(x)      __builtin_bswap16(x)
#    define WIRE_LE32(x)      __builtin_bswap32(x)
#    define WIRE_LE64(x)      __builtin_bswap64(x)
#    define WIRE_NATIVE_IS_LE 0
#endif

static inline uint16_t wire_get16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return WIRE_LE16(v);
}
static inline uint32_t wire_get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return WIRE_LE32(v);
}
static inline uint64_t wire_get64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return WIRE_LE64(v);
}
static inline void wire_put16(uint8_t *p, uint16_t v)
{
    v = WIRE_LE16(v);
    memcpy(p, &v, 2);
}
static inline void wire_put32(uint8_t *p, uint32_t v)
{
    v = WIRE_LE32(v);
    memcpy(p, &v, 4);
}
static inline void wire_put64(uint8_t *p, uint64_t v)
{
    v = WIRE_LE64(v);
    memcpy(p, &v, 8);
}

/** Event and source names: 1..255 of [A-Za-z0-9._-]. */
static inline bool wire_name_ok(const uint8_t *s, size_t len)
{
    if (0 == len || 255 < len) {
        return false;
    }
    for (size_t i = 0; i < len; ++i) {
        uint8_t c = s[i];
        if (!(('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || '.' == c
              || '_' == c || '-' == c)) {
            return false;
        }
    }
    return true;
}

/** Element names: as wire_name_ok, not starting with a digit. */
static inline bool wire_elem_name_ok(const uint8_t *s, size_t len)
{
    return wire_name_ok(s, len) && !('0' <= s[0] && s[0] <= '9');
}

/** nspace and host: 1..255 printable ASCII bytes. */
static inline bool wire_text_ok(const uint8_t *s, size_t len)
{
    if (0 == len || 255 < len) {
        return false;
    }
    for (size_t i = 0; i < len; ++i) {
        if (s[i] < 0x20 || s[i] > 0x7e) {
            return false;
        }
    }
    return true;
}

/** Test-only: the portable version (the other one may be the CPU's). */
OMPI_DECLSPEC uint32_t mca_common_evt_wire_test_crc32c_sw(uint32_t crc, const void *buf,
                                                          size_t len);

#endif /* MCA_COMMON_EVT_WIRE_INTERNAL_H */
