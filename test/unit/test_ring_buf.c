/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Unit tests: the SPSC ring primitive (ompi/mca/evt/base/evt_base_ring.h),
 * single-threaded (the two-thread test is test/stress/stress_ring_spsc.c). */
#include "ompi_config.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <stdlib.h>

#include "ompi/mca/evt/base/evt_base_ring.h"

static uint64_t storage[8192]; /* 64 KiB, 8-byte aligned */
static ompi_evt_ring_ctl_t ctl;

static ompi_evt_ring_spsc_t *make_ring(unsigned int capacity, unsigned int start)
{
    static ompi_evt_ring_spsc_t ring;
    cr_assert(ompi_evt_ring_spsc_init(&ring, &ctl, storage, capacity, start, false));
    return &ring;
}

/* Pop one record into buf; returns its length in bytes (rounded) or -1. */
static int pop(ompi_evt_ring_spsc_t *ring, void *buf, size_t max)
{
    const ompi_evt_ring_hdr_t *hdr;
    size_t len;

    if (NULL == (hdr = ompi_evt_ring_spsc_peek(ring))) {
        (void) ompi_evt_ring_spsc_refresh(ring);
        if (NULL == (hdr = ompi_evt_ring_spsc_peek(ring))) {
            return -1;
        }
    }
    len = hdr->size - sizeof(*hdr);
    cr_assert_leq(len, max);
    memcpy(buf, hdr + 1, len);
    ompi_evt_ring_spsc_consume(ring, hdr);
    ompi_evt_ring_spsc_release(ring);
    return (int) len;
}

Test(ring_buf, rejects_bad_geometry)
{
    ompi_evt_ring_spsc_t ring;

    cr_expect_not(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 1000, 0, false), "not a power of two");
    cr_expect_not(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 96, 0, false), "not a power of two");
    cr_expect_not(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 32, 0, false), "below the minimum");
    cr_expect_not(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 0, 0, false), "zero");
    cr_expect_not(ompi_evt_ring_spsc_init(&ring, &ctl, (char *) storage + 4, 1024, 0, false), "misaligned");
    cr_expect_not(ompi_evt_ring_spsc_init(&ring, &ctl, NULL, 1024, 0, false), "no buffer");
    cr_expect_not(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 1024, UINT_MAX - 100, false),
                  "positions are multiples of 8");
    cr_expect(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 1024, 0, false));
}

Test(ring_buf, record_sizes)
{
    cr_expect_eq(ompi_evt_ring_record_size(0), 8);
    cr_expect_eq(ompi_evt_ring_record_size(1), 16);
    cr_expect_eq(ompi_evt_ring_record_size(16), 24);
    cr_expect_eq(ompi_evt_ring_record_size(17), 32);
    cr_expect_eq(ompi_evt_ring_record_size(256), 264);
}

Test(ring_buf, empty_then_fifo_order)
{
    ompi_evt_ring_spsc_t *ring = make_ring(1024, 0);
    uint64_t v, out;

    cr_expect(ompi_evt_ring_spsc_empty(ring));
    cr_expect_eq(pop(ring, &out, sizeof(out)), -1);
    for (v = 0; v < 20; ++v) {
        cr_assert(ompi_evt_ring_spsc_push(ring, &v, sizeof(v), OMPI_EVT_RING_KIND_USER));
    }
    cr_expect_not(ompi_evt_ring_spsc_empty(ring));
    for (v = 0; v < 20; ++v) {
        cr_assert_eq(pop(ring, &out, sizeof(out)), 8);
        cr_expect_eq(out, v);
    }
    cr_expect(ompi_evt_ring_spsc_empty(ring));
}

Test(ring_buf, uncommitted_is_invisible)
{
    ompi_evt_ring_spsc_t *ring = make_ring(1024, 0);
    uint64_t *p = ompi_evt_ring_spsc_reserve(ring, 8, OMPI_EVT_RING_KIND_USER);
    uint64_t out;

    cr_assert_not_null(p);
    *p = 42;
    cr_expect(ompi_evt_ring_spsc_empty(ring), "a reservation is not visible before commit");
    ompi_evt_ring_spsc_commit(ring);
    cr_expect_eq(pop(ring, &out, sizeof(out)), 8);
    cr_expect_eq(out, 42);
}

Test(ring_buf, variable_lengths_keep_their_bytes)
{
    ompi_evt_ring_spsc_t *ring = make_ring(4096, 0);
    unsigned char in[256], out[264];
    int round, len, got, i;

    /* Many laps of a 4 KiB ring with lengths 0..256, contents checked. */
    for (round = 0; round < 2000; ++round) {
        len = (round * 37) % 257;
        for (i = 0; i < len; ++i) {
            in[i] = (unsigned char) (round + i);
        }
        cr_assert(ompi_evt_ring_spsc_push(ring, in, len, OMPI_EVT_RING_KIND_USER + 1));
        got = pop(ring, out, sizeof(out));
        cr_assert_eq(got, (int) ompi_evt_ring_record_size(len) - 8);
        cr_assert_eq(memcmp(in, out, len), 0, "round %d", round);
    }
}

Test(ring_buf, small_records_take_little_room)
{
    ompi_evt_ring_spsc_t *ring = make_ring(1024, 0);
    uint64_t payload[2] = {1, 2};
    int n = 0;

    while (ompi_evt_ring_spsc_push(ring, payload, sizeof(payload), OMPI_EVT_RING_KIND_USER)) {
        ++n;
    }
    /* 16-byte payload + 8-byte header = 24 bytes: 1024 / 24 = 42 records. */
    cr_expect_eq(n, 1024 / 24);
}

Test(ring_buf, wrap_of_positions_near_uint_max)
{
    /* Start 104 bytes before the 32-bit counters wrap, then run many laps. */
    ompi_evt_ring_spsc_t *ring = make_ring(256, UINT_MAX - 103);
    uint64_t v, out[4], in[4];
    int expect = 0, got;

    for (v = 0; v < 5000; ++v) {
        in[0] = v;
        in[1] = ~v;
        in[2] = v * 3;
        cr_assert(ompi_evt_ring_spsc_push(ring, in, 8 * (1 + v % 3), OMPI_EVT_RING_KIND_USER));
        if (0 == v % 2) {
            continue;
        }
        /* drain both records pushed since the last pop pair */
        for (int k = 0; k < 2; ++k) {
            got = pop(ring, out, sizeof(out));
            cr_assert_eq(got, 8 * (1 + expect % 3));
            cr_assert_eq(out[0], (uint64_t) expect);
            if (got >= 16) {
                cr_assert_eq(out[1], ~(uint64_t) expect);
            }
            ++expect;
        }
    }
    cr_expect_eq(expect, 5000);
    /* The counters did wrap. */
    cr_expect_lt(atomic_load(&ring->g.ctl->p.tail), 1000000u);
}

Test(ring_buf, records_never_straddle_the_end)
{
    ompi_evt_ring_spsc_t *ring = make_ring(128, 0);
    unsigned char in[48], out[56];
    const ompi_evt_ring_hdr_t *hdr;

    memset(in, 0xab, sizeof(in));
    /* 48-byte payload -> 56-byte records: two fit (112), the third cannot
     * fit in the 16 bytes left before the end. */
    cr_assert(ompi_evt_ring_spsc_push(ring, in, 48, OMPI_EVT_RING_KIND_USER));
    cr_assert(ompi_evt_ring_spsc_push(ring, in, 48, OMPI_EVT_RING_KIND_USER));
    cr_expect_not(ompi_evt_ring_spsc_push(ring, in, 48, OMPI_EVT_RING_KIND_USER), "full");
    cr_assert_eq(pop(ring, out, sizeof(out)), 48);
    /* 56 bytes free at the start, 16 at the end: 16 skip + 56 = 72 = free. */
    in[0] = 0xcd;
    cr_assert(ompi_evt_ring_spsc_push(ring, in, 48, OMPI_EVT_RING_KIND_USER));
    cr_expect_not(ompi_evt_ring_spsc_push(ring, in, 1, OMPI_EVT_RING_KIND_USER),
                  "the skip record used the last 16 bytes");
    cr_assert_eq(pop(ring, out, sizeof(out)), 48);
    cr_expect_eq(out[0], 0xab);
    (void) ompi_evt_ring_spsc_refresh(ring);
    hdr = ompi_evt_ring_spsc_peek(ring);
    cr_assert_not_null(hdr);
    cr_expect_eq((const void *) hdr, (const void *) storage,
                 "the record restarted at offset 0 after a skip record");
    cr_expect_eq(hdr->size, 56);
    cr_expect_eq(((const unsigned char *) (hdr + 1))[0], 0xcd);
}

Test(ring_buf, oversize_rejected)
{
    ompi_evt_ring_spsc_t *ring = make_ring(256, 0);
    unsigned char in[200] = {0};

    cr_expect_not(ompi_evt_ring_spsc_push(ring, in, 121, OMPI_EVT_RING_KIND_USER),
                  "records are at most capacity/2");
    cr_expect(ompi_evt_ring_spsc_push(ring, in, 120, OMPI_EVT_RING_KIND_USER));
}

Test(ring_buf, exact_drop_count_when_full)
{
    ompi_evt_ring_spsc_t *ring = make_ring(4096, 0);
    uint64_t v, out, next = 0;
    unsigned long pushed = 0, dropped = 0, popped = 0;

    /* Producer pushes 10000 records, consumer pops 1 in 3: the ring fills,
     * every refusal is counted, and the counts add up exactly. */
    for (v = 0; v < 10000; ++v) {
        if (ompi_evt_ring_spsc_push(ring, &v, sizeof(v), OMPI_EVT_RING_KIND_USER)) {
            ++pushed;
        } else {
            ++dropped;
        }
        if (0 == v % 3 && pop(ring, &out, sizeof(out)) > 0) {
            cr_assert_geq(out, next, "order kept across drops");
            next = out + 1;
            ++popped;
        }
    }
    while (pop(ring, &out, sizeof(out)) > 0) {
        cr_assert_geq(out, next);
        next = out + 1;
        ++popped;
    }
    cr_expect_gt(dropped, 0);
    cr_expect_eq(pushed + dropped, 10000);
    cr_expect_eq(popped, pushed, "every accepted record is read back once");
}

Test(ring_buf, full_ring_refreshes_head_only_when_full)
{
    ompi_evt_ring_spsc_t *ring = make_ring(256, 0);
    uint64_t v = 7, out;
    int n = 0;

    while (ompi_evt_ring_spsc_push(ring, &v, sizeof(v), OMPI_EVT_RING_KIND_USER)) {
        ++n;
    }
    cr_expect_eq(n, 256 / 16);
    cr_expect_eq(ring->p.cached_head, 0, "the producer's view of head is still the old one");
    /* Consume without releasing: the producer still sees a full ring. */
    (void) ompi_evt_ring_spsc_refresh(ring);
    ompi_evt_ring_spsc_consume(ring, ompi_evt_ring_spsc_peek(ring));
    cr_expect_not(ompi_evt_ring_spsc_push(ring, &v, sizeof(v), OMPI_EVT_RING_KIND_USER));
    ompi_evt_ring_spsc_release(ring);
    cr_expect(ompi_evt_ring_spsc_push(ring, &v, sizeof(v), OMPI_EVT_RING_KIND_USER));
    cr_expect_eq(ring->p.cached_head, 16);
    (void) out;
}

Test(ring_buf, nested_producer_is_refused)
{
    ompi_evt_ring_spsc_t *ring = make_ring(256, 0);

    cr_assert(ompi_evt_ring_spsc_enter(ring));
    cr_expect_not(ompi_evt_ring_spsc_enter(ring), "a nested producer must drop");
    ompi_evt_ring_spsc_exit(ring);
    cr_expect(ompi_evt_ring_spsc_enter(ring));
    ompi_evt_ring_spsc_exit(ring);
}

Test(ring_buf, layout_keeps_sides_apart)
{
    cr_expect_geq(offsetof(ompi_evt_ring_spsc_t, c) - offsetof(ompi_evt_ring_spsc_t, p),
                  OMPI_EVT_CACHE_LINE);
    cr_expect_geq(offsetof(ompi_evt_ring_spsc_t, g) - offsetof(ompi_evt_ring_spsc_t, c),
                  OMPI_EVT_CACHE_LINE);
}

/* pass(): a consumer that has nothing to do with the records steps over
 * every one up to its snapshot, and only those. */
Test(ring_buf, pass_steps_over_the_snapshot_only)
{
    ompi_evt_ring_spsc_t *ring = make_ring(256, UINT_MAX - 63);
    uint64_t v, out;
    int n = 0;

    for (v = 0; v < 10; ++v) {
        cr_assert(ompi_evt_ring_spsc_push(ring, &v, sizeof(v), OMPI_EVT_RING_KIND_USER));
    }
    cr_assert_eq(ompi_evt_ring_spsc_refresh(ring), 160);
    /* committed after the snapshot: not passed */
    v = 10;
    cr_assert(ompi_evt_ring_spsc_push(ring, &v, sizeof(v), OMPI_EVT_RING_KIND_USER));
    ompi_evt_ring_spsc_pass(ring);
    cr_expect_eq(atomic_load(&ctl.c.head), UINT_MAX - 63 + 160, "head released up to the snapshot");
    cr_assert_eq(pop(ring, &out, sizeof(out)), 8);
    cr_expect_eq(out, 10, "the record after the snapshot is still there");
    cr_expect_eq(pop(ring, &out, sizeof(out)), -1);
    /* the producer has the whole ring again */
    while (ompi_evt_ring_spsc_push(ring, &v, sizeof(v), OMPI_EVT_RING_KIND_USER)) {
        ++n;
    }
    cr_expect_eq(n, 256 / 16);
}

static void count_evicted(const ompi_evt_ring_hdr_t *hdr, void *arg)
{
    (void) hdr;
    ++*(int *) arg;
}

/* The producer of an overwrite ring as the kit's raise uses it. */
static void push_overwrite(ompi_evt_ring_spsc_t *ring, uint64_t v, int *evicted)
{
    void *p = ompi_evt_ring_spsc_reserve(ring, sizeof(v), OMPI_EVT_RING_KIND_USER);

    if (NULL == p) {
        cr_assert(ompi_evt_ring_spsc_evict(ring, sizeof(v), count_evicted, evicted));
        p = ompi_evt_ring_spsc_reserve(ring, sizeof(v), OMPI_EVT_RING_KIND_USER);
    }
    cr_assert_not_null(p);
    memcpy(p, &v, sizeof(v));
    ompi_evt_ring_spsc_commit(ring);
}

/* Overwrite mode: pass() claims the snapshot, so the producer's evictions
 * after it take nothing from the consumer; and when the producer has
 * already taken records past the snapshot, the consumer follows it. */
Test(ring_buf, pass_in_overwrite_mode_claims_or_follows_the_producer)
{
    static ompi_evt_ring_spsc_t ring;
    uint64_t v, out;
    int evicted = 0;

    cr_assert(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 256, 0, true));
    for (v = 0; v < 10; ++v) {
        push_overwrite(&ring, v, &evicted);
    }
    cr_assert_eq(ompi_evt_ring_spsc_refresh(&ring), 160);
    ompi_evt_ring_spsc_pass(&ring);
    cr_expect_eq(atomic_load(&ctl.c.head), 160, "claimed");
    for (; v < 26; ++v) { /* fills the ring: evicts records 0..9 only */
        push_overwrite(&ring, v, &evicted);
    }
    cr_expect_eq(evicted, 0, "every record evicted was the consumer's already");
    /* snapshot, then the producer laps the ring past it */
    cr_assert_gt(ompi_evt_ring_spsc_refresh(&ring), 0);
    for (; v < 60; ++v) {
        push_overwrite(&ring, v, &evicted);
    }
    cr_expect_gt(evicted, 0, "the producer took unread records");
    ompi_evt_ring_spsc_pass(&ring);
    cr_expect_eq(ring.c.pos, atomic_load(&ctl.c.head), "the consumer follows the producer's head");
    cr_expect_gt((int) (ring.c.pos - ring.c.cached_tail), 0, "past the stale snapshot");
    (void) ompi_evt_ring_spsc_refresh(&ring);
    const ompi_evt_ring_hdr_t *hdr = ompi_evt_ring_spsc_peek(&ring);
    cr_assert_not_null(hdr);
    memcpy(&out, hdr + 1, sizeof(out));
    cr_expect_eq(out, 60 - 256 / 16, "the oldest record the ring still holds is next");
}

/* Overwrite mode: a claim that fails because the producer evicted past
 * the consumer's snapshot leaves the position beyond that snapshot; peek()
 * then has nothing more of it (it must not walk on into records the
 * snapshot never saw, up to and past the tail). */
Test(ring_buf, failed_claim_past_the_snapshot_ends_the_snapshot)
{
    static ompi_evt_ring_spsc_t ring;
    const ompi_evt_ring_hdr_t *hdr;
    uint64_t v;
    int evicted = 0;

    cr_assert(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 256, 0, true));
    for (v = 0; v < 4; ++v) {
        push_overwrite(&ring, v, &evicted);
    }
    cr_assert_eq(ompi_evt_ring_spsc_refresh(&ring), 64);
    hdr = ompi_evt_ring_spsc_peek(&ring);
    cr_assert_not_null(hdr);
    /* the producer laps the ring: records 0..19 are evicted */
    for (; v < 36; ++v) {
        push_overwrite(&ring, v, &evicted);
    }
    cr_expect_eq(evicted, 20);
    cr_expect_not(ompi_evt_ring_spsc_claim(&ring, hdr->size), "the producer took it");
    cr_expect_gt((int) (ring.c.pos - ring.c.cached_tail), 0);
    cr_expect_null(ompi_evt_ring_spsc_peek(&ring), "nothing beyond the snapshot");
    cr_expect_eq(ompi_evt_ring_spsc_refresh(&ring), 256, "a new look sees the ring's records");
}

/* Overwrite mode: the consumer takes one record (copy, then claim); its
 * value, or UINT64_MAX when there is none or the producer took it. */
static uint64_t take(ompi_evt_ring_spsc_t *ring)
{
    const ompi_evt_ring_hdr_t *hdr = ompi_evt_ring_spsc_peek(ring);
    uint64_t v;

    if (NULL == hdr) {
        (void) ompi_evt_ring_spsc_refresh(ring);
        hdr = ompi_evt_ring_spsc_peek(ring);
    }
    if (NULL == hdr) {
        return UINT64_MAX;
    }
    memcpy(&v, hdr + 1, sizeof(v));
    return ompi_evt_ring_spsc_claim(ring, hdr->size) ? v : UINT64_MAX;
}

/* Overwrite mode, the raise's inline eviction: a full ring gives up only
 * what the consumer took (no CAS, no drop), publishing oldest and the
 * evicted count as ompi_evt_ring_spsc_evict() does, and leaves the first
 * record the consumer has not taken to evict(), which counts it. */
Test(ring_buf, evict_taken_gives_up_only_what_the_consumer_took)
{
    static ompi_evt_ring_spsc_t ring;
    const unsigned int rec = ompi_evt_ring_record_size(sizeof(uint64_t)); /* 16 */
    uint64_t v;
    int evicted = 0;

    cr_assert(ompi_evt_ring_spsc_init(&ring, &ctl, storage, 256, 0, true));
    for (v = 0; v < 256 / rec; ++v) {
        push_overwrite(&ring, v, &evicted);
    }
    cr_assert_eq(atomic_load(&ctl.p.tail) - atomic_load(&ctl.p.oldest), 256, "full");
    cr_expect_not(ompi_evt_ring_spsc_evict_taken(&ring, rec), "nothing taken: nothing given up");
    cr_expect_eq(atomic_load(&ctl.p.oldest), 0);
    cr_expect_eq(atomic_load(&ctl.p.evicted), 0);

    /* the consumer takes records 0 and 1 */
    cr_assert_eq(take(&ring), 0);
    cr_assert_eq(take(&ring), 1);
    cr_expect(ompi_evt_ring_spsc_evict_taken(&ring, rec), "record 0 was taken");
    cr_expect_eq(atomic_load(&ctl.p.oldest), rec);
    cr_expect_eq(atomic_load(&ctl.p.evicted), 1);
    cr_expect_eq(atomic_load(&ctl.p.evict_mark), ((uint64_t) 1 << 32) | rec, "mark pairs them");
    /* room for three records: record 1 (taken) goes, record 2 (not) stays */
    cr_expect_not(ompi_evt_ring_spsc_evict_taken(&ring, 3 * rec), "record 2 is the consumer's");
    cr_expect_eq(atomic_load(&ctl.p.oldest), 2 * rec, "what was given up is published");
    cr_expect_eq(atomic_load(&ctl.p.evicted), 2);
    cr_expect_eq(atomic_load(&ctl.c.head), 2 * rec, "the consumer's head untouched");
    cr_assert(ompi_evt_ring_spsc_evict(&ring, 3 * rec - sizeof(ompi_evt_ring_hdr_t), count_evicted,
                                       &evicted));
    cr_expect_eq(evicted, 1, "record 2 taken from the consumer and counted");
    cr_expect_eq(atomic_load(&ctl.p.evicted), 3);
    cr_expect_eq(atomic_load(&ctl.c.head), 3 * rec);
    cr_expect_eq(take(&ring), UINT64_MAX, "the claim of record 2 fails");
    cr_expect_eq(take(&ring), 3, "the consumer goes on after the record it lost");
}
