/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Puts each location's records into time order with regions that nest, for
 * a format (OTF2) that wants both. Events come in order of their own time
 * (a completion), but what they open lies earlier: a request's start, a
 * collective's entry. So items wait in a heap per location, ordered by the
 * time they open, until the location's stream is a horizon past them (or
 * the location holds its share of items); then they open in that order.
 * Open regions stay on a stack and close, innermost first, before anything
 * later opens; of regions opening at one time the longer opens first, so
 * they nest. A region that would end after the region open around it (two
 * threads' calls of one rank overlapping), or nest deeper than
 * LISTEN_NEST_MAX_DEPTH, is split: what it writes at its start is written
 * there (a message's send stays at its time), and the region itself at
 * its end, with no length. What opens after records already written is
 * moved up to them. A location that owes records (listen_nest_await():
 * a partner's record says one is still to come) keeps its items past the
 * horizon, up to its share, so that the record is written at its time.
 */

#include <stdlib.h>

#include "evt_listen.h"

/* A waiting item with its key beside it: the heap's walks touch no item. */
typedef struct {
    uint64_t t0, t1, seq;
    listen_nest_item_t *it;
} waiting_t;

/* The waiting items of a location: those that came in order (most: a
 * record's start after the one before) in a ring, constant time each;
 * the others in a heap. The earliest is the earlier of their fronts. */
typedef struct {
    waiting_t *run; /**< in order, a ring */
    size_t run_head, run_n, run_cap;
    waiting_t *heap; /**< the rest, by before() */
    size_t num, cap;
    listen_nest_item_t **open; /**< the open regions, innermost last */
    size_t depth, open_cap;
    uint64_t last;   /**< time of the last record written */
    uint64_t newest; /**< latest event time added */
    uint64_t seq;
    int64_t owed; /**< listen_nest_await()'s balance: > 0 holds the items */
} nest_loc_t;

struct listen_nest {
    nest_loc_t *locs;
    size_t num_locs;
    uint64_t horizon;
    size_t cap; /**< items a location may hold */
    listen_nest_open_fn open;
    listen_nest_close_fn close;
    void *ctx;
    listen_nest_stats_t stats;
};

/* By start; at one start the longer first (it holds the others); then
 * in the order they came. */
static bool before(const waiting_t *a, const waiting_t *b)
{
    if (a->t0 != b->t0) {
        return a->t0 < b->t0;
    }
    if (a->t1 != b->t1) {
        return a->t1 > b->t1;
    }
    return a->seq < b->seq;
}

static int heap_push(nest_loc_t *l, const waiting_t w)
{
    size_t i;

    if (l->num == l->cap) {
        size_t n = 0 == l->cap ? 64 : 2 * l->cap;
        waiting_t *h = realloc(l->heap, n * sizeof(*h));
        if (NULL == h) {
            return -1;
        }
        l->heap = h;
        l->cap = n;
    }
    for (i = l->num++; 0 < i && before(&w, &l->heap[(i - 1) / 2]); i = (i - 1) / 2) {
        l->heap[i] = l->heap[(i - 1) / 2];
    }
    l->heap[i] = w;
    return 0;
}

static listen_nest_item_t *heap_pop(nest_loc_t *l)
{
    listen_nest_item_t *top = l->heap[0].it;
    waiting_t last = l->heap[--l->num];
    size_t i = 0;

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= l->num) {
            break;
        }
        if (c + 1 < l->num && before(&l->heap[c + 1], &l->heap[c])) {
            c++;
        }
        if (!before(&l->heap[c], &last)) {
            break;
        }
        l->heap[i] = l->heap[c];
        i = c;
    }
    if (0 < l->num) {
        l->heap[i] = last;
    }
    return top;
}

static size_t waiting(const nest_loc_t *l)
{
    return l->run_n + l->num;
}

/* The earliest waiting item (waiting(l) > 0). */
static const waiting_t *earliest(const nest_loc_t *l)
{
    const waiting_t *r = 0 < l->run_n ? &l->run[l->run_head] : NULL;

    if (0 == l->num) {
        return r;
    }
    return NULL == r || before(&l->heap[0], r) ? &l->heap[0] : r;
}

static int wait_push(nest_loc_t *l, listen_nest_item_t *it)
{
    const waiting_t w = {it->t0, it->t1, it->seq, it};

    if (0 < l->run_n && !before(&l->run[(l->run_head + l->run_n - 1) % l->run_cap], &w)) {
        return heap_push(l, w); /* out of order */
    }
    if (l->run_n == l->run_cap) {
        size_t n = 0 == l->run_cap ? 64 : 2 * l->run_cap;
        waiting_t *r = malloc(n * sizeof(*r));
        if (NULL == r) {
            return -1;
        }
        for (size_t k = 0; k < l->run_n; ++k) {
            r[k] = l->run[(l->run_head + k) % l->run_cap];
        }
        free(l->run);
        l->run = r;
        l->run_cap = n;
        l->run_head = 0;
    }
    l->run[(l->run_head + l->run_n++) % l->run_cap] = w;
    return 0;
}

static listen_nest_item_t *wait_pop(nest_loc_t *l)
{
    listen_nest_item_t *it;

    if (0 == l->run_n || earliest(l) != &l->run[l->run_head]) {
        return heap_pop(l);
    }
    it = l->run[l->run_head].it;
    l->run_head = (l->run_head + 1) % l->run_cap;
    l->run_n--;
    return it;
}

/* Close the open regions that end at or before @p ts, innermost first. */
static int close_until(listen_nest_t *n, size_t loc, uint64_t ts)
{
    nest_loc_t *l = &n->locs[loc];

    while (0 < l->depth && l->open[l->depth - 1]->t1 <= ts) {
        listen_nest_item_t *it = l->open[--l->depth];
        uint64_t t = it->t1 < l->last ? l->last : it->t1;
        int rc = n->close(n->ctx, loc, it, t);
        l->last = t;
        free(it);
        if (0 != rc) {
            return -1;
        }
    }
    return 0;
}

/* Write the earliest waiting item of @p loc. */
static int open_next(listen_nest_t *n, size_t loc)
{
    nest_loc_t *l = &n->locs[loc];
    listen_nest_item_t *it = wait_pop(l);
    uint64_t ts = it->t0;
    int rc;

    if (ts < l->last) {
        if (!it->moved) {
            n->stats.late++;
            it->moved = true;
        }
        ts = l->last;
    }
    if (0 != close_until(n, loc, ts)) {
        free(it);
        return -1;
    }
    if (it->point) {
        rc = n->open(n->ctx, loc, it, ts);
        l->last = ts;
        free(it);
        return rc;
    }
    if (it->t1 < ts || LISTEN_NEST_AT_END == it->part) {
        it->t1 = ts; /* a split region has no length */
    }
    if (LISTEN_NEST_WHOLE == it->part
        && ((0 < l->depth && it->t1 > l->open[l->depth - 1]->t1)
            || LISTEN_NEST_MAX_DEPTH <= l->depth)) {
        /* it would end outside the region around it, or nest too deep:
         * its start's records now, its region at its end */
        n->stats.overlapped++;
        it->part = LISTEN_NEST_START;
        rc = n->open(n->ctx, loc, it, ts);
        l->last = ts;
        it->part = LISTEN_NEST_AT_END;
        it->t0 = it->t1;
        if (0 != rc || 0 != wait_push(l, it)) {
            free(it);
            return -1;
        }
        return 0;
    }
    if (l->depth == l->open_cap) {
        size_t c = 0 == l->open_cap ? 16 : 2 * l->open_cap;
        listen_nest_item_t **o = realloc(l->open, c * sizeof(*o));
        if (NULL == o) {
            free(it);
            return -1;
        }
        l->open = o;
        l->open_cap = c;
    }
    rc = n->open(n->ctx, loc, it, ts);
    l->last = ts;
    l->open[l->depth++] = it;
    return rc;
}

listen_nest_t *listen_nest_new(size_t num_locs, uint64_t horizon_ns, size_t max_items,
                               listen_nest_open_fn open, listen_nest_close_fn close, void *ctx)
{
    listen_nest_t *n = calloc(1, sizeof(*n));
    size_t share;

    if (NULL == n || NULL == (n->locs = calloc(num_locs + 1, sizeof(*n->locs)))) {
        free(n);
        return NULL;
    }
    n->num_locs = num_locs;
    n->horizon = horizon_ns;
    share = 0 == num_locs ? max_items : max_items / num_locs;
    n->cap = share < LISTEN_NEST_MIN_ITEMS ? LISTEN_NEST_MIN_ITEMS : share;
    n->open = open;
    n->close = close;
    n->ctx = ctx;
    return n;
}

int listen_nest_add(listen_nest_t *n, size_t loc, listen_nest_item_t *it, uint64_t now)
{
    nest_loc_t *l = &n->locs[loc];

    it->seq = l->seq++;
    it->moved = false;
    it->early = false;
    it->part = LISTEN_NEST_WHOLE;
    if (it->point || it->t1 < it->t0) {
        it->t1 = it->t0;
    }
    if (0 != wait_push(l, it)) {
        free(it);
        return -1;
    }
    if (now > l->newest) {
        l->newest = now;
    }
    while (
        0 < waiting(l)
        && ((0 >= l->owed && earliest(l)->t0 + n->horizon <= l->newest) || waiting(l) > n->cap)) {
        listen_nest_item_t *next = earliest(l)->it;
        if (earliest(l)->t0 + n->horizon > l->newest && !next->early) {
            n->stats.early++; /* the location is full */
            next->early = true;
        }
        if (0 != open_next(n, loc)) {
            return -1;
        }
    }
    return 0;
}

void listen_nest_await(listen_nest_t *n, size_t loc, int64_t delta)
{
    n->locs[loc].owed += delta;
}

int listen_nest_finish(listen_nest_t *n)
{
    for (size_t loc = 0; loc < n->num_locs; ++loc) {
        nest_loc_t *l = &n->locs[loc];
        while (0 < waiting(l)) {
            if (0 != open_next(n, loc)) {
                return -1;
            }
        }
        if (0 != close_until(n, loc, UINT64_MAX)) {
            return -1;
        }
    }
    return 0;
}

const listen_nest_stats_t *listen_nest_stats(const listen_nest_t *n)
{
    return &n->stats;
}

void listen_nest_free(listen_nest_t *n)
{
    if (NULL == n) {
        return;
    }
    for (size_t loc = 0; loc < n->num_locs; ++loc) {
        nest_loc_t *l = &n->locs[loc];
        for (size_t i = 0; i < l->num; ++i) {
            free(l->heap[i].it);
        }
        for (size_t i = 0; i < l->run_n; ++i) {
            free(l->run[(l->run_head + i) % l->run_cap].it);
        }
        free(l->run);
        for (size_t i = 0; i < l->depth; ++i) {
            free(l->open[i]);
        }
        free(l->heap);
        free(l->open);
    }
    free(n->locs);
    free(n);
}
