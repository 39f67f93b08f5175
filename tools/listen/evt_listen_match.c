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
 * while something waits. */
struct listen_match_queue {
    uint32_t ns;
    int64_t src, dst, tag;
    bool used;
    waits_t sends, recvs;
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

static queue_t *queue(listen_match_t *m, uint32_t ns, int64_t src, int64_t dst, int64_t tag,
                      bool *full)
{
    uint64_t h;
    size_t i;

    *full = false;
    if (2 * (m->qn + 1) > m->qcap) {
        size_t nc = m->qcap ? 2 * m->qcap : 1024;
        queue_t *nq = calloc(nc, sizeof(*nq));
        if (NULL == nq) {
            return NULL;
        }
        for (size_t k = 0; k < m->qcap; ++k) {
            if (m->q[k].used) {
                queue_t *e = &m->q[k];
                size_t j = (size_t) qhash(e->ns, e->src, e->dst, e->tag) & (nc - 1);
                while (nq[j].used) {
                    j = (j + 1) & (nc - 1);
                }
                nq[j] = *e;
            }
        }
        free(m->q);
        m->q = nq;
        m->qcap = nc;
    }
    h = qhash(ns, src, dst, tag);
    for (i = (size_t) h & (m->qcap - 1); m->q[i].used; i = (i + 1) & (m->qcap - 1)) {
        queue_t *e = &m->q[i];
        if (e->ns == ns && e->src == src && e->dst == dst && e->tag == tag) {
            return e;
        }
    }
    if (m->qn >= LISTEN_MATCH_MAX_PENDING) {
        *full = true; /* bounded: this message is not paired */
        return NULL;
    }
    m->q[i].used = true;
    m->q[i].ns = ns;
    m->q[i].src = src;
    m->q[i].dst = dst;
    m->q[i].tag = tag;
    m->qn++;
    return &m->q[i];
}

/* The index of the queue of this key, or SIZE_MAX when nothing waits. */
static size_t find(const listen_match_t *m, const listen_match_key_t *k)
{
    if (0 == m->qcap) {
        return SIZE_MAX;
    }
    for (size_t i = (size_t) qhash(k->ns, k->src, k->dst, k->tag) & (m->qcap - 1); m->q[i].used;
         i = (i + 1) & (m->qcap - 1)) {
        const queue_t *e = &m->q[i];
        if (e->ns == k->ns && e->src == k->src && e->dst == k->dst && e->tag == k->tag) {
            return i;
        }
    }
    return SIZE_MAX;
}

/* Remember that the queue of @p k has both sends and receives waiting, in
 * the order that happened (a key there may be stale: looked up again).
 * @retval 0, -1 no memory */
static int ready_push(listen_match_t *m, const queue_t *q)
{
    if (m->ready_n == m->ready_cap) {
        size_t nc = 0 == m->ready_cap ? 1024 : 2 * m->ready_cap;
        listen_match_key_t *r = malloc(nc * sizeof(*r));
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
    m->ready[(m->ready_head + m->ready_n++) % m->ready_cap] = (listen_match_key_t){q->ns, q->src,
                                                                                   q->dst, q->tag};
    return 0;
}

/* Remove the (empty) queue at @p i: backward-shift deletion, so the table
 * holds only pairs with something waiting and stays as small as they. */
static void queue_del(listen_match_t *m, size_t i)
{
    size_t mask = m->qcap - 1, j = i;

    for (;;) {
        size_t home;
        j = (j + 1) & mask;
        if (!m->q[j].used) {
            break;
        }
        home = (size_t) qhash(m->q[j].ns, m->q[j].src, m->q[j].dst, m->q[j].tag) & mask;
        /* j may move to i unless its home lies cyclically in (i, j] */
        if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
            m->q[i] = m->q[j];
            i = j;
        }
    }
    memset(&m->q[i], 0, sizeof(m->q[i]));
    m->qn--;
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

/* Whether the oldest send and receive of queue @p q are due. */
static bool due(const listen_match_t *m, const queue_t *q)
{
    int64_t latest;

    if (NULL == q->sends.head || NULL == q->recvs.head) {
        return false;
    }
    latest = q->sends.head->msg.start > q->recvs.head->msg.start ? q->sends.head->msg.start
                                                                 : q->recvs.head->msg.start;
    /* unsigned: hostile starts near INT64_MIN */
    return latest <= m->now
           && (uint64_t) m->now - (uint64_t) latest >= (uint64_t) LISTEN_MATCH_HORIZON_NS;
}

/* Pair the oldest send and receive of queue @p i while the stream is the
 * horizon past both (or always: @p force); remove the queue once empty.
 * @retval 0, -1 pair() failed */
static int pair_due(listen_match_t *m, size_t i, bool force)
{
    queue_t *q = &m->q[i];
    int rc = 0;

    while (0 == rc && NULL != q->sends.head && NULL != q->recvs.head) {
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
        free(snd);
        free(rcv);
    }
    if (NULL == q->sends.head && NULL == q->recvs.head) {
        queue_del(m, i);
    }
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
        const listen_match_key_t *k = &m->ready[m->ready_head];
        size_t i = find(m, k);
        if (SIZE_MAX != i && NULL != m->q[i].sends.head && NULL != m->q[i].recvs.head) {
            if (!force && !due(m, &m->q[i])) {
                return 0;
            }
            if (0 != pair_due(m, i, force)) {
                return -1;
            }
            i = find(m, k);
            if (SIZE_MAX != i && NULL != m->q[i].sends.head && NULL != m->q[i].recvs.head
                && 0 != ready_push(m, &m->q[i])) {
                return -1; /* still both waiting, not due yet: again later */
            }
        }
        m->ready_head = (m->ready_head + 1) % m->ready_cap;
        m->ready_n--;
    }
    return 0;
}

int listen_match_add(listen_match_t *m, uint32_t ns, int64_t src, int64_t dst, int64_t tag,
                     bool is_send, const listen_msg_t *me, int64_t now)
{
    bool full;
    queue_t *q;
    wait_t *w;
    size_t i;
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
    i = (size_t) (q - m->q);
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
            free(o);
        }
        if (NULL == q->sends.head && NULL == q->recvs.head) {
            queue_del(m, i);
        }
        return rc;
    }
    w = malloc(sizeof(*w));
    if (NULL == w) {
        if (NULL == q->sends.head && NULL == q->recvs.head) {
            queue_del(m, i);
        }
        return -1;
    }
    w->msg = *me;
    bool was_ready = NULL != q->sends.head && NULL != q->recvs.head;
    insert(m, is_send ? &q->sends : &q->recvs, w);
    m->pending++;
    if (!was_ready && NULL != q->sends.head && NULL != q->recvs.head && 0 != ready_push(m, q)) {
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
        queue_t was = m->q[i];
        if (!was.used) {
            ++i;
            continue;
        }
        if (0 != pair_due(m, i, true)) {
            return -1;
        }
        if (m->q[i].used && m->q[i].ns == was.ns && m->q[i].src == was.src && m->q[i].dst == was.dst
            && m->q[i].tag == was.tag) {
            ++i; /* still there: next */
        }
    }
    m->ready_n = 0;
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
    for (size_t i = 0; i < m->qcap; ++i) {
        free_waits(m->q[i].sends.head);
        free_waits(m->q[i].recvs.head);
    }
    free(m->q);
    free(m->ready);
    m->q = NULL;
    m->ready = NULL;
    m->qcap = m->qn = 0;
    m->ready_n = m->ready_cap = 0;
}
