/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* The listener's table of receives seen before their send (what makes the
 * OTF2 writer hold a sender's records until its send comes): per sender,
 * receiver and tag, a receive owes a send when no send of the key is
 * waiting for it, and a send pays when a receive owes one; held against a
 * plain array over random streams, with the table growing and emptying. */

#include "opal_config.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "tools/listen/evt_listen.h"

TestSuite(listen_owed);

Test(listen_owed, send_first_owes_nothing)
{
    listen_owed_t *t = listen_owed_new(1u << 20);
    cr_assert_not_null(t);
    cr_assert_eq(0, listen_owed_seen(t, 0, 1, 7, true));
    cr_assert_eq(1, listen_owed_keys(t), "the send waits for its receive");
    cr_assert_eq(0, listen_owed_seen(t, 0, 1, 7, false));
    cr_assert_eq(0, listen_owed_keys(t), "balanced keys leave the table");
    listen_owed_free(t);
}

Test(listen_owed, receive_first_owes_its_send)
{
    listen_owed_t *t = listen_owed_new(1u << 20);
    cr_assert_not_null(t);
    cr_assert_eq(LISTEN_OWED_OWES, listen_owed_seen(t, 0, 1, 7, false));
    cr_assert_eq(LISTEN_OWED_OWES, listen_owed_seen(t, 0, 1, 7, false));
    cr_assert_eq(0, listen_owed_seen(t, 0, 1, 8, true), "another tag pays nothing");
    cr_assert_eq(0, listen_owed_seen(t, 1, 0, 7, true), "the other direction pays nothing");
    cr_assert_eq(LISTEN_OWED_PAID, listen_owed_seen(t, 0, 1, 7, true));
    cr_assert_eq(LISTEN_OWED_PAID, listen_owed_seen(t, 0, 1, 7, true));
    cr_assert_eq(0, listen_owed_seen(t, 0, 1, 7, true), "nothing owed any more");
    cr_assert_eq(3, listen_owed_keys(t));
    listen_owed_free(t);
}

/* Negative tags, extreme senders: keys are values, nothing is an index. */
Test(listen_owed, any_key)
{
    listen_owed_t *t = listen_owed_new(1u << 20);
    cr_assert_not_null(t);
    cr_assert_eq(LISTEN_OWED_OWES, listen_owed_seen(t, UINT64_MAX, 0, INT64_MIN, false));
    cr_assert_eq(LISTEN_OWED_PAID, listen_owed_seen(t, UINT64_MAX, 0, INT64_MIN, true));
    cr_assert_eq(0, listen_owed_keys(t));
    listen_owed_free(t);
}

/* A full table follows the keys it holds and no new one: each counted. */
Test(listen_owed, bounded)
{
    listen_owed_t *t = listen_owed_new(3);
    cr_assert_not_null(t);
    for (int k = 0; k < 3; ++k) {
        cr_assert_eq(LISTEN_OWED_OWES, listen_owed_seen(t, 0, 1, k, false));
    }
    cr_assert_eq(0, listen_owed_seen(t, 0, 1, 3, false), "a fourth key is not followed");
    cr_assert_eq(0, listen_owed_seen(t, 0, 1, 3, true));
    cr_assert_eq(2, listen_owed_unfollowed(t));
    cr_assert_eq(LISTEN_OWED_OWES, listen_owed_seen(t, 0, 1, 2, false), "a held key still is");
    cr_assert_eq(LISTEN_OWED_PAID, listen_owed_seen(t, 0, 1, 0, true));
    cr_assert_eq(2, listen_owed_keys(t));
    cr_assert_eq(LISTEN_OWED_OWES, listen_owed_seen(t, 0, 1, 3, false), "room again");
    listen_owed_free(t);
}

/* Random sends and receives over 8 x 8 x 16 keys against a plain array;
 * then 100,000 keys at once (the table grows), emptied in another order
 * (every removal moves keys back). */
Test(listen_owed, against_a_plain_array, .timeout = 60)
{
    static long balance[8][8][16];
    listen_owed_t *t = listen_owed_new(1u << 20);
    size_t keys = 0;

    cr_assert_not_null(t);
    srand(12345);
    for (int i = 0; i < 400000; ++i) {
        int s = rand() % 8, r = rand() % 8, g = rand() % 16;
        bool send = rand() % 2;
        long before = balance[s][r][g];
        int want = send ? (0 < before ? LISTEN_OWED_PAID : 0)
                        : (0 <= before ? LISTEN_OWED_OWES : 0);
        int got = listen_owed_seen(t, (uint64_t) s, (uint64_t) r, g, send);
        cr_assert_eq(got, want, "op %d: key (%d, %d, %d) at %ld, %s: %d, want %d", i, s, r, g,
                     before, send ? "send" : "receive", got, want);
        balance[s][r][g] += send ? -1 : 1;
        keys += (0 == before) - (0 == balance[s][r][g]);
        cr_assert_eq(listen_owed_keys(t), keys);
    }
    listen_owed_free(t);

    t = listen_owed_new(1u << 20);
    cr_assert_not_null(t);
    for (uint64_t k = 0; k < 100000; ++k) {
        cr_assert_eq(LISTEN_OWED_OWES, listen_owed_seen(t, k % 97, k, (int64_t) (k * 7), false));
    }
    cr_assert_eq(listen_owed_keys(t), 100000);
    for (uint64_t j = 0; j < 100000; ++j) {
        uint64_t k = (j * 48271) % 100000; /* a permutation: 48271 is prime to 100000 */
        cr_assert_eq(LISTEN_OWED_PAID, listen_owed_seen(t, k % 97, k, (int64_t) (k * 7), true),
                     "key %llu", (unsigned long long) k);
    }
    cr_assert_eq(listen_owed_keys(t), 0);
    listen_owed_free(t);
}
