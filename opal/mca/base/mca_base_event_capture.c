/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Capture (the out-of-line part of a raise) and the delivery seam.
 *
 * A raise that passed the inline gate becomes a record {event, source,
 * obj, timestamp, epoch, depth, payload} here and goes to the installed
 * delivery, or is dispatched at once when none is installed (sync). The
 * delivery's deliver() runs inside a delivery section (a per-thread counter,
 * mca_base_event_grace.c), so mca_base_event_delivery_set() can wait until
 * no raiser still uses a delivery it removes. Nothing in a section runs
 * user code: a full delivery that a drain would help is drained outside the
 * section (OPAL_ERR_WOULD_BLOCK), then tried once more.
 */

#include "opal_config.h"

#include "opal/mca/base/mca_base_event_internal.h"

_Atomic(const mca_base_event_delivery_t *) mca_base_event_delivery = NULL;

/* The record in the installed delivery, inside a delivery section: the
 * cases off the hot path (no record for this thread yet, a section nested
 * in a signal handler, no delivery taking records, a signal context the
 * delivery cannot serve).
 * @retval OPAL_ERR_NOT_AVAILABLE  no delivery takes records: dispatch inline
 * Context: RAISE, SIGNAL (per @p safety). */
static int __attribute__((noinline))
deliver_in_section_slow(const mca_base_event_record_t *record, mca_base_event_cb_safety_t safety)
{
    mca_base_event_thread_t *rec = mca_base_event_tls.rec;
    const mca_base_event_delivery_t *d;
    bool outer;
    int rc;

    if (NULL == rec) {
        rec = mca_base_event_thread_claim(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE > safety);
        if (NULL == rec) {
            /* more threads than records, in a signal handler: the delivery
             * cannot be entered safely; charge the registrations */
            mca_base_event_count_dropped(record);
            return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
        }
    }
    /* false: nested in a signal handler inside this thread's own section,
     * which covers this one */
    outer = mca_base_event_delivery_enter(rec);
    /* acquire: as in deliver_in_section() */
    d = atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire);
    if (NULL == d || NULL == d->deliver) {
        rc = OPAL_ERR_NOT_AVAILABLE;
    } else if (MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= safety
               && 0 == (d->flags & MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE)) {
        mca_base_event_count_dropped(record);
        rc = OPAL_ERR_NOT_SUPPORTED;
    } else {
        rc = d->deliver(record, safety);
    }
    if (outer) {
        mca_base_event_delivery_exit(rec);
    }
    return rc;
}

/* Context: ANY (not SIGNAL). */
int mca_base_event_delivery_section_enter(mca_base_event_section_t *section)
{
    mca_base_event_thread_t *rec = mca_base_event_tls.rec;

    if (NULL == rec) {
        rec = mca_base_event_thread_claim(false);
        if (NULL == rec) {
            return -1;
        }
    }
    section->rec = rec;
    /* false: nested in this thread's own section, which covers this one */
    section->outer = mca_base_event_delivery_enter(rec);
    /* acquire: as in deliver_in_section() */
    if (NULL == atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire)) {
        mca_base_event_delivery_section_exit(section);
        return 0;
    }
    return 1;
}

/* Context: ANY (not SIGNAL). */
void mca_base_event_delivery_section_exit(mca_base_event_section_t *section)
{
    if (section->outer) {
        mca_base_event_delivery_exit((mca_base_event_thread_t *) section->rec);
    }
}

/* The record in the installed delivery, inside a delivery section (see
 * deliver_in_section_slow() for the return codes). Inline: the raise
 * path's main work, the section's two plain stores around one indirect
 * call. Context: RAISE, SIGNAL (per @p safety). */
static inline __attribute__((always_inline)) int
deliver_in_section(const mca_base_event_record_t *record, mca_base_event_cb_safety_t safety)
{
    mca_base_event_thread_t *rec = mca_base_event_tls.rec;
    const mca_base_event_delivery_t *d;
    uint32_t seq;
    int rc;

    if (OPAL_UNLIKELY(NULL == rec || MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= safety
                      || !mca_base_event_asym_fence)) {
        return deliver_in_section_slow(record, safety);
    }
    /* relaxed: written by this thread only */
    seq = atomic_load_explicit(&rec->dseq, memory_order_relaxed);
    if (OPAL_UNLIKELY(0 != (seq & 1))) {
        return deliver_in_section_slow(record, safety);
    }
    /* mca_base_event_delivery_enter(), asymmetric-fence flavour */
    atomic_store_explicit(&rec->dseq, seq + 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
    /* acquire: the delivery's state was set up before it was installed
     * (pairs with the seq_cst store in mca_base_event_delivery_set()). */
    d = atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire);
    if (OPAL_UNLIKELY(NULL == d || NULL == d->deliver)) {
        rc = OPAL_ERR_NOT_AVAILABLE;
    } else {
        rc = d->deliver(record, safety);
    }
    /* release: the section's accesses happen before a writer sees the
     * thread out (pairs with the acquire loads in
     * mca_base_event_delivery_wait()) */
    atomic_store_explicit(&rec->dseq, seq + 2, memory_order_release);
    return rc;
}

/* What the hot path of mca_base_event_raise_internal() leaves: events
 * flagged synchronous, a full delivery a drain would help, no delivery
 * taking records. @p rc: what deliver_in_section() returned (or
 * OPAL_ERR_NOT_AVAILABLE when it was not called). Context: RAISE, SIGNAL
 * (per @p safety). */
static int __attribute__((noinline)) raise_finish(mca_base_event_record_t *record,
                                                  mca_base_event_cb_safety_t safety, int rc)
{
    mca_base_event_t *event = record->event;
    /* relaxed: only the NULL test; the delivery is loaded again (acquire)
     * inside its section before it is used. */
    const mca_base_event_delivery_t *d = atomic_load_explicit(&mca_base_event_delivery,
                                                              memory_order_relaxed);

    if (OPAL_UNLIKELY(0 != (event->flags & MCA_BASE_EVENT_FLAG_SYNCHRONOUS))) {
        /* Dispatched at the raise whatever the delivery, after what is
         * pending (except what another thread's drain delivers while it
         * runs a callback). A
         * signal context cannot do either. */
        if (MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= safety) {
            mca_base_event_count_dropped(record);
            return OPAL_ERR_NOT_SUPPORTED;
        }
        if (NULL != d) {
            (void) mca_base_event_flush_ctx(safety);
        }
        (void) mca_base_event_dispatch_record(record, safety);
        /* relaxed: a hint, as the gate */
        if (NULL != d && atomic_load_explicit(&event->exported, memory_order_relaxed)) {
            /* an exporting or recording delivery sees it too */
            record->flags |= MCA_BASE_EVENT_RECORD_DISPATCHED;
            (void) deliver_in_section_slow(record, safety);
        }
        return OPAL_SUCCESS;
    }
    if (OPAL_UNLIKELY(OPAL_ERR_WOULD_BLOCK == rc)) {
        /* full: drain in this context (outside the section: callbacks
         * may run), then once more; a second refusal is a drop */
        (void) mca_base_event_flush_ctx(safety);
        rc = deliver_in_section_slow(record, safety);
        if (OPAL_ERR_WOULD_BLOCK == rc) {
            mca_base_event_count_dropped(record);
            if (atomic_load_explicit(&event->exported, memory_order_relaxed)) {
                mca_base_event_count_export_dropped(event, 1);
            }
            return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
        }
    }
    if (OPAL_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }
    if (OPAL_UNLIKELY(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= safety)) {
        /* dispatching at the raise cannot serve a signal context */
        mca_base_event_count_dropped(record);
        return OPAL_ERR_NOT_SUPPORTED;
    }
    (void) mca_base_event_dispatch_record(record, safety);
    return OPAL_SUCCESS;
}

/* Capture and delivery, with the source's clock read here (@p stamped
 * false) or the producer's @p timestamp. Context: RAISE; SIGNAL when
 * safety is ASYNC_SIGNAL_SAFE. */
static inline __attribute__((always_inline)) int
raise_common(mca_base_event_t *event, mca_base_event_source_t *source, const void *obj,
             const void *data, mca_base_event_cb_safety_t safety, bool stamped,
             opal_count_t timestamp)
{
    mca_base_event_record_t record;
    int rc = OPAL_ERR_NOT_AVAILABLE;

    if (OPAL_UNLIKELY(NULL == event || (NULL == data && 0 < event->extent)
                      || (NULL != source && source != event->source)
                      || MCA_BASE_EVENT_CB_SAFETY_COUNT <= (unsigned int) safety)) {
        return OPAL_ERR_BAD_PARAM;
    }
    record.event = event;
    record.source = event->source;
    record.obj = obj;
    record.data = data;
    record.flags = 0;
    record.depth = mca_base_event_tls.chain;
    /* acquire: pairs with the release store in mca_base_event_handle_alloc();
     * a record stamped with a registration's epoch is dispatched against a
     * snapshot at least as new as that registration. */
    record.epoch = atomic_load_explicit(&mca_base_event_reg_epoch, memory_order_acquire);
    /* relaxed: set before the epoch just read was published (the acquire
     * above sees it); an event nobody ever listened to owes this record
     * to no registration, and the drain skips its local dispatch */
    if (!atomic_load_explicit(&event->listened, memory_order_relaxed)) {
        record.flags = MCA_BASE_EVENT_RECORD_DISPATCHED;
    }
    if (OPAL_UNLIKELY(MCA_BASE_EVENT_MAX_DEPTH <= record.depth)) {
        record.timestamp = stamped ? timestamp : 0;
        mca_base_event_count_dropped(&record);
        return OPAL_ERR_TEMP_OUT_OF_RESOURCE;
    }
    record.timestamp = stamped ? timestamp : event->source->get_timestamp(event->source->ctx);
    if (OPAL_LIKELY(0 == (event->flags & MCA_BASE_EVENT_FLAG_SYNCHRONOUS))) {
        /* relaxed: only the NULL test; loaded again (acquire) inside the
         * section before it is used */
        if (NULL == atomic_load_explicit(&mca_base_event_delivery, memory_order_relaxed)) {
            if (OPAL_LIKELY(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE > safety)) {
                /* sync: dispatch at the raise */
                (void) mca_base_event_dispatch_record(&record, safety);
                return OPAL_SUCCESS;
            }
        } else {
            rc = deliver_in_section(&record, safety);
            if (OPAL_LIKELY(OPAL_SUCCESS == rc)) {
                return rc;
            }
        }
    }
    return raise_finish(&record, safety, rc);
}

/* Context: RAISE; SIGNAL when safety is ASYNC_SIGNAL_SAFE. */
int mca_base_event_raise_internal(mca_base_event_t *event, mca_base_event_source_t *source,
                                  const void *obj, const void *data,
                                  mca_base_event_cb_safety_t safety)
{
    return raise_common(event, source, obj, data, safety, false, 0);
}

/* Context: RAISE; SIGNAL when safety is ASYNC_SIGNAL_SAFE. */
int mca_base_event_raise_stamped_internal(mca_base_event_t *event,
                                          mca_base_event_source_t *source, const void *obj,
                                          const void *data, mca_base_event_cb_safety_t safety,
                                          opal_count_t timestamp)
{
    return raise_common(event, source, obj, data, safety, true, timestamp);
}

/* ------------------------------------------------------------------------
 * The delivery seam
 * ------------------------------------------------------------------------ */

/* Caller holds the mutex. */
void mca_base_event_export_update(mca_base_event_priv_t *ev,
                                  const mca_base_event_delivery_t *delivery)
{
    bool now = NULL != delivery && 0 != (delivery->flags & MCA_BASE_EVENT_DELIVERY_EXPORTS)
               && (NULL == delivery->exports || delivery->exports(&ev->super));
    bool was = atomic_load_explicit(&ev->super.exported, memory_order_relaxed);

    if (now == was) {
        return;
    }
    /* relaxed: the gate and the flag are hints (mca_base_event_active());
     * what a record reaches is decided by the delivery installed when it
     * is captured. */
    atomic_store_explicit(&ev->super.exported, now, memory_order_relaxed);
    atomic_fetch_add_explicit(&ev->super.active, now ? 1 : -1, memory_order_relaxed);
}

/* Context: INIT. */
int mca_base_event_delivery_set(const mca_base_event_delivery_t *delivery)
{
    const mca_base_event_delivery_t *old;

    opal_mutex_lock(&mca_base_event_lock);
    old = atomic_load_explicit(&mca_base_event_delivery, memory_order_relaxed);
    /* seq_cst: pairs with the acquire load inside delivery sections, and is
     * ordered before the fence of mca_base_event_delivery_wait(). */
    atomic_store_explicit(&mca_base_event_delivery, delivery, memory_order_seq_cst);
    for (int i = 0; i < mca_base_event_num_events; ++i) {
        mca_base_event_export_update(mca_base_event_events[i], delivery);
    }
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != old && old != delivery) {
        /* raisers still inside the old deliver() finish first */
        mca_base_event_delivery_wait();
    }
    return OPAL_SUCCESS;
}

/* Context: ANY. */
uint32_t mca_base_event_delivery_flags(void)
{
    /* acquire: the delivery's flags were set before it was installed */
    const mca_base_event_delivery_t *d = atomic_load_explicit(&mca_base_event_delivery,
                                                              memory_order_acquire);
    return NULL == d ? 0 : d->flags;
}
