/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit's life: parameters checked, open (pool, timer), close (the pool
 * released, or left to the drain holding the token), the child of a fork,
 * and the ring accessors and statistics for components and tests.
 */

#include "ompi_config.h"

#include <pthread.h>
#include <string.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_kit_internal.h"
#include "opal/constants.h"

evt_kit_t ompi_evt_kit;
/** Bumped in the child of a fork: a drain that was running in the forking
 *  thread (fork() from a callback) stops, the rings having been reset. */
atomic_uint ompi_evt_kit_fork_gen;

/* ------------------------------------------------------------------------
 * Open, close, fork
 * ------------------------------------------------------------------------ */

static pthread_once_t kit_once = PTHREAD_ONCE_INIT;

/* Context: the atfork child handler (one thread). */
static void kit_atfork_child(void)
{
    evt_kit_t *k = &ompi_evt_kit;
    evt_kit_pool_t *pool = atomic_load_explicit(&k->pool, memory_order_relaxed);

    if (NULL != pool) {
        if (NULL != pool->storage && NULL != pool->storage->atfork_child) {
            /* the component's storage becomes the child's first */
            pool->storage->atfork_child(pool->storage->ctx);
        }
        ompi_evt_kit_pool_atfork_child(pool);
    }
    atomic_fetch_add_explicit(&ompi_evt_kit_fork_gen, 1, memory_order_relaxed);
    if (!ompi_evt_kit_draining_tls) {
        /* held by a thread of the parent that does not exist here */
        atomic_store_explicit(&k->token, 0, memory_order_relaxed);
        atomic_store_explicit(&k->token_user, 0, memory_order_relaxed);
    }
    atomic_store_explicit(&k->module_busy, 0, memory_order_relaxed);
    ompi_evt_base_kit_timer_atfork_child();
}

static void kit_setup_once(void)
{
    (void) pthread_atfork(NULL, NULL, kit_atfork_child);
}

/* Context: INIT. */
const char *ompi_evt_base_kit_check_params(const ompi_evt_base_kit_params_t *params)
{
    if (params->ring_size < OMPI_EVT_KIT_MIN_RING_SIZE
        || params->ring_size > OMPI_EVT_RING_MAX_CAPACITY
        || 0 != (params->ring_size & (params->ring_size - 1))) {
        return "the ring size must be a power of two between 4096 and 2^31 bytes";
    }
    if (1 > params->pool_size) {
        return "the pool needs at least one ring";
    }
    if (1 > params->drain_budget) {
        return "the drain budget must be at least one record";
    }
    if (OMPI_EVT_OVERFLOW_DROP_NEW > params->overflow
        || OMPI_EVT_OVERFLOW_OVERWRITE < params->overflow) {
        return "unknown overflow policy";
    }
    if (0 > params->drain_interval) {
        return "the drain interval cannot be negative";
    }
    return NULL;
}

/* Context: INIT. */
int ompi_evt_base_kit_open(const ompi_evt_base_module_t *module, const char *name)
{
    evt_kit_t *k = &ompi_evt_kit;
    evt_kit_pool_t *pool = NULL;
    int rc;

    (void) pthread_once(&kit_once, kit_setup_once);
    if (NULL != ompi_evt_base_kit_check_params(&module->evtm_kit)) {
        return OPAL_ERR_BAD_PARAM;
    }
    rc = ompi_evt_kit_pool_key_create();
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    rc = ompi_evt_kit_pool_create(&module->evtm_kit, &pool);
    if (OMPI_SUCCESS != rc) {
        ompi_evt_kit_pool_key_delete();
        return rc;
    }
    k->params = module->evtm_kit;
    k->name = name;
    atomic_store_explicit(&k->drained, 0, memory_order_relaxed);
    atomic_store_explicit(&k->drains_skipped, 0, memory_order_relaxed);
    atomic_store_explicit(&k->blocked, 0, memory_order_relaxed);
    atomic_store_explicit(&k->passed, 0, memory_order_relaxed);
    /* relaxed: published to raisers by the engine's seq_cst store of the
     * delivery, which comes after */
    atomic_fetch_add_explicit(&k->generation, 1, memory_order_relaxed);
    /* release: the pool is complete before a raiser or drainer sees it */
    atomic_store_explicit(&k->pool, pool, memory_order_release);
    atomic_store_explicit(&k->module, module, memory_order_release);
    atomic_store_explicit(&k->module_progress, NULL != module->evtm_progress, memory_order_relaxed);
    atomic_store_explicit(&k->module_progress_on_drops,
                          0 != (module->evtm_flags & OMPI_EVT_MODULE_IDLE_PROGRESS_ON_DROPS),
                          memory_order_relaxed);
    atomic_store_explicit(&k->module_consumes, NULL != module->evtm_consume, memory_order_relaxed);
    if (0 < module->evtm_kit.drain_interval) {
        rc = ompi_evt_base_kit_timer_start(module->evtm_kit.drain_interval);
        if (OMPI_SUCCESS != rc) {
            ompi_evt_base_kit_detach_module();
            ompi_evt_base_kit_close();
            return rc;
        }
    }
    return OMPI_SUCCESS;
}

/* Context: INIT. */
void ompi_evt_base_kit_close(void)
{
    evt_kit_t *k = &ompi_evt_kit;
    evt_kit_pool_t *pool;

    ompi_evt_base_kit_timer_stop();
    pool = atomic_exchange_explicit(&k->pool, NULL, memory_order_acq_rel);
    /* seq_cst: the Dekker pair with a thread's exit, which counts itself
     * and then looks at the generation (kit_thread_exit()); once the count
     * is zero, no exiting thread writes into this pool */
    atomic_fetch_add_explicit(&k->generation, 1, memory_order_seq_cst);
    ompi_evt_kit_pool_exits_wait();
    if (NULL != pool) {
        if (!ompi_evt_kit_draining_tls && ompi_evt_kit_token_try()) {
            /* withdraws that waited count what the pool still holds (the
             * engine's mutex, producers told: not to be waited for) */
            atomic_store_explicit(&k->token_user, 1, memory_order_relaxed);
            mca_base_event_withdraw_pending(ompi_evt_kit_count_pending, pool);
            ompi_evt_kit_pool_release(pool);
            ompi_evt_kit_token_release();
        } else {
            /* a drain holds the token (on another thread, or this one: the
             * close comes from one of its callbacks): it releases the pool
             * as it lets the token go. seq_cst: the Dekker pair with
             * ompi_evt_kit_token_release(). */
            atomic_store_explicit(&ompi_evt_kit_orphan, pool, memory_order_seq_cst);
            if (!ompi_evt_kit_draining_tls && ompi_evt_kit_token_try()) {
                ompi_evt_kit_token_release();
            }
        }
    }
    ompi_evt_kit_pool_key_delete();
}

/* ------------------------------------------------------------------------
 * Components and test seams
 * ------------------------------------------------------------------------ */

/* Context: INIT, DRAIN. */
int ompi_evt_base_kit_ring_count(void)
{
    evt_kit_pool_t *pool = atomic_load_explicit(&ompi_evt_kit.pool, memory_order_acquire);
    return NULL == pool ? 0 : pool->size;
}

/* Context: INIT, DRAIN. */
ompi_evt_kit_ring_t *ompi_evt_base_kit_ring(int index)
{
    evt_kit_pool_t *pool = atomic_load_explicit(&ompi_evt_kit.pool, memory_order_acquire);
    return NULL == pool || 0 > index || index >= pool->size ? NULL : &pool->rings[index];
}

void ompi_evt_base_kit_test_stats(ompi_evt_kit_test_stats_t *stats)
{
    evt_kit_t *k = &ompi_evt_kit;
    evt_kit_pool_t *pool = atomic_load(&k->pool);

    memset(stats, 0, sizeof(*stats));
    for (int i = 0; NULL != pool && i < pool->size; ++i) {
        ompi_evt_kit_ring_t *r = &pool->rings[i];
        stats->stored += atomic_load_explicit(&r->own.stored, memory_order_relaxed);
        stats->dropped_full += atomic_load_explicit(&r->own.dropped_full, memory_order_relaxed);
        stats->dropped_nested += atomic_load_explicit(&r->own.dropped_nested, memory_order_relaxed);
        stats->overwritten += atomic_load_explicit(&r->own.overwritten, memory_order_relaxed);
        stats->rings_owned += OMPI_EVT_KIT_RING_OWNED == atomic_load(&r->pool.state);
    }
    stats->dropped_pool = NULL == pool ? 0 : atomic_load(&pool->dropped_pool);
    stats->drained = atomic_load(&k->drained);
    stats->drains_skipped = atomic_load(&k->drains_skipped);
    stats->blocked = atomic_load(&k->blocked);
    stats->passed = atomic_load(&k->passed);
}

bool ompi_evt_base_kit_test_hold_token(bool take, bool user_code)
{
    evt_kit_t *k = &ompi_evt_kit;

    if (take) {
        int expected = 0;
        /* as ompi_evt_kit_token_try(), without marking this thread the
         * drainer */
        if (!atomic_compare_exchange_strong_explicit(&k->token, &expected, 1, memory_order_seq_cst,
                                                     memory_order_relaxed)) {
            return false;
        }
        atomic_store_explicit(&k->token_user, user_code ? 1 : 0, memory_order_relaxed);
        return true;
    }
    atomic_store_explicit(&k->token_user, 0, memory_order_relaxed);
    atomic_store_explicit(&k->token, 0, memory_order_seq_cst);
    return true;
}
