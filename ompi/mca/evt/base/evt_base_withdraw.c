/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit's withdraw (the delivery's hook): a registration being freed is
 * charged the records still pending for it, counted while no record is
 * dispatched (the drain token held, or this thread is the drainer).
 */

#include "ompi_config.h"

#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_kit_internal.h"
#include "opal/constants.h"

/* ------------------------------------------------------------------------
 * Withdraw
 * ------------------------------------------------------------------------ */

/* Context: TOOL, ANY, callbacks. */
int ompi_evt_base_kit_withdraw(void (*remove)(void *arg, uint64_t count),
                               bool (*match)(const mca_base_event_record_t *, void *), void *arg)
{
    evt_kit_pool_t *pool;

    if (ompi_evt_kit_draining_tls) {
        /* a callback of this thread's drain frees a handle: no record is
         * being dispatched meanwhile by anyone else */
        pool = atomic_load_explicit(&ompi_evt_kit.pool, memory_order_acquire);
        remove(arg, ompi_evt_kit_count_pending(match, arg, pool));
        return OMPI_SUCCESS;
    }
    if (!ompi_evt_kit_token_try()) {
        return OPAL_ERR_WOULD_BLOCK; /* that drain completes it */
    }
    /* remove() takes the engine's mutex and tells producers: a drain point
     * must not wait for it (its thread may hold what they need) */
    atomic_store_explicit(&ompi_evt_kit.token_user, 1, memory_order_relaxed);
    pool = atomic_load_explicit(&ompi_evt_kit.pool, memory_order_acquire);
    remove(arg, ompi_evt_kit_count_pending(match, arg, pool));
    ompi_evt_kit_token_release();
    return OMPI_SUCCESS;
}
