/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Engine life cycle: the engine mutex, init/finalize (refcounted),
 *  fork, and the engine's MCA parameters mca_base_event_max_registrations
 *  and mca_base_event_clock (mca_base_event_source.c). */

#include "opal_config.h"

#include <pthread.h>

#include "opal/mca/base/mca_base_event_internal.h"

opal_mutex_t mca_base_event_lock = OPAL_MUTEX_STATIC_INIT;

static int engine_refcount = 0;
static int max_registrations = MCA_BASE_EVENT_DEFAULT_MAX_REGISTRATIONS;
static int max_registrations_index = -1;

/* Context: ANY. The storage is updated by mca_base_var_set_value(). */
int mca_base_event_max_registrations(void)
{
    return max_registrations;
}

/* fork(): the engine mutex is never held around user code, so the forking
 * thread can take it (bounded wait) and the child starts with it free and
 * the engine state consistent; every other thread's per-thread record is
 * released in the child (mca_base_event_grace_atfork_child()). */
static void engine_atfork_prepare(void)
{
    opal_mutex_lock(&mca_base_event_lock);
}

static void engine_atfork_parent(void)
{
    opal_mutex_unlock(&mca_base_event_lock);
}

static void engine_atfork_child(void)
{
    mca_base_event_grace_atfork_child();
    mca_base_event_clock_atfork_child();
    opal_mutex_unlock(&mca_base_event_lock);
}

static pthread_once_t engine_once = PTHREAD_ONCE_INIT;

static void engine_setup_once(void)
{
    mca_base_event_grace_init();
    (void) pthread_atfork(engine_atfork_prepare, engine_atfork_parent, engine_atfork_child);
}

/* Context: INIT (after opal_init_util). */
int mca_base_event_init(void)
{
    int ret = OPAL_SUCCESS;

    (void) pthread_once(&engine_once, engine_setup_once);
    opal_mutex_lock(&mca_base_event_lock);
    if (0 < engine_refcount++) {
        goto cleanup;
    }
    max_registrations = MCA_BASE_EVENT_DEFAULT_MAX_REGISTRATIONS;
    max_registrations_index = mca_base_var_register(
        "opal", "mca", "base", "event_max_registrations",
        "Largest number of MPI_T event registrations (handles) alive at once "
        "(each costs a snapshot entry on every raise of its event)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_LOCAL,
        &max_registrations);
    if (0 > max_registrations_index) {
        /* not fatal: the default stays in force */
        max_registrations = MCA_BASE_EVENT_DEFAULT_MAX_REGISTRATIONS;
    }
    /* not fatal either: without a usable TSC the monotonic clock stays */
    (void) mca_base_event_clock_register();
cleanup:
    opal_mutex_unlock(&mca_base_event_lock);
    return ret;
}

/* Context: INIT. */
int mca_base_event_finalize(void)
{
    bool last;

    opal_mutex_lock(&mca_base_event_lock);
    if (0 == engine_refcount) {
        opal_mutex_unlock(&mca_base_event_lock);
        return OPAL_ERR_NOT_INITIALIZED;
    }
    last = (0 == --engine_refcount);
    opal_mutex_unlock(&mca_base_event_lock);
    if (!last) {
        return OPAL_SUCCESS;
    }
    /* A drain point: everything raised so far reaches its registrations. */
    (void) mca_base_event_flush();
    mca_base_event_handles_finalize();
    mca_base_event_grace_finalize();
    return OPAL_SUCCESS;
}
