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
 * receiver (world ranks) and tag, in order (MPI's non-overtaking rule),
 * equal byte counts. A table of queues, one per (namespace, sender,
 * receiver, tag) with something waiting, each holding the sends or the
 * receives that wait for their partner; at most LISTEN_MATCH_MAX_PENDING
 * wait at once (beyond: not paired, counted).
 */

#include <stdlib.h>
#include <string.h>

#include "evt_listen.h"

/* One send or receive waiting for its partner. */
typedef struct listen_match_wait {
    listen_msg_t msg;
    struct listen_match_wait *next;
} wait_t;

/* Queue of one (namespace, sender, receiver, tag): sends or receives
 * waiting; in the table only while not empty. */
struct listen_match_queue {
    uint32_t ns;
    int64_t src, dst, tag;
    bool used;
    bool sends; /**< the queue holds sends (else receives) */
    wait_t *head, *tail;
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

int listen_match_add(listen_match_t *m, uint32_t ns, int64_t src, int64_t dst, int64_t tag,
                     bool is_send, const listen_msg_t *me)
{
    bool full;
    queue_t *q = queue(m, ns, src, dst, tag, &full);
    wait_t *w;

    if (NULL == q) {
        if (full) {
            m->unpaired++;
            return 0;
        }
        return -1;
    }
    if (NULL != q->head && q->sends != is_send) {
        wait_t *other = q->head;
        q->head = other->next;
        m->pending--;
        if (NULL == q->head) {
            queue_del(m, (size_t) (q - m->q));
        }
        if (other->msg.bytes == me->bytes) {
            m->pair(m->ctx, is_send ? me : &other->msg, is_send ? &other->msg : me);
            m->paired++;
        } else {
            m->mismatched++;
        }
        free(other);
        return 0;
    }
    if (m->pending >= LISTEN_MATCH_MAX_PENDING) {
        m->unpaired++;
        return 0;
    }
    w = malloc(sizeof(*w));
    if (NULL == w) {
        return -1;
    }
    w->msg = *me;
    w->next = NULL;
    if (NULL == q->head) {
        q->head = w;
        q->sends = is_send;
    } else {
        q->tail->next = w;
    }
    q->tail = w;
    m->pending++;
    return 0;
}

void listen_match_fini(listen_match_t *m)
{
    for (size_t i = 0; i < m->qcap; ++i) {
        wait_t *w = m->q[i].head;
        while (NULL != w) {
            wait_t *n = w->next;
            free(w);
            w = n;
        }
    }
    free(m->q);
    m->q = NULL;
    m->qcap = m->qn = 0;
}
