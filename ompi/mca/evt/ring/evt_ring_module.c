/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/ring module: deliver() stores the captured record in the raising
 * thread's ring; the drain (opal_progress, flush points, optional timer)
 * merges the rings and dispatches.
 *
 * The drain lock: one drainer at a time, because each ring has one
 * consumer. It is an atomic exchange, not OPAL_THREAD_TRYLOCK: in a process
 * without threads that macro "succeeds" without taking anything, so a
 * callback that calls MPI would re-enter the drain on the same thread
 * (DESIGN.md sec. 4). A thread-local "draining" flag makes flush() from
 * inside a callback of the drain return at once instead of waiting for
 * itself.
 */

#include "ompi_config.h"

#include <sched.h>
#include <string.h>
#include <sys/time.h>

#include "opal/constants.h"
#include "opal/mca/event/event.h"
#include "opal/runtime/opal_progress_threads.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/ring/evt_ring.h"

/** What the ring stores for one record; event->extent payload bytes follow. */
typedef struct ring_rec_t {
    /** The source is not stored: a captured record's source is always its
     *  event's (mca_base_event_raise_internal()), and 8 bytes less make a
     *  16-byte-payload record 56 bytes instead of 64. */
    mca_base_event_t *event;
    const void *obj;
    opal_count_t timestamp;
    uint64_t epoch;
} ring_rec_t;
_Static_assert(0 == sizeof(ring_rec_t) % OMPI_EVT_RING_ALIGN, "payload stays aligned");

/* Copy the payload inline: events carry a few words (16 bytes for most),
 * and a call to memcpy() through the PLT costs more than the copy. 8-byte
 * moves (unaligned loads are fine: memcpy of a constant 8 is one mov), then
 * the tail bytes. Context: RAISE, SIGNAL. */
static inline void ring_copy_payload(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if (OPAL_UNLIKELY(256 < n)) {
        memcpy(d, s, n);
        return;
    }
    for (; n >= 8; n -= 8, d += 8, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        memcpy(d, &w, 8);
    }
    for (; n > 0; --n) {
        *d++ = *s++;
    }
}

/** Kind of a record in the ring. */
#define RING_KIND_RECORD OMPI_EVT_RING_KIND_USER

/** The drain lock (see the file comment). 0 free, 1 held. */
static atomic_int ring_drain_lock;
/** This thread holds the drain lock. initial-exec TLS (see evt_ring_pool.c). */
static __thread bool ring_draining __attribute__((tls_model("initial-exec")));
/** Drain counters, written under the drain lock (relaxed, read by seams). */
static atomic_ulong ring_drained, ring_drains_skipped;

/** The drain timer (evt_ring_drain_interval). INIT context only. */
static opal_event_base_t *ring_timer_base;
static opal_event_t *ring_timer_ev;

/* ------------------------------------------------------------------------
 * The drain lock
 * ------------------------------------------------------------------------ */

/* Context: PROGRESS, ANY. */
static inline bool ring_drain_trylock(void)
{
    /* relaxed pre-check: a second drainer does not write the line */
    if (0 != atomic_load_explicit(&ring_drain_lock, memory_order_relaxed)) {
        return false;
    }
    /* acquire: pairs with the release store in ring_drain_unlock(): the
     * consumer positions the previous drainer left in every ring are
     * visible. */
    if (0 != atomic_exchange_explicit(&ring_drain_lock, 1, memory_order_acquire)) {
        return false;
    }
    ring_draining = true;
    return true;
}

/* Context: the drainer. */
static inline void ring_drain_unlock(void)
{
    ring_draining = false;
    /* release: pairs with the acquire exchange in ring_drain_trylock() */
    atomic_store_explicit(&ring_drain_lock, 0, memory_order_release);
}

/* ------------------------------------------------------------------------
 * The drain: k-way merge over the ring heads
 * ------------------------------------------------------------------------ */

/** A ring with records in the drain's snapshot. */
typedef struct ring_head_t {
    ompi_evt_ring_t *ring;
    const ompi_evt_ring_hdr_t *hdr;
    opal_count_t timestamp;
} ring_head_t;

static inline const ring_rec_t *head_rec(const ompi_evt_ring_hdr_t *hdr)
{
    return (const ring_rec_t *) (hdr + 1);
}

/* Release what the consumer read, and recycle an exited thread's empty ring.
 * Context: the drainer. */
static void ring_retire(ompi_evt_ring_t *ring)
{
    ompi_evt_ring_spsc_release(&ring->buf);
    /* acquire: pairs with the release store of RELEASED in the pool's
     * thread-exit destructor: every commit of the exited owner is visible
     * to the refresh below. */
    if (OMPI_EVT_RING_RELEASED == atomic_load_explicit(&ring->pool.state, memory_order_acquire)
        && ompi_evt_ring_spsc_empty(&ring->buf)) {
        ompi_evt_ring_pool_recycle(ring);
    }
}

/**
 * Dispatch up to @p budget records in timestamp order over a snapshot of
 * the rings (tails read once at the start, so the drain ends).
 * @param[in] budget   records at most; < 0: everything in the snapshot
 * @param[in] context  safety level of the calling context
 * @return records dispatched
 * Context: the drainer (drain lock held).
 */
static int ring_drain(long budget, mca_base_event_cb_safety_t context)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;
    ring_head_t heads[c->pool_size > 0 ? c->pool_size : 1];
    int n = 0, high, j, best;
    long done = 0;

    if (NULL == c->rings) {
        return 0;
    }
    /* acquire: pairs with the release CAS in the pool's ring_claim(): every
     * ring below high_water has left FREE. */
    high = atomic_load_explicit(&c->high_water, memory_order_acquire);
    for (int i = 0; i < high; ++i) {
        ompi_evt_ring_t *ring = &c->rings[i];
        /* relaxed: FREE rings are empty; a ring claimed right now has no
         * record in this snapshot anyway. */
        if (OMPI_EVT_RING_FREE == atomic_load_explicit(&ring->pool.state, memory_order_relaxed)) {
            continue;
        }
        /* acquire inside refresh(): pairs with the commit's release store */
        (void) ompi_evt_ring_spsc_refresh(&ring->buf);
        heads[n].hdr = ompi_evt_ring_spsc_peek(&ring->buf);
        if (NULL == heads[n].hdr) {
            ring_retire(ring);
            continue;
        }
        heads[n].ring = ring;
        heads[n].timestamp = head_rec(heads[n].hdr)->timestamp;
        ++n;
    }

    while (n > 0 && (budget < 0 || done < budget)) {
        const ring_rec_t *rec;
        mca_base_event_record_t record;
        ompi_evt_ring_t *ring;

        /* the oldest head; ties go to the lower ring index */
        best = 0;
        for (j = 1; j < n; ++j) {
            if (heads[j].timestamp < heads[best].timestamp) {
                best = j;
            }
        }
        ring = heads[best].ring;
        rec = head_rec(heads[best].hdr);
        record.event = rec->event;
        record.source = rec->event->source;
        record.obj = rec->obj;
        record.timestamp = rec->timestamp;
        record.epoch = rec->epoch;
        record.data = rec + 1;
        if (OPAL_UNLIKELY(MCA_BASE_EVENT_CB_REQUIRE_NONE != context)
            && !mca_base_event_can_serve(&record, context)) {
            /* The timer's drain (THREAD_SAFE) and a registration with
             * callbacks only at a weaker level: leave this ring from here
             * on for a normal drain (progress, flush), which delivers the
             * record instead of counting it dropped; order within the ring
             * is kept. */
            ompi_evt_ring_spsc_release(&ring->buf);
            heads[best] = heads[--n];
            continue;
        }
        /* The bytes stay valid until release(): consume now, release in
         * batches (each release may move a line to the producer's core). */
        ompi_evt_ring_spsc_consume(&ring->buf, heads[best].hdr);
        (void) mca_base_event_dispatch(&record, context);
        ++done;
        if (ompi_evt_ring_spsc_unreleased(&ring->buf) >= ring->buf.g.capacity / 4) {
            ompi_evt_ring_spsc_release(&ring->buf);
        }
        heads[best].hdr = ompi_evt_ring_spsc_peek(&ring->buf);
        if (NULL != heads[best].hdr) {
            heads[best].timestamp = head_rec(heads[best].hdr)->timestamp;
        } else {
            ring_retire(ring);
            heads[best] = heads[--n];
        }
    }
    for (j = 0; j < n; ++j) {
        ompi_evt_ring_spsc_release(&heads[j].ring->buf);
    }
    /* relaxed: statistics */
    atomic_fetch_add_explicit(&ring_drained, (unsigned long) done, memory_order_relaxed);
    return (int) done;
}

/* ------------------------------------------------------------------------
 * Module operations
 * ------------------------------------------------------------------------ */

/* Context: INIT. */
static int ring_module_init(void)
{
    if (0 < mca_evt_ring_component.drain_interval) {
        return ompi_evt_ring_timer_start();
    }
    return OMPI_SUCCESS;
}

/* Context: INIT. The base flushed before. */
static int ring_module_finalize(void)
{
    ompi_evt_ring_timer_stop();
    return OMPI_SUCCESS;
}

/* The DRAIN overflow policy: the ring is full, the context is a normal
 * one: drain everything now, in the raising thread (what sync would do).
 * @retval true  drained (retry the store); false: another thread drains
 * Context: RAISE (not SIGNAL, not inside a drain). */
static bool ring_overflow_drain(mca_base_event_cb_safety_t context)
{
    if (!ring_drain_trylock()) {
        return false;
    }
    (void) ring_drain(-1, context);
    ring_drain_unlock();
    return true;
}

/**
 * The raise path: copy the record into this thread's ring.
 * No lock, no allocation, no system call once the thread owns a ring.
 * Context: RAISE, SIGNAL.
 */
static int ring_module_deliver(const mca_base_event_record_t *record,
                               mca_base_event_cb_safety_t context)
{
    bool in_signal = MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= context;
    size_t extent = record->event->extent;
    ompi_evt_ring_t *ring;
    ring_rec_t *rec;
    int retried = 0;

    ring = ompi_evt_ring_pool_mine(in_signal);
    if (OPAL_UNLIKELY(NULL == ring)) {
        /* relaxed: statistics */
        atomic_fetch_add_explicit(&mca_evt_ring_component.dropped_pool, 1, memory_order_relaxed);
        mca_base_event_count_dropped(record);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    if (OPAL_UNLIKELY(!ompi_evt_ring_spsc_enter(&ring->buf))) {
        /* A signal handler interrupted this thread inside its own raise:
         * never wait for it (it cannot finish before we return). relaxed
         * RMW: handlers of different signals may nest. */
        atomic_fetch_add_explicit(&ring->own.dropped_nested, 1, memory_order_relaxed);
        mca_base_event_count_dropped(record);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
again:
    rec = ompi_evt_ring_spsc_reserve(&ring->buf, sizeof(*rec) + extent, RING_KIND_RECORD);
    if (OPAL_UNLIKELY(NULL == rec)) {
        if (0 == retried && OMPI_EVT_RING_OVERFLOW_DRAIN == mca_evt_ring_component.overflow
            && !in_signal && !ring_draining) {
            bool drained;
            retried = 1;
            /* leave the producer side: callbacks of the drain may raise */
            ompi_evt_ring_spsc_exit(&ring->buf);
            drained = ring_overflow_drain(context);
            if (!ompi_evt_ring_spsc_enter(&ring->buf)) {
                /* cannot happen outside a handler; count it as nested */
                atomic_fetch_add_explicit(&ring->own.dropped_nested, 1, memory_order_relaxed);
                mca_base_event_count_dropped(record);
                return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
            }
            if (drained) {
                goto again;
            }
        }
        /* relaxed load + store: written only inside enter()/exit() */
        atomic_store_explicit(&ring->own.dropped_full,
                              atomic_load_explicit(&ring->own.dropped_full, memory_order_relaxed)
                                  + 1,
                              memory_order_relaxed);
        ompi_evt_ring_spsc_exit(&ring->buf);
        mca_base_event_count_dropped(record);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    rec->event = record->event;
    rec->obj = record->obj;
    rec->timestamp = record->timestamp;
    rec->epoch = record->epoch;
    ring_copy_payload(rec + 1, record->data, extent);
    /* release store of tail: pairs with the drain's refresh() */
    ompi_evt_ring_spsc_commit(&ring->buf);
    /* relaxed load + store: written only inside enter()/exit() */
    atomic_store_explicit(&ring->own.stored,
                          atomic_load_explicit(&ring->own.stored, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    ompi_evt_ring_spsc_exit(&ring->buf);
    return OMPI_SUCCESS;
}

/**
 * Deliver everything raised before the call. Returns at once when this
 * thread is the drainer (a callback reaching a flush point); waits for a
 * drainer on another thread, since the records it holds must be delivered
 * before we return.
 * Context: ANY, TOOL.
 */
static int ring_module_flush(void)
{
    if (ring_draining) {
        return OMPI_SUCCESS;
    }
    while (!ring_drain_trylock()) {
        sched_yield();
    }
    (void) ring_drain(-1, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    ring_drain_unlock();
    /* what could not be delivered (ring full, ...) reaches the dropped
     * handlers now, outside the drain lock */
    mca_base_event_report_drops(MCA_BASE_EVENT_CB_REQUIRE_NONE);
    return OMPI_SUCCESS;
}

/**
 * Bounded drain from opal_progress: producer sinks, then at most
 * evt_ring_drain_budget records. Never blocks: a second thread, or a
 * callback that re-enters progress, returns 0 at once.
 * Context: PROGRESS.
 */
static int ring_module_progress(void)
{
    int n;

    if (ring_draining || !ring_drain_trylock()) {
        /* relaxed: statistics */
        atomic_fetch_add_explicit(&ring_drains_skipped, 1, memory_order_relaxed);
        return 0;
    }
    mca_base_event_drain_sinks();
    n = ring_drain(mca_evt_ring_component.drain_budget, MCA_BASE_EVENT_CB_REQUIRE_NONE);
    ring_drain_unlock();
    /* outside the drain lock; one relaxed load when nothing was dropped */
    mca_base_event_report_drops(MCA_BASE_EVENT_CB_REQUIRE_NONE);
    return n;
}

/* Count the records committed and not yet dispatched that @p match
 * accepts, over every ring, from the consumer position to a fresh look at
 * the tail (the drain in progress keeps its own snapshot: this walk changes
 * no consumer state). Context: the drainer (drain lock held). */
static uint64_t ring_count_pending(bool (*match)(const mca_base_event_record_t *, void *),
                                   void *arg)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;
    uint64_t n = 0;
    int high;

    if (NULL == c->rings) {
        return 0;
    }
    /* acquire: as in ring_drain() */
    high = atomic_load_explicit(&c->high_water, memory_order_acquire);
    for (int i = 0; i < high; ++i) {
        ompi_evt_ring_spsc_t *b = &c->rings[i].buf;
        /* acquire: pairs with the commit's release store (as refresh()) */
        unsigned int tail = atomic_load_explicit(&b->p.tail, memory_order_acquire);

        for (unsigned int pos = b->c.pos; pos != tail;) {
            const ompi_evt_ring_hdr_t *hdr =
                (const ompi_evt_ring_hdr_t *) (b->g.data + (pos & b->g.mask));
            if (OMPI_EVT_RING_KIND_SKIP != hdr->kind) {
                const ring_rec_t *rec = head_rec(hdr);
                mca_base_event_record_t record = {
                    .event = rec->event,
                    .source = rec->event->source,
                    .obj = rec->obj,
                    .timestamp = rec->timestamp,
                    .epoch = rec->epoch,
                    .data = rec + 1,
                };
                n += match(&record, arg) ? 1 : 0;
            }
            pos += hdr->size;
        }
    }
    return n;
}

/**
 * A registration is being freed: with the drain lock held (already, when
 * the free comes from a callback of this thread's drain; else taken, as
 * flush() does), count its pending records and let the engine remove it.
 * No other thread dispatches meanwhile, so each pending record is either
 * counted here or (raised later) never matches the removed registration.
 * Context: TOOL, ANY, callbacks.
 */
static void ring_module_withdraw(void (*remove)(void *arg, uint64_t count),
                                 bool (*match)(const mca_base_event_record_t *, void *),
                                 void *arg)
{
    bool mine = ring_draining;

    if (!mine) {
        while (!ring_drain_trylock()) {
            sched_yield();
        }
    }
    remove(arg, ring_count_pending(match, arg));
    if (!mine) {
        ring_drain_unlock();
    }
}

const ompi_evt_base_module_t ompi_evt_ring_module = {
    .evtm_withdraw = ring_module_withdraw,
    .evtm_init = ring_module_init,
    .evtm_finalize = ring_module_finalize,
    .evtm_deliver = ring_module_deliver,
    .evtm_flush = ring_module_flush,
    .evtm_progress = ring_module_progress,
    .evtm_flags = OMPI_EVT_MODULE_FLAG_DEFERRED | OMPI_EVT_MODULE_FLAG_ASYNC_SIGNAL_RAISE,
};

/* ------------------------------------------------------------------------
 * The drain timer (evt_ring_drain_interval) on OPAL's progress thread
 * ------------------------------------------------------------------------ */

/* A persistent libevent timer on OPAL's progress thread: a bounded drain
 * in context THREAD_SAFE (another thread than the application's), so only
 * callbacks registered at THREAD_SAFE or ASYNC_SIGNAL_SAFE run. A record
 * that some registration could take only at a weaker level (a callback at
 * MPI_T_CB_REQUIRE_NONE) is not dispatched: its ring waits from there for
 * the next normal drain (ring_drain()), so it is delivered, not dropped.
 * Context: OPAL's progress thread. */
static void ring_timer_cb(int fd, short flags, void *arg)
{
    if (!ring_drain_trylock()) {
        return;
    }
    (void) ring_drain(mca_evt_ring_component.drain_budget,
                      MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
    ring_drain_unlock();
    /* THREAD_SAFE: only registrations with a callback serving it */
    mca_base_event_report_drops(MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
}

/* Context: INIT. */
int ompi_evt_ring_timer_start(void)
{
    struct timeval tv;
    int us = mca_evt_ring_component.drain_interval;

    /* The timer is added from this thread while the progress thread may
     * already sit in epoll_wait with a long timeout: libevent only wakes it
     * for a cross-thread opal_event_add() when its locking callbacks are on.
     * opal_init turns them on; a process that only ran opal_init_util (a
     * tool, ompi-evt-info) has not. Idempotent, and it must precede the
     * creation of the base (opal_progress_thread_init). */
    if (0 != opal_event_use_threads()) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    ring_timer_base = opal_progress_thread_init(NULL);
    if (NULL == ring_timer_base) {
        return OPAL_ERR_NOT_AVAILABLE;
    }
    ring_timer_ev = opal_event_new(ring_timer_base, -1, OPAL_EV_PERSIST, ring_timer_cb, NULL);
    if (NULL == ring_timer_ev) {
        (void) opal_progress_thread_finalize(NULL);
        ring_timer_base = NULL;
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    tv.tv_sec = us / 1000000;
    tv.tv_usec = us % 1000000;
    if (0 != opal_event_add(ring_timer_ev, &tv)) {
        opal_event_free(ring_timer_ev);
        ring_timer_ev = NULL;
        (void) opal_progress_thread_finalize(NULL);
        ring_timer_base = NULL;
        return OPAL_ERROR;
    }
    return OMPI_SUCCESS;
}

/* Context: INIT. The progress thread is stopped first, while the
 * persistent timer still wakes its loop every interval (the loop then sees
 * it must end); deleting the timer first could leave the loop asleep in
 * epoll_wait for OPAL's 35-minute keepalive and the join waiting with it.
 * Once the thread is joined, the event is freed without any race. */
void ompi_evt_ring_timer_stop(void)
{
    if (NULL != ring_timer_base) {
        (void) opal_progress_thread_finalize(NULL);
        ring_timer_base = NULL;
    }
    if (NULL != ring_timer_ev) {
        (void) opal_event_del(ring_timer_ev);
        opal_event_free(ring_timer_ev);
        ring_timer_ev = NULL;
    }
}

/* ------------------------------------------------------------------------
 * Test-only seams
 * ------------------------------------------------------------------------ */

void ompi_evt_ring_test_stats(ompi_evt_ring_test_stats_t *stats)
{
    ompi_evt_ring_component_t *c = &mca_evt_ring_component;

    memset(stats, 0, sizeof(*stats));
    for (int i = 0; NULL != c->rings && i < c->pool_size; ++i) {
        ompi_evt_ring_t *r = &c->rings[i];
        int st = atomic_load(&r->pool.state);
        stats->stored += atomic_load_explicit(&r->own.stored, memory_order_relaxed);
        stats->dropped_full += atomic_load_explicit(&r->own.dropped_full, memory_order_relaxed);
        stats->dropped_nested += atomic_load_explicit(&r->own.dropped_nested,
                                                      memory_order_relaxed);
        stats->rings_owned += OMPI_EVT_RING_OWNED == st;
        stats->rings_released += OMPI_EVT_RING_RELEASED == st;
    }
    stats->dropped_pool = atomic_load(&c->dropped_pool);
    stats->drained = atomic_load(&ring_drained);
    stats->drains_skipped = atomic_load(&ring_drains_skipped);
}

bool ompi_evt_ring_test_hold_drain_lock(bool take)
{
    if (take) {
        int expected = 0;
        /* acquire/release: as the real lock */
        return atomic_compare_exchange_strong_explicit(&ring_drain_lock, &expected, 1,
                                                       memory_order_acquire,
                                                       memory_order_relaxed);
    }
    atomic_store_explicit(&ring_drain_lock, 0, memory_order_release);
    return true;
}
