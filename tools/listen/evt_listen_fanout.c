/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Some of pass 2's sinks on a second thread (see evt_listen.h). The merge
 * thread copies each event it hands on into a block; a full block goes to
 * the worker, which runs its sinks over the block's events in order. A
 * batch whose records have all been handed on is freed by the worker after
 * the block that holds its last event, so an event's pointers into its
 * batch stay valid until the worker is through with it; every other pointer
 * of an event is the registry's, which lives longer than both threads.
 *
 * A fixed number of blocks circulates: the merge thread waits for a free
 * one when the worker is FANOUT_BLOCKS blocks behind, so memory stays
 * bounded: the window, those blocks, and the batches whose last events
 * they hold (up to FANOUT_BLOCKS * FANOUT_BLOCK_SIZE events behind the
 * merge; with --events keeping few records of large batches, those
 * batches can outweigh the window's).
 */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "evt_listen.h"

#define FANOUT_BLOCKS     4
#define FANOUT_BLOCK_SIZE 4096 /* events */

typedef struct batch_list {
    listen_batch_t **v;
    size_t n, cap;
} batch_list_t;

typedef struct fanout_block {
    listen_event_t ev[FANOUT_BLOCK_SIZE];
    size_t n;
    batch_list_t done; /* batches to free once the block's events are written */
} fanout_block_t;

struct listen_fanout {
    listen_sink_t *sinks;
    size_t num_sinks;
    fanout_block_t blocks[FANOUT_BLOCKS];
    /* blocks[] as a ring: fill is the merge thread's, take the worker's;
     * ready = blocks handed to the worker and not yet written */
    size_t fill, take, ready;
    bool ending;   /* no block comes after the ready ones */
    bool stopping; /* stop at once (the merge failed) */
    bool failed;   /* a sink of the worker failed */
    /* The merge thread's own: it was told of the failure, after which it
     * touches no block (the one it would fill next may be the worker's),
     * and a batch it gives up is freed at once (the worker, having
     * failed, reads no event any more). */
    bool broken;
    pthread_mutex_t lock;
    pthread_cond_t to_worker, to_merge;
    pthread_t thread;
};

static void block_release(fanout_block_t *b)
{
    for (size_t i = 0; i < b->done.n; ++i) {
        listen_batch_free(b->done.v[i]);
    }
    b->done.n = 0;
    b->n = 0;
}

static void *fanout_main(void *arg)
{
    listen_fanout_t *f = arg;

    pthread_mutex_lock(&f->lock);
    for (;;) {
        while (0 == f->ready && !f->ending && !f->stopping) {
            pthread_cond_wait(&f->to_worker, &f->lock);
        }
        if (f->stopping || 0 == f->ready) {
            break;
        }
        fanout_block_t *b = &f->blocks[f->take];
        bool failed = f->failed;
        pthread_mutex_unlock(&f->lock);

        /* after a sink failed, the blocks are only released: the merge
         * thread learns of it at its next hand-over */
        for (size_t e = 0; e < b->n && !failed; ++e) {
            for (size_t i = 0; i < f->num_sinks && !failed; ++i) {
                failed = 0 != f->sinks[i].event(f->sinks[i].ctx, &b->ev[e]);
            }
        }
        block_release(b);

        pthread_mutex_lock(&f->lock);
        f->failed = failed;
        f->take = (f->take + 1) % FANOUT_BLOCKS;
        f->ready--;
        pthread_cond_signal(&f->to_merge);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

listen_fanout_t *listen_fanout_start(listen_sink_t *sinks, size_t num_sinks, char *err,
                                     size_t errlen)
{
    listen_fanout_t *f = calloc(1, sizeof(*f));

    if (NULL == f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    f->sinks = sinks;
    f->num_sinks = num_sinks;
    /* Room for every batch a block can be given (listen_fanout_release()
     * hands a block over early rather than grow it): releasing never
     * allocates. */
    for (size_t i = 0; i < FANOUT_BLOCKS; ++i) {
        f->blocks[i].done.cap = FANOUT_BLOCK_SIZE;
        f->blocks[i].done.v = malloc(FANOUT_BLOCK_SIZE * sizeof(*f->blocks[i].done.v));
        if (NULL == f->blocks[i].done.v) {
            for (size_t k = 0; k < i; ++k) {
                free(f->blocks[k].done.v);
            }
            free(f);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
    }
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->to_worker, NULL);
    pthread_cond_init(&f->to_merge, NULL);
    if (0 != pthread_create(&f->thread, NULL, fanout_main, f)) {
        snprintf(err, errlen, "cannot start the output thread");
        pthread_cond_destroy(&f->to_merge);
        pthread_cond_destroy(&f->to_worker);
        pthread_mutex_destroy(&f->lock);
        for (size_t i = 0; i < FANOUT_BLOCKS; ++i) {
            free(f->blocks[i].done.v);
        }
        free(f);
        return NULL;
    }
    return f;
}

/* The block being filled goes to the worker; the next one is filled.
 * Under the lock. */
static void queue_filled(listen_fanout_t *f)
{
    f->ready++;
    f->fill = (f->fill + 1) % FANOUT_BLOCKS;
    pthread_cond_signal(&f->to_worker);
}

/* Hand the block being filled to the worker and take the next one, when
 * the worker has written it. @retval 0, -1 a sink of the worker failed */
static int hand_over(listen_fanout_t *f)
{
    int rc;

    pthread_mutex_lock(&f->lock);
    queue_filled(f);
    while (FANOUT_BLOCKS == f->ready && !f->failed) {
        pthread_cond_wait(&f->to_merge, &f->lock);
    }
    rc = f->failed ? -1 : 0;
    pthread_mutex_unlock(&f->lock);
    f->broken = 0 != rc;
    return rc;
}

int listen_fanout_event(listen_fanout_t *f, const listen_event_t *ev)
{
    fanout_block_t *b = &f->blocks[f->fill];

    if (f->broken) {
        return -1;
    }
    b->ev[b->n++] = *ev;
    return FANOUT_BLOCK_SIZE == b->n ? hand_over(f) : 0;
}

void listen_fanout_release(listen_fanout_t *f, listen_batch_t *batch)
{
    batch_list_t *l = &f->blocks[f->fill].done;

    /* A block is given a batch after each of its last events, so it
     * fills up with events first, but a block of many events each the
     * last of its batch could come close: it is handed over as it is. */
    if (!f->broken && l->n == l->cap) {
        (void) hand_over(f);
        l = &f->blocks[f->fill].done;
    }
    if (f->broken) {
        listen_batch_free(batch);
        return;
    }
    l->v[l->n++] = batch;
}

/* Join the worker: after the ready blocks (@p stop false) or at once. */
static int fanout_join(listen_fanout_t *f, bool stop)
{
    pthread_mutex_lock(&f->lock);
    if (stop) {
        f->stopping = true;
    }
    f->ending = true;
    pthread_cond_signal(&f->to_worker);
    pthread_mutex_unlock(&f->lock);
    pthread_join(f->thread, NULL);
    return f->failed ? -1 : 0;
}

int listen_fanout_finish(listen_fanout_t *f)
{
    fanout_block_t *b = &f->blocks[f->fill];

    if (f->broken) {
        (void) fanout_join(f, true);
        return -1;
    }
    if (0 < b->n || 0 < b->done.n) {
        pthread_mutex_lock(&f->lock);
        queue_filled(f);
        pthread_mutex_unlock(&f->lock);
    }
    return fanout_join(f, false);
}

void listen_fanout_free(listen_fanout_t *f)
{
    if (NULL == f) {
        return;
    }
    if (!f->ending) {
        (void) fanout_join(f, true);
    }
    for (size_t i = 0; i < FANOUT_BLOCKS; ++i) {
        block_release(&f->blocks[i]);
        free(f->blocks[i].done.v);
    }
    pthread_cond_destroy(&f->to_merge);
    pthread_cond_destroy(&f->to_worker);
    pthread_mutex_destroy(&f->lock);
    free(f);
}
