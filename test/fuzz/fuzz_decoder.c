/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* libFuzzer target of the wire decoder (ompi/mca/evt/base/
 * common_evt_wire_decode.c), built with clang -fsanitize=fuzzer,address,undefined.
 * Every input is decoded; an accepted batch is read completely the way
 * ompi-evt-listen reads it (every record, every element value, names and
 * lookups), and checked against the decoder's promises: every record's type
 * id is in range, the records walked are as many as announced and end
 * exactly at the section's end, every string is a valid name. A rejected
 * batch must say why and own nothing. An accepted batch then goes through
 * the listener's first pass (tools/listen/evt_listen_registry.c) twice, as
 * read and as its next batch: a batch may bring up to 64 new clock sources
 * at once (corpus/many_sources.bin holds such a batch), which the
 * registry's tables grow for while it reads the batch. ASan/UBSan turn any out-of-bounds access
 * or undefined behaviour into a crash.
 *
 * make check: a short run from the seed corpus (test/fuzz/corpus) plus the
 * regression inputs (test/fuzz/regressions); make fuzz-decoder: a long run. */

#include "ompi_config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_wire.h"
#include "tools/listen/evt_listen.h"

static void check(int cond)
{
    if (!cond) {
        abort(); /* a broken promise: libFuzzer keeps the input */
    }
}

/* The listener's pass 1 on the batch: new process, sources and types,
 * then the same ones known (a later batch of that process). */
static void scan(mca_common_evt_wire_batch_t *b)
{
    listen_registry_t reg;
    uint64_t seq = b->seq;

    listen_registry_init(&reg);
    check(0 <= listen_registry_scan(&reg, b));
    b->seq = seq + 1;
    check(0 <= listen_registry_scan(&reg, b));
    b->seq = seq;
    check(1 == reg.num_procs && reg.num_types <= b->num_types);
    check(reg.procs[0]->num_clocks <= b->num_clocks);
    listen_registry_finish(&reg);
    listen_registry_fini(&reg);
}

static void check_name(const char *s)
{
    size_t n = strlen(s);
    check(0 < n && n <= MCA_COMMON_EVT_WIRE_NAME_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_record_t r;
    size_t cur = 0;
    uint32_t n = 0;
    uint64_t seq;
    uint32_t flags;
    int rc, prc;

    prc = mca_common_evt_wire_peek(data, size, &seq, &flags);
    rc = mca_common_evt_wire_decode(data, size, &b);
    if (OPAL_SUCCESS != rc) {
        check(NULL != b.error && NULL == b.storage && 0 == b.num_records);
        mca_common_evt_wire_batch_destruct(&b);
        return 0;
    }
    check(OPAL_SUCCESS == prc && seq == b.seq && flags == b.flags);
    check(0 < strlen(b.sender.nspace) && 0 < strlen(b.sender.host));
    for (uint32_t i = 0; i < b.num_clocks; ++i) {
        check_name(b.clocks[i].name);
        check(0 < b.clocks[i].ticks_per_second && b.clocks[i].ordering <= 1);
    }
    for (uint32_t i = 0; i < b.num_types; ++i) {
        const mca_common_evt_wire_type_t *t = &b.types[i];
        unsigned end = 0;
        check_name(t->name);
        check(t->source < b.num_clocks);
        check(t->num_elements <= MCA_COMMON_EVT_WIRE_MAX_ELEMENTS);
        for (unsigned k = 0; k < t->num_elements; ++k) {
            check(t->elements[k].offset == end);
            end += (unsigned) mca_common_evt_wire_elem_size(t->elements[k].type);
            if ('\0' != t->elements[k].name[0]) {
                check(mca_common_evt_wire_element_find(t, t->elements[k].name) == (int) k);
            }
        }
        check(end == t->payload_size && end <= MCA_COMMON_EVT_WIRE_MAX_PAYLOAD);
    }
    for (uint32_t i = 0; i < b.num_drops; ++i) {
        check(b.drops[i].type < b.num_types);
    }
    while (mca_common_evt_wire_batch_next_record(&b, &cur, &r)) {
        const mca_common_evt_wire_type_t *t;
        check(r.type < b.num_types);
        t = &b.types[r.type];
        check(r.payload >= data && r.payload + t->payload_size <= data + size);
        for (unsigned k = 0; k < t->num_elements; ++k) {
            mca_common_evt_wire_value_t v;
            check(OPAL_SUCCESS == mca_common_evt_wire_element_value(t, r.payload, k, &v));
            check(v.type == t->elements[k].type);
        }
        ++n;
    }
    check(n == b.num_records && cur == b.records_len);
    scan(&b);
    mca_common_evt_wire_batch_destruct(&b);
    return 0;
}
