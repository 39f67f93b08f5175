/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit's drain token and module sections. One drainer at a time holds
 * the token; nobody waits for it while its holder may run user code
 * (token_user): a drain point that finds it held then returns (the holder
 * and the next drain point deliver those records), otherwise it waits for
 * the holder's bounded kit and module work and drains; a withdraw that
 * finds it held leaves the registration to the holder, and a close that
 * finds it held leaves the pool to the holder (the orphan), which releases
 * it as it lets the token go. The drainer calls the module only inside a
 * module section, so a close can wait until no drain is inside the module.
 */

#include "ompi_config.h"

#include <assert.h>
#include <sched.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_kit_internal.h"
#include "opal/constants.h"

/** This thread holds the drain token. initial-exec TLS (see
 *  evt_base_kit_internal.h). */
__thread bool ompi_evt_kit_draining_tls __attribute__((tls_model("initial-exec")));
/** A pool closed while a drain held the token: the next thread to let the
 *  token go releases it. */
_Atomic(evt_kit_pool_t *) ompi_evt_kit_orphan;

/* ------------------------------------------------------------------------
 * The drain token
 * ------------------------------------------------------------------------ */

/* Context: any. */
bool ompi_evt_kit_token_try(void)
{
    evt_kit_t *k = &ompi_evt_kit;

    /* relaxed pre-check: a second drainer does not write the line */
    if (0 != atomic_load_explicit(&k->token, memory_order_relaxed)) {
        return false;
    }
    /* seq_cst (acquire suffices for the rings): the consumer positions the
     * previous drainer left are visible; and it is ordered with the
     * orphan's publication in ompi_evt_base_kit_close(). */
    if (0 != atomic_exchange_explicit(&k->token, 1, memory_order_seq_cst)) {
        return false;
    }
    ompi_evt_kit_draining_tls = true;
    return true;
}

/* Release an orphaned pool if there is one (the token is held). */
static void release_orphan(void)
{
    evt_kit_pool_t *pool = atomic_exchange_explicit(&ompi_evt_kit_orphan, NULL,
                                                    memory_order_acq_rel);

    if (NULL != pool) {
        ompi_evt_kit_pool_release(pool);
    }
}

/* Context: the drainer. */
void ompi_evt_kit_token_release(void)
{
    evt_kit_t *k = &ompi_evt_kit;

    /* only the drainer lets the token go */
    assert(ompi_evt_kit_draining_tls);
    assert(0 != atomic_load_explicit(&k->token, memory_order_relaxed));
    release_orphan();
    ompi_evt_kit_draining_tls = false;
    /* relaxed: the next holder starts flagged as running no user code (a
     * waiting drain point rereads it at every retry) */
    atomic_store_explicit(&k->token_user, 0, memory_order_relaxed);
    /* seq_cst: pairs with the exchange in ompi_evt_kit_token_try() (release of the
     * consumer positions) and with the orphan check below against a close
     * on another thread (the Dekker pair: it publishes the orphan, then
     * tries the token; we let the token go, then look for the orphan). */
    atomic_store_explicit(&k->token, 0, memory_order_seq_cst);
    if (NULL != atomic_load_explicit(&ompi_evt_kit_orphan, memory_order_seq_cst)
        && ompi_evt_kit_token_try()) {
        release_orphan();
        ompi_evt_kit_draining_tls = false;
        atomic_store_explicit(&k->token, 0, memory_order_seq_cst);
    }
}

/* Context: any. */
bool ompi_evt_base_kit_draining(void)
{
    return ompi_evt_kit_draining_tls;
}

/* ------------------------------------------------------------------------
 * Module sections: the drainer calls the module only inside one, so the
 * close can wait until no drain is inside the module (bounded: module calls
 * run no user code), even when a drain is still running a user callback.
 * ------------------------------------------------------------------------ */

const ompi_evt_base_module_t *ompi_evt_kit_module_enter(void)
{
    evt_kit_t *k = &ompi_evt_kit;
    const ompi_evt_base_module_t *m;

    /* seq_cst store and load: the Dekker pair with detach (it clears the
     * module, then reads busy): either it sees us busy, or we see NULL. */
    atomic_store_explicit(&k->module_busy, 1, memory_order_seq_cst);
    m = atomic_load_explicit(&k->module, memory_order_seq_cst);
    if (NULL == m) {
        atomic_store_explicit(&k->module_busy, 0, memory_order_release);
    }
    return m;
}

void ompi_evt_kit_module_exit(void)
{
    assert(0 != atomic_load_explicit(&ompi_evt_kit.module_busy, memory_order_relaxed));
    /* release: the module call is done before detach sees us out */
    atomic_store_explicit(&ompi_evt_kit.module_busy, 0, memory_order_release);
}

/* Context: INIT. */
void ompi_evt_base_kit_detach_module(void)
{
    evt_kit_t *k = &ompi_evt_kit;

    atomic_store_explicit(&k->module_progress, false, memory_order_relaxed);
    atomic_store_explicit(&k->module_progress_on_drops, false, memory_order_relaxed);
    atomic_store_explicit(&k->module_consumes, false, memory_order_relaxed);
    atomic_store_explicit(&k->module, NULL, memory_order_seq_cst);
    while (0 != atomic_load_explicit(&k->module_busy, memory_order_seq_cst)) {
        sched_yield();
    }
}
