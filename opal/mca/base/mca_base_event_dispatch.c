/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Registration snapshots and dispatch.
 *
 * Dispatch takes no lock. It announces itself (mca_base_event_reader_enter,
 * a plain store on the outermost entry, see mca_base_event_grace.c), loads
 * the event's immutable snapshot and walks it. handle_free always leaves
 * the free callback to the grace path, which waits for every thread that
 * might still hold a snapshot naming the registration, so no
 * per-registration fence is needed. reg->freed stops a dispatch from
 * starting a callback of a registration freed earlier (by this thread in
 * program order; by another thread as soon as its store is seen).
 *
 * ORDERED sources: dispatched timestamps never decrease, across threads
 * too: the clamp keeps the highest timestamp dispatched so far per source
 * (source->last_timestamp) and dispatches a lower one with that value. An
 * atomic max costs a locked compare-exchange per dispatch (~6 ns here, a
 * fifth of a clock read), which a process where one thread does every
 * dispatch does not need. So the first thread to dispatch becomes the
 * clamp owner (mca_base_event_clamp_owner) and clamps with plain loads and
 * stores, inside a per-thread marker (rec->clamping). The first dispatch
 * by another thread ends that for good: it sets the owner to SHARED,
 * runs the asymmetric fence (as the grace scans do: the owner's marker
 * store is a plain store), and waits until the owner is out of its clamp
 * (a few instructions, no user code), after which every clamp is an atomic
 * max. Either the owner's marker is seen and waited for, or the owner's
 * load of the owner word after its marker sees SHARED. Without the
 * asymmetric fence every clamp is an atomic max from the start.
 */

#include "opal_config.h"

#include <sched.h>
#include <stdlib.h>

#include "opal/mca/base/mca_base_event_internal.h"

_Atomic uint64_t mca_base_event_reg_epoch = 0;
_Atomic(mca_base_event_thread_t *) mca_base_event_clamp_owner = NULL;

/* ------------------------------------------------------------------------
 * Snapshots (writers, under the mutex)
 * ------------------------------------------------------------------------ */

int mca_base_event_regset_rebuild(mca_base_event_priv_t *ev)
{
    mca_base_event_regset_t *rs = NULL, *old;
    int n = 0;

    for (mca_base_event_reg_t *r = ev->regs; NULL != r; r = r->next) {
        n += r->listening ? 1 : 0;
    }
    if (0 < n) {
        rs = malloc(sizeof(*rs) + n * sizeof(rs->entries[0]));
        if (NULL == rs) {
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        rs->count = 0;
        rs->retire_next = NULL;
        /* oldest registration first: list is newest-first, fill backwards */
        int i = n;
        for (mca_base_event_reg_t *r = ev->regs; NULL != r; r = r->next) {
            if (!r->listening) {
                continue;
            }
            mca_base_event_regset_entry_t *e = &rs->entries[--i];
            int best = -1;
            e->reg = r;
            e->obj = r->obj;
            e->epoch = r->epoch;
            e->dropped_cb = r->dropped_cb;
            e->has_cb = false;
            /* relaxed: written only under the mutex we hold */
            e->cb_gen = atomic_load_explicit(&r->cb_gen, memory_order_relaxed);
            for (int s = MCA_BASE_EVENT_CB_SAFETY_COUNT - 1; s >= 0; --s) {
                e->cb_fn[s] = r->cb_fn[s];
                e->cb_user_data[s] = r->cb_user_data[s];
                if (NULL != r->cb_fn[s]) {
                    best = s;
                    e->has_cb = true;
                }
                /* lowest level >= s that has a callback */
                e->sel[s] = (int8_t) best;
            }
        }
        rs->count = n;
    }
    old = atomic_load_explicit(&ev->super.regset, memory_order_relaxed);
    /* seq_cst (a release store would do for the contents): the publish must
     * precede the grace-epoch bump in mca_base_event_retire_regset(). Pairs
     * with the acquire loads of readers (dispatch, count_dropped). */
    atomic_store_explicit(&ev->super.regset, rs, memory_order_seq_cst);
    mca_base_event_retire_regset(old);
    return OPAL_SUCCESS;
}

/* ------------------------------------------------------------------------
 * Serving a context
 * ------------------------------------------------------------------------ */

/* Context: ANY, PROGRESS. Locks: none. */
bool mca_base_event_can_serve(const mca_base_event_record_t *record,
                              mca_base_event_cb_safety_t context)
{
    mca_base_event_thread_t *rec;
    mca_base_event_regset_t *rs;
    bool ok = true;

    if (NULL == record || NULL == record->event || 0 > (int) context
        || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) context) {
        return false;
    }
    if (0 != (record->flags & MCA_BASE_EVENT_RECORD_DISPATCHED)) {
        return true; /* nothing left to dispatch locally */
    }
    rec = mca_base_event_reader_enter(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE > context);
    if (NULL == rec) {
        return false;
    }
    /* acquire: after our announcement; pairs with the publish in
     * mca_base_event_regset_rebuild() (the contents are complete). */
    rs = atomic_load_explicit(&record->event->regset, memory_order_acquire);
    for (int i = 0; NULL != rs && ok && i < rs->count; ++i) {
        const mca_base_event_regset_entry_t *e = &rs->entries[i];
        /* relaxed: as in deliver_one() */
        if (mca_base_event_entry_matches(record->event, e, record) && e->has_cb
            && 0 > e->sel[context] && !atomic_load_explicit(&e->reg->freed, memory_order_relaxed)) {
            ok = false;
        }
    }
    /* leave without reclaiming (as in SIGNAL context): the caller is a
     * drain holding its token, and a reclaim runs free callbacks and
     * dropped handlers, user code a drain point on another thread must not
     * wait for; the drain's end reclaims (mca_base_event_drain_end()) */
    mca_base_event_reader_exit(rec, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
    return ok;
}

/* Context: ANY, PROGRESS. */
uint64_t mca_base_event_serve_generation(void)
{
    /* relaxed: a hint. Every change of a snapshot that served (or not) a
     * record retires that snapshot, which bumps the grace epoch. */
    return atomic_load_explicit(&mca_base_event_grace_epoch, memory_order_relaxed);
}

/* ------------------------------------------------------------------------
 * Dispatch
 * ------------------------------------------------------------------------ */

/* The entry of @p reg in @p event's current snapshot, NULL when it no
 * longer listens. The caller is a reader (announced before the load), so
 * the snapshot outlives the call. */
static const mca_base_event_regset_entry_t *current_entry(const mca_base_event_t *event,
                                                          const mca_base_event_reg_t *reg)
{
    /* acquire: as the load in mca_base_event_dispatch() */
    const mca_base_event_regset_t *rs = atomic_load_explicit(&event->regset,
                                                             memory_order_acquire);

    for (int i = 0; NULL != rs && i < rs->count; ++i) {
        if (rs->entries[i].reg == reg) {
            return &rs->entries[i];
        }
    }
    return NULL;
}

/* Deliver @p record to one entry. Returns 1 if a callback ran. */
static inline int deliver_one(const mca_base_event_regset_entry_t *e,
                              mca_base_event_record_t *record, mca_base_event_cb_safety_t context)
{
    mca_base_event_reg_t *reg = e->reg;
    bool reported = false;
    int s;

    /* The checks run again after a drop report: the dropped handler is user
     * code, which may free this registration or change its callbacks. */
    for (;;) {
        /* relaxed: this thread's own earlier handle_free (a callback or
         * dropped handler freeing a registration later in this snapshot, or
         * its own) is seen in program order; other threads' frees may be
         * seen late, and their free callback waits for this dispatch
         * through the grace period. Raised while it lived and not
         * delivered: a drop, which the grace path reports just before the
         * free callback (delivered + dropped == raised). */
        if (OPAL_UNLIKELY(atomic_load_explicit(&reg->freed, memory_order_relaxed))) {
            if (mca_base_event_reg_owns(reg, record)) {
                mca_base_event_reg_count_drop(reg, 1);
            }
            return 0;
        }
        /* relaxed: as freed, this thread's own earlier callback change
         * (from a callback of an outer dispatch, or from the dropped
         * handler) is what must be seen. */
        if (OPAL_UNLIKELY(atomic_load_explicit(&reg->cb_gen, memory_order_relaxed) != e->cb_gen)) {
            e = current_entry(record->event, reg);
            if (NULL == e) {
                return 0; /* listens no more: neither callback nor dropped handler */
            }
        }
        s = e->sel[context];
        if (OPAL_UNLIKELY(0 > s)) {
            /* no callback at a level serving this context (or only a
             * dropped handler): a drop, reported at the next drain point or
             * before the registration's next delivery */
            mca_base_event_reg_count_drop(reg, 1);
            return 0;
        }
        if (OPAL_LIKELY(reported || !mca_base_event_reg_drops_waiting(e))) {
            break;
        }
        mca_base_event_drops_report_one(e, record, context, e->cb_user_data[s]);
        reported = true;
    }
    e->cb_fn[s](record, reg->handle, context, e->cb_user_data[s]);
    return 1;
}

/* ------------------------------------------------------------------------
 * The ORDERED clamp (see the file comment)
 * ------------------------------------------------------------------------ */

/* The atomic max. relaxed: the value orders no other data. */
static opal_count_t clamp_shared(mca_base_event_source_t *src, opal_count_t ts)
{
    opal_count_t last = atomic_load_explicit(&src->last_timestamp, memory_order_relaxed);

    while (ts > last
           && !atomic_compare_exchange_weak_explicit(&src->last_timestamp, &last, ts,
                                                     memory_order_relaxed, memory_order_relaxed)) {
    }
    return ts < last ? last : ts;
}

/* @p rec is not the clamp owner: become it (first dispatch of the process),
 * or end single-dispatcher mode. Context: RAISE, PROGRESS, ANY (a dispatch
 * in a normal context: deliveries never dispatch in SIGNAL context). */
static opal_count_t clamp_slow(mca_base_event_source_t *src, opal_count_t ts,
                               mca_base_event_thread_t *rec)
{
    mca_base_event_thread_t *owner = atomic_load_explicit(&mca_base_event_clamp_owner,
                                                          memory_order_acquire);

    if (NULL == owner) {
        /* acq_rel: the first dispatcher; with no asymmetric fence nobody
         * may clamp with plain stores */
        mca_base_event_thread_t *want = mca_base_event_asym_fence ? rec
                                                                  : MCA_BASE_EVENT_CLAMP_SHARED;
        if (atomic_compare_exchange_strong_explicit(&mca_base_event_clamp_owner, &owner, want,
                                                    memory_order_acq_rel, memory_order_acquire)) {
            return clamp_shared(src, ts); /* rarely worth the fast path once */
        }
    }
    if (MCA_BASE_EVENT_CLAMP_SHARED != owner && owner != rec) {
        /* seq_cst: the Dekker pair with the owner's marker store and its
         * load of the owner word (mca_base_event_clamp()); the fence makes
         * the owner's plain marker store visible before the scan below. */
        if (atomic_compare_exchange_strong_explicit(&mca_base_event_clamp_owner, &owner,
                                                    MCA_BASE_EVENT_CLAMP_SHARED,
                                                    memory_order_seq_cst, memory_order_acquire)) {
            mca_base_event_asym_fence_now();
            /* acquire: pairs with the owner's release store of 0; its last
             * plain store of last_timestamp is visible to our atomic max */
            while (0 != atomic_load_explicit(&owner->clamping, memory_order_acquire)) {
                sched_yield();
            }
        }
    }
    return clamp_shared(src, ts);
}

/* The clamp of an ORDERED record's timestamp, by the dispatching thread
 * @p rec. Context: RAISE, PROGRESS, ANY. */
static inline opal_count_t mca_base_event_clamp(mca_base_event_source_t *src, opal_count_t ts,
                                                mca_base_event_thread_t *rec)
{
    /* relaxed: only ever compared with our own record; the load below,
     * after the marker, is the one that decides */
    if (OPAL_LIKELY(atomic_load_explicit(&mca_base_event_clamp_owner, memory_order_relaxed)
                    == rec)) {
        opal_count_t last;
        /* The marker: a plain store and a compiler barrier, the owner-word
         * load after it (the other side runs the asymmetric fence). */
        atomic_store_explicit(&rec->clamping, 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
        if (OPAL_LIKELY(atomic_load_explicit(&mca_base_event_clamp_owner, memory_order_relaxed)
                        == rec)) {
            /* relaxed: only this thread writes last_timestamp now */
            last = atomic_load_explicit(&src->last_timestamp, memory_order_relaxed);
            if (ts > last) {
                atomic_store_explicit(&src->last_timestamp, ts, memory_order_relaxed);
            } else {
                ts = last;
            }
            /* release: the store above is visible to the thread that
             * waits for the marker (clamp_slow()) */
            atomic_store_explicit(&rec->clamping, 0, memory_order_release);
            return ts;
        }
        atomic_store_explicit(&rec->clamping, 0, memory_order_release);
    }
    return clamp_slow(src, ts, rec);
}

/* ------------------------------------------------------------------------
 * Dispatch
 * ------------------------------------------------------------------------ */

/* Context: RAISE, PROGRESS, ANY. Locks: none. */
int mca_base_event_dispatch_record(mca_base_event_record_t *record,
                                   mca_base_event_cb_safety_t context)
{
    mca_base_event_tls_t *t = &mca_base_event_tls;
    mca_base_event_t *event = record->event;
    mca_base_event_thread_t *rec;
    mca_base_event_regset_t *rs;
    uint32_t saved_chain;
    int ran = 0;

    /* The causal cap applies across deferral (record->depth); the reader
     * nesting cap bounds this thread's stack whatever the records say. */
    if (OPAL_UNLIKELY(MCA_BASE_EVENT_MAX_DEPTH <= record->depth
                      || MCA_BASE_EVENT_MAX_DEPTH <= t->depth)) {
        mca_base_event_count_dropped(record);
        return 0;
    }
    rec = mca_base_event_reader_enter(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE > context);
    if (OPAL_UNLIKELY(NULL == rec)) {
        mca_base_event_count_dropped(record);
        return 0;
    }
    /* acquire: after our announcement; pairs with the publish in
     * mca_base_event_regset_rebuild() (the contents are complete). */
    rs = atomic_load_explicit(&event->regset, memory_order_acquire);
    if (OPAL_LIKELY(NULL != rs)) {
        if (MCA_BASE_EVENT_SOURCE_ORDERED == record->source->ordering) {
            record->timestamp = mca_base_event_clamp(record->source, record->timestamp, rec);
        }
        /* records raised by the callbacks below are one level deeper */
        saved_chain = t->chain;
        t->chain = record->depth + 1;
        for (int i = 0; i < rs->count; ++i) {
            const mca_base_event_regset_entry_t *e = &rs->entries[i];
            if (mca_base_event_entry_matches(event, e, record)) {
                ran += deliver_one(e, record, context);
            }
        }
        t->chain = saved_chain;
    }
    mca_base_event_reader_exit(rec, context);
    return ran;
}

/* Context: RAISE, PROGRESS, ANY. Locks: none. */
int mca_base_event_dispatch_owned(mca_base_event_record_t *record,
                                  mca_base_event_cb_safety_t context)
{
    if (OPAL_UNLIKELY(NULL == record || NULL == record->event || 0 > (int) context
                      || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) context
                      || 0 != (record->flags & MCA_BASE_EVENT_RECORD_DISPATCHED))) {
        return 0;
    }
    return mca_base_event_dispatch_record(record, context);
}

/* Context: RAISE, PROGRESS, ANY. Locks: none. */
int mca_base_event_dispatch(const mca_base_event_record_t *record,
                            mca_base_event_cb_safety_t context)
{
    mca_base_event_record_t inst;

    if (OPAL_UNLIKELY(NULL == record || NULL == record->event || 0 > (int) context
                      || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) context)) {
        return 0;
    }
    if (OPAL_UNLIKELY(0 != (record->flags & MCA_BASE_EVENT_RECORD_DISPATCHED))) {
        return 0;
    }
    /* the callbacks get a copy they may not change the caller's record
     * through, with the clamped timestamp */
    inst = *record;
    return mca_base_event_dispatch_record(&inst, context);
}
