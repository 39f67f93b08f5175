/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of
 * node file frames and index entries. x86-64 with SSE4.2 uses the crc32
 * instruction (chosen at run time); elsewhere a table-driven version
 * (slicing by 8) computes the same values.
 */

#include "ompi_config.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_wire_internal.h"

static uint32_t crc_table[8][256];
static int crc_mode = 1; /* 1 table, 2 sse4.2; set once by crc_init() */
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        }
        crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i) {
        for (int t = 1; t < 8; ++t) {
            crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
        }
    }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.2")) {
        crc_mode = 2;
    }
#endif
}

static uint32_t crc_sw(uint32_t crc, const uint8_t *p, size_t len)
{
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        v = WIRE_LE64(v) ^ crc;
        crc = crc_table[7][v & 0xff] ^ crc_table[6][(v >> 8) & 0xff]
              ^ crc_table[5][(v >> 16) & 0xff] ^ crc_table[4][(v >> 24) & 0xff]
              ^ crc_table[3][(v >> 32) & 0xff] ^ crc_table[2][(v >> 40) & 0xff]
              ^ crc_table[1][(v >> 48) & 0xff] ^ crc_table[0][v >> 56];
        p += 8;
        len -= 8;
    }
    while (len--) {
        crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
    }
    return crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t crc, const uint8_t *p, size_t len)
{
    uint64_t c = crc;
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
        p += 8;
        len -= 8;
    }
    crc = (uint32_t) c;
    while (len--) {
        crc = __builtin_ia32_crc32qi(crc, *p++);
    }
    return crc;
}
#endif

/* Context: ANY (pthread_once orders the table before every use). */
uint32_t mca_common_evt_wire_crc32c(uint32_t crc, const void *buf, size_t len)
{
    (void) pthread_once(&crc_once, crc_init);
    crc = ~crc;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (2 == crc_mode) {
        return ~crc_hw(crc, buf, len);
    }
#endif
    return ~crc_sw(crc, buf, len);
}

/* Test-only: the table version whatever the CPU. Context: ANY. */
uint32_t mca_common_evt_wire_test_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
    (void) pthread_once(&crc_once, crc_init);
    return ~crc_sw(~crc, buf, len);
}
