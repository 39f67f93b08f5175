/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Which sends are owed: receives seen before their send. Events come in
 * order of their completion, and a receive can complete (and be seen) long
 * before the sender sees its send complete (an MPI_Isend tested only now
 * and then). MPI matches the messages of one sender, receiver and tag in
 * order, so per such key the balance of receives minus sends seen says how
 * many receives still wait for their send: a receive that finds the
 * balance at zero or above owes a send, a send that finds it above zero
 * pays one. Keys live in an open-addressing table (linear probing,
 * backward-shift deletion) only while their balance is not zero: a job's
 * keys come and go with its messages in flight. Messages never received
 * would keep theirs: the table holds a bounded number of keys, and a
 * message whose key finds it full is not followed (its sender is not
 * held for it: the writer's behaviour without this table).
 */

#include <stdlib.h>

#include "evt_listen.h"

typedef struct {
    uint64_t sender, receiver;
    int64_t tag;
    int64_t balance; /**< receives minus sends seen; 0: the slot is free */
} owed_slot_t;

struct listen_owed {
    owed_slot_t *slots;
    size_t cap, used; /* cap: a power of two */
    size_t max_keys;
    uint64_t unfollowed;
};

static size_t owed_hash(uint64_t sender, uint64_t receiver, int64_t tag)
{
    uint64_t h = sender * UINT64_C(0x9E3779B97F4A7C15);

    h ^= (receiver + UINT64_C(0x632BE59BD9B4E019)) * UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= (uint64_t) tag * UINT64_C(0x165667B19E3779F9);
    return (size_t) (h ^ (h >> 29));
}

listen_owed_t *listen_owed_new(size_t max_keys)
{
    listen_owed_t *t = calloc(1, sizeof(*t));

    if (NULL == t) {
        return NULL;
    }
    t->max_keys = max_keys;
    t->cap = 64;
    t->slots = calloc(t->cap, sizeof(*t->slots));
    if (NULL == t->slots) {
        free(t);
        return NULL;
    }
    return t;
}

/* The slot of the key, or the free one where it would go. */
static owed_slot_t *owed_find(const listen_owed_t *t, uint64_t sender, uint64_t receiver,
                              int64_t tag)
{
    size_t mask = t->cap - 1, i = owed_hash(sender, receiver, tag) & mask;

    while (0 != t->slots[i].balance
           && (t->slots[i].sender != sender || t->slots[i].receiver != receiver
               || t->slots[i].tag != tag)) {
        i = (i + 1) & mask;
    }
    return &t->slots[i];
}

/* Twice the slots, every key placed again. @retval 0, -1 no memory */
static int owed_grow(listen_owed_t *t)
{
    owed_slot_t *old = t->slots;
    size_t old_cap = t->cap;

    t->slots = calloc(2 * old_cap, sizeof(*t->slots));
    if (NULL == t->slots) {
        t->slots = old;
        return -1;
    }
    t->cap = 2 * old_cap;
    for (size_t i = 0; i < old_cap; ++i) {
        if (0 != old[i].balance) {
            *owed_find(t, old[i].sender, old[i].receiver, old[i].tag) = old[i];
        }
    }
    free(old);
    return 0;
}

/* Empty slot @p s, and move back the keys after it that probed past it. */
static void owed_remove(listen_owed_t *t, owed_slot_t *s)
{
    size_t mask = t->cap - 1, hole = (size_t) (s - t->slots), i = hole;

    for (;;) {
        i = (i + 1) & mask;
        if (0 == t->slots[i].balance) {
            break;
        }
        size_t home = owed_hash(t->slots[i].sender, t->slots[i].receiver, t->slots[i].tag) & mask;
        /* moves back unless its home lies in (hole, i], cyclically */
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            t->slots[hole] = t->slots[i];
            hole = i;
        }
    }
    t->slots[hole].balance = 0;
    t->used--;
}

int listen_owed_seen(listen_owed_t *t, uint64_t sender, uint64_t receiver, int64_t tag, bool send)
{
    owed_slot_t *s;
    int64_t before;

    if (2 * (t->used + 1) > t->cap && 0 != owed_grow(t)) {
        return -1;
    }
    s = owed_find(t, sender, receiver, tag);
    before = s->balance;
    if (0 == before && t->used >= t->max_keys) {
        t->unfollowed++;
        return 0;
    }
    if (0 == before) {
        s->sender = sender;
        s->receiver = receiver;
        s->tag = tag;
        t->used++;
    }
    s->balance = before + (send ? -1 : 1);
    if (0 == s->balance) {
        owed_remove(t, s);
    }
    if (send) {
        return 0 < before ? LISTEN_OWED_PAID : 0;
    }
    return 0 <= before ? LISTEN_OWED_OWES : 0;
}

size_t listen_owed_keys(const listen_owed_t *t)
{
    return t->used;
}

uint64_t listen_owed_unfollowed(const listen_owed_t *t)
{
    return t->unfollowed;
}

void listen_owed_free(listen_owed_t *t)
{
    if (NULL != t) {
        free(t->slots);
        free(t);
    }
}
