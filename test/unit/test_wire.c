/* Unit tests: the export wire format (ompi/mca/common/evt/common_evt_wire.h).
 * Encoder -> decoder round trips of every element type and layout (from
 * engine objects and from plain descriptors, byte-identical), the
 * full-batch retry, drops, clocks, offsets, flags; the decoder against
 * hand-made malformed batches (each rejected with its error), every
 * truncation and every byte flip of a valid batch (never a crash). */
#include "test_event_common.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/common/evt/common_evt_wire_internal.h"
#include "test_wire_all_types.h"

TestSuite(wire, .init = evt_test_setup, .fini = evt_test_teardown);

/* ------------------------------------------------------------------------
 * Fixtures
 * ------------------------------------------------------------------------ */

static opal_count_t fake_ticks = 1000;
static opal_count_t fake_clock(void *ctx)
{
    (void) ctx;
    return fake_ticks;
}

static void sender_init(mca_common_evt_wire_sender_t *s, uint32_t rank)
{
    memset(s, 0, sizeof(*s));
    strcpy(s->nspace, "job-ns@1");
    strcpy(s->host, "nodeA");
    s->rank = rank;
    s->pid = 4242;
}

static mca_base_event_t *all_types_event(mca_base_event_source_t *src, const char *name)
{
    const char *const names[6] = {"a_i32", "a_u32", "a_i64", "a_u64", "a_double", "a_bool"};
    mca_base_event_t *ev = NULL;

    cr_assert_geq(mca_base_event_register_ptr("ompi", "wire", NULL, name, "all types",
                                              OPAL_INFO_LVL_4, ALL_PAYLOAD_NELEMS,
                                              all_payload_types, all_payload_offsets, NULL,
                                              MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &ev),
                  0);
    cr_assert_eq(mca_base_event_set_element_names(ev, names), OPAL_SUCCESS);
    return ev;
}

static mca_base_event_record_t make_rec(mca_base_event_t *ev, opal_count_t ts, const void *data,
                                        uint32_t depth)
{
    mca_base_event_record_t r;
    memset(&r, 0, sizeof(r));
    r.event = ev;
    r.source = ev->source;
    r.timestamp = ts;
    r.data = data;
    r.depth = depth;
    return r;
}

static void decode_ok(const void *buf, size_t len, mca_common_evt_wire_batch_t *b)
{
    int rc = mca_common_evt_wire_decode(buf, len, b);
    cr_assert_eq(rc, OPAL_SUCCESS, "decode: %d (%s)", rc, NULL == b->error ? "" : b->error);
}

/* ------------------------------------------------------------------------
 * Round trips
 * ------------------------------------------------------------------------ */

Test(wire, round_trip_every_element_type)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wiretest", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev = all_types_event(src, "all");
    const all_payload_t vals[4] = {
        {INT32_MIN, UINT32_MAX, INT64_MIN, UINT64_MAX, -0.0, true},
        {INT32_MAX, 0, INT64_MAX, 0, DBL_MAX, false},
        {-1, 1, -1, 1, 1.5e-300, true},
        {0, 0x80000000u, 0, 0x8000000000000000ull, INFINITY, false},
    };
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_record_t r;
    const void *buf;
    size_t len, cur = 0;
    int k = 0;

    sender_init(&snd, 7);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 65536), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 41, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_clock(&enc, src, 5000, 1700000000123456789LL),
                 OPAL_SUCCESS);
    for (int i = 0; i < 4; ++i) {
        mca_base_event_record_t rec = make_rec(ev, 5000 + i * 10, &vals[i], (uint32_t) i);
        cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &rec), OPAL_SUCCESS);
    }
    cr_assert_eq(enc.num_records, 4);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    cr_assert_leq(len, 65536);
    cr_expect_eq(memcmp(buf, "OEVW", 4), 0);

    decode_ok(buf, len, &b);
    cr_expect_eq(b.version, 1);
    cr_expect_eq(b.seq, 41);
    cr_expect_eq(b.flags, 0);
    cr_expect_str_eq(b.sender.nspace, "job-ns@1");
    cr_expect_str_eq(b.sender.host, "nodeA");
    cr_expect_eq(b.sender.rank, 7);
    cr_expect_eq(b.sender.pid, 4242);
    cr_assert_eq(b.num_clocks, 1);
    cr_expect_str_eq(b.clocks[0].name, "ompi.wiretest");
    cr_expect_eq(b.clocks[0].ordering, 0);
    cr_expect_eq(b.clocks[0].ticks_per_second, 1000000000ull);
    cr_expect_eq(b.clocks[0].source_ticks, 5000);
    cr_expect_eq(b.clocks[0].realtime_ns, 1700000000123456789LL);
    cr_assert_eq(b.num_types, 1);
    cr_expect_str_eq(b.types[0].name, "ompi.wire_all");
    cr_expect_eq(b.types[0].source, 0);
    cr_assert_eq(b.types[0].num_elements, 6);
    cr_expect_eq(b.types[0].payload_size, 4 + 4 + 8 + 8 + 8 + 1, "packed, no padding");
    {
        const char *names[6] = {"a_i32", "a_u32", "a_i64", "a_u64", "a_double", "a_bool"};
        const uint8_t types[6] = {MCA_COMMON_EVT_WIRE_ELEM_INT32,  MCA_COMMON_EVT_WIRE_ELEM_UINT32,
                                  MCA_COMMON_EVT_WIRE_ELEM_INT64,  MCA_COMMON_EVT_WIRE_ELEM_UINT64,
                                  MCA_COMMON_EVT_WIRE_ELEM_DOUBLE, MCA_COMMON_EVT_WIRE_ELEM_BOOL};
        for (int i = 0; i < 6; ++i) {
            cr_expect_str_eq(b.types[0].elements[i].name, names[i]);
            cr_expect_eq(b.types[0].elements[i].type, types[i]);
            cr_expect_eq(mca_common_evt_wire_element_find(&b.types[0], names[i]), i);
        }
        cr_expect_eq(mca_common_evt_wire_element_find(&b.types[0], "nope"), -1);
    }
    cr_expect_eq(b.num_drops, 0);
    cr_assert_eq(b.num_records, 4);
    while (mca_common_evt_wire_batch_next_record(&b, &cur, &r)) {
        mca_common_evt_wire_value_t v;
        const mca_common_evt_wire_type_t *t = &b.types[r.type];

        cr_assert_lt(k, 4);
        cr_expect_eq(r.timestamp, 5000 + k * 10);
        cr_expect_eq(r.depth, k);
        cr_assert_eq(mca_common_evt_wire_element_value(t, r.payload, 0, &v), OPAL_SUCCESS);
        cr_expect_eq(v.v.i, vals[k].i32);
        cr_assert_eq(mca_common_evt_wire_element_value(t, r.payload, 1, &v), OPAL_SUCCESS);
        cr_expect_eq(v.v.u, vals[k].u32);
        cr_assert_eq(mca_common_evt_wire_element_value(t, r.payload, 2, &v), OPAL_SUCCESS);
        cr_expect_eq(v.v.i, vals[k].i64);
        cr_assert_eq(mca_common_evt_wire_element_value(t, r.payload, 3, &v), OPAL_SUCCESS);
        cr_expect_eq(v.v.u, vals[k].u64);
        cr_assert_eq(mca_common_evt_wire_element_value(t, r.payload, 4, &v), OPAL_SUCCESS);
        cr_expect_eq(memcmp(&v.v.d, &vals[k].d, 8), 0, "double bit-exact");
        cr_assert_eq(mca_common_evt_wire_element_value(t, r.payload, 5, &v), OPAL_SUCCESS);
        cr_expect_eq(v.v.b, vals[k].b);
        cr_expect_eq(v.type, MCA_COMMON_EVT_WIRE_ELEM_BOOL);
        cr_expect_eq(mca_common_evt_wire_element_value(t, r.payload, 6, &v), OPAL_ERR_BAD_PARAM);
        ++k;
    }
    cr_expect_eq(k, 4);
    mca_common_evt_wire_batch_destruct(&b);
    mca_common_evt_wire_batch_destruct(&b); /* twice is harmless */
    mca_common_evt_wire_encoder_destruct(&enc);
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* The same records given as plain descriptors (the byte layer: no engine
 * objects) make the same bytes as the engine's objects do: one format,
 * one encoder. A source without a clock reader puts its fixed pair in the
 * batch. */
Test(wire, descriptors_encode_as_the_engine_objects_do)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wiretest", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev = all_types_event(src, "all");
    static const char *const names[6] = {"a_i32", "a_u32", "a_i64", "a_u64", "a_double", "a_bool"};
    static const uint8_t types[6] = {MCA_COMMON_EVT_WIRE_ELEM_INT32,
                                     MCA_COMMON_EVT_WIRE_ELEM_UINT32,
                                     MCA_COMMON_EVT_WIRE_ELEM_INT64,
                                     MCA_COMMON_EVT_WIRE_ELEM_UINT64,
                                     MCA_COMMON_EVT_WIRE_ELEM_DOUBLE,
                                     MCA_COMMON_EVT_WIRE_ELEM_BOOL};
    const uint32_t offsets[6] = {offsetof(all_payload_t, i32), offsetof(all_payload_t, u32),
                                 offsetof(all_payload_t, i64), offsetof(all_payload_t, u64),
                                 offsetof(all_payload_t, d),   offsetof(all_payload_t, b)};
    const mca_common_evt_wire_source_desc_t dsrc = {.name = "ompi.wiretest",
                                                    .ticks_per_second = 1000000000ull,
                                                    .pair_ticks = 5000,
                                                    .pair_realtime_ns = 1700000000123456789LL};
    const mca_common_evt_wire_type_desc_t dtype = {.name = "ompi.wire_all",
                                                   .source = &dsrc,
                                                   .num_elements = 6,
                                                   .elem_types = types,
                                                   .elem_offsets = offsets,
                                                   .elem_names = names};
    const all_payload_t vals[3] = {{INT32_MIN, UINT32_MAX, INT64_MIN, UINT64_MAX, -0.0, true},
                                   {7, 8, 9, 10, 1.5, false},
                                   {-1, 1, -1, 1, NAN, true}};
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t e1, e2;
    const void *b1, *b2;
    size_t l1, l2;

    sender_init(&snd, 3);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&e1, &snd, 65536), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&e2, &snd, 65536), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&e1, 9, MCA_COMMON_EVT_WIRE_FLAG_FINAL),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&e2, 9, MCA_COMMON_EVT_WIRE_FLAG_FINAL),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_clock(&e1, src, 5000, 1700000000123456789LL),
                 OPAL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        mca_base_event_record_t rec = make_rec(ev, 5000 + i, &vals[i], (uint32_t) i);
        cr_assert_eq(mca_common_evt_wire_encoder_add_record(&e1, &rec), OPAL_SUCCESS);
        cr_assert_eq(mca_common_evt_wire_encoder_add(&e2, &dtype, (uint32_t) i, 5000 + i, &vals[i]),
                     OPAL_SUCCESS);
    }
    cr_assert_eq(mca_common_evt_wire_encoder_add_drops(&e1, ev, 5), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_type_drops(&e2, &dtype, 2), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_type_drops(&e2, &dtype, 3), OPAL_SUCCESS,
                 "summed with the first");
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&e1, &b1, &l1), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&e2, &b2, &l2), OPAL_SUCCESS);
    cr_assert_eq(l1, l2);
    cr_expect_eq(memcmp(b1, b2, l1), 0, "the same bytes");
    mca_common_evt_wire_encoder_destruct(&e1);
    mca_common_evt_wire_encoder_destruct(&e2);
}

/* Descriptors the wire cannot carry are refused, the batch unharmed; a
 * type too big for any batch says so; a depth above 255 is written 255. */
Test(wire, descriptor_errors)
{
    static const uint8_t one_u64[1] = {MCA_COMMON_EVT_WIRE_ELEM_UINT64};
    static const uint8_t bad_type[1] = {99};
    static const uint32_t at0[1] = {0};
    static const char *const bad_elem_name[1] = {"9starts_with_digit"};
    const mca_common_evt_wire_source_desc_t good = {.name = "s.ok", .ticks_per_second = 1000},
                                            no_tps = {.name = "s.ok"},
                                            bad_name = {.name = "s bad", .ticks_per_second = 1};
    mca_common_evt_wire_type_desc_t t = {.name = "t.ok",
                                         .source = &good,
                                         .num_elements = 1,
                                         .elem_types = one_u64,
                                         .elem_offsets = at0};
    mca_common_evt_wire_type_desc_t bad;
    uint64_t v = 42;
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_record_t r;
    const void *buf;
    size_t len, cur = 0;

    sender_init(&snd, 0);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 4096), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add(&enc, &t, 0, 1, &v), OPAL_ERR_BAD_PARAM,
                 "no open batch");
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, NULL, 0, 1, &v), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &t, 0, 1, NULL), OPAL_ERR_BAD_PARAM);
    bad = t, bad.source = NULL;
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &bad, 0, 1, &v), OPAL_ERR_BAD_PARAM);
    bad = t, bad.source = &no_tps;
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &bad, 0, 1, &v), OPAL_ERR_BAD_PARAM);
    bad = t, bad.source = &bad_name;
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &bad, 0, 1, &v), OPAL_ERR_BAD_PARAM);
    bad = t, bad.name = "t/bad";
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &bad, 0, 1, &v), OPAL_ERR_BAD_PARAM);
    bad = t, bad.elem_types = bad_type;
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &bad, 0, 1, &v), OPAL_ERR_BAD_PARAM);
    bad = t, bad.elem_names = bad_elem_name;
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &bad, 0, 1, &v), OPAL_ERR_BAD_PARAM);
    bad = t, bad.num_elements = MCA_COMMON_EVT_WIRE_MAX_ELEMENTS + 1;
    cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &bad, 0, 1, &v), OPAL_ERR_BAD_PARAM);
    {
        /* 32 u64 elements with 120-byte names: a 4 KiB batch never holds it */
        static uint8_t wide_types[32];
        static uint32_t wide_at[32];
        static char wide_names[32][121];
        static const char *wide_np[32];
        static uint64_t wide_vals[32];
        for (int i = 0; i < 32; ++i) {
            wide_types[i] = MCA_COMMON_EVT_WIRE_ELEM_UINT64;
            wide_at[i] = (uint32_t) (8 * i);
            memset(wide_names[i], 'a' + i % 26, 120);
            wide_np[i] = wide_names[i];
        }
        bad = t, bad.num_elements = 32, bad.elem_types = wide_types, bad.elem_offsets = wide_at,
        bad.elem_names = wide_np;
        cr_expect_eq(mca_common_evt_wire_encoder_add(&enc, &bad, 0, 1, wide_vals),
                     OPAL_ERR_VALUE_OUT_OF_BOUNDS);
    }
    cr_expect_eq(enc.num_records, 0, "nothing was added");
    cr_assert_eq(mca_common_evt_wire_encoder_add(&enc, &t, 1000, 77, &v), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_assert_eq(b.num_records, 1);
    cr_assert_eq(b.num_clocks, 1);
    cr_expect_eq(b.clocks[0].source_ticks, 0, "the descriptor's fixed pair (zeros here)");
    cr_assert(mca_common_evt_wire_batch_next_record(&b, &cur, &r));
    cr_expect_eq(r.depth, 255);
    cr_expect_eq(r.timestamp, 77);
    mca_common_evt_wire_batch_destruct(&b);
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* A padded native layout ({i32@0, u64@8}) is packed to 12 bytes; unnamed
 * elements travel with empty names; a payload byte for a bool that is not
 * 0/1 is normalised. */
Test(wire, padded_layout_and_unnamed_elements)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wiretest", MCA_BASE_EVENT_SOURCE_UNORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev = evt_test_event("padded", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    evt_test_payload_t p = {.a = -77, .b = 0xfedcba9876543210ull};
    mca_base_event_record_t rec = make_rec(ev, 9, &p, 0);
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_record_t r;
    mca_common_evt_wire_value_t v;
    const void *buf;
    size_t len, cur = 0;

    sender_init(&snd, 0);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 4096), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &rec), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_expect_eq(b.clocks[0].ordering, 1, "unordered source");
    cr_expect_eq(b.types[0].payload_size, 12);
    cr_expect_str_eq(b.types[0].elements[0].name, "");
    cr_expect_str_eq(b.types[0].elements[1].name, "");
    cr_expect_eq(mca_common_evt_wire_element_find(&b.types[0], ""), -1);
    cr_assert(mca_common_evt_wire_batch_next_record(&b, &cur, &r));
    cr_assert_eq(mca_common_evt_wire_element_value(&b.types[0], r.payload, 0, &v), OPAL_SUCCESS);
    cr_expect_eq(v.v.i, -77);
    cr_expect_eq(v.type, MCA_COMMON_EVT_WIRE_ELEM_INT32);
    cr_assert_eq(mca_common_evt_wire_element_value(&b.types[0], r.payload, 1, &v), OPAL_SUCCESS);
    cr_expect_eq(v.v.u, 0xfedcba9876543210ull);
    cr_expect_not(mca_common_evt_wire_batch_next_record(&b, &cur, &r));
    mca_common_evt_wire_batch_destruct(&b);

    /* a bool byte of 0x02 in the native payload becomes 1 on the wire */
    {
        typedef struct {
            uint8_t raw;
        } braw_t;
        const mca_base_var_type_t types[1] = {MCA_BASE_VAR_TYPE_BOOL};
        const ptrdiff_t offs[1] = {0};
        mca_base_event_t *bev = NULL;
        braw_t raw = {2};
        mca_base_event_record_t brec;

        cr_assert_geq(mca_base_event_register_ptr("ompi", "wire", NULL, "boolish", "",
                                                  OPAL_INFO_LVL_4, 1, types, offs, NULL,
                                                  MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &bev),
                      0);
        brec = make_rec(bev, 1, &raw, 0);
        cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 1, 0), OPAL_SUCCESS);
        cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &brec), OPAL_SUCCESS);
        cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
        decode_ok(buf, len, &b);
        cur = 0;
        cr_assert(mca_common_evt_wire_batch_next_record(&b, &cur, &r));
        cr_expect_eq(r.payload[0], 1);
        mca_common_evt_wire_batch_destruct(&b);
    }
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* The full-batch protocol: add until TEMP_OUT_OF_RESOURCE, finish, begin,
 * add the refused record again. No batch exceeds max_bytes, none is lost,
 * each batch repeats the dictionary it needs. */
Test(wire, full_batch_retry)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wiretest", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev1 = all_types_event(src, "one");
    mca_base_event_t *ev2 = evt_test_event("two", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    const size_t max = 4096;
    const int total = 2000;
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    uint64_t seq = 0;
    int added = 0, decoded = 0, batches = 0, in_earlier = 0;
    int64_t next_ts = 0;

    sender_init(&snd, 3);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, max), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, seq, 0), OPAL_SUCCESS);
    while (added < total) {
        all_payload_t p1 = {.i32 = added, .u64 = (uint64_t) added * 3, .b = added & 1};
        evt_test_payload_t p2 = {.a = added, .b = (uint64_t) added};
        mca_base_event_record_t rec = added % 3 ? make_rec(ev1, added, &p1, 0)
                                                : make_rec(ev2, added, &p2, 0);
        int rc = mca_common_evt_wire_encoder_add_record(&enc, &rec);

        if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
            const void *buf;
            size_t len, cur = 0;
            mca_common_evt_wire_batch_t b;
            mca_common_evt_wire_record_t r;

            cr_assert_gt(enc.num_records, 0, "an empty batch is never full");
            cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
            cr_assert_leq(len, max);
            cr_assert_gt(len, max - 200, "a full batch is nearly full (%zu)", len);
            decode_ok(buf, len, &b);
            cr_expect_eq(b.seq, seq);
            while (mca_common_evt_wire_batch_next_record(&b, &cur, &r)) {
                mca_common_evt_wire_value_t v;
                cr_assert_eq(r.timestamp, next_ts, "records in order, none lost");
                cr_assert_eq(mca_common_evt_wire_element_value(&b.types[r.type], r.payload, 0, &v),
                             OPAL_SUCCESS);
                cr_assert_eq(v.v.i, next_ts);
                ++next_ts;
                ++decoded;
            }
            cr_assert_eq(b.num_records, (uint32_t) (decoded - in_earlier));
            in_earlier = decoded;
            mca_common_evt_wire_batch_destruct(&b);
            ++batches;
            cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, ++seq, 0), OPAL_SUCCESS);
            continue; /* retry the same record */
        }
        cr_assert_eq(rc, OPAL_SUCCESS);
        ++added;
    }
    {
        const void *buf;
        size_t len, cur = 0;
        mca_common_evt_wire_batch_t b;
        mca_common_evt_wire_record_t r;
        cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
        decode_ok(buf, len, &b);
        while (mca_common_evt_wire_batch_next_record(&b, &cur, &r)) {
            cr_assert_eq(r.timestamp, next_ts);
            ++next_ts;
            ++decoded;
        }
        mca_common_evt_wire_batch_destruct(&b);
    }
    cr_expect_eq(decoded, total);
    cr_expect_gt(batches, 10, "%d full batches", batches);
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* Drops: per type, summed, saturating, in the dictionary even without a
 * record; a batch of drops only is valid; count 0 adds nothing. */
Test(wire, drops)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wiretest", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev1 = all_types_event(src, "d1");
    mca_base_event_t *ev2 = evt_test_event("d2", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    evt_test_payload_t p = {1, 2};
    mca_base_event_record_t rec = make_rec(ev2, 5, &p, 0);
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    const void *buf;
    size_t len;

    sender_init(&snd, 1);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 8192), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 9, MCA_COMMON_EVT_WIRE_FLAG_FINAL),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_drops(&enc, ev1, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_expect_eq(b.num_drops, 0, "count 0 adds nothing");
    cr_expect_eq(b.num_types, 0);
    cr_expect_eq(b.num_records, 0);
    cr_expect_eq(b.flags, MCA_COMMON_EVT_WIRE_FLAG_FINAL);
    mca_common_evt_wire_batch_destruct(&b);

    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 10, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_drops(&enc, ev1, 5), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &rec), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_drops(&enc, ev2, 7), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_drops(&enc, ev1, 6), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_drops(&enc, ev2, UINT64_MAX - 1), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_set_flags(&enc, MCA_COMMON_EVT_WIRE_FLAG_FINAL),
                 OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_expect_eq(b.flags, MCA_COMMON_EVT_WIRE_FLAG_FINAL);
    cr_assert_eq(b.num_types, 2);
    cr_assert_eq(b.num_drops, 2);
    cr_assert_eq(b.num_records, 1);
    for (uint32_t i = 0; i < b.num_drops; ++i) {
        const char *n = b.types[b.drops[i].type].name;
        if (0 == strcmp(n, "ompi.wire_d1")) {
            cr_expect_eq(b.drops[i].count, 11);
        } else {
            cr_expect_str_eq(n, "ompi.test_d2");
            cr_expect_eq(b.drops[i].count, UINT64_MAX, "saturates");
        }
    }
    mca_common_evt_wire_batch_destruct(&b);
    cr_expect_eq(mca_common_evt_wire_encoder_add_drops(&enc, ev1, 1), OPAL_ERR_BAD_PARAM,
                 "no open batch after finish");
    mca_common_evt_wire_encoder_destruct(&enc);
}

static opal_count_t second_ticks = 77;
static opal_count_t second_clock(void *ctx)
{
    (void) ctx;
    return second_ticks;
}

static int64_t now_realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The clock flags say which sources read the host's CLOCK_MONOTONIC: a
 * source on the default clock does (CLOCK_MONOTONIC itself, or the TSC kept
 * on it), a producer's own clock does not. */
Test(wire, host_clock_flag)
{
    mca_base_event_source_t *own = evt_test_source("ompi.wireown", MCA_BASE_EVENT_SOURCE_UNORDERED,
                                                   fake_clock, NULL);
    mca_base_event_source_t *host = evt_test_source("ompi.wirehost",
                                                    MCA_BASE_EVENT_SOURCE_UNORDERED, NULL, NULL);
    mca_base_event_t *e1 = evt_test_event("h1", MCA_BASE_VAR_BIND_NO_OBJECT, 0, own);
    mca_base_event_t *e2 = evt_test_event("h2", MCA_BASE_VAR_BIND_NO_OBJECT, 0, host);
    evt_test_payload_t p = {1, 2};
    mca_base_event_record_t r1 = make_rec(e1, 1, &p, 0), r2 = make_rec(e2, 2, &p, 0);
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    const void *buf;
    size_t len;

    cr_expect(mca_base_event_source_on_host_clock(host));
    cr_assert_eq(mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_MONOTONIC), OPAL_SUCCESS);
    cr_expect(mca_base_event_source_on_host_clock(host));
    cr_assert_eq(mca_base_event_clock_set(MCA_BASE_EVENT_CLOCK_AUTO), OPAL_SUCCESS);
    cr_expect(mca_base_event_source_on_host_clock(host));
    cr_expect_not(mca_base_event_source_on_host_clock(own));
    cr_expect_not(mca_base_event_source_on_host_clock(NULL));
    sender_init(&snd, 3);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 8192), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r1), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r2), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_assert_eq(b.num_clocks, 2);
    cr_expect_str_eq(b.clocks[0].name, "ompi.wireown");
    cr_expect_not(b.clocks[0].host_clock, "a producer's own clock");
    cr_expect_eq(b.clocks[0].ordering, 1);
    cr_expect_str_eq(b.clocks[1].name, "ompi.wirehost");
    cr_expect(b.clocks[1].host_clock, "the default clock, CLOCK_MONOTONIC");
    cr_expect_eq(b.clocks[1].ordering, 1, "both flags decoded");
    mca_common_evt_wire_batch_destruct(&b);
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* Clocks: given pairs are carried as given, else sampled at the source's
 * first use (the source's clock and CLOCK_REALTIME together); one entry per
 * source, the type names its source; a pair cannot be given twice or after
 * the source was used. Offsets are carried by every batch after they were
 * added, at most MCA_COMMON_EVT_WIRE_MAX_OFFSETS. */
Test(wire, clocks_and_offsets)
{
    mca_base_event_source_t *s1 = evt_test_source("ompi.wire1", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                  fake_clock, NULL);
    mca_base_event_source_t *s2 = NULL;
    mca_base_event_t *e1 = evt_test_event("c1", MCA_BASE_VAR_BIND_NO_OBJECT, 0, s1);
    mca_base_event_t *e2;
    evt_test_payload_t p = {1, 2};
    mca_base_event_record_t r1 = make_rec(e1, 1, &p, 0), r2;
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_offset_t off = {.local_realtime_ns = 123,
                                        .offset_ns = -456,
                                        .uncertainty_ns = 7};
    const void *buf;
    size_t len;
    int64_t before, after;
    int si;

    si = mca_base_event_source_register("ompi.wire2", "second", MCA_BASE_EVENT_SOURCE_UNORDERED,
                                        1000, OPAL_COUNT_MAX, second_clock, true, NULL);
    cr_assert_geq(si, 0);
    cr_assert_eq(mca_base_event_source_get_by_index(si, &s2), OPAL_SUCCESS);
    e2 = evt_test_event("c2", MCA_BASE_VAR_BIND_NO_OBJECT, 0, s2);
    r2 = make_rec(e2, 2, &p, 0);

    sender_init(&snd, 2);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 8192), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_clock(&enc, s2, 999, 888), OPAL_SUCCESS);
    cr_expect_eq(mca_common_evt_wire_encoder_add_clock(&enc, s2, 1, 1), OPAL_ERR_BAD_PARAM,
                 "twice");
    fake_ticks = 31337;
    before = now_realtime();
    cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r1), OPAL_SUCCESS);
    after = now_realtime();
    cr_expect_eq(mca_common_evt_wire_encoder_add_clock(&enc, s1, 1, 1), OPAL_ERR_BAD_PARAM,
                 "after the source's first record");
    cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r2), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_assert_eq(b.num_clocks, 2);
    cr_expect_str_eq(b.clocks[0].name, "ompi.wire2");
    cr_expect_eq(b.clocks[0].source_ticks, 999);
    cr_expect_eq(b.clocks[0].realtime_ns, 888);
    cr_expect_eq(b.clocks[0].ticks_per_second, 1000);
    cr_expect_eq(b.clocks[0].ordering, 1);
    cr_expect_str_eq(b.clocks[1].name, "ompi.wire1");
    cr_expect_eq(b.clocks[1].source_ticks, 31337, "sampled from the source's clock");
    cr_expect(b.clocks[1].realtime_ns >= before && b.clocks[1].realtime_ns <= after,
              "CLOCK_REALTIME sampled with it");
    cr_assert_eq(b.num_types, 2);
    cr_expect_eq(b.types[0].source, 1, "c1 on ompi.wire1");
    cr_expect_eq(b.types[1].source, 0, "c2 on ompi.wire2");
    cr_expect_eq(b.num_offsets, 0);
    mca_common_evt_wire_batch_destruct(&b);

    for (int i = 0; i < MCA_COMMON_EVT_WIRE_MAX_OFFSETS; ++i) {
        off.local_realtime_ns = 100 + i;
        cr_assert_eq(mca_common_evt_wire_encoder_add_offset(&enc, &off), OPAL_SUCCESS);
    }
    cr_expect_eq(mca_common_evt_wire_encoder_add_offset(&enc, &off), OPAL_ERR_OUT_OF_RESOURCE);
    cr_expect_eq(mca_common_evt_wire_encoder_add_offset(&enc, NULL), OPAL_ERR_BAD_PARAM);
    for (int batch = 0; batch < 2; ++batch) {
        cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 1 + batch, 0), OPAL_SUCCESS);
        cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r1), OPAL_SUCCESS);
        cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
        decode_ok(buf, len, &b);
        cr_assert_eq(b.num_offsets, MCA_COMMON_EVT_WIRE_MAX_OFFSETS, "carried by every batch");
        cr_expect_eq(b.offsets[3].local_realtime_ns, 103);
        cr_expect_eq(b.offsets[3].offset_ns, -456);
        cr_expect_eq(b.offsets[3].uncertainty_ns, 7);
        mca_common_evt_wire_batch_destruct(&b);
    }
    mca_common_evt_wire_encoder_destruct(&enc);
}

static int64_t skewed_realtime(void)
{
    return now_realtime() + 5000000000LL;
}

/* A sample added while a batch is open: the open batch carries it when it
 * has room, else only the next batch does (the open one stays within
 * max_bytes). The CLOCK_REALTIME reader given is the one of every pair
 * the encoder samples itself. */
Test(wire, offsets_into_open_batch_and_realtime_reader)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wire3", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev = evt_test_event("o1", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    evt_test_payload_t p = {1, 2};
    mca_base_event_record_t rec = make_rec(ev, 1, &p, 0);
    mca_common_evt_wire_offset_t off = {.local_realtime_ns = 5,
                                        .offset_ns = -9,
                                        .uncertainty_ns = 1};
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    const void *buf;
    size_t len;
    int64_t before;
    int rc;

    sender_init(&snd, 4);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 4096), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_set_realtime(&enc, skewed_realtime), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    before = now_realtime();
    cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &rec), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_offset(&enc, &off), OPAL_SUCCESS, "room: carried");
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_expect_eq(b.num_offsets, 1);
    cr_expect_geq(b.clocks[0].realtime_ns, before + 5000000000LL, "the reader's time");
    cr_expect_lt(b.clocks[0].realtime_ns, now_realtime() + 5000000000LL);
    mca_common_evt_wire_batch_destruct(&b);

    /* fill the next batch to the last byte the records allow */
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 1, 0), OPAL_SUCCESS);
    while (OPAL_SUCCESS == (rc = mca_common_evt_wire_encoder_add_record(&enc, &rec))) {
    }
    cr_assert_eq(rc, OPAL_ERR_TEMP_OUT_OF_RESOURCE);
    off.local_realtime_ns = 6;
    rc = mca_common_evt_wire_encoder_add_offset(&enc, &off);
    cr_assert(OPAL_SUCCESS == rc || OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    cr_assert_leq(len, 4096);
    decode_ok(buf, len, &b);
    cr_expect_eq(b.num_offsets, OPAL_SUCCESS == rc ? 2u : 1u, "carried only if it fit");
    mca_common_evt_wire_batch_destruct(&b);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 2, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_expect_eq(b.num_offsets, 2, "the next batch carries both");
    mca_common_evt_wire_batch_destruct(&b);
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* Argument checks, and a type that can never fit. */
Test(wire, encoder_errors)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wiretest", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev = evt_test_event("e", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    evt_test_payload_t p = {1, 2};
    mca_base_event_record_t rec = make_rec(ev, 1, &p, 0);
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    const void *buf;
    size_t len;

    sender_init(&snd, 0);
    cr_expect_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 100), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_wire_encoder_construct(&enc, &snd,
                                                       MCA_COMMON_EVT_WIRE_MAX_BATCH + 1),
                 OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_wire_encoder_construct(NULL, &snd, 4096), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_wire_encoder_construct(&enc, NULL, 4096), OPAL_ERR_BAD_PARAM);
    snd.host[0] = '\0';
    cr_expect_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 4096), OPAL_ERR_BAD_PARAM);
    sender_init(&snd, 0);
    snd.nspace[2] = '\n';
    cr_expect_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 4096), OPAL_ERR_BAD_PARAM);
    sender_init(&snd, 0);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 4096), OPAL_SUCCESS);
    cr_expect_eq(mca_common_evt_wire_encoder_add_record(&enc, &rec), OPAL_ERR_BAD_PARAM,
                 "not begun");
    cr_expect_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_wire_encoder_set_flags(&enc, 1), OPAL_ERR_BAD_PARAM);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    cr_expect_eq(mca_common_evt_wire_encoder_add_record(&enc, NULL), OPAL_ERR_BAD_PARAM);
    rec.data = NULL;
    cr_expect_eq(mca_common_evt_wire_encoder_add_record(&enc, &rec), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_wire_encoder_add_drops(&enc, NULL, 1), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(mca_common_evt_wire_encoder_add_clock(&enc, NULL, 1, 1), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(enc.num_records, 0);

    /* 256 bools named 24 characters each: ~6.9 KB of dictionary */
    {
        mca_base_var_type_t types[256];
        ptrdiff_t offs[256];
        char names_buf[256][32];
        const char *names[256];
        uint8_t payload[256] = {0};
        mca_base_event_t *big = NULL;
        mca_base_event_record_t brec;

        for (int i = 0; i < 256; ++i) {
            types[i] = MCA_BASE_VAR_TYPE_BOOL;
            offs[i] = i;
            snprintf(names_buf[i], sizeof(names_buf[i]), "element_number_%09d", i);
            names[i] = names_buf[i];
        }
        cr_assert_geq(mca_base_event_register_ptr("ompi", "wire", NULL, "big", "", OPAL_INFO_LVL_4,
                                                  256, types, offs, NULL,
                                                  MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &big),
                      0);
        cr_assert_eq(mca_base_event_set_element_names(big, names), OPAL_SUCCESS);
        brec = make_rec(big, 1, payload, 0);
        cr_expect_eq(mca_common_evt_wire_encoder_add_record(&enc, &brec),
                     OPAL_ERR_VALUE_OUT_OF_BOUNDS, "never fits into 4096 bytes");
        cr_expect_eq(mca_common_evt_wire_encoder_add_drops(&enc, big, 1),
                     OPAL_ERR_VALUE_OUT_OF_BOUNDS);
        cr_expect_eq(enc.num_records, 0);
        /* and it does fit a larger encoder, where it round-trips */
        {
            mca_common_evt_wire_encoder_t e2;
            mca_common_evt_wire_batch_t b;
            cr_assert_eq(mca_common_evt_wire_encoder_construct(&e2, &snd, 16384), OPAL_SUCCESS);
            cr_assert_eq(mca_common_evt_wire_encoder_begin(&e2, 0, 0), OPAL_SUCCESS);
            payload[200] = 1;
            cr_assert_eq(mca_common_evt_wire_encoder_add_record(&e2, &brec), OPAL_SUCCESS);
            cr_assert_eq(mca_common_evt_wire_encoder_finish(&e2, &buf, &len), OPAL_SUCCESS);
            decode_ok(buf, len, &b);
            cr_expect_eq(b.types[0].num_elements, 256);
            cr_expect_eq(b.types[0].payload_size, 256);
            cr_expect_str_eq(b.types[0].elements[255].name, "element_number_000000255");
            mca_common_evt_wire_batch_destruct(&b);
            mca_common_evt_wire_encoder_destruct(&e2);
        }
    }
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* ------------------------------------------------------------------------
 * The decoder against malformed input
 * ------------------------------------------------------------------------ */

/* A hand-made batch builder: sections are appended raw. */
typedef struct {
    uint8_t buf[8192];
    size_t len;
    uint32_t nsections;
} craft_t;

static void c_u8(craft_t *c, uint8_t v)
{
    c->buf[c->len++] = v;
}
static void c_u16(craft_t *c, uint16_t v)
{
    wire_put16(c->buf + c->len, v);
    c->len += 2;
}
static void c_u32(craft_t *c, uint32_t v)
{
    wire_put32(c->buf + c->len, v);
    c->len += 4;
}
static void c_u64(craft_t *c, uint64_t v)
{
    wire_put64(c->buf + c->len, v);
    c->len += 8;
}
static void c_str(craft_t *c, const char *s)
{
    size_t n = strlen(s);
    c_u16(c, (uint16_t) n);
    memcpy(c->buf + c->len, s, n);
    c->len += n;
}
static void c_begin(craft_t *c)
{
    memset(c, 0, sizeof(*c));
    memcpy(c->buf, "OEVW", 4);
    wire_put16(c->buf + 4, 1);
    wire_put16(c->buf + 6, 32);
    c->len = 32;
}
/* Open a section; returns where its length goes. */
static size_t c_sec(craft_t *c, uint16_t kind, uint16_t flags)
{
    size_t at;
    c_u16(c, kind);
    c_u16(c, flags);
    at = c->len;
    c_u32(c, 0);
    c->nsections++;
    return at;
}
static void c_end_sec(craft_t *c, size_t at)
{
    wire_put32(c->buf + at, (uint32_t) (c->len - at - 4));
}
static void c_finish(craft_t *c)
{
    wire_put32(c->buf + 12, c->nsections);
    wire_put32(c->buf + 24, (uint32_t) c->len);
}
static void c_sender(craft_t *c, const char *ns, const char *host)
{
    size_t at = c_sec(c, MCA_COMMON_EVT_WIRE_SECTION_SENDER, 1);
    c_str(c, ns);
    c_u32(c, 5);
    c_str(c, host);
    c_u32(c, 99);
    c_end_sec(c, at);
}
static void c_clock(craft_t *c, const char *name, uint8_t ordering, uint64_t tps)
{
    size_t at = c_sec(c, MCA_COMMON_EVT_WIRE_SECTION_CLOCKS, 1);
    c_u16(c, 1);
    c_str(c, name);
    c_u8(c, ordering);
    c_u64(c, tps);
    c_u64(c, 10);
    c_u64(c, 20);
    c_end_sec(c, at);
}
/* One type {u32 "x", bool "flag"} on source @p src (elements as given). */
static void c_type(craft_t *c, uint16_t src, const char *name, uint8_t t0, const char *n0,
                   uint8_t t1, const char *n1)
{
    size_t at = c_sec(c, MCA_COMMON_EVT_WIRE_SECTION_TYPES, 1);
    c_u16(c, 1);
    c_u16(c, src);
    c_str(c, name);
    c_u16(c, 2);
    c_u8(c, t0);
    c_str(c, n0);
    c_u8(c, t1);
    c_str(c, n1);
    c_end_sec(c, at);
}
/* n records of type @p id, payload u32 + bool byte @p flag. */
static void c_records(craft_t *c, uint32_t count_field, uint32_t n, uint16_t id, uint8_t flag)
{
    size_t at = c_sec(c, MCA_COMMON_EVT_WIRE_SECTION_RECORDS, 1);
    c_u32(c, count_field);
    for (uint32_t i = 0; i < n; ++i) {
        c_u16(c, id);
        c_u8(c, 0);
        c_u8(c, 0);
        c_u64(c, 1000 + i);
        c_u32(c, i);
        c_u8(c, flag);
    }
    c_end_sec(c, at);
}
/* A valid crafted batch. */
static void c_valid(craft_t *c)
{
    c_begin(c);
    c_sender(c, "ns", "host");
    c_clock(c, "src", 0, 1000000000);
    c_type(c, 0, "ev.x", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "x", MCA_COMMON_EVT_WIRE_ELEM_BOOL,
           "flag");
    c_records(c, 3, 3, 0, 1);
    c_finish(c);
}

/* A batch begun with its sender section (nspace "ns", host "h"). */
static void c_begin_sender(craft_t *c)
{
    c_begin(c);
    c_sender(c, "ns", "h");
}
/* ... and one clock section (source "src", unordered, 1 tick per second). */
static void c_begin_clock(craft_t *c)
{
    c_begin_sender(c);
    c_clock(c, "src", 0, 1);
}
/* ... and one type section (type 0: "e" {u32 "x", bool "y"} on source 0). */
static void c_begin_type(craft_t *c)
{
    c_begin_clock(c);
    c_type(c, 0, "e", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "x", MCA_COMMON_EVT_WIRE_ELEM_BOOL, "y");
}

static void expect_reject(const craft_t *c, int code, const char *what)
{
    mca_common_evt_wire_batch_t b;
    int rc = mca_common_evt_wire_decode(c->buf, c->len, &b);
    cr_expect_eq(rc, code, "%s: rc %d (%s)", what, rc, NULL == b.error ? "-" : b.error);
    cr_expect_not_null(b.error, "%s: the reason is given", what);
    cr_expect_null(b.storage, "%s: nothing to free", what);
    cr_expect_eq(b.num_records, 0);
    mca_common_evt_wire_batch_destruct(&b);
}

Test(wire, crafted_valid_batch_decodes)
{
    craft_t c;
    mca_common_evt_wire_batch_t b;
    mca_common_evt_wire_record_t r;
    size_t cur = 0;
    int n = 0;

    c_valid(&c);
    decode_ok(c.buf, c.len, &b);
    cr_expect_eq(b.num_records, 3);
    cr_expect_str_eq(b.sender.host, "host");
    while (mca_common_evt_wire_batch_next_record(&b, &cur, &r)) {
        mca_common_evt_wire_value_t v;
        cr_assert_eq(mca_common_evt_wire_element_value(&b.types[0], r.payload, 0, &v),
                     OPAL_SUCCESS);
        cr_expect_eq(v.v.u, (uint64_t) n);
        ++n;
    }
    cr_expect_eq(n, 3);
    mca_common_evt_wire_batch_destruct(&b);
}

/* Type sections rejected: one type "name" {t0 n0, bool n1} on source src
 * after one clock. */
static const struct {
    uint16_t src;
    const char *name;
    uint8_t t0;
    const char *n0, *n1;
    const char *why;
} bad_types[] = {
    {1, "e", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "x", "y", "source id out of range"},
    {0, "e", 7, "x", "y", "element type 7"},
    {0, "e", 0, "x", "y", "element type 0"},
    {0, "e", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "x", "x", "repeated element name"},
    {0, "e", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "9x", "y", "element name starting with a digit"},
    {0, "e\"vil", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "x", "y", "quote in an event name"},
    {0, "", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "x", "y", "empty event name"},
};

/* Record sections rejected after the type "e" {u32 x, bool y}: c_records()
 * with these arguments. */
static const struct {
    uint32_t count_field, n;
    uint16_t id;
    uint8_t flag;
    const char *why;
} bad_records[] = {
    {2, 2, 1, 0, "record of an unknown type"},
    {2, 2, 0, 2, "boolean 2"},
    {3, 2, 0, 0, "record count larger than the records"},
    {1, 2, 0, 0, "record count smaller: trailing bytes"},
    {0xffffffffu, 1, 0, 0, "huge record count"},
};

Test(wire, malformed_batches_rejected)
{
    craft_t c;
    size_t at;

    /* header */
    c_valid(&c);
    c.buf[0] = 'X';
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "bad magic");
    c_valid(&c);
    wire_put16(c.buf + 4, 2);
    expect_reject(&c, OPAL_ERR_NOT_SUPPORTED, "version 2");
    c_valid(&c);
    wire_put16(c.buf + 6, 16);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "header length < 32");
    c_valid(&c);
    wire_put16(c.buf + 6, 60000);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "header length > batch");
    c_valid(&c);
    wire_put32(c.buf + 24, (uint32_t) c.len + 1);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "length field larger");
    c_valid(&c);
    wire_put32(c.buf + 12, 100000);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "section count larger than the batch");
    c_valid(&c);
    wire_put32(c.buf + 12, 3);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "section count smaller: trailing bytes");
    c_valid(&c);
    c.len = 31;
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "shorter than a header");

    /* sections */
    c_begin(&c);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "no sections");
    c_begin(&c);
    c_clock(&c, "src", 0, 1);
    c_sender(&c, "ns", "h");
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "sender not first");
    c_begin_sender(&c);
    c_sender(&c, "ns", "h");
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "sender twice");
    c_begin_sender(&c);
    c_type(&c, 0, "e", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "x", MCA_COMMON_EVT_WIRE_ELEM_BOOL, "y");
    c_clock(&c, "src", 0, 1);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "types before clocks (source id unknown)");
    c_begin_sender(&c);
    at = c_sec(&c, 77, MCA_COMMON_EVT_WIRE_SECTION_REQUIRED);
    c_u32(&c, 1);
    c_end_sec(&c, at);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_NOT_SUPPORTED, "unknown required section");
    c_valid(&c);
    wire_put32(c.buf + 32 + 4, 60000);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "section longer than the batch");

    /* sender */
    c_begin(&c);
    c_sender(&c, "", "h");
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "empty nspace");
    c_begin(&c);
    c_sender(&c, "ns", "bad\x01host");
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "control character in host");
    c_begin(&c);
    at = c_sec(&c, MCA_COMMON_EVT_WIRE_SECTION_SENDER, 1);
    c_str(&c, "ns");
    c_u32(&c, 1);
    c_end_sec(&c, at);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "sender truncated");

    /* clocks */
    c_begin_sender(&c);
    c_clock(&c, "src", 4, 1);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "clock flag 0x4");
    c_begin_sender(&c);
    c_clock(&c, "src", 0, 0);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "0 ticks per second");
    c_begin_sender(&c);
    c_clock(&c, "src name", 0, 1);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "space in a source name");
    c_begin_sender(&c);
    at = c_sec(&c, MCA_COMMON_EVT_WIRE_SECTION_CLOCKS, 1);
    c_u16(&c, 5000);
    c_end_sec(&c, at);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "clock count larger than the section");

    /* types */
    for (size_t i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); ++i) {
        c_begin_clock(&c);
        c_type(&c, bad_types[i].src, bad_types[i].name, bad_types[i].t0, bad_types[i].n0,
               MCA_COMMON_EVT_WIRE_ELEM_BOOL, bad_types[i].n1);
        c_finish(&c);
        expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, bad_types[i].why);
    }
    /* 33 u64 elements: 264 bytes of payload */
    c_begin_clock(&c);
    at = c_sec(&c, MCA_COMMON_EVT_WIRE_SECTION_TYPES, 1);
    c_u16(&c, 1);
    c_u16(&c, 0);
    c_str(&c, "e");
    c_u16(&c, 33);
    for (int i = 0; i < 33; ++i) {
        c_u8(&c, MCA_COMMON_EVT_WIRE_ELEM_UINT64);
        c_str(&c, "");
    }
    c_end_sec(&c, at);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "payload over 256 bytes");
    c_begin_clock(&c);
    at = c_sec(&c, MCA_COMMON_EVT_WIRE_SECTION_TYPES, 1);
    c_u16(&c, 1);
    c_u16(&c, 0);
    c_str(&c, "e");
    c_u16(&c, 257);
    c_end_sec(&c, at);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "257 elements");

    /* drops */
    c_begin_type(&c);
    at = c_sec(&c, MCA_COMMON_EVT_WIRE_SECTION_DROPS, 1);
    c_u16(&c, 1);
    c_u16(&c, 1);
    c_u64(&c, 5);
    c_end_sec(&c, at);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "drop of an unknown type");
    c_begin_type(&c);
    at = c_sec(&c, MCA_COMMON_EVT_WIRE_SECTION_DROPS, 1);
    c_u16(&c, 2);
    c_u16(&c, 0);
    c_u64(&c, 5);
    c_end_sec(&c, at);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "drop count larger than the section");

    /* records */
    for (size_t i = 0; i < sizeof(bad_records) / sizeof(bad_records[0]); ++i) {
        c_begin_type(&c);
        c_records(&c, bad_records[i].count_field, bad_records[i].n, bad_records[i].id,
                  bad_records[i].flag);
        c_finish(&c);
        expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, bad_records[i].why);
    }
    c_begin_sender(&c);
    c_records(&c, 1, 1, 0, 0);
    c_finish(&c);
    expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, "records without types");

    /* NULL arguments */
    cr_expect_eq(mca_common_evt_wire_decode(c.buf, c.len, NULL), OPAL_ERR_BAD_PARAM);
    {
        mca_common_evt_wire_batch_t b;
        cr_expect_eq(mca_common_evt_wire_decode(NULL, 10, &b), OPAL_ERR_BAD_PARAM);
        cr_expect_eq(mca_common_evt_wire_decode(c.buf, (size_t) MCA_COMMON_EVT_WIRE_MAX_BATCH + 1,
                                                &b),
                     OPAL_ERR_UNPACK_FAILURE);
    }
}

/* An unknown section without the required flag is skipped; the header may
 * be longer than 32 bytes (a later version's fields are skipped). */
Test(wire, forward_compatible_additions)
{
    craft_t c;
    mca_common_evt_wire_batch_t b;
    size_t at;

    c_begin(&c);
    wire_put16(c.buf + 6, 40); /* 8 more header bytes */
    c.len = 40;
    c_sender(&c, "ns", "h");
    at = c_sec(&c, 99, 0);
    c_u64(&c, 0x1234);
    c_end_sec(&c, at);
    c_clock(&c, "src", 0, 1000);
    c_type(&c, 0, "e", MCA_COMMON_EVT_WIRE_ELEM_UINT32, "x", MCA_COMMON_EVT_WIRE_ELEM_BOOL, "y");
    c_records(&c, 1, 1, 0, 1);
    c_finish(&c);
    decode_ok(c.buf, c.len, &b);
    cr_expect_eq(b.num_records, 1);
    cr_expect_eq(b.num_clocks, 1);
    mca_common_evt_wire_batch_destruct(&b);
}

/* Every prefix of a valid encoded batch is rejected; every single-byte
 * change either decodes (to something valid) or is rejected, and never
 * reads outside the buffer (checked under ASan in make check-sanitize);
 * peek agrees with decode on the header. */
Test(wire, every_truncation_and_flip)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wiretest", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev = all_types_event(src, "flip");
    mca_base_event_t *ev2 = evt_test_event("flip2", MCA_BASE_VAR_BIND_NO_OBJECT, 0, src);
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_offset_t off = {1, 2, 3};
    const void *buf;
    uint8_t *copy;
    size_t len;
    int accepted = 0, rejected = 0;

    sender_init(&snd, 1);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 4096), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_offset(&enc, &off), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 77, MCA_COMMON_EVT_WIRE_FLAG_FINAL),
                 OPAL_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        all_payload_t p = {.i32 = i, .b = true};
        evt_test_payload_t q = {i, 1};
        mca_base_event_record_t r = make_rec(ev, i, &p, 0);
        mca_base_event_record_t r2 = make_rec(ev2, i, &q, 1);
        cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r), OPAL_SUCCESS);
        cr_assert_eq(mca_common_evt_wire_encoder_add_record(&enc, &r2), OPAL_SUCCESS);
    }
    cr_assert_eq(mca_common_evt_wire_encoder_add_drops(&enc, ev2, 3), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    {
        uint64_t seq;
        uint32_t flags;
        cr_assert_eq(mca_common_evt_wire_peek(buf, len, &seq, &flags), OPAL_SUCCESS);
        cr_expect_eq(seq, 77);
        cr_expect_eq(flags, MCA_COMMON_EVT_WIRE_FLAG_FINAL);
        cr_expect_eq(mca_common_evt_wire_peek(buf, len - 1, &seq, &flags), OPAL_ERR_UNPACK_FAILURE);
    }
    for (size_t cut = 0; cut < len; ++cut) {
        mca_common_evt_wire_batch_t b;
        copy = malloc(cut + 1); /* exact-size copy: ASan sees any overread */
        memcpy(copy, buf, cut);
        cr_assert_neq(mca_common_evt_wire_decode(copy, cut, &b), OPAL_SUCCESS, "prefix of %zu",
                      cut);
        mca_common_evt_wire_batch_destruct(&b);
        free(copy);
    }
    copy = malloc(len);
    for (size_t i = 0; i < len; ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            mca_common_evt_wire_batch_t b;
            int rc;
            memcpy(copy, buf, len);
            copy[i] ^= (uint8_t) (1u << bit);
            rc = mca_common_evt_wire_decode(copy, len, &b);
            if (OPAL_SUCCESS == rc) {
                mca_common_evt_wire_record_t r;
                size_t cur = 0;
                uint32_t n = 0;
                ++accepted;
                while (mca_common_evt_wire_batch_next_record(&b, &cur, &r)) {
                    cr_assert_lt(r.type, b.num_types);
                    ++n;
                }
                cr_assert_eq(n, b.num_records);
            } else {
                cr_assert(OPAL_ERR_UNPACK_FAILURE == rc || OPAL_ERR_NOT_SUPPORTED == rc,
                          "byte %zu bit %d: rc %d", i, bit, rc);
                cr_assert_not_null(b.error);
                ++rejected;
            }
            mca_common_evt_wire_batch_destruct(&b);
        }
    }
    free(copy);
    cr_expect_gt(accepted, 0, "payload and timestamp bits are data");
    cr_expect_gt(rejected, 0);
    mca_common_evt_wire_encoder_destruct(&enc);
}

Test(wire, crc32c_known_values)
{
    const char *v = "123456789";
    uint8_t zeros[32] = {0};
    uint8_t big[1000];

    cr_expect_eq(mca_common_evt_wire_crc32c(0, v, 9), 0xE3069283u);
    cr_expect_eq(mca_common_evt_wire_test_crc32c_sw(0, v, 9), 0xE3069283u);
    cr_expect_eq(mca_common_evt_wire_crc32c(0, zeros, 32), 0x8A9136AAu); /* RFC 3720 B.4 */
    for (size_t i = 0; i < sizeof(big); ++i) {
        big[i] = (uint8_t) (i * 7 + 3);
    }
    for (size_t n = 0; n < 40; ++n) {
        cr_expect_eq(mca_common_evt_wire_crc32c(0, big + n, sizeof(big) - n),
                     mca_common_evt_wire_test_crc32c_sw(0, big + n, sizeof(big) - n), "offset %zu",
                     n);
    }
    /* incremental == one shot */
    cr_expect_eq(mca_common_evt_wire_crc32c(mca_common_evt_wire_crc32c(0, big, 333), big + 333,
                                            667),
                 mca_common_evt_wire_crc32c(0, big, 1000));
}

Test(wire, element_type_helpers)
{
    cr_expect_eq(mca_common_evt_wire_elem_size(MCA_COMMON_EVT_WIRE_ELEM_INT32), 4);
    cr_expect_eq(mca_common_evt_wire_elem_size(MCA_COMMON_EVT_WIRE_ELEM_UINT64), 8);
    cr_expect_eq(mca_common_evt_wire_elem_size(MCA_COMMON_EVT_WIRE_ELEM_BOOL), 1);
    cr_expect_eq(mca_common_evt_wire_elem_size(0), 0);
    cr_expect_eq(mca_common_evt_wire_elem_size(7), 0);
    cr_expect_str_eq(mca_common_evt_wire_elem_name(MCA_COMMON_EVT_WIRE_ELEM_DOUBLE), "double");
    cr_expect_str_eq(mca_common_evt_wire_elem_name(99), "?");
}

/* ------------------------------------------------------------------------
 * Native layouts (the flight recorder's dictionary entries)
 * ------------------------------------------------------------------------ */

/* A type entered with its layout, from the engine object and from a
 * descriptor: a batch without records whose LAYOUTS section the decoder
 * returns as written. */
Test(wire, layouts_round_trip)
{
    mca_base_event_source_t *src = evt_test_source("ompi.wiretest", MCA_BASE_EVENT_SOURCE_ORDERED,
                                                   fake_clock, NULL);
    mca_base_event_t *ev = all_types_event(src, "layout");
    static const uint8_t t1[2] = {MCA_COMMON_EVT_WIRE_ELEM_BOOL, MCA_COMMON_EVT_WIRE_ELEM_DOUBLE};
    static const uint32_t o1[2] = {3, 16};
    const mca_common_evt_wire_source_desc_t dsrc = {.name = "other", .ticks_per_second = 10};
    const mca_common_evt_wire_type_desc_t dtype = {.name = "d.type",
                                                   .source = &dsrc,
                                                   .num_elements = 2,
                                                   .elem_types = t1,
                                                   .elem_offsets = o1};
    const mca_common_evt_wire_layout_t dl = {.event_index = 7,
                                             .source_index = 4,
                                             .max_ticks = 99,
                                             .extent = 24,
                                             .flags = 0x5,
                                             .bind = 3};
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    const void *buf;
    size_t len;

    sender_init(&snd, 1);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 65536), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_type(&enc, ev), OPAL_ERR_BAD_PARAM,
                 "no open batch");
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 4, 0), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_type(&enc, ev), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_add_type(&enc, ev), OPAL_ERR_BAD_PARAM,
                 "a second layout of one type");
    cr_assert_eq(mca_common_evt_wire_encoder_add_type_desc(&enc, &dtype, &dl), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_assert_eq(b.num_records, 0);
    cr_assert_eq(b.num_types, 2);
    cr_assert_eq(b.num_clocks, 2);
    cr_assert_eq(b.num_layouts, 2);
    cr_expect_eq(b.layouts[0].type, 0);
    cr_expect_eq(b.layouts[0].event_index, ev->index);
    cr_expect_eq(b.layouts[0].source_index, src->index);
    cr_expect_eq(b.layouts[0].max_ticks, (int64_t) src->max_ticks);
    cr_expect_eq(b.layouts[0].extent, (uint32_t) ev->extent);
    cr_expect_eq(b.layouts[0].flags, ev->flags);
    cr_expect_eq(b.layouts[0].bind, ev->bind);
    for (int i = 0; i < ev->num_elements; ++i) {
        cr_expect_eq(b.layouts[0].offsets[i], (uint16_t) ev->offsets[i], "element %d", i);
    }
    cr_expect_str_eq(b.types[0].elements[5].name, "a_bool");
    cr_expect_eq(b.layouts[1].type, 1);
    cr_expect_eq(b.layouts[1].event_index, 7);
    cr_expect_eq(b.layouts[1].source_index, 4);
    cr_expect_eq(b.layouts[1].max_ticks, 99);
    cr_expect_eq(b.layouts[1].extent, 24);
    cr_expect_eq(b.layouts[1].flags, 0x5u);
    cr_expect_eq(b.layouts[1].bind, 3);
    cr_expect_eq(b.layouts[1].offsets[0], 3);
    cr_expect_eq(b.layouts[1].offsets[1], 16);
    cr_expect_str_eq(b.clocks[b.types[1].source].name, "other");
    mca_common_evt_wire_batch_destruct(&b);
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* Layouts the encoder refuses, the batch unharmed. */
Test(wire, layout_errors)
{
    static const uint8_t t1[1] = {MCA_COMMON_EVT_WIRE_ELEM_UINT64};
    static const uint32_t o1[1] = {8};
    const mca_common_evt_wire_source_desc_t dsrc = {.name = "s", .ticks_per_second = 10};
    const mca_common_evt_wire_type_desc_t dtype = {.name = "t",
                                                   .source = &dsrc,
                                                   .num_elements = 1,
                                                   .elem_types = t1,
                                                   .elem_offsets = o1};
    const mca_common_evt_wire_layout_t good = {.max_ticks = 1, .extent = 16};
    const struct {
        mca_common_evt_wire_layout_t l;
        const char *why;
    } bad[] = {
        {{.max_ticks = 1, .extent = 15}, "the element beyond the extent"},
        {{.max_ticks = 1, .extent = 257}, "an extent above the largest payload"},
        {{.event_index = -1, .max_ticks = 1, .extent = 16}, "a negative event index"},
        {{.source_index = -2, .max_ticks = 1, .extent = 16}, "a negative source index"},
        {{.max_ticks = 0, .extent = 16}, "max ticks 0"},
    };
    mca_common_evt_wire_sender_t snd;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_batch_t b;
    const void *buf;
    size_t len;

    sender_init(&snd, 0);
    cr_assert_eq(mca_common_evt_wire_encoder_construct(&enc, &snd, 4096), OPAL_SUCCESS);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 0, 0), OPAL_SUCCESS);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
        cr_expect_eq(mca_common_evt_wire_encoder_add_type_desc(&enc, &dtype, &bad[i].l),
                     OPAL_ERR_BAD_PARAM, "%s", bad[i].why);
    }
    cr_expect_eq(mca_common_evt_wire_encoder_add_type_desc(&enc, &dtype, NULL), OPAL_ERR_BAD_PARAM);
    cr_assert_eq(mca_common_evt_wire_encoder_finish(&enc, &buf, &len), OPAL_SUCCESS);
    decode_ok(buf, len, &b);
    cr_expect_eq(b.num_types, 0, "refused layouts add no type");
    cr_expect_eq(b.num_layouts, 0);
    mca_common_evt_wire_batch_destruct(&b);
    cr_assert_eq(mca_common_evt_wire_encoder_begin(&enc, 1, 0), OPAL_SUCCESS);
    cr_expect_eq(mca_common_evt_wire_encoder_add_type_desc(&enc, &dtype, &good), OPAL_SUCCESS);
    mca_common_evt_wire_encoder_destruct(&enc);
}

/* One crafted LAYOUTS entry for the type "e" {u32 x, bool y}. */
static void c_layout(craft_t *c, uint16_t count, uint16_t type, int32_t ev, int64_t max,
                     uint32_t extent, uint16_t off0, uint16_t off1)
{
    size_t at = c_sec(c, MCA_COMMON_EVT_WIRE_SECTION_LAYOUTS, 0);
    c_u16(c, count);
    for (uint16_t i = 0; i < count; ++i) {
        c_u16(c, type);
        c_u32(c, (uint32_t) ev);
        c_u32(c, 0);
        c_u64(c, (uint64_t) max);
        c_u32(c, extent);
        c_u32(c, 0);
        c_u32(c, 0);
        c_u16(c, off0);
        c_u16(c, off1);
    }
    c_end_sec(c, at);
}

Test(wire, malformed_layouts_rejected)
{
    static const struct {
        uint16_t count, type;
        int32_t ev;
        int64_t max;
        uint32_t extent;
        uint16_t off0, off1;
        const char *why;
    } bad[] = {
        {1, 1, 0, 1, 8, 0, 4, "type id out of range"},
        {2, 0, 0, 1, 8, 0, 4, "two layouts of one type"},
        {1, 0, -1, 1, 8, 0, 4, "negative event index"},
        {1, 0, 0, 0, 8, 0, 4, "max ticks 0"},
        {1, 0, 0, 1, 300, 0, 4, "extent above 256"},
        {1, 0, 0, 1, 8, 5, 4, "u32 element beyond the extent"},
        {1, 0, 0, 1, 8, 0, 8, "bool element at the extent"},
    };
    craft_t c;
    mca_common_evt_wire_batch_t b;

    /* the valid one first */
    c_begin_type(&c);
    c_records(&c, 0, 0, 0, 0);
    c_layout(&c, 1, 0, 3, 1, 8, 0, 4);
    c_finish(&c);
    decode_ok(c.buf, c.len, &b);
    cr_assert_eq(b.num_layouts, 1);
    cr_expect_eq(b.layouts[0].event_index, 3);
    cr_expect_eq(b.layouts[0].offsets[1], 4);
    mca_common_evt_wire_batch_destruct(&b);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
        c_begin_type(&c);
        c_records(&c, 0, 0, 0, 0);
        c_layout(&c, bad[i].count, bad[i].type, bad[i].ev, bad[i].max, bad[i].extent, bad[i].off0,
                 bad[i].off1);
        c_finish(&c);
        expect_reject(&c, OPAL_ERR_UNPACK_FAILURE, bad[i].why);
    }
    /* cut inside the entry's offsets */
    c_begin_type(&c);
    c_records(&c, 0, 0, 0, 0);
    c_layout(&c, 1, 0, 3, 1, 8, 0, 4);
    c.len -= 2; /* the body: count 2, entry head 30, one offset of two */
    wire_put32(c.buf + c.len - (2 + 30 + 2) - 4, 2 + 30 + 2);
    c_finish(&c);
    cr_expect_eq(mca_common_evt_wire_decode(c.buf, c.len, &b), OPAL_ERR_UNPACK_FAILURE);
    cr_expect_str_eq(b.error, "layouts: truncated offsets");
    mca_common_evt_wire_batch_destruct(&b);
}
