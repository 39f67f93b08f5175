/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Producer services: sinks drained at flush points, listen callbacks
 *  on a type's first/last listener, and the flush itself. */

#include "opal_config.h"

#include "opal/mca/base/mca_base_event_internal.h"

typedef struct {
    mca_base_event_sink_drain_fn_t fn;
    void *ctx;
} sink_t;

static sink_t sinks[MCA_BASE_EVENT_MAX_SINKS];
static int num_sinks = 0;

/* Context: INIT. */
int mca_base_event_sink_register(mca_base_event_sink_drain_fn_t fn, void *ctx)
{
    int ret = OPAL_SUCCESS;

    if (NULL == fn) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    if (MCA_BASE_EVENT_MAX_SINKS == num_sinks) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
    } else {
        sinks[num_sinks].fn = fn;
        sinks[num_sinks].ctx = ctx;
        ++num_sinks;
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: INIT. */
int mca_base_event_sink_unregister(mca_base_event_sink_drain_fn_t fn, void *ctx)
{
    int ret = OPAL_ERR_NOT_FOUND;

    opal_mutex_lock(&mca_base_event_lock);
    for (int i = 0; i < num_sinks; ++i) {
        if (sinks[i].fn == fn && sinks[i].ctx == ctx) {
            sinks[i] = sinks[--num_sinks];
            ret = OPAL_SUCCESS;
            break;
        }
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: ANY, PROGRESS. The drains run outside the mutex, from a copy. */
void mca_base_event_drain_sinks(void)
{
    sink_t copy[MCA_BASE_EVENT_MAX_SINKS];
    int n;

    opal_mutex_lock(&mca_base_event_lock);
    n = num_sinks;
    for (int i = 0; i < n; ++i) {
        copy[i] = sinks[i];
    }
    opal_mutex_unlock(&mca_base_event_lock);
    for (int i = 0; i < n; ++i) {
        copy[i].fn(copy[i].ctx);
    }
}

/* Context: ANY, TOOL. Re-entry on the same thread (a callback reaching a
 * flush point while a flush delivers to it) returns at once: no deadlock,
 * no unbounded recursion. */
int mca_base_event_flush(void)
{
    const mca_base_event_delivery_t *d;
    int ret = OPAL_SUCCESS;

    if (mca_base_event_tls.flushing || mca_base_event_tls.reporting) {
        /* reporting: a drain on another thread may hold the delivery's
         * lock while it waits for our dropped handler (flush_dropped()):
         * waiting for it here would deadlock. A handle_free still gets its
         * pending records counted (the delivery's withdraw). */
        return OPAL_SUCCESS;
    }
    mca_base_event_tls.flushing = true;
    mca_base_event_drain_sinks();
    /* acquire: pairs with the release in mca_base_event_delivery_set() */
    d = atomic_load_explicit(&mca_base_event_delivery, memory_order_acquire);
    if (NULL != d && NULL != d->flush) {
        ret = d->flush();
    }
    mca_base_event_tls.flushing = false;
    /* drops of registrations that receive nothing more are reported here,
     * not only before a next delivery (one relaxed load when none) */
    mca_base_event_report_drops(MCA_BASE_EVENT_CB_REQUIRE_NONE);
    return ret;
}

/* Context: INIT. */
int mca_base_event_set_listen_callback(mca_base_event_t *event, mca_base_event_listen_fn_t fn,
                                       void *ctx)
{
    mca_base_event_priv_t *ev = (mca_base_event_priv_t *) event;
    bool listening;

    if (NULL == event) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    ev->listen_fn = fn;
    ev->listen_ctx = ctx;
    listening = 0 < ev->local_listeners;
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != fn && listening) {
        fn(event, true, ctx); /* already listened to: tell at once */
    }
    return OPAL_SUCCESS;
}

/* Outside the mutex. @p transition: +1 first listener, -1 last left. */
void mca_base_event_listen_notify(mca_base_event_priv_t *ev, int transition)
{
    mca_base_event_listen_fn_t fn;
    void *ctx;

    if (0 == transition) {
        return;
    }
    opal_mutex_lock(&mca_base_event_lock);
    fn = ev->listen_fn;
    ctx = ev->listen_ctx;
    opal_mutex_unlock(&mca_base_event_lock);
    if (NULL != fn) {
        fn(&ev->super, 0 < transition, ctx);
    }
}
