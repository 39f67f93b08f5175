/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Drop accounting, all of it: charging a record that cannot be
 * delivered to the registrations it would have reached, reporting pending
 * counts to dropped handlers (before the next delivery, and at drain
 * points), and the per-event count of records an exporting delivery could
 * not export.
 *
 * The rule: per registration, delivered + dropped == raised. A count lives
 * in reg->dropped (saturating) until an exchange hands it to a dropped
 * handler; it is never cleared otherwise. Three places take it: a delivery
 * to the registration (the dispatch's deliver_one()), a report at a drain
 * point (mca_base_event_report_drops()), and the grace path just
 * before the free callback (mca_base_event_reclaim()). Each exchange takes
 * every drop once. Handlers run outside every lock; reports on two threads
 * for one registration are not ordered with each other (as two callbacks of
 * one registration on two threads are not).
 */

#include "opal_config.h"

#include "opal/mca/base/mca_base_event_internal.h"

atomic_bool mca_base_event_drops_pending = false;

/* Saturate before narrowing to the MPI_Count range. */
static inline opal_count_t drop_count(uint64_t n)
{
    return (opal_count_t) ((uint64_t) OPAL_COUNT_MAX < n ? (uint64_t) OPAL_COUNT_MAX : n);
}

/* ------------------------------------------------------------------------
 * Charging
 * ------------------------------------------------------------------------ */

/* Context: RAISE, SIGNAL. Locks: none. */
void mca_base_event_count_dropped(const mca_base_event_record_t *record)
{
    mca_base_event_thread_t *rec;
    mca_base_event_regset_t *rs;

    if (NULL == record || NULL == record->event
        || 0 != (record->flags & MCA_BASE_EVENT_RECORD_DISPATCHED)) {
        return; /* a dispatched record already reached its registrations */
    }
    /* may be SIGNAL context (a ring overflowing in a handler): no malloc */
    rec = mca_base_event_reader_enter(false);
    if (NULL == rec) {
        /* more threads than records: the raise still knows its event, and
         * the anonymous section keeps the snapshot alive while we walk it */
        mca_base_event_anon_enter();
    }
    /* acquire: after our announcement; pairs with the publish in
     * mca_base_event_regset_rebuild(). */
    rs = atomic_load_explicit(&record->event->regset, memory_order_acquire);
    if (NULL != rs) {
        for (int i = 0; i < rs->count; ++i) {
            mca_base_event_reg_t *reg = rs->entries[i].reg;
            /* relaxed: as in deliver_one() */
            if (mca_base_event_entry_matches(record->event, &rs->entries[i], record)
                && (!atomic_load_explicit(&reg->freed, memory_order_relaxed)
                    || mca_base_event_reg_owns(reg, record))) {
                mca_base_event_reg_count_drop(reg, 1);
            }
        }
    }
    if (NULL == rec) {
        mca_base_event_anon_exit();
    } else {
        /* SIGNAL-safe exit: never reclaims here */
        mca_base_event_reader_exit(rec, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
    }
}

/** An export drop was counted since the last claim (see
 *  mca_base_event_claim_export_drops()). */
static atomic_bool export_drops_waiting = false;

/* Context: RAISE, SIGNAL, PROGRESS. */
void mca_base_event_count_export_dropped(mca_base_event_t *event, uint64_t n)
{
    mca_base_event_priv_t *ev = (mca_base_event_priv_t *) event;
    uint64_t old, now;

    if (NULL == event || 0 == n) {
        return;
    }
    old = atomic_load_explicit(&ev->export_dropped, memory_order_relaxed);
    do {
        now = UINT64_MAX - old < n ? UINT64_MAX : old + n;
        /* relaxed: a count; the exporter reads it with an exchange */
    } while (old != UINT64_MAX
             && !atomic_compare_exchange_weak_explicit(&ev->export_dropped, &old, now,
                                                       memory_order_relaxed,
                                                       memory_order_relaxed));
    /* release: the count above is visible to the exporter whose claim
     * clears this (pairs with the exchange there). Unconditional: a store
     * skipped because the mark looked set could be cleared before the
     * count is visible. */
    atomic_store_explicit(&export_drops_waiting, true, memory_order_release);
}

/* Context: ANY. */
bool mca_base_event_export_drops_waiting(void)
{
    /* relaxed: a hint; the claim orders the counts */
    return atomic_load_explicit(&export_drops_waiting, memory_order_relaxed);
}

/* Context: PROGRESS, ANY. */
bool mca_base_event_claim_export_drops(void)
{
    /* acq_rel: the counts of every drop whose mark is cleared here are
     * visible to the takes after it (pairs with the release store above) */
    return atomic_load_explicit(&export_drops_waiting, memory_order_relaxed)
           && atomic_exchange_explicit(&export_drops_waiting, false, memory_order_acq_rel);
}

/* Context: PROGRESS, ANY. */
uint64_t mca_base_event_take_export_dropped(mca_base_event_t *event)
{
    mca_base_event_priv_t *ev = (mca_base_event_priv_t *) event;

    if (NULL == event) {
        return 0;
    }
    /* relaxed: a count, taken once */
    if (0 == atomic_load_explicit(&ev->export_dropped, memory_order_relaxed)) {
        return 0;
    }
    return atomic_exchange_explicit(&ev->export_dropped, 0, memory_order_relaxed);
}

/* ------------------------------------------------------------------------
 * Reporting
 * ------------------------------------------------------------------------ */

/* Context: RAISE, PROGRESS, ANY (a dispatch, outside every lock). */
void mca_base_event_drops_report_one(const mca_base_event_regset_entry_t *e,
                                     const mca_base_event_record_t *record,
                                     mca_base_event_cb_safety_t context, void *user_data)
{
    mca_base_event_reg_t *reg = e->reg;
    uint64_t n;

    /* acq_rel: acquire pairs with the release CAS of the charging threads
     * (what they did before the drop is visible to the handler); release
     * orders the handler's view with a reporter on another thread. The
     * exchange hands each drop to exactly one handler call. */
    n = atomic_exchange_explicit(&reg->dropped, 0, memory_order_acq_rel);
    if (0 != n) {
        e->dropped_cb(drop_count(n), reg->handle, record->source->index, context, user_data);
    }
}

/** Registrations reported per walk of the slots (stack array; the walk goes
 *  on from where it stopped after the calls). */
#define REPORT_CHUNK 32

typedef struct report_entry_t {
    mca_base_event_reg_t *reg;
    mca_base_event_dropped_cb_fn_t dropped_cb;
    mca_base_event_registration_t *handle;
    void *user_data;
    int source_index;
} report_entry_t;

/* Counts that a report in context c skipped because the registration's
 * callbacks cannot run there: bit m is set when one waits whose strictest
 * callback is at level m (a report in any context <= m can serve it). */
static atomic_uint drops_waiting = 0;

/* The user data dispatch would pass for @p context (the callback it would
 * pick), NULL for a registration with no callback at all. Returns -1 when
 * it can be reported in @p context, else the level of its strictest
 * callback (the count waits for a context that serves it). Caller holds
 * the mutex. */
static int report_user_data(const mca_base_event_reg_t *reg, mca_base_event_cb_safety_t context,
                            void **user_data)
{
    int strictest = -1;

    *user_data = NULL;
    for (int s = (int) context; s < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++s) {
        if (NULL != reg->cb_fn[s]) {
            *user_data = reg->cb_user_data[s];
            return -1;
        }
    }
    for (int s = 0; s < MCA_BASE_EVENT_CB_SAFETY_COUNT; ++s) {
        strictest = NULL != reg->cb_fn[s] ? s : strictest;
    }
    return strictest;
}

/* Context: TOOL, PROGRESS, ANY (not SIGNAL). Locks: takes the engine mutex. */
void mca_base_event_report_drops(mca_base_event_cb_safety_t context)
{
    mca_base_event_thread_t *rec;
    report_entry_t batch[REPORT_CHUNK];
    unsigned int serves = ~0u << (unsigned int) context, waiting = 0;
    uint32_t next = 0;
    bool pending;

    if (0 > (int) context || MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= context
        || 0 < mca_base_event_tls.depth) {
        return; /* SIGNAL, or a callback's drain point: a later report does it */
    }
    /* relaxed: the cheap tests; the exchanges below order */
    if (!atomic_load_explicit(&mca_base_event_drops_pending, memory_order_relaxed)
        && 0 == (atomic_load_explicit(&drops_waiting, memory_order_relaxed) & serves)) {
        return;
    }
    /* acquire: pairs with the release exchange in
     * mca_base_event_reg_count_drop(); every counter that went nonzero
     * before its flag was set is seen by the exchanges below. */
    pending = atomic_exchange_explicit(&mca_base_event_drops_pending, false, memory_order_acquire);
    /* acquire: as above, for counts an earlier report left waiting */
    if (!pending && 0 == (atomic_fetch_and_explicit(&drops_waiting, ~serves, memory_order_acquire)
                          & serves)) {
        return;
    }
    if (pending) {
        (void) atomic_fetch_and_explicit(&drops_waiting, ~serves, memory_order_acquire);
    }
    /* A read-side section, as dispatch: a registration collected below and
     * freed meanwhile by another thread (or by a dropped handler) keeps its
     * memory, and its free callback (with its final drop report) waits in
     * the grace path until we left. */
    rec = mca_base_event_reader_enter(true);
    if (NULL == rec) {
        /* relaxed: as the setter; retry at the next drain point */
        atomic_store_explicit(&mca_base_event_drops_pending, true, memory_order_relaxed);
        return;
    }
    while (true) {
        uint32_t nslots;
        int n = 0;

        opal_mutex_lock(&mca_base_event_lock);
        nslots = mca_base_event_reg_slot_count();
        for (; next < nslots && n < REPORT_CHUNK; ++next) {
            mca_base_event_reg_t *reg = mca_base_event_reg_at_slot(next);
            int level;

            /* relaxed: a hint; the exchange below decides. Without a
             * handler the count stays (set_dropped_handler raises the flag
             * again when one comes). */
            if (NULL == reg || NULL == reg->dropped_cb
                || 0 == atomic_load_explicit(&reg->dropped, memory_order_relaxed)) {
                continue;
            }
            level = report_user_data(reg, context, &batch[n].user_data);
            if (0 <= level) {
                waiting |= 1u << (unsigned int) level;
                continue;
            }
            batch[n].reg = reg;
            batch[n].dropped_cb = reg->dropped_cb;
            batch[n].handle = reg->handle;
            batch[n].source_index = reg->event->super.source->index;
            ++n;
        }
        opal_mutex_unlock(&mca_base_event_lock);
        for (int i = 0; i < n; ++i) {
            mca_base_event_reg_t *reg = batch[i].reg;
            uint64_t cnt;

            /* relaxed: freed by this thread (a dropped handler above) or by
             * another one: its drops go to the grace path's final report,
             * after us (the grace period waits for us). */
            if (atomic_load_explicit(&reg->freed, memory_order_relaxed)) {
                continue;
            }
            /* acq_rel: as in mca_base_event_drops_report_one() */
            cnt = atomic_exchange_explicit(&reg->dropped, 0, memory_order_acq_rel);
            if (0 != cnt) {
                batch[i].dropped_cb(drop_count(cnt), batch[i].handle, batch[i].source_index,
                                    context, batch[i].user_data);
            }
        }
        if (REPORT_CHUNK > n) {
            break;
        }
    }
    if (0 != waiting) {
        /* release: pairs with the acquire fetch_and of the next report */
        (void) atomic_fetch_or_explicit(&drops_waiting, waiting, memory_order_release);
    }
    mca_base_event_reader_exit(rec, context);
}

/* Test-only: preload a registration's drop counter. */
int mca_base_event_test_set_dropped(mca_base_event_registration_t *registration,
                                    uint64_t value)
{
    mca_base_event_reg_t *reg;

    opal_mutex_lock(&mca_base_event_lock);
    reg = mca_base_event_reg_lookup(registration);
    if (NULL != reg) {
        atomic_store_explicit(&reg->dropped, value, memory_order_relaxed);
        /* release: as mca_base_event_reg_count_drop() */
        (void) atomic_exchange_explicit(&mca_base_event_drops_pending, true,
                                        memory_order_release);
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return NULL == reg ? OPAL_ERR_BAD_PARAM : OPAL_SUCCESS;
}
