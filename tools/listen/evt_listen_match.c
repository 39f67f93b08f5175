/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Pairing sends with receives (what trace.json's flow arrows and
 * report.html's late senders are made of): same namespace, sender,
 * receiver (world ranks) and tag, in the order they were started (MPI's
 * non-overtaking rule), equal byte counts. Events come in order of their
 * completion, and a later message of a pair can complete first (Wait on
 * the second Isend first): so each (namespace, sender, receiver, tag) with
 * something waiting has its sends and its receives each kept in order of
 * their start, and its oldest send and receive are paired once the stream
 * is LISTEN_MATCH_HORIZON_NS past both starts (an earlier one not yet
 * come would have been open that long), at the latest at the end; the
 * queues with both waiting are looked at in the order they became so. At most
 * LISTEN_MATCH_MAX_PENDING wait at once: beyond, the pair's oldest are
 * paired at once (counted), or the message is not paired (counted).
 *
 * A queue stays where it was made while it lives, so the ready ring holds
 * the queue itself (no second lookup); the table holds only its key's hash
 * and a pointer, a quarter of a cache line. Queues and waits are reused
 * rather than freed: a job with a new tag per message makes and empties a
 * queue per message.
 */

#include <stdlib.h>
#include <string.h>

#include "evt_listen.h"

/* One send or receive waiting for its partner. */
typedef struct listen_match_wait {
    listen_msg_t msg;
    struct listen_match_wait *next, *prev;
} wait_t;

/* The sends or the receives of a queue, in order of their start. */
typedef struct {
    wait_t *head, *tail;
} waits_t;

/* Queue of one (namespace, sender, receiver, tag): in the table only
 * while something waits. An emptied queue leaves the table at once, and
 * is reused once no entry of the ready ring names it any more. */
struct listen_match_queue {
    uint32_t ns;
    bool live;         /* in the table */
    uint32_t in_ready; /* entries of the ready ring naming it */
    int64_t src, dst, tag;
    uint64_t hash;
    waits_t sends, recvs;
    struct listen_match_queue *next_free;
};
typedef struct listen_match_queue queue_t;

void listen_match_init(listen_match_t *m, listen_match_pair_fn pair, void *ctx)
{
    memset(m, 0, sizeof(*m));
    m->pair = pair;
    m->ctx = ctx;
}

/* splitmix64 over the whole key */
static uint64_t qhash(uint32_t ns, int64_t src, int64_t dst, int64_t tag)
{
    uint64_t h = (uint64_t) ns;
    const uint64_t parts[3] = {(uint64_t) src, (uint64_t) dst, (uint64_t) tag};
    for (int i = 0; i < 3; ++i) {
        h += parts[i] + 0x9e3779b97f4a7c15ULL;
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
        h ^= h >> 31;
    }
    return h;
}

static bool queue_grow(listen_match_t *m)
{
    size_t nc = m->qcap ? 2 * m->qcap : 1024;
    listen_match_slot_t *ns = calloc(nc, sizeof(*ns));

    if (NULL == ns) {
        return false;
    }
    for (size_t k = 0; k < m->qcap; ++k) {
        if (NULL != m->slots[k].q) {
            size_t j = (size_t) m->slots[k].hash & (nc - 1);
            while (NULL != ns[j].q) {
                j = (j + 1) & (nc - 1);
            }
            ns[j] = m->slots[k];
        }
    }
    free(m->slots);
    m->slots = ns;
    m->qcap = nc;
    return true;
}

/* The queue of this key, made when missing (NULL and *full when
 * LISTEN_MATCH_MAX_PENDING queues exist; NULL alone: no memory). */
static queue_t *queue(listen_match_t *m, uint32_t ns, int64_t src, int64_t dst, int64_t tag,
                      bool *full)
{
    uint64_t h = qhash(ns, src, dst, tag);
    queue_t *q;
    size_t i;

    *full = false;
    if (2 * (m->qn + 1) > m->qcap && !queue_grow(m)) {
        return NULL;
    }
    for (i = (size_t) h & (m->qcap - 1); NULL != m->slots[i].q; i = (i + 1) & (m->qcap - 1)) {
        q = m->slots[i].q;
        if (m->slots[i].hash == h && q->ns == ns && q->src == src && q->dst == dst
            && q->tag == tag) {
            return q;
        }
    }
    if (m->qn >= LISTEN_MATCH_MAX_PENDING) {
        *full = true; /* bounded: this message is not paired */
        return NULL;
    }
    if (NULL != m->free_queues) {
        q = m->free_queues;
        m->free_queues = q->next_free;
    } else if (NULL == (q = malloc(sizeof(*q)))) {
        return NULL;
    }
    memset(q, 0, sizeof(*q));
    q->ns = ns;
    q->src = src;
    q->dst = dst;
    q->tag = tag;
    q->hash = h;
    q->live = true;
    m->slots[i].hash = h;
    m->slots[i].q = q;
    m->qn++;
    return q;
}

static void queue_reuse(listen_match_t *m, queue_t *q)
{
    q->next_free = m->free_queues;
    m->free_queues = q;
}

/* Take queue @p q out of the table when nothing waits in it any more:
 * backward-shift deletion, so the table holds only pairs with something
 * waiting and stays as small as they. Reused at once unless the ready
 * ring still names it. */
static void queue_del_if_empty(listen_match_t *m, queue_t *q)
{
    size_t mask = m->qcap - 1, i = (size_t) q->hash & mask, j;

    if (NULL != q->sends.head || NULL != q->recvs.head) {
        return;
    }
    while (m->slots[i].q != q) {
        i = (i + 1) & mask;
    }
    for (j = i;;) {
        size_t home;
        j = (j + 1) & mask;
        if (NULL == m->slots[j].q) {
            break;
        }
        home = (size_t) m->slots[j].hash & mask;
        /* j may move to i unless its home lies cyclically in (i, j] */
        if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
            m->slots[i] = m->slots[j];
            i = j;
        }
    }
    m->slots[i].q = NULL;
    m->qn--;
    q->live = false;
    if (0 == q->in_ready) {
        queue_reuse(m, q);
    }
}

/* Remember that queue @p q has both sends and receives waiting, in the
 * order that happened. @retval 0, -1 no memory */
static int ready_push(listen_match_t *m, queue_t *q)
{
    if (m->ready_n == m->ready_cap) {
        size_t nc = 0 == m->ready_cap ? 1024 : 2 * m->ready_cap;
        queue_t **r = malloc(nc * sizeof(*r));
        if (NULL == r) {
            return -1;
        }
        for (size_t k = 0; k < m->ready_n; ++k) {
            r[k] = m->ready[(m->ready_head + k) % m->ready_cap];
        }
        free(m->ready);
        m->ready = r;
        m->ready_cap = nc;
        m->ready_head = 0;
    }
    m->ready[(m->ready_head + m->ready_n++) % m->ready_cap] = q;
    q->in_ready++;
    return 0;
}

/* Drop the ready ring's oldest entry. */
static void ready_pop(listen_match_t *m)
{
    queue_t *q = m->ready[m->ready_head];

    m->ready_head = (m->ready_head + 1) % m->ready_cap;
    m->ready_n--;
    if (0 == --q->in_ready && !q->live) {
        queue_reuse(m, q);
    }
}

static wait_t *wait_new(listen_match_t *m)
{
    wait_t *w = m->free_waits;

    if (NULL != w) {
        m->free_waits = w->next;
        return w;
    }
    return malloc(sizeof(*w));
}

static void wait_reuse(listen_match_t *m, wait_t *w)
{
    w->next = m->free_waits;
    m->free_waits = w;
}

/* Insert @p w in order of its start (after those started at the same
 * time: arrival order), looking from the newest: one that completed
 * before a message started earlier belongs near the end. */
static void insert(listen_match_t *m, waits_t *l, wait_t *w)
{
    wait_t *after = l->tail;

    while (NULL != after && after->msg.start > w->msg.start) {
        after = after->prev;
    }
    if (after != l->tail) {
        m->reordered++; /* completed before a message started earlier */
    }
    w->prev = after;
    w->next = NULL == after ? l->head : after->next;
    if (NULL == after) {
        l->head = w;
    } else {
        after->next = w;
    }
    if (NULL == w->next) {
        l->tail = w;
    } else {
        w->next->prev = w;
    }
}

static wait_t *take(waits_t *l)
{
    wait_t *w = l->head;

    l->head = w->next;
    if (NULL == l->head) {
        l->tail = NULL;
    } else {
        l->head->prev = NULL;
    }
    return w;
}

static bool both_wait(const queue_t *q)
{
    return NULL != q->sends.head && NULL != q->recvs.head;
}

/* Whether the oldest send and receive of queue @p q are due. */
static bool due(const listen_match_t *m, const queue_t *q)
{
    int64_t latest;

    if (!both_wait(q)) {
        return false;
    }
    latest = q->sends.head->msg.start > q->recvs.head->msg.start ? q->sends.head->msg.start
                                                                 : q->recvs.head->msg.start;
    /* unsigned: hostile starts near INT64_MIN */
    return latest <= m->now
           && (uint64_t) m->now - (uint64_t) latest >= (uint64_t) LISTEN_MATCH_HORIZON_NS;
}

/* Pair the oldest send and receive of queue @p q while the stream is the
 * horizon past both (or always: @p force); take the queue out of the
 * table once empty. @retval 0, -1 pair() failed */
static int pair_due(listen_match_t *m, queue_t *q, bool force)
{
    int rc = 0;

    while (0 == rc && both_wait(q)) {
        if (!force && !due(m, q)) {
            break;
        }
        wait_t *snd = take(&q->sends), *rcv = take(&q->recvs);
        m->pending -= 2;
        if (snd->msg.bytes == rcv->msg.bytes) {
            rc = m->pair(m->ctx, &snd->msg, &rcv->msg);
            m->paired++;
        } else {
            m->mismatched++;
        }
        wait_reuse(m, snd);
        wait_reuse(m, rcv);
    }
    queue_del_if_empty(m, q);
    return rc;
}

/* The queues that became ready, oldest first, while their pairs are due
 * (@p force: all their pairs, until fewer than LISTEN_MATCH_MAX_PENDING
 * wait): the work per message stays constant however many queues wait. A
 * queue whose pairs are not due yet holds up those behind it, at most the
 * horizon (its starts lie before it became ready). */
static int pair_ready(listen_match_t *m, bool force)
{
    while (0 < m->ready_n && (!force || m->pending >= LISTEN_MATCH_MAX_PENDING)) {
        queue_t *q = m->ready[m->ready_head];
        /* a queue emptied since is not reused while named here; made
         * again, its key has another queue, in the ring where it became
         * ready anew */
        if (q->live && both_wait(q)) {
            if (!force && !due(m, q)) {
                return 0;
            }
            if (0 != pair_due(m, q, force)) {
                return -1;
            }
            if (q->live && both_wait(q) && 0 != ready_push(m, q)) {
                return -1; /* still both waiting, not due yet: again later */
            }
        }
        ready_pop(m);
    }
    return 0;
}

int listen_match_add(listen_match_t *m, uint32_t ns, int64_t src, int64_t dst, int64_t tag,
                     bool is_send, const listen_msg_t *me, int64_t now)
{
    bool full, was_ready;
    queue_t *q;
    wait_t *w;
    int rc = 0;

    if (now > m->now) {
        m->now = now;
    }
    if (m->pending >= LISTEN_MATCH_MAX_PENDING) {
        /* no room to wait: the pairs waiting longest are paired now, each
         * pair's in order (counted) */
        uint64_t done = m->paired + m->mismatched;
        if (0 != pair_ready(m, true)) {
            return -1;
        }
        m->early += m->paired + m->mismatched - done;
    }
    q = queue(m, ns, src, dst, tag, &full);
    if (NULL == q) {
        if (full) {
            m->unpaired++;
            return 0;
        }
        return -1;
    }
    if (m->pending >= LISTEN_MATCH_MAX_PENDING) {
        /* still no room (what waits has no partner): this one is paired
         * with the oldest partner if none of its own kind waits before it
         * (the order holds), else not paired */
        waits_t *mine = is_send ? &q->sends : &q->recvs, *other = is_send ? &q->recvs : &q->sends;
        if (NULL == other->head || NULL != mine->head) {
            m->unpaired++;
        } else {
            wait_t *o = take(other);
            m->pending--;
            m->early++;
            if (o->msg.bytes == me->bytes) {
                rc = is_send ? m->pair(m->ctx, me, &o->msg) : m->pair(m->ctx, &o->msg, me);
                m->paired++;
            } else {
                m->mismatched++;
            }
            wait_reuse(m, o);
        }
        queue_del_if_empty(m, q);
        return rc;
    }
    w = wait_new(m);
    if (NULL == w) {
        queue_del_if_empty(m, q);
        return -1;
    }
    w->msg = *me;
    was_ready = both_wait(q);
    insert(m, is_send ? &q->sends : &q->recvs, w);
    m->pending++;
    if (!was_ready && both_wait(q) && 0 != ready_push(m, q)) {
        return -1;
    }
    return pair_ready(m, false);
}

int listen_match_finish(listen_match_t *m)
{
    /* every queue, in table order: a queue removed moves a later one into
     * its slot, looked at again (one moved from the table's start is
     * looked at twice: harmless) */
    for (size_t i = 0; i < m->qcap;) {
        queue_t *q = m->slots[i].q;
        if (NULL == q) {
            ++i;
            continue;
        }
        if (0 != pair_due(m, q, true)) {
            return -1;
        }
        if (m->slots[i].q == q) {
            ++i; /* still there: next */
        }
    }
    while (0 < m->ready_n) {
        ready_pop(m);
    }
    return 0;
}

static void free_waits(wait_t *w)
{
    while (NULL != w) {
        wait_t *n = w->next;
        free(w);
        w = n;
    }
}

void listen_match_fini(listen_match_t *m)
{
    while (0 < m->ready_n) {
        ready_pop(m);
    }
    for (size_t i = 0; i < m->qcap; ++i) {
        queue_t *q = m->slots[i].q;
        if (NULL != q) {
            free_waits(q->sends.head);
            free_waits(q->recvs.head);
            free(q);
        }
    }
    free_waits(m->free_waits);
    while (NULL != m->free_queues) {
        queue_t *q = m->free_queues;
        m->free_queues = q->next_free;
        free(q);
    }
    free(m->slots);
    free(m->ready);
    m->slots = NULL;
    m->ready = NULL;
    m->free_waits = NULL;
    m->qcap = m->qn = 0;
    m->ready_n = m->ready_cap = m->ready_head = 0;
}
