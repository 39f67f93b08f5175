/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * An event payload with every element type of the wire once, for the
 * wire's unit test (test_wire.c) and the fuzzer's corpus generator
 * (test/fuzz/gen_corpus.c): {i32@0, u32@4, i64@8, u64@16, double@24,
 * bool@32}. Each registers it with its own element names.
 */

#ifndef EVT_TEST_WIRE_ALL_TYPES_H
#define EVT_TEST_WIRE_ALL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opal/mca/base/mca_base_event.h"

typedef struct {
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    double d;
    bool b;
} all_payload_t;

#define ALL_PAYLOAD_NELEMS 6

/** The element types and offsets of all_payload_t, for
 *  mca_base_event_register_ptr(). */
static const mca_base_var_type_t all_payload_types[ALL_PAYLOAD_NELEMS]
    = {MCA_BASE_VAR_TYPE_INT32_T,  MCA_BASE_VAR_TYPE_UINT32_T, MCA_BASE_VAR_TYPE_INT64_T,
       MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_DOUBLE,   MCA_BASE_VAR_TYPE_BOOL};
static const ptrdiff_t all_payload_offsets[ALL_PAYLOAD_NELEMS] = {offsetof(all_payload_t, i32),
                                                                  offsetof(all_payload_t, u32),
                                                                  offsetof(all_payload_t, i64),
                                                                  offsetof(all_payload_t, u64),
                                                                  offsetof(all_payload_t, d),
                                                                  offsetof(all_payload_t, b)};

#endif /* EVT_TEST_WIRE_ALL_TYPES_H */
