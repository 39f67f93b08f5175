/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Producer services: sinks drained at drain points and handle
 *  allocs, and listen callbacks on a type's first/last listener.
 *
 *  The sink table is written under the engine mutex (INIT context) and read
 *  without it: drains run at every progress call. An entry is complete
 *  before the count that covers it is published (release/acquire); a
 *  drain racing with an unregister may call a sink once more, which is
 *  harmless (sinks live in libraries that are never unloaded). */

#include "opal_config.h"

#include "opal/mca/base/mca_base_event_internal.h"

typedef struct {
    mca_base_event_sink_drain_fn_t fn;
    void *ctx;
    /** Says when it has something (mca_base_event_sink_pending()): drained
     *  at progress only then. Otherwise at every progress call. */
    bool notifies;
} sink_t;

static sink_t sinks[MCA_BASE_EVENT_MAX_SINKS];
static atomic_int num_sinks = 0;
/** Registered sinks that do not notify (drained at every progress call). */
static atomic_int num_always = 0;
/** Some sink has something since the last mca_base_event_drain_sinks_pending(). */
static atomic_bool sinks_pending = false;

/* Context: INIT. */
static int sink_register(mca_base_event_sink_drain_fn_t fn, void *ctx, bool notifies);

/* Context: INIT. */
int mca_base_event_sink_register(mca_base_event_sink_drain_fn_t fn, void *ctx)
{
    return sink_register(fn, ctx, false);
}

/* Context: INIT. */
int mca_base_event_sink_register_notifying(mca_base_event_sink_drain_fn_t fn, void *ctx)
{
    return sink_register(fn, ctx, true);
}

static int sink_register(mca_base_event_sink_drain_fn_t fn, void *ctx, bool notifies)
{
    int ret = OPAL_SUCCESS;

    if (NULL == fn) {
        return OPAL_ERR_BAD_PARAM;
    }
    opal_mutex_lock(&mca_base_event_lock);
    int n = atomic_load_explicit(&num_sinks, memory_order_relaxed);
    if (MCA_BASE_EVENT_MAX_SINKS == n) {
        ret = OPAL_ERR_OUT_OF_RESOURCE;
    } else {
        sinks[n].fn = fn;
        sinks[n].ctx = ctx;
        sinks[n].notifies = notifies;
        if (!notifies) {
            atomic_fetch_add_explicit(&num_always, 1, memory_order_relaxed);
        }
        /* release: the entry is complete before a drain counts it (pairs
         * with the acquire load in mca_base_event_drain_sinks()) */
        atomic_store_explicit(&num_sinks, n + 1, memory_order_release);
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: INIT. */
int mca_base_event_sink_unregister(mca_base_event_sink_drain_fn_t fn, void *ctx)
{
    int ret = OPAL_ERR_NOT_FOUND;

    opal_mutex_lock(&mca_base_event_lock);
    int n = atomic_load_explicit(&num_sinks, memory_order_relaxed);
    for (int i = 0; i < n; ++i) {
        if (sinks[i].fn == fn && sinks[i].ctx == ctx) {
            if (!sinks[i].notifies) {
                atomic_fetch_sub_explicit(&num_always, 1, memory_order_relaxed);
            }
            sinks[i] = sinks[n - 1];
            atomic_store_explicit(&num_sinks, n - 1, memory_order_release);
            ret = OPAL_SUCCESS;
            break;
        }
    }
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: ANY, PROGRESS. Lock-free (see the file comment). */
void mca_base_event_drain_sinks(void)
{
    /* acquire: pairs with the release store in sink_register() */
    int n = atomic_load_explicit(&num_sinks, memory_order_acquire);

    for (int i = 0; i < n; ++i) {
        sink_t sink = sinks[i];
        if (NULL != sink.fn) {
            sink.fn(sink.ctx);
        }
    }
}

/* Context: RAISE, SIGNAL. */
void mca_base_event_sink_pending(void)
{
    /* release: what the sink counted before is visible to the drainer that
     * clears the flag (pairs with the exchange below). Unconditional: a
     * store skipped because the flag looked set could be cleared before
     * the count it covers is visible. */
    atomic_store_explicit(&sinks_pending, true, memory_order_release);
}

/* Context: ANY, PROGRESS. */
void mca_base_event_drain_sinks_pending(void)
{
    bool all;
    int n;

    /* relaxed: the cheap tests of every progress call */
    if (OPAL_LIKELY(!atomic_load_explicit(&sinks_pending, memory_order_relaxed)
                    && 0 == atomic_load_explicit(&num_always, memory_order_relaxed))) {
        return;
    }
    /* acq_rel: takes the flag and what the sinks counted before setting it
     * (pairs with the release store in mca_base_event_sink_pending()) */
    all = atomic_load_explicit(&sinks_pending, memory_order_relaxed)
          && atomic_exchange_explicit(&sinks_pending, false, memory_order_acq_rel);
    /* acquire: pairs with the release store in sink_register() */
    n = atomic_load_explicit(&num_sinks, memory_order_acquire);
    for (int i = 0; i < n; ++i) {
        sink_t sink = sinks[i];
        if (NULL != sink.fn && (all || !sink.notifies)) {
            sink.fn(sink.ctx);
        }
    }
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
