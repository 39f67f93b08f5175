/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Drain points: where pending work reaches the tools.
 *
 * A drain point runs, in this order: the producer sinks (their aggregated
 * instances are raised), the delivery's flush (records it holds are
 * dispatched in the caller's context), the pending drop reports, and the
 * reclamation of what waits for its grace period (free callbacks). It never
 * waits for a drain running user code on another thread, and re-entry on
 * one thread (a callback reaching a drain point) returns at once.
 *
 * Where drain points are: MPI_T_source_get_timestamp and MPI_T_finalize
 * (context NONE), the start of MPI_Finalize and the return of the MPI calls
 * that libompi_evt's PMPI layer wraps (NONE), before an event flagged
 * synchronous (the raiser's context), opal_progress (MPI_RESTRICTED: inside
 * an MPI call a callback may not call MPI), a timer thread (THREAD_SAFE).
 */

#include "opal_config.h"

#include "opal/mca/base/mca_base_event_internal.h"

/* Context: ANY, TOOL, PROGRESS. */
int mca_base_event_flush_ctx(mca_base_event_cb_safety_t context)
{
    const mca_base_event_delivery_t *d;
    int ret = OPAL_SUCCESS;

    if (0 > (int) context || MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= context) {
        return OPAL_ERR_BAD_PARAM; /* nothing can be dispatched from SIGNAL */
    }
    if (mca_base_event_tls.flushing) {
        return OPAL_SUCCESS;
    }
    mca_base_event_tls.flushing = true;
    mca_base_event_drain_sinks();
    /* acquire: pairs with the store in mca_base_event_delivery_set() */
    d = atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire);
    if (NULL != d && NULL != d->flush) {
        ret = d->flush(context);
    }
    mca_base_event_tls.flushing = false;
    mca_base_event_drain_end(context);
    return ret;
}

/* Context: TOOL, PROGRESS, ANY. */
void mca_base_event_drain_end(mca_base_event_cb_safety_t context)
{
    /* drops of registrations that receive nothing more are reported here,
     * not only before a next delivery (one relaxed load when none) */
    mca_base_event_report_drops(context);
    /* relaxed: a hint; reclaim decides under the mutex */
    if (atomic_load_explicit(&mca_base_event_retire_pending, memory_order_relaxed)
        && 0 == mca_base_event_tls.depth && MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE > context) {
        mca_base_event_reclaim(false, context);
    }
}

/* Context: ANY, TOOL. */
int mca_base_event_flush(void)
{
    return mca_base_event_flush_ctx(MCA_BASE_EVENT_CB_REQUIRE_NONE);
}

/* Context: ANY. */
void mca_base_event_call_return(bool prompt, int64_t now)
{
    /* acquire: pairs with the store in mca_base_event_delivery_set() */
    const mca_base_event_delivery_t *d = atomic_load_explicit(&mca_base_event_delivery,
                                                              memory_order_acquire);

    if (OPAL_LIKELY(NULL == d || NULL == d->call_return)) {
        return;
    }
    d->call_return(prompt, now);
}
