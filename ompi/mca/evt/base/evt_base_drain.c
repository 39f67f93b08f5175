/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit's drain: one drainer at a time (the drain token) merges the rings
 * by timestamp and, for each record, hands it to the module (exported
 * events) and dispatches it to the local registrations; then the module's
 * own progress, the withdraws that waited, and, outside the token, the drop
 * reports. The drain points (flush), the opal_progress callback and the
 * timer all come here.
 *
 * ORDERED sources: the merge over the ring heads puts records of sources
 * sharing a clock (every source on the default clock) in timestamp order
 * across threads. Two cases can still see a record older than one already
 * delivered: a record committed after the drain took its snapshot of the
 * rings (its thread was preempted between the timestamp and the commit),
 * and a raise from a signal handler that interrupted its thread between
 * the timestamp and the commit. The engine then delivers it with the last
 * delivered timestamp (mca_base_event_dispatch()'s clamp), so delivered
 * timestamps never decrease.
 *
 * Contexts: a drain in context NONE (drain points in MPI_T calls, the end
 * of MPI calls in the PMPI layer, MPI_Finalize) may run every callback. A
 * drain inside opal_progress runs in MPI_RESTRICTED (inside an MPI call a
 * callback may not call MPI), the timer's in THREAD_SAFE: there a record
 * that some registration could take only at a weaker level is not
 * dispatched; its ring is left from there on for a later drain that serves
 * it (order within the ring is kept), so it is delivered, not dropped.
 *
 * The token and the module sections are in evt_base_token.c, the withdraw
 * in evt_base_withdraw.c, open/close/fork in evt_base_kit.c.
 */

#include "ompi_config.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_kit_internal.h"
#include "opal/constants.h"

/* ------------------------------------------------------------------------
 * The merged drain
 * ------------------------------------------------------------------------ */

static inline const ompi_evt_kit_rec_t *head_rec(const ompi_evt_ring_hdr_t *hdr)
{
    return (const ompi_evt_kit_rec_t *) (hdr + 1);
}

/* Overwrite mode: the producer may overwrite a record until our claim
 * succeeds, so copy it out first; a torn copy (a wrong size) fails the claim
 * or is bounded here. Returns the size copied, 0 for a size that cannot be. */
static OMPI_EVT_RING_OPTIMISTIC unsigned int copy_out(const ompi_evt_ring_spsc_t *buf,
                                                      const ompi_evt_ring_hdr_t *hdr, uint64_t *tmp)
{
    unsigned int size = hdr->size;

    if (size < sizeof(*hdr) + sizeof(ompi_evt_kit_rec_t) || size > OMPI_EVT_KIT_MAX_RECORD
        || 0 != size % OMPI_EVT_RING_ALIGN || size > buf->g.capacity / 2) {
        return 0;
    }
    OMPI_EVT_RING_IGNORE_READS_BEGIN();
    memcpy(tmp, hdr, size);
    OMPI_EVT_RING_IGNORE_READS_END();
    return size;
}

/* Was @p ring left by a drain in a context @p context cannot serve either,
 * and has nothing changed since (the same head, the same serve generation
 * @p gen)? @p pos: the ring's consumer position (the drainer's own, or the
 * released head for a look without the token). Relaxed loads: a hint; a
 * stale "blocked" only waits for the next drain point. Context: any. */
static inline bool ring_blocked(const ompi_evt_kit_ring_t *ring, unsigned int pos,
                                mca_base_event_cb_safety_t context, uint64_t *gen)
{
    int ctx = atomic_load_explicit(&ring->blocked.ctx, memory_order_relaxed);

    if (OPAL_LIKELY(0 == ctx) || (int) context < ctx
        || pos != atomic_load_explicit(&ring->blocked.pos, memory_order_relaxed)) {
        return false;
    }
    if (0 == *gen) {
        *gen = mca_base_event_serve_generation();
    }
    return *gen == atomic_load_explicit(&ring->blocked.gen, memory_order_relaxed);
}

/* The timestamp of the record at a ring's head, for the merge order only
 * (overwrite mode: read optimistically; the record itself is used only
 * from copy_out()'s copy after the claim). */
static OMPI_EVT_RING_OPTIMISTIC opal_count_t head_timestamp(const ompi_evt_ring_hdr_t *hdr)
{
    return head_rec(hdr)->timestamp;
}

/* Drain the pool: at most @p budget records (< 0: all seen when it
 * started), in @p context. Stops early when the module cannot take more
 * (OPAL_ERR_WOULD_BLOCK from consume), after a fork, or when the pool is
 * closed meanwhile. @return records taken. Context: the drainer. */
static long drain(evt_kit_pool_t *pool, mca_base_event_cb_safety_t context, long budget)
{
    evt_kit_t *k = &ompi_evt_kit;
    evt_kit_head_t *heads = pool->heads;
    unsigned int fork_gen = atomic_load_explicit(&ompi_evt_kit_fork_gen, memory_order_relaxed);
    uint64_t tmp[OMPI_EVT_KIT_MAX_RECORD / sizeof(uint64_t) + 1];
    /* before any can_serve(): a change after this read is seen next time */
    uint64_t gen = mca_base_event_serve_generation();
    const ompi_evt_base_module_t *m = ompi_evt_kit_module_enter();
    /* a module that takes no record (its storage is the rings) leaves the
     * drain only the local dispatch to do */
    bool consumes = NULL != m && NULL != m->evtm_consume;
    int n = 0, high, j, best;
    long done = 0;

    if (NULL != m) {
        ompi_evt_kit_module_exit();
    }

    if (MCA_BASE_EVENT_CB_REQUIRE_NONE == context) {
        /* relaxed: a hint; this drain serves what restricted ones left */
        atomic_store_explicit(&k->none_waiting, false, memory_order_relaxed);
    }
    /* acquire: pairs with the release CAS in the pool's ring_claim() */
    high = atomic_load_explicit(&pool->high_water, memory_order_acquire);
    for (int i = 0; i < high; ++i) {
        ompi_evt_kit_ring_t *ring = &pool->rings[i];
        if (MCA_BASE_EVENT_CB_REQUIRE_NONE != context
            && ring_blocked(ring, ring->buf.c.pos, context, &gen)) {
            continue; /* its head still waits for a drain that serves it */
        }
        /* acquire inside refresh(): pairs with the commit's release store */
        if (0 == ompi_evt_ring_spsc_refresh(&ring->buf)) {
            continue;
        }
        /* acquire: after refresh()'s acquire of tail, which the count's
         * store came before (for every record up to that tail); pairs
         * with the count's release store (the end read later is at least
         * as far as the records it counts) */
        heads[n].local_count = atomic_load_explicit(&ring->local.count, memory_order_acquire);
        if (!consumes
            && heads[n].local_count
                   == atomic_load_explicit(&ring->blocked.local_done, memory_order_relaxed)) {
            /* no record here is for anyone: over them in one move */
            ompi_evt_ring_spsc_pass(&ring->buf);
            atomic_fetch_add_explicit(&k->passed, 1, memory_order_relaxed);
            continue;
        }
        heads[n].hdr = ompi_evt_ring_spsc_peek(&ring->buf);
        if (NULL == heads[n].hdr) {
            ompi_evt_ring_spsc_release(&ring->buf);
            continue;
        }
        heads[n].ring = ring;
        heads[n].timestamp = head_timestamp(heads[n].hdr);
        ++n;
    }

    while (n > 0 && (budget < 0 || done < budget)) {
        const ompi_evt_ring_hdr_t *hdr;
        const ompi_evt_kit_rec_t *rec;
        mca_base_event_record_t record;
        ompi_evt_kit_ring_t *ring;
        unsigned int size = 0;
        bool local;

        /* the oldest head; ties go to the lower ring index */
        best = 0;
        for (j = 1; j < n; ++j) {
            if (heads[j].timestamp < heads[best].timestamp) {
                best = j;
            }
        }
        ring = heads[best].ring;
        hdr = heads[best].hdr;
        if (OPAL_UNLIKELY(ring->buf.g.overwrite)) {
            size = copy_out(&ring->buf, hdr, tmp);
            hdr = (const ompi_evt_ring_hdr_t *) tmp;
        }
        rec = head_rec(hdr);
        if (OPAL_UNLIKELY((ring->buf.g.overwrite && 0 == size)
                          || !ompi_evt_base_kit_decode(rec, &record))) {
            /* a damaged record (or one overwritten under us): step over */
            if (!ring->buf.g.overwrite) {
                ompi_evt_ring_spsc_consume(&ring->buf, hdr);
            } else if (0 != size) {
                (void) ompi_evt_ring_spsc_claim(&ring->buf, size);
            } else {
                (void) ompi_evt_ring_spsc_refresh(&ring->buf);
            }
            goto next;
        }
        local = 0 == (record.flags & MCA_BASE_EVENT_RECORD_DISPATCHED);
        if (OPAL_UNLIKELY(local && MCA_BASE_EVENT_CB_REQUIRE_NONE != context)
            && !mca_base_event_can_serve(&record, context)) {
            /* leave this ring for a drain in a context that serves it; the
             * next return of a wrapped MPI call drains (call_return) */
            atomic_fetch_add_explicit(&k->blocked, 1, memory_order_relaxed);
            atomic_store_explicit(&k->none_waiting, true, memory_order_relaxed);
            /* relaxed: hints for the next drains (ring_blocked()) */
            atomic_store_explicit(&ring->blocked.pos, ring->buf.c.pos, memory_order_relaxed);
            atomic_store_explicit(&ring->blocked.gen, gen, memory_order_relaxed);
            atomic_store_explicit(&ring->blocked.ctx, (int) context, memory_order_relaxed);
            ompi_evt_ring_spsc_release(&ring->buf);
            heads[best] = heads[--n];
            continue;
        }
        /* relaxed: a hint, as the gate */
        if (atomic_load_explicit(&record.event->exported, memory_order_relaxed)) {
            const ompi_evt_base_module_t *m = ompi_evt_kit_module_enter();
            if (NULL != m) {
                int rc = NULL == m->evtm_consume ? OMPI_SUCCESS : m->evtm_consume(&record);
                ompi_evt_kit_module_exit();
                if (OPAL_ERR_WOULD_BLOCK == rc) {
                    break; /* the record stays; offered again next drain */
                }
            }
        }
        if (OPAL_UNLIKELY(ring->buf.g.overwrite)) {
            if (!ompi_evt_ring_spsc_claim(&ring->buf, size)) {
                /* the producer took it (and counted it): on from there */
                goto next;
            }
        } else {
            /* The bytes stay valid until release(): consume now, release in
             * batches (each release may move a line to the producer's core). */
            ompi_evt_ring_spsc_consume(&ring->buf, hdr);
        }
        if (local) {
            /* relaxed: read by a waiting drain point as a hint, rechecked
             * at each of its retries */
            atomic_store_explicit(&k->token_user, 1, memory_order_relaxed);
            /* the decoded record is ours: no copy */
            (void) mca_base_event_dispatch_owned(&record, context);
            atomic_store_explicit(&k->token_user, 0, memory_order_relaxed);
        }
        ++done;
        if (OPAL_UNLIKELY(fork_gen
                              != atomic_load_explicit(&ompi_evt_kit_fork_gen, memory_order_relaxed)
                          || pool != atomic_load_explicit(&k->pool, memory_order_acquire))) {
            /* forked from a callback (the child reset the rings), or the
             * kit closed from a callback: nothing more of this snapshot */
            n = 0;
            break;
        }
        if (ompi_evt_ring_spsc_unreleased(&ring->buf) >= ring->buf.g.capacity / 4) {
            ompi_evt_ring_spsc_release(&ring->buf);
        }
    next:
        heads[best].hdr = ompi_evt_ring_spsc_peek(&ring->buf);
        if (NULL != heads[best].hdr) {
            heads[best].timestamp = head_timestamp(heads[best].hdr);
        } else {
            ompi_evt_ring_spsc_release(&ring->buf);
            /* relaxed: after the acquire of count (see above) */
            if ((int) (ring->buf.c.pos
                       - atomic_load_explicit(&ring->local.end, memory_order_relaxed))
                >= 0) {
                /* every record the count counts is taken (an end beyond
                 * this drain's snapshot belongs to a newer one) */
                atomic_store_explicit(&ring->blocked.local_done, heads[best].local_count,
                                      memory_order_relaxed);
            }
            heads[best] = heads[--n];
        }
    }
    for (j = 0; j < n; ++j) {
        ompi_evt_ring_spsc_release(&heads[j].ring->buf);
    }
    /* relaxed: statistics */
    atomic_fetch_add_explicit(&k->drained, (unsigned long) done, memory_order_relaxed);
    return done;
}

/* Count the records committed and not yet taken that @p match accepts,
 * over every ring, from the consumer position to a fresh look at the tail
 * (a drain in progress keeps its own snapshot: this walk changes no
 * consumer state). Context: the drainer (token held). */
OMPI_EVT_RING_OPTIMISTIC uint64_t ompi_evt_kit_count_pending(
    bool (*match)(const mca_base_event_record_t *, void *), void *arg, void *ctx)
{
    evt_kit_pool_t *pool = ctx;
    uint64_t n = 0;
    int high;

    if (NULL == pool) {
        return 0;
    }
    /* acquire: as in drain() */
    high = atomic_load_explicit(&pool->high_water, memory_order_acquire);
    for (int i = 0; i < high; ++i) {
        ompi_evt_ring_spsc_t *b = &pool->rings[i].buf;
        /* acquire: pairs with the commit's release store (as refresh()) */
        unsigned int tail = atomic_load_explicit(&b->g.ctl->p.tail, memory_order_acquire);

        for (unsigned int pos = b->c.pos; pos != tail;) {
            const ompi_evt_ring_hdr_t *hdr = (const ompi_evt_ring_hdr_t *) (b->g.data
                                                                            + (pos & b->g.mask));
            mca_base_event_record_t record;

            if (OPAL_UNLIKELY(hdr->size < sizeof(*hdr) || (tail - pos) < hdr->size)) {
                break; /* overwritten under us (overwrite mode): stop here */
            }
            if (OMPI_EVT_RING_KIND_SKIP != hdr->kind) {
                /* a copy of the record's fixed part: optimistic in
                 * overwrite mode, as copy_out() */
                ompi_evt_kit_rec_t rec;
                OMPI_EVT_RING_IGNORE_READS_BEGIN();
                memcpy(&rec, head_rec(hdr), sizeof(rec));
                OMPI_EVT_RING_IGNORE_READS_END();
                if (ompi_evt_base_kit_decode(&rec, &record)
                    && 0 == (record.flags & MCA_BASE_EVENT_RECORD_DISPATCHED)) {
                    record.data = head_rec(hdr) + 1; /* not read by match */
                    n += match(&record, arg) ? 1 : 0;
                }
            }
            pos += hdr->size;
        }
    }
    return n;
}

/* The token is held: drain, let the module progress, complete withdraws.
 * Context: the drainer. */
static long drain_locked(mca_base_event_cb_safety_t context, long budget, bool flush)
{
    evt_kit_pool_t *pool = atomic_load_explicit(&ompi_evt_kit.pool, memory_order_acquire);
    const ompi_evt_base_module_t *m;
    long done = 0;

    if (NULL != pool) {
        done = drain(pool, context, budget);
    }
    m = ompi_evt_kit_module_enter();
    if (NULL != m) {
        if (NULL != m->evtm_progress) {
            (void) m->evtm_progress();
        }
        if (flush && NULL != m->evtm_flush) {
            (void) m->evtm_flush();
        }
        ompi_evt_kit_module_exit();
    }
    if (mca_base_event_withdraws_waiting()) {
        /* the withdraws take the engine's mutex and tell producers: a
         * drain point must not wait for them (its thread may hold what
         * they need) */
        atomic_store_explicit(&ompi_evt_kit.token_user, 1, memory_order_relaxed);
        mca_base_event_withdraw_pending(ompi_evt_kit_count_pending, pool);
        atomic_store_explicit(&ompi_evt_kit.token_user, 0, memory_order_relaxed);
    }
    return done;
}

/* Anything in the rings that a drain in @p context could deliver? A look
 * at the shared positions, without the token (a hint: a record committed
 * right after is seen by the next drain). A ring left by an earlier drain
 * in a context like this one, unchanged since, does not count: a busy
 * loop of MPI calls that cannot serve its records (their callbacks want a
 * NONE drain) must not retake the token and look at them at every
 * progress call. Nor does a ring under a quarter full whose records nobody
 * takes (a module without consume, no record for a local registration
 * since a drain last passed the ring): the pass that a drain would make
 * costs the same for many records as for a few. */
static bool kit_pending(const evt_kit_pool_t *pool, mca_base_event_cb_safety_t context)
{
    /* acquire: as in drain() */
    int high = atomic_load_explicit(&pool->high_water, memory_order_acquire);
    /* relaxed: a hint, as everything here */
    bool consumes = atomic_load_explicit(&ompi_evt_kit.module_consumes, memory_order_relaxed);
    uint64_t gen = 0;

    for (int i = 0; i < high; ++i) {
        const ompi_evt_kit_ring_t *ring = &pool->rings[i];
        const ompi_evt_ring_ctl_t *ctl = ring->buf.g.ctl;
        /* relaxed: a hint; the drain loads tail with acquire */
        unsigned int head = atomic_load_explicit(&ctl->c.head, memory_order_relaxed);
        unsigned int tail = atomic_load_explicit(&ctl->p.tail, memory_order_relaxed);
        if (tail == head
            || (MCA_BASE_EVENT_CB_REQUIRE_NONE != context
                && ring_blocked(ring, head, context, &gen))) {
            continue;
        }
        if (!consumes && tail - head < ring->buf.g.capacity / 4
            && atomic_load_explicit(&ring->local.count, memory_order_relaxed)
                   == atomic_load_explicit(&ring->blocked.local_done, memory_order_relaxed)) {
            /* records nobody takes: a drain would only step over them,
             * which is as cheap for many as for a few */
            continue;
        }
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------
 * Drain points
 * ------------------------------------------------------------------------ */

/* Context: ANY, TOOL, PROGRESS (the engine's drain point). */
int ompi_evt_base_kit_flush(mca_base_event_cb_safety_t context)
{
    if (ompi_evt_kit_draining_tls) {
        return OMPI_SUCCESS; /* a callback of our own drain */
    }
    /* Another thread's drain (the timer's, one inside opal_progress) may
     * serve a weaker context than ours and leave our records, or may have
     * taken its look at the rings before our last raise: wait for it while
     * it runs only the kit's and the module's code (bounded, no user code,
     * no lock of ours), so that what was raised before a drain point is
     * delivered when it returns. A holder running user code is never waited
     * for: the records are left to it and to the next drain point. */
    while (!ompi_evt_kit_token_try()) {
        /* relaxed: a hint, read again at every retry */
        if (0 != atomic_load_explicit(&ompi_evt_kit.token_user, memory_order_relaxed)) {
            return OMPI_SUCCESS;
        }
        sched_yield();
    }
    (void) drain_locked(context, -1, true);
    ompi_evt_kit_token_release();
    return OMPI_SUCCESS;
}

/** Idle progress calls of this thread (nothing in the rings) since the
 *  module's progress last ran from one: see kit_drain(). initial-exec:
 *  read at every opal_progress call. */
static __thread unsigned int kit_idle_calls __attribute__((tls_model("initial-exec")));

/** kit_drain()'s budget meaning the kit's drain_budget parameter. */
#define KIT_BUDGET (-2L)

/* Is there work for a drain that finds no record: the module's progress
 * (always for a module with work due by time, for one that only takes
 * export drops once one was counted), or a handle free that a drain must
 * complete (a withdraw that found the rings busy: its free callback waits
 * for it)? Hints (relaxed loads). Context: ANY. */
static bool kit_idle_work(void)
{
    evt_kit_t *k = &ompi_evt_kit;

    if (atomic_load_explicit(&k->module_progress, memory_order_relaxed)
        && (!atomic_load_explicit(&k->module_progress_on_drops, memory_order_relaxed)
            || mca_base_event_export_drops_waiting())) {
        return true;
    }
    return mca_base_event_withdraws_waiting();
}

/* A drain. A call that finds nothing in the rings drains only when
 * kit_idle_work() says so, and with @p idle_every > 1 looks only every
 * idle_every-th time in this thread. Context: ANY. */
static int kit_drain(mca_base_event_cb_safety_t context, long budget, unsigned int idle_every)
{
    evt_kit_t *k = &ompi_evt_kit;
    mca_base_event_section_t section;
    evt_kit_pool_t *pool;
    long done = 0;
    int in;

    if (ompi_evt_kit_draining_tls) {
        /* relaxed: statistics */
        atomic_fetch_add_explicit(&k->drains_skipped, 1, memory_order_relaxed);
        return 0;
    }
    /* the sinks that counted something (the drain points drain them all) */
    mca_base_event_drain_sinks_pending();
    /* The check below reads the pool without the token: inside a delivery
     * section, so that a close (which removes the delivery, and so waits
     * for the section, before it frees the pool) cannot free it meanwhile.
     * No delivery: the kit is closed or closing, nothing to do. No record
     * for this thread: no check, the token decides. */
    in = mca_base_event_delivery_section_enter(&section);
    if (0 == in) {
        return 0;
    }
    if (0 > budget) {
        /* the kit's own budget: read inside the section, where a reopen
         * of the kit (which writes it) cannot be under way */
        budget = -2 == budget ? k->params.drain_budget : budget;
    }
    if (1 == in) {
        bool idle;
        /* acquire: the pool's contents */
        pool = atomic_load_explicit(&k->pool, memory_order_acquire);
        /* relaxed: hints; a record committed right after waits for the
         * next drain point */
        idle = (NULL == pool || !kit_pending(pool, context))
               && NULL == atomic_load_explicit(&ompi_evt_kit_orphan, memory_order_relaxed)
               && (0 != ++kit_idle_calls % idle_every || !kit_idle_work());
        mca_base_event_delivery_section_exit(&section);
        if (idle) {
            return 0; /* nothing to drain, no module work due */
        }
    }
    kit_idle_calls = 0;
    if (!ompi_evt_kit_token_try()) {
        atomic_fetch_add_explicit(&k->drains_skipped, 1, memory_order_relaxed);
        return 0;
    }
    done = drain_locked(context, budget, false);
    ompi_evt_kit_token_release();
    /* outside the token; one relaxed load each when there is nothing */
    mca_base_event_drain_end(context);
    return (int) done;
}

/* Context: ANY. */
int ompi_evt_base_kit_drain_once(mca_base_event_cb_safety_t context, long budget)
{
    return kit_drain(context, budget, 1);
}

/* Context: PROGRESS. A thread waiting in an MPI call calls opal_progress in
 * a busy loop; a module's progress there (a time check, a lock, its own
 * queue) would run between every two polls of the network, and each poll
 * would notice an arriving message that much later. Idle calls run it one
 * time in OMPI_EVT_KIT_IDLE_PROGRESS_EVERY (a module whose progress only
 * takes export drops, OMPI_EVT_MODULE_IDLE_PROGRESS_ON_DROPS, not until
 * one is counted; a handle free waiting for a drain gets one there too);
 * a call that drains records
 * still runs it, and so does the kit's timer at every tick: a module with
 * work due by time sets the kit's drain_interval (evt/pmix does, for its
 * batches' time-out). */
int ompi_evt_base_kit_progress(void)
{
    return kit_drain(MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED, KIT_BUDGET,
                     OMPI_EVT_KIT_IDLE_PROGRESS_EVERY);
}

/** When this thread's call returns first saw records waiting for a NONE
 *  drain (default clock ns), 0: not waiting. initial-exec: read at every
 *  return of a wrapped MPI call. */
static __thread int64_t kit_none_since __attribute__((tls_model("initial-exec")));

__thread bool ompi_evt_kit_return_due __attribute__((tls_model("initial-exec")));

/* Whether the return of an MPI call should drain this thread's ring (see
 * ompi_evt_base_kit_call_return()). Context: ANY, inside a delivery
 * section (the ring is the pool's). */
static bool call_return_drains(bool prompt, int64_t now)
{
    evt_kit_t *k = &ompi_evt_kit;
    ompi_evt_kit_ring_t *ring = ompi_evt_kit_mine;
    unsigned int tail, used;

    /* relaxed: this thread's own ring and a hint of the consumer's position
     * (the producer's cached view first: it only overestimates) */
    if (OPAL_UNLIKELY((uintptr_t) OMPI_EVT_KIT_EXITED >= (uintptr_t) ring
                      || atomic_load_explicit(&k->generation, memory_order_relaxed)
                             != ompi_evt_kit_mine_gen)) {
        return false;
    }
    tail = atomic_load_explicit(&ring->buf.g.ctl->p.tail, memory_order_relaxed);
    used = tail - ring->buf.p.cached_head;
    if (!prompt && used >= ring->buf.g.capacity / 4) {
        /* The producer's view of head is refreshed only when the ring looks
         * full: look again, or every return after the first quarter would
         * drain a handful of records. acquire: as in reserve(); this thread
         * is the producer (a handler that refreshes it too only moves it
         * forward, and an older value is only more cautious). */
        ring->buf.p.cached_head = atomic_load_explicit(&ring->buf.g.ctl->c.head,
                                                       memory_order_acquire);
        used = tail - ring->buf.p.cached_head;
    }
    if (!prompt && used < ring->buf.g.capacity / 4) {
        /* records may wait for the next drain: batch them, unless a
         * restricted drain left them for a NONE one for long enough */
        if (0 == used || !atomic_load_explicit(&k->none_waiting, memory_order_relaxed)) {
            kit_none_since = 0;
            return false;
        }
        if (0 == now) {
            /* the caller has no time: no wait to measure, drain */
        } else if (0 == kit_none_since) {
            kit_none_since = now; /* they wait from here */
            return false;
        } else if (now - kit_none_since < OMPI_EVT_KIT_NONE_WAIT_NS) {
            return false;
        }
    }
    return 0 != used
           && tail != atomic_load_explicit(&ring->buf.g.ctl->c.head, memory_order_relaxed);
}

/* Context: ANY. */
void ompi_evt_base_kit_call_return(bool prompt, int64_t now)
{
    mca_base_event_section_t section;
    bool drain;

    if (!prompt && !ompi_evt_kit_return_due) {
        /* this thread's last store left its ring under a quarter full and
         * nothing waiting for a NONE drain: call_return_drains() would say
         * no without looking further */
        kit_none_since = 0;
        return;
    }
    /* this thread's ring belongs to the pool, which a close frees once the
     * delivery is removed: look at it inside a delivery section only (a
     * thread without a record leaves its records to the next drain) */
    if (1 != mca_base_event_delivery_section_enter(&section)) {
        return;
    }
    drain = call_return_drains(prompt, now);
    mca_base_event_delivery_section_exit(&section);
    if (drain) {
        kit_none_since = 0;
        (void) kit_drain(MCA_BASE_EVENT_CB_REQUIRE_NONE, KIT_BUDGET, 1);
    }
}
