/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* The listener's per-location time order and nesting buffer (what the
 * OTF2 writer puts its records through): items come in order of their
 * completion, are written in order of their start, regions nest, and what
 * cannot be placed is moved and counted. */

#include "opal_config.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "tools/listen/evt_listen.h"

typedef struct {
    listen_nest_item_t n;
    int id;
} item_t;

typedef struct {
    char what; /* 'o' open, 'c' close, 'p' point, 's' a split region's start */
    int id;
    size_t loc;
    uint64_t ts;
} rec_t;

static rec_t log_[100000];
static size_t nlog;
static int fail_at_id = -1;

static int on_open(void *ctx, size_t loc, listen_nest_item_t *it, uint64_t ts)
{
    item_t *i = (item_t *) it;
    (void) ctx;
    cr_assert_lt(nlog, sizeof(log_) / sizeof(log_[0]));
    log_[nlog++] = (rec_t){it->point                       ? 'p'
                           : LISTEN_NEST_START == it->part ? 's'
                                                           : 'o',
                           i->id, loc, ts};
    return i->id == fail_at_id ? -1 : 0;
}

static int on_close(void *ctx, size_t loc, listen_nest_item_t *it, uint64_t ts)
{
    item_t *i = (item_t *) it;
    (void) ctx;
    cr_assert_lt(nlog, sizeof(log_) / sizeof(log_[0]));
    log_[nlog++] = (rec_t){'c', i->id, loc, ts};
    return 0;
}

static void setup(void)
{
    nlog = 0;
    fail_at_id = -1;
}

static int add(listen_nest_t *n, size_t loc, int id, uint64_t t0, uint64_t t1, bool point,
               uint64_t now)
{
    item_t *i = calloc(1, sizeof(*i));
    cr_assert_not_null(i);
    i->id = id;
    i->n.t0 = t0;
    i->n.t1 = t1;
    i->n.point = point;
    return listen_nest_add(n, loc, &i->n, now);
}

/* The index in the log of (what, id), or -1. */
static long find(char what, int id)
{
    for (size_t k = 0; k < nlog; ++k) {
        if (log_[k].what == what && log_[k].id == id) {
            return (long) k;
        }
    }
    return -1;
}

/* Every location's records in time order, and every close the innermost. */
static void check_well_formed(size_t num_locs)
{
    for (size_t loc = 0; loc < num_locs; ++loc) {
        uint64_t last = 0;
        int stack[256];
        size_t depth = 0;
        for (size_t k = 0; k < nlog; ++k) {
            if (log_[k].loc != loc) {
                continue;
            }
            cr_assert_geq(log_[k].ts, last, "loc %zu record %zu steps back", loc, k);
            last = log_[k].ts;
            if ('o' == log_[k].what) {
                cr_assert_lt(depth, 256);
                stack[depth++] = log_[k].id;
            } else if ('c' == log_[k].what) {
                cr_assert_gt(depth, 0, "close %d with nothing open", log_[k].id);
                cr_assert_eq(stack[depth - 1], log_[k].id, "close %d, innermost %d", log_[k].id,
                             stack[depth - 1]);
                depth--;
            }
        }
        cr_assert_eq(depth, 0, "loc %zu: %zu regions never closed", loc, depth);
    }
}

TestSuite(listen_nest, .init = setup);

/* A halo exchange as its completions come: the receives, posted first,
 * complete last; every record goes at its own time. */
Test(listen_nest, requests_in_order_of_their_start)
{
    listen_nest_t *n = listen_nest_new(1, 1000, 1 << 16, on_open, on_close, NULL);
    cr_assert_not_null(n);
    /* irecv 1 posted at 10, irecv 2 at 11, isend 3 at 12 done at 12, isend
     * 4 at 13 done at 13, the receives done at 20 and 21 */
    cr_assert_eq(0, add(n, 0, 30, 12, 12, true, 12));
    cr_assert_eq(0, add(n, 0, 3, 12, 12, false, 12));
    cr_assert_eq(0, add(n, 0, 40, 13, 13, true, 13));
    cr_assert_eq(0, add(n, 0, 4, 13, 13, false, 13));
    cr_assert_eq(0, add(n, 0, 10, 10, 10, true, 20));
    cr_assert_eq(0, add(n, 0, 1, 20, 20, false, 20));
    cr_assert_eq(0, add(n, 0, 20, 11, 11, true, 21));
    cr_assert_eq(0, add(n, 0, 2, 21, 21, false, 21));
    cr_assert_eq(0, nlog, "nothing is due before the horizon");
    cr_assert_eq(0, listen_nest_finish(n));
    check_well_formed(1);
    const int order[] = {10, 20, 30, 3, 3, 40, 4, 4, 1, 1, 2, 2};
    const uint64_t at[] = {10, 11, 12, 12, 12, 13, 13, 13, 20, 20, 21, 21};
    cr_assert_eq(nlog, 12);
    for (size_t k = 0; k < nlog; ++k) {
        cr_assert_eq(log_[k].id, order[k], "record %zu: %d", k, log_[k].id);
        cr_assert_eq(log_[k].ts, at[k], "record %zu at %llu", k, (unsigned long long) log_[k].ts);
    }
    cr_assert_eq(listen_nest_stats(n)->late, 0);
    cr_assert_eq(listen_nest_stats(n)->overlapped, 0);
    listen_nest_free(n);
}

/* Regions within regions stay where they are; equal ends close the inner
 * first; a region ending outside the one open around it is split: its
 * start's records at its start, its region at its end with no length. */
Test(listen_nest, regions_nest)
{
    listen_nest_t *n = listen_nest_new(1, 1000, 1 << 16, on_open, on_close, NULL);
    cr_assert_not_null(n);
    cr_assert_eq(0, add(n, 0, 2, 15, 30, false, 30)); /* inside 1, same end */
    cr_assert_eq(0, add(n, 0, 1, 10, 30, false, 30));
    cr_assert_eq(0, add(n, 0, 3, 20, 40, false, 40)); /* crosses 1's end */
    cr_assert_eq(0, add(n, 0, 4, 25, 25, false, 40)); /* instant inside 1 */
    cr_assert_eq(0, listen_nest_finish(n));
    check_well_formed(1);
    cr_assert(find('c', 2) < find('c', 1), "the inner region closes first");
    cr_assert_eq(log_[find('s', 3)].ts, 20, "3's start's records at its start");
    cr_assert_eq(log_[find('o', 3)].ts, 40, "3's region at its end");
    cr_assert_eq(log_[find('c', 3)].ts, 40);
    cr_assert_eq(log_[find('o', 4)].ts, 25);
    cr_assert_eq(listen_nest_stats(n)->overlapped, 1);
    cr_assert_eq(listen_nest_stats(n)->late, 0);
    listen_nest_free(n);
}

/* Regions opening at one time nest whatever order they came in: the
 * longer opens first. */
Test(listen_nest, equal_starts_nest)
{
    listen_nest_t *n = listen_nest_new(1, 1 << 30, 1 << 16, on_open, on_close, NULL);
    cr_assert_not_null(n);
    cr_assert_eq(0, add(n, 0, 1, 1000, 2000, false, 2000)); /* a send in ... */
    cr_assert_eq(0, add(n, 0, 2, 1000, 5000, false, 5000)); /* ... a collective */
    cr_assert_eq(0, listen_nest_finish(n));
    check_well_formed(1);
    cr_assert(find('o', 2) < find('o', 1), "the longer opens first");
    cr_assert_eq(log_[find('o', 1)].ts, 1000);
    cr_assert_eq(listen_nest_stats(n)->overlapped, 0);
    listen_nest_free(n);
}

/* Thousands of regions each overlapping the last (a staircase, as threads'
 * calls make): each is split once, in time linear in their number. */
Test(listen_nest, staircase_split_once, .timeout = 10)
{
    const int k = 40000; /* split by delaying it past each: about 26 s */
    listen_nest_t *n = listen_nest_new(1, UINT64_C(1) << 40, 1 << 16, on_open, on_close, NULL);
    cr_assert_not_null(n);
    for (int i = 0; i < k / 2; ++i) {
        cr_assert_eq(0, add(n, 0, i, 1000 + (uint64_t) i, 500000000 + (uint64_t) i, false,
                            500000000 + (uint64_t) i));
    }
    cr_assert_eq(0, listen_nest_finish(n));
    check_well_formed(1);
    cr_assert_eq(listen_nest_stats(n)->overlapped, (uint64_t) k / 2 - 1);
    listen_nest_free(n);
}

/* Regions nested deeper than LISTEN_NEST_MAX_DEPTH are split: the stack
 * stays bounded. */
Test(listen_nest, depth_bounded)
{
    const int k = 1000;
    listen_nest_t *n = listen_nest_new(1, UINT64_C(1) << 40, 1 << 16, on_open, on_close, NULL);
    cr_assert_not_null(n);
    for (int i = 0; i < k; ++i) {
        cr_assert_eq(0, add(n, 0, i, 1000 + (uint64_t) i, 1000000 - (uint64_t) i, false,
                            1000 + (uint64_t) i));
    }
    cr_assert_eq(0, listen_nest_finish(n));
    check_well_formed(1);
    cr_assert_eq(listen_nest_stats(n)->overlapped, (uint64_t) (k - LISTEN_NEST_MAX_DEPTH));
    listen_nest_free(n);
}

/* A start more than the horizon behind the stream comes after records
 * already written: moved up to the last of them, and counted. */
Test(listen_nest, late_start_moved_and_counted)
{
    listen_nest_t *n = listen_nest_new(2, 100, 1 << 16, on_open, on_close, NULL);
    cr_assert_not_null(n);
    for (int i = 0; i < 10; ++i) {
        cr_assert_eq(0, add(n, 0, i, 1000 + 50 * (uint64_t) i, 1000 + 50 * (uint64_t) i, false,
                            1000 + 50 * (uint64_t) i));
    }
    cr_assert_gt(nlog, 0, "items past the horizon are written");
    uint64_t written = log_[nlog - 1].ts;
    cr_assert_eq(0, add(n, 0, 99, 5, 1500, false, 1500)); /* began long ago */
    cr_assert_eq(0, add(n, 1, 77, 5, 5, false, 5));       /* another location: its own time */
    cr_assert_eq(0, listen_nest_finish(n));
    check_well_formed(2);
    cr_assert_geq(log_[find('o', 99)].ts, written);
    cr_assert_eq(log_[find('o', 77)].ts, 5);
    cr_assert_eq(listen_nest_stats(n)->late, 1);
    listen_nest_free(n);
}

/* A location that owes a record (a receive was seen whose send is still
 * to come) keeps its items past the horizon; the send, coming late, is
 * written at its start, before what began after it, and nothing is moved.
 * Once nothing is owed, what is past the horizon goes out again. */
Test(listen_nest, owed_record_written_at_its_time)
{
    listen_nest_t *n = listen_nest_new(2, 100, 1 << 16, on_open, on_close, NULL);
    cr_assert_not_null(n);
    listen_nest_await(n, 0, 1); /* location 1 received; location 0's send owed */
    for (int i = 0; i < 10; ++i) {
        cr_assert_eq(0, add(n, 0, i, 1000 + 50 * (uint64_t) i, 1000 + 50 * (uint64_t) i, false,
                            1000 + 50 * (uint64_t) i));
    }
    cr_assert_eq(nlog, 0, "an owing location writes nothing before its share is full");
    listen_nest_await(n, 0, -1); /* the send comes: began before all of them */
    cr_assert_eq(0, add(n, 0, 99, 990, 1500, true, 1500));
    cr_assert_gt(nlog, 0, "nothing owed: what is past the horizon is written");
    cr_assert_eq(log_[0].what, 'p');
    cr_assert_eq(log_[0].id, 99);
    cr_assert_eq(log_[0].ts, 990, "the send at its own start");
    cr_assert_eq(0, listen_nest_finish(n));
    check_well_formed(2);
    cr_assert_eq(listen_nest_stats(n)->late, 0);
    cr_assert_eq(listen_nest_stats(n)->early, 0);
    listen_nest_free(n);
}

/* An owed record that never comes holds its location to its share only:
 * then the oldest go out early (counted), in order. */
Test(listen_nest, owed_forever_bounded_by_its_share)
{
    listen_nest_t *n = listen_nest_new(2, 10, 2 * LISTEN_NEST_MIN_ITEMS, on_open, on_close, NULL);
    int total = LISTEN_NEST_MIN_ITEMS + 100;
    cr_assert_not_null(n);
    listen_nest_await(n, 1, 1);
    for (int i = 0; i < total; ++i) {
        cr_assert_eq(0, add(n, 1, i, 100 * (uint64_t) i, 100 * (uint64_t) i, false,
                            100 * (uint64_t) i));
    }
    size_t opened = 0;
    for (size_t k = 0; k < nlog; ++k) {
        opened += 'o' == log_[k].what;
    }
    cr_assert_eq(opened, 100, "%zu opened while owing", opened);
    cr_assert_eq(0, listen_nest_finish(n));
    cr_assert_eq(nlog, 2 * (size_t) total);
    check_well_formed(2);
    listen_nest_free(n);
}

/* A location holds its share and no more: the oldest go out early
 * (counted), the order still holds. */
Test(listen_nest, bounded_by_its_share)
{
    listen_nest_t *n = listen_nest_new(4, UINT64_C(1) << 40, 4 * LISTEN_NEST_MIN_ITEMS, on_open,
                                       on_close, NULL);
    int total = LISTEN_NEST_MIN_ITEMS + 1000;
    cr_assert_not_null(n);
    for (int i = 0; i < total; ++i) {
        cr_assert_eq(0, add(n, 2, i, (uint64_t) i, (uint64_t) i, false, (uint64_t) i));
    }
    size_t opened = 0;
    for (size_t k = 0; k < nlog; ++k) {
        opened += 'o' == log_[k].what;
    }
    cr_assert_eq(opened, 1000, "%zu opened before the end", opened);
    cr_assert_eq(listen_nest_stats(n)->early, 1000, "each written early counted once");
    cr_assert_eq(0, listen_nest_finish(n));
    cr_assert_eq(nlog, 2 * (size_t) total);
    check_well_formed(4);
    listen_nest_free(n);
}

/* A callback's failure stops the writing; freeing then frees what waits
 * (ASan's leak check sees the rest). */
Test(listen_nest, callback_failure)
{
    listen_nest_t *n = listen_nest_new(1, 10, 1 << 16, on_open, on_close, NULL);
    cr_assert_not_null(n);
    fail_at_id = 3;
    for (int i = 0; i < 3; ++i) {
        cr_assert_eq(0, add(n, 0, i, 100 + (uint64_t) i, 100 + (uint64_t) i, false, 100));
    }
    cr_assert_eq(-1, add(n, 0, 3, 50, 200, false, 200), "3 is due at once and its open fails");
    cr_assert_eq(find('o', 3), 0, "nothing was written before it");
    listen_nest_free(n);
}
