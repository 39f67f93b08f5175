/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* The listener's pairing of sends with receives (trace.json's arrows,
 * report.html's late senders): in order of their start whatever order
 * they complete in, once the stream is a horizon past them or at the
 * end; every message paired or counted. */

#include "opal_config.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "tools/listen/evt_listen.h"

#define H LISTEN_MATCH_HORIZON_NS

typedef struct {
    int64_t send_start, recv_start;
} got_t;

static got_t got[20000];
static size_t ngot;
static int fail_after = -1;

static int on_pair(void *ctx, const listen_msg_t *snd, const listen_msg_t *rcv)
{
    (void) ctx;
    cr_assert_lt(ngot, sizeof(got) / sizeof(got[0]));
    got[ngot++] = (got_t){snd->start, rcv->start};
    return (int) ngot == fail_after ? -1 : 0;
}

static void setup(void)
{
    ngot = 0;
    fail_after = -1;
}

static int add(listen_match_t *m, int64_t tag, bool send, int64_t start, int64_t end,
               uint64_t bytes)
{
    listen_msg_t me = {.start = start, .end = end, .rank = send ? 0 : 1, .bytes = bytes};
    return listen_match_add(m, 0, 0, 1, tag, send, &me, end);
}

TestSuite(listen_match, .init = setup);

/* Two sends of one tag started at 10 and 20; the second completes first.
 * The receives, started at 5 and 6, are matched by MPI in that order: the
 * send started at 10 goes with the receive started at 5. */
Test(listen_match, pairs_in_order_of_start)
{
    listen_match_t m;
    listen_match_init(&m, on_pair, NULL);
    cr_assert_eq(0, add(&m, 7, true, 20, 25, 8));
    cr_assert_eq(0, add(&m, 7, false, 5, 30, 8));
    cr_assert_eq(0, add(&m, 7, true, 10, 40, 8));
    cr_assert_eq(0, add(&m, 7, false, 6, 45, 8));
    cr_assert_eq(ngot, 0, "nothing is due before the horizon");
    cr_assert_eq(0, listen_match_finish(&m));
    cr_assert_eq(ngot, 2);
    cr_assert_eq(got[0].send_start, 10);
    cr_assert_eq(got[0].recv_start, 5);
    cr_assert_eq(got[1].send_start, 20);
    cr_assert_eq(got[1].recv_start, 6);
    cr_assert_eq(m.reordered, 1);
    cr_assert_eq(m.paired, 2);
    cr_assert_eq(m.pending, 0);
    listen_match_fini(&m);
}

/* A pair is paired once the stream is the horizon past both starts, not
 * before; other tags' pairs are found by the sweep. */
Test(listen_match, paired_after_the_horizon)
{
    listen_match_t m;
    listen_match_init(&m, on_pair, NULL);
    cr_assert_eq(0, add(&m, 1, true, 100, 110, 8));
    cr_assert_eq(0, add(&m, 1, false, 90, 120, 8));
    cr_assert_eq(0, add(&m, 2, true, 100 + H / 2, 100 + H / 2, 8));
    cr_assert_eq(ngot, 0);
    cr_assert_eq(0, add(&m, 2, false, 100 + H, 100 + H, 8)); /* the stream is at 100 + H */
    cr_assert_eq(ngot, 1, "tag 1's pair is due (its starts are a horizon back)");
    cr_assert_eq(got[0].send_start, 100);
    cr_assert_eq(0, listen_match_finish(&m));
    cr_assert_eq(ngot, 2);
    cr_assert_eq(m.pending, 0);
    listen_match_fini(&m);
}

/* Different byte counts in order: counted, not paired; a send without a
 * receive stays waiting and is left unpaired at the end. */
Test(listen_match, mismatched_and_left)
{
    listen_match_t m;
    listen_match_init(&m, on_pair, NULL);
    cr_assert_eq(0, add(&m, 3, true, 10, 11, 8));
    cr_assert_eq(0, add(&m, 3, false, 9, 12, 16));
    cr_assert_eq(0, add(&m, 4, true, 10, 11, 8));
    cr_assert_eq(0, listen_match_finish(&m));
    cr_assert_eq(ngot, 0);
    cr_assert_eq(m.mismatched, 1);
    cr_assert_eq(m.pending, 1);
    listen_match_fini(&m);
}

/* A send and a receive on each of @p n tags, started at 1000 + tag. */
static void add_pairs(listen_match_t *m, int n)
{
    for (int i = 0; i < n; ++i) {
        cr_assert_eq(0, add(m, i, true, 1000 + i, 1000 + i, 8));
        cr_assert_eq(0, add(m, i, false, 1000 + i, 1000 + i, 8));
    }
}

/* Thousands of pairs waiting in as many queues (the table grows, and
 * removing one moves another into its slot): every one is paired at the
 * end. */
Test(listen_match, finish_pairs_every_queue)
{
    listen_match_t m;
    const int n = 5000;
    listen_match_init(&m, on_pair, NULL);
    add_pairs(&m, n);
    cr_assert_eq(ngot, 0);
    cr_assert_eq(m.pending, 2 * (uint64_t) n);
    cr_assert_eq(0, listen_match_finish(&m));
    cr_assert_eq(ngot, (size_t) n);
    cr_assert_eq(m.pending, 0);
    cr_assert_eq(m.qn, 0, "%zu queues left", m.qn);
    listen_match_fini(&m);
}

/* The same, paired as the stream moves on. */
Test(listen_match, stream_pairs_every_queue)
{
    listen_match_t m;
    const int n = 5000;
    listen_match_init(&m, on_pair, NULL);
    add_pairs(&m, n);
    cr_assert_eq(0, add(&m, n, true, 3 * H, 3 * H, 8)); /* the stream moves on */
    cr_assert_eq(ngot, (size_t) n);
    cr_assert_eq(m.pending, 1);
    listen_match_fini(&m);
}

/* A pair callback's failure stops the pairing. */
Test(listen_match, callback_failure)
{
    listen_match_t m;
    listen_match_init(&m, on_pair, NULL);
    fail_after = 2;
    for (int i = 0; i < 3; ++i) {
        cr_assert_eq(0, add(&m, i, true, 10, 10, 8));
        cr_assert_eq(0, add(&m, i, false, 10, 10, 8));
    }
    cr_assert_eq(-1, listen_match_finish(&m));
    cr_assert_eq(ngot, 2);
    listen_match_fini(&m);
}

/* Hostile times: starts at the ends of the range (UBSan watches). */
Test(listen_match, hostile_times)
{
    listen_match_t m;
    listen_match_init(&m, on_pair, NULL);
    cr_assert_eq(0, add(&m, 1, true, INT64_MIN, INT64_MIN, 8));
    cr_assert_eq(0, add(&m, 1, false, INT64_MIN, INT64_MAX, 8));
    cr_assert_eq(ngot, 1, "a start of INT64_MIN is long past");
    cr_assert_eq(0, add(&m, 2, true, INT64_MAX, INT64_MAX, 8));
    cr_assert_eq(0, add(&m, 2, false, INT64_MAX, INT64_MAX, 8));
    cr_assert_eq(ngot, 1, "a start at the stream's time is not yet due");
    cr_assert_eq(0, listen_match_finish(&m));
    cr_assert_eq(ngot, 2);
    listen_match_fini(&m);
}

static int add_at(listen_match_t *m, int64_t tag, bool send, int64_t start, int64_t end,
                  int64_t now)
{
    listen_msg_t me = {.start = start, .end = end, .rank = send ? 0 : 1, .bytes = 8};
    return listen_match_add(m, 0, 0, 1, tag, send, &me, now);
}

/* Each message completing before the one started just before it (the
 * large Isend, then the small one): placed from the newest end, in
 * constant time, however many wait. */
Test(listen_match, reordered_in_constant_time, .timeout = 10)
{
    listen_match_t m;
    const int n = 200000; /* from the oldest end: about 10^10 steps */
    listen_match_init(&m, on_pair, NULL);
    for (int i = 0; i < n; i += 2) {
        cr_assert_eq(0, add_at(&m, 7, true, 10 * (i + 1), 10 * (i + 1), 10 * i));
        cr_assert_eq(0, add_at(&m, 7, true, 10 * i, 10 * (i + 2), 10 * i));
    }
    cr_assert_eq(m.reordered, (uint64_t) n / 2);
    cr_assert_eq(m.pending, (uint64_t) n);
    listen_match_fini(&m);
}

/* At LISTEN_MATCH_MAX_PENDING the pairs waiting longest are paired, each
 * in its order: a receive never takes a send while an older receive of its
 * pair waits (that shifted every arrow of a message-rate loop). */
Test(listen_match, full_keeps_the_order, .timeout = 30)
{
    listen_match_t m;
    const int64_t n = LISTEN_MATCH_MAX_PENDING;
    listen_match_init(&m, on_pair, NULL);
    for (int64_t k = 0; k < n; ++k) {
        cr_assert_eq(0, add_at(&m, 1, true, k, k, k));
    }
    for (int64_t k = 0; k < 1000; ++k) {
        cr_assert_eq(0, add_at(&m, 1, false, k, n + k, n + k));
    }
    cr_assert_eq(0, listen_match_finish(&m));
    cr_assert_eq(ngot, 1000);
    for (size_t k = 0; k < ngot; ++k) {
        cr_assert_eq(got[k].send_start, got[k].recv_start, "pair %zu: send %lld, receive %lld", k,
                     (long long) got[k].send_start, (long long) got[k].recv_start);
    }
    cr_assert_gt(m.early, 0);
    listen_match_fini(&m);
}

/* The stream's time is the merge's, not a record's field: one completion
 * far in the future (a wrong clock) does not make every pair due. */
Test(listen_match, one_wrong_completion_time)
{
    listen_match_t m;
    listen_match_init(&m, on_pair, NULL);
    cr_assert_eq(0, add_at(&m, 9, true, 50, INT64_MAX, 60)); /* elsewhere */
    cr_assert_eq(0, add_at(&m, 7, true, 20, 25, 70));
    cr_assert_eq(0, add_at(&m, 7, false, 5, 30, 75));
    cr_assert_eq(0, add_at(&m, 7, true, 10, 40, 80));
    cr_assert_eq(0, add_at(&m, 7, false, 6, 45, 85));
    cr_assert_eq(ngot, 0, "nothing is due: the stream is at 85");
    cr_assert_eq(0, listen_match_finish(&m));
    cr_assert_eq(ngot, 2);
    cr_assert_eq(got[0].send_start, 10);
    cr_assert_eq(got[0].recv_start, 5);
    listen_match_fini(&m);
}
