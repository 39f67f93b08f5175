/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Capture, the delivery seam, dispatch and drop counting.
 *
 * Dispatch takes no lock. It announces itself (mca_base_event_reader_enter,
 * one seq_cst exchange on the outermost entry), loads the event's immutable
 * snapshot and walks it. That announcement is the only ordered operation per
 * raise: handle_free always leaves the free callback to the grace path
 * (mca_base_event_grace.c), which waits for every thread that might still
 * hold a snapshot naming the registration, so no per-registration fence is
 * needed. reg->freed only stops this thread from starting a callback of a
 * registration freed earlier in the same dispatch (program order suffices).
 */

#include "opal_config.h"

#include <sched.h>
#include <string.h>

#include "opal/mca/base/mca_base_event_internal.h"

_Atomic uint64_t mca_base_event_reg_epoch = 0;
_Atomic uint64_t mca_base_event_lost_no_record = 0;
_Atomic(const mca_base_event_delivery_t *) mca_base_event_delivery = NULL;
int mca_base_event_exporters = 0;

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
     * with the seq_cst load in mca_base_event_dispatch() and
     * mca_base_event_count_dropped(). */
    atomic_store_explicit(&ev->super.regset, rs, memory_order_seq_cst);
    mca_base_event_retire_regset(old);
    return OPAL_SUCCESS;
}

/* ------------------------------------------------------------------------
 * Drop accounting
 * ------------------------------------------------------------------------ */

static inline bool entry_matches(const mca_base_event_t *event,
                                 const mca_base_event_regset_entry_t *e,
                                 const mca_base_event_record_t *record)
{
    if (MCA_BASE_VAR_BIND_NO_OBJECT != event->bind && e->obj != record->obj) {
        return false;
    }
    return e->epoch <= record->epoch;
}

/* Context: RAISE, SIGNAL. Locks: none. */
void mca_base_event_count_dropped(const mca_base_event_record_t *record)
{
    mca_base_event_thread_t *rec;
    mca_base_event_regset_t *rs;

    if (NULL == record || NULL == record->event) {
        return;
    }
    /* may be SIGNAL context (a ring overflowing in a handler): no malloc */
    rec = mca_base_event_reader_enter(false);
    if (NULL == rec) {
        /* no record, none free: cannot find the registrations; count it */
        uint64_t old = atomic_load_explicit(&mca_base_event_lost_no_record, memory_order_relaxed);
        while (UINT64_MAX != old
               && !atomic_compare_exchange_weak_explicit(&mca_base_event_lost_no_record, &old,
                                                         old + 1, memory_order_relaxed,
                                                         memory_order_relaxed)) {
        }
        return;
    }
    /* seq_cst: after our announcement; pairs with the publish in
     * mca_base_event_regset_rebuild(). */
    rs = atomic_load_explicit(&record->event->regset, memory_order_seq_cst);
    if (NULL != rs) {
        for (int i = 0; i < rs->count; ++i) {
            if (entry_matches(record->event, &rs->entries[i], record)) {
                mca_base_event_reg_count_drop(rs->entries[i].reg);
            }
        }
    }
    /* SIGNAL-safe exit: never reclaims here */
    mca_base_event_reader_exit(rec, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
}

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
    rec = mca_base_event_reader_enter(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE > context);
    if (NULL == rec) {
        return false;
    }
    /* seq_cst: after our announcement; pairs with the publish in
     * mca_base_event_regset_rebuild(). */
    rs = atomic_load_explicit(&record->event->regset, memory_order_seq_cst);
    for (int i = 0; NULL != rs && ok && i < rs->count; ++i) {
        const mca_base_event_regset_entry_t *e = &rs->entries[i];
        /* relaxed: as in deliver_one() */
        if (entry_matches(record->event, e, record) && e->has_cb && 0 > e->sel[context]
            && !atomic_load_explicit(&e->reg->freed, memory_order_relaxed)) {
            ok = false;
        }
    }
    mca_base_event_reader_exit(rec, context);
    return ok;
}

/** Bound of the wait for another thread's report (yields; spins in SIGNAL
 *  context): far above a dropped handler's run time, even descheduled. */
#define MCA_BASE_EVENT_REPORT_WAIT_YIELDS 100000
#define MCA_BASE_EVENT_REPORT_WAIT_SPINS 10000000

/* A report of @p reg's drops running on another thread
 * (mca_base_event_report_drops()) took the count this delivery would have
 * reported: wait until its dropped handler returned, so that it still
 * precedes the callback. Never waits for this thread's own report (a raise
 * from its dropped handler). The wait is bounded: a dropped handler that
 * blocks on this thread (a handle_free waiting for the drain lock this
 * thread's drain holds) must not deadlock; past the bound the callback
 * runs, the report follows. */
static void wait_reporter(mca_base_event_reg_t *reg, mca_base_event_cb_safety_t context)
{
    bool in_signal = MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= context;
    long left = in_signal ? MCA_BASE_EVENT_REPORT_WAIT_SPINS : MCA_BASE_EVENT_REPORT_WAIT_YIELDS;
    mca_base_event_thread_t *r;

    /* acquire: pairs with the release store of NULL in
     * mca_base_event_report_drops(); the handler's effects are visible. */
    while (NULL != (r = atomic_load_explicit(&reg->reporter, memory_order_acquire))
           && r != mca_base_event_tls.rec && 0 < left--) {
        if (!in_signal) {
            sched_yield();
        }
    }
}

/* Report pending drops of @p e's registration. Outside every lock. */
static inline void flush_dropped(const mca_base_event_regset_entry_t *e,
                                 const mca_base_event_record_t *record,
                                 mca_base_event_cb_safety_t context, void *user_data)
{
    mca_base_event_reg_t *reg = e->reg;
    uint64_t n;

    /* acquire: a 0 written by a reporter's swap (release) makes its
     * reporter mark visible to the check below. */
    if (NULL == e->dropped_cb
        || 0 == atomic_load_explicit(&reg->dropped, memory_order_acquire)) {
        goto check_reporter;
    }
    /* acq_rel: as above; the swap makes each drop reported once */
    n = atomic_exchange_explicit(&reg->dropped, 0, memory_order_acq_rel);
    if (0 == n) {
        goto check_reporter;
    }
    if ((uint64_t) OPAL_COUNT_MAX < n) {
        n = (uint64_t) OPAL_COUNT_MAX; /* saturate before narrowing */
    }
    e->dropped_cb((opal_count_t) n, reg->handle, record->source->index, context, user_data);
    return;
check_reporter:
    /* acquire (a plain load on x86): a NULL stored by a reporter that has
     * just finished makes its dropped handler's effects visible before our
     * callback. Pairs with the release store in
     * mca_base_event_report_drops(). */
    if (OPAL_UNLIKELY(NULL != atomic_load_explicit(&reg->reporter, memory_order_acquire))) {
        wait_reporter(reg, context);
    }
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
    /* seq_cst: as the load in mca_base_event_dispatch() */
    const mca_base_event_regset_t *rs = atomic_load_explicit(&event->regset,
                                                             memory_order_seq_cst);

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

    /* relaxed: only this thread's own earlier handle_free (a callback
     * freeing a registration later in this snapshot) must be seen, and
     * program order gives that. Other threads' frees are covered by the
     * grace period before the free callback runs. Raised while it lived and
     * not delivered: a drop, which the grace path reports just before the
     * free callback (delivered + dropped == raised, as evt/ring's withdraw). */
    if (OPAL_UNLIKELY(atomic_load_explicit(&reg->freed, memory_order_relaxed))) {
        mca_base_event_reg_count_drop(reg);
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
        /* no callback at a level serving this context: a drop */
        mca_base_event_reg_count_drop(reg);
        if (!e->has_cb) {
            /* dropped-handler-only registration: report at once */
            flush_dropped(e, record, context, NULL);
        }
        return 0;
    }
    flush_dropped(e, record, context, e->cb_user_data[s]);
    e->cb_fn[s](record, reg->handle, context, e->cb_user_data[s]);
    return 1;
}

/* Context: RAISE, PROGRESS, ANY. Locks: none. */
int mca_base_event_dispatch(const mca_base_event_record_t *record,
                            mca_base_event_cb_safety_t context)
{
    mca_base_event_thread_t *rec;
    mca_base_event_regset_t *rs;
    mca_base_event_record_t inst;
    mca_base_event_t *event;
    int ran = 0;

    if (OPAL_UNLIKELY(NULL == record || NULL == record->event || 0 > (int) context
                      || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) context)) {
        return 0;
    }
    event = record->event;
    if (OPAL_UNLIKELY(MCA_BASE_EVENT_MAX_DEPTH <= mca_base_event_tls.depth)) {
        mca_base_event_count_dropped(record);
        return 0;
    }
    rec = mca_base_event_reader_enter(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE > context);
    if (OPAL_UNLIKELY(NULL == rec)) {
        mca_base_event_count_dropped(record);
        return 0;
    }
    /* seq_cst (acquire suffices for the contents): after our announcement;
     * pairs with the publish in mca_base_event_regset_rebuild(). */
    rs = atomic_load_explicit(&event->regset, memory_order_seq_cst);
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
        for (int i = 0; i < rs->count; ++i) {
            const mca_base_event_regset_entry_t *e = &rs->entries[i];
            if (entry_matches(event, e, record)) {
                ran += deliver_one(e, &inst, context);
            }
        }
    }
    mca_base_event_reader_exit(rec, context);
    return ran;
}

/* ------------------------------------------------------------------------
 * Capture
 * ------------------------------------------------------------------------ */

/* Context: RAISE; SIGNAL when safety is ASYNC_SIGNAL_SAFE. */
int mca_base_event_raise_internal(mca_base_event_t *event, mca_base_event_source_t *source,
                                  const void *obj, const void *data,
                                  mca_base_event_cb_safety_t safety)
{
    const mca_base_event_delivery_t *d;
    mca_base_event_record_t record;

    if (OPAL_UNLIKELY(NULL == event || (NULL == data && 0 < event->extent)
                      || (NULL != source && source != event->source) || 0 > (int) safety
                      || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (int) safety)) {
        return OPAL_ERR_BAD_PARAM;
    }
    record.event = event;
    record.source = event->source;
    record.obj = obj;
    record.data = data;
    /* acquire: pairs with the release store in mca_base_event_handle_alloc();
     * a record stamped with a registration's epoch is dispatched against a
     * snapshot at least as new as that registration. */
    record.epoch = atomic_load_explicit(&mca_base_event_reg_epoch, memory_order_acquire);
    if (OPAL_UNLIKELY(MCA_BASE_EVENT_MAX_DEPTH <= mca_base_event_tls.depth)) {
        record.timestamp = 0;
        mca_base_event_count_dropped(&record);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    record.timestamp = event->source->get_timestamp(event->source->ctx);
    /* acquire: the delivery's state was set up before it was installed
     * (pairs with the release store in mca_base_event_delivery_set()). */
    d = atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire);
    if (OPAL_UNLIKELY(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE == safety)
        && (NULL == d || 0 == (d->flags & MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE))) {
        mca_base_event_count_dropped(&record);
        return OPAL_ERR_NOT_SUPPORTED;
    }
    if (OPAL_UNLIKELY(0 != (event->flags & MCA_BASE_EVENT_FLAG_SYNCHRONOUS))) {
        /* after everything pending, at the raise, whatever the delivery */
        /* not from a dropped handler of a report: see mca_base_event_flush() */
        if (NULL != d && NULL != d->flush && !mca_base_event_tls.reporting) {
            (void) d->flush();
        }
        mca_base_event_report_drops(safety);
        (void) mca_base_event_dispatch(&record, safety);
        return OPAL_SUCCESS;
    }
    if (NULL != d) {
        return d->deliver(&record, safety);
    }
    (void) mca_base_event_dispatch(&record, safety);
    return OPAL_SUCCESS;
}

/* ------------------------------------------------------------------------
 * The delivery seam
 * ------------------------------------------------------------------------ */

/* Context: INIT. */
int mca_base_event_delivery_set(const mca_base_event_delivery_t *delivery)
{
    const mca_base_event_delivery_t *old;
    int was, now;

    if (NULL != delivery && (NULL == delivery->deliver || NULL == delivery->flush)) {
        return OPAL_ERR_BAD_PARAM;
    }
    old = atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire);
    if (NULL != old) {
        (void) old->flush();
    }
    opal_mutex_lock(&mca_base_event_lock);
    /* release: pairs with the acquire load in mca_base_event_raise_internal() */
    atomic_store_explicit(&mca_base_event_delivery, delivery, memory_order_release);
    was = mca_base_event_exporters;
    now = (NULL != delivery && 0 != (delivery->flags & MCA_BASE_EVENT_DELIVERY_EXPORTS)) ? 1 : 0;
    if (was != now) {
        for (int i = 0; i < mca_base_event_num_events; ++i) {
            /* relaxed: the gate is a hint (see mca_base_event_active()) */
            atomic_fetch_add_explicit(&mca_base_event_events[i]->super.active, now - was,
                                      memory_order_relaxed);
        }
        mca_base_event_exporters = now;
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return OPAL_SUCCESS;
}
