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
 */

#include "opal_config.h"

#include <stdlib.h>

#include "opal/mca/base/mca_base_event_internal.h"

_Atomic uint64_t mca_base_event_reg_epoch = 0;

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
    mca_base_event_reader_exit(rec, context);
    return ok;
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
    int s;

    /* relaxed: this thread's own earlier handle_free (a callback freeing a
     * registration later in this snapshot) is seen in program order; other
     * threads' frees may be seen late, and their free callback waits for
     * this dispatch through the grace period. Raised while it lived and
     * not delivered: a drop, which the grace path reports just before the
     * free callback (delivered + dropped == raised). */
    if (OPAL_UNLIKELY(atomic_load_explicit(&reg->freed, memory_order_relaxed))) {
        if (mca_base_event_reg_owns(reg, record)) {
            mca_base_event_reg_count_drop(reg, 1);
        }
        return 0;
    }
    /* relaxed: as freed, this thread's own earlier callback change (from a
     * callback of an outer dispatch) is what must be seen. */
    if (OPAL_UNLIKELY(atomic_load_explicit(&reg->cb_gen, memory_order_relaxed) != e->cb_gen)) {
        e = current_entry(record->event, reg);
        if (NULL == e) {
            return 0; /* listens no more: neither callback nor dropped handler */
        }
    }
    s = e->sel[context];
    if (OPAL_UNLIKELY(0 > s)) {
        /* no callback at a level serving this context (or only a dropped
         * handler): a drop, reported at the next drain point or before the
         * registration's next delivery */
        mca_base_event_reg_count_drop(reg, 1);
        return 0;
    }
    mca_base_event_drops_before_delivery(e, record, context, e->cb_user_data[s]);
    e->cb_fn[s](record, reg->handle, context, e->cb_user_data[s]);
    return 1;
}

/* Context: RAISE, PROGRESS, ANY. Locks: none. */
int mca_base_event_dispatch(const mca_base_event_record_t *record,
                            mca_base_event_cb_safety_t context)
{
    mca_base_event_tls_t *t = &mca_base_event_tls;
    mca_base_event_thread_t *rec;
    mca_base_event_regset_t *rs;
    mca_base_event_record_t inst;
    mca_base_event_t *event;
    uint32_t saved_chain;
    int ran = 0;

    if (OPAL_UNLIKELY(NULL == record || NULL == record->event || 0 > (int) context
                      || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) context)) {
        return 0;
    }
    if (OPAL_UNLIKELY(0 != (record->flags & MCA_BASE_EVENT_RECORD_DISPATCHED))) {
        return 0;
    }
    event = record->event;
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
    if (NULL != rs) {
        inst = *record;
        if (MCA_BASE_EVENT_SOURCE_ORDERED == record->source->ordering) {
            /* ORDERED: dispatched timestamps never decrease (atomic max).
             * relaxed: the value orders no other data. */
            opal_count_t last = atomic_load_explicit(&record->source->last_timestamp,
                                                     memory_order_relaxed);
            while (inst.timestamp > last
                   && !atomic_compare_exchange_weak_explicit(&record->source->last_timestamp,
                                                             &last, inst.timestamp,
                                                             memory_order_relaxed,
                                                             memory_order_relaxed)) {
            }
            if (inst.timestamp < last) {
                inst.timestamp = last;
            }
        }
        /* records raised by the callbacks below are one level deeper */
        saved_chain = t->chain;
        t->chain = record->depth + 1;
        for (int i = 0; i < rs->count; ++i) {
            const mca_base_event_regset_entry_t *e = &rs->entries[i];
            if (mca_base_event_entry_matches(event, e, record)) {
                ran += deliver_one(e, &inst, context);
            }
        }
        t->chain = saved_chain;
    }
    mca_base_event_reader_exit(rec, context);
    return ran;
}
