/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * A one-shot latch for waiting, in INIT context and with a timeout, for a
 * PMIx callback (registration, deregistration) that runs on PMIx's
 * progress thread. Used by evt/pmix (a PMIx client) and by
 * tools/evt_listen_attach.c (a PMIx tool); header-only, so neither links
 * the other.
 *
 * The latch is heap-allocated and reference-counted by the two sides: a
 * waiter that times out leaves, and the callback, if it ever comes, still
 * finds valid memory (and frees it).
 */

#ifndef MCA_COMMON_EVT_LATCH_H
#define MCA_COMMON_EVT_LATCH_H

#include "ompi_config.h"

#include <errno.h>
#include <pmix.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "opal/constants.h"

typedef struct mca_common_evt_latch_t {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
    size_t ref;        /**< a registration's handler id */
    atomic_int owners; /**< 2: waiter and callback; the last one frees */
} mca_common_evt_latch_t;

static inline mca_common_evt_latch_t *mca_common_evt_latch_new(void)
{
    mca_common_evt_latch_t *l = calloc(1, sizeof(*l));

    if (NULL != l) {
        (void) pthread_mutex_init(&l->lock, NULL);
        (void) pthread_cond_init(&l->cond, NULL);
        atomic_init(&l->owners, 2);
    }
    return l;
}

static inline void mca_common_evt_latch_put(mca_common_evt_latch_t *l)
{
    /* acq_rel: the other side's last accesses happen before the free */
    if (1 == atomic_fetch_sub_explicit(&l->owners, 1, memory_order_acq_rel)) {
        (void) pthread_cond_destroy(&l->cond);
        (void) pthread_mutex_destroy(&l->lock);
        free(l);
    }
}

/* The callback side (PMIx's thread). */
static inline void mca_common_evt_latch_release(mca_common_evt_latch_t *l, pmix_status_t status,
                                                size_t ref)
{
    (void) pthread_mutex_lock(&l->lock);
    l->status = status;
    l->ref = ref;
    l->done = true;
    (void) pthread_cond_broadcast(&l->cond);
    (void) pthread_mutex_unlock(&l->lock);
    mca_common_evt_latch_put(l);
}

static inline void mca_common_evt_latch_op_cb(pmix_status_t status, void *cbdata)
{
    mca_common_evt_latch_release(cbdata, status, 0);
}

static inline void mca_common_evt_latch_reg_cb(pmix_status_t status, size_t ref, void *cbdata)
{
    mca_common_evt_latch_release(cbdata, status, ref);
}

/** The callback will never come (the call failed): drop its share. */
static inline void mca_common_evt_latch_cancel(mca_common_evt_latch_t *l)
{
    mca_common_evt_latch_put(l);
}

/**
 * Wait at most @p timeout_ms, then let go of the latch.
 * @retval OPAL_SUCCESS (*status, *ref set), OPAL_ERR_TIMEOUT
 */
static inline int mca_common_evt_latch_wait(mca_common_evt_latch_t *l, int timeout_ms,
                                            pmix_status_t *status, size_t *ref)
{
    struct timespec until;
    int rc = OPAL_SUCCESS;

    (void) clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long) (timeout_ms % 1000) * 1000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_nsec -= 1000000000;
        ++until.tv_sec;
    }
    (void) pthread_mutex_lock(&l->lock);
    while (!l->done) {
        if (ETIMEDOUT == pthread_cond_timedwait(&l->cond, &l->lock, &until)) {
            break;
        }
    }
    if (l->done) {
        if (NULL != status) {
            *status = l->status;
        }
        if (NULL != ref) {
            *ref = l->ref;
        }
    } else {
        rc = OPAL_ERR_TIMEOUT;
    }
    (void) pthread_mutex_unlock(&l->lock);
    mca_common_evt_latch_put(l);
    return rc;
}

/**
 * PMIx_Register_event_handler(), waiting at most @p timeout_ms for PMIx to
 * confirm it. @p status is PMIx's answer (the call's, then the
 * callback's; unchanged when no latch could be allocated).
 * @retval OPAL_SUCCESS (*id set), OPAL_ERR_OUT_OF_RESOURCE (nothing was
 *         asked), OPAL_ERROR (PMIx refused), OPAL_ERR_TIMEOUT
 * Context: INIT, TOOL (never on PMIx's progress thread).
 */
static inline int mca_common_evt_latch_register(pmix_status_t codes[], size_t ncodes,
                                                pmix_info_t info[], size_t ninfo,
                                                pmix_notification_fn_t fn, int timeout_ms,
                                                pmix_status_t *status, size_t *id)
{
    mca_common_evt_latch_t *l = mca_common_evt_latch_new();
    int rc;

    if (NULL == l) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    *status = PMIx_Register_event_handler(codes, ncodes, info, ninfo, fn,
                                          mca_common_evt_latch_reg_cb, l);
    if (PMIX_SUCCESS != *status) {
        /* no callback will come: both shares of the latch go */
        mca_common_evt_latch_cancel(l);
        mca_common_evt_latch_cancel(l);
        return OPAL_ERROR;
    }
    rc = mca_common_evt_latch_wait(l, timeout_ms, status, id);
    return OPAL_SUCCESS != rc ? rc : PMIX_SUCCESS == *status ? OPAL_SUCCESS : OPAL_ERROR;
}

/**
 * PMIx_Deregister_event_handler(), waiting at most @p timeout_ms for PMIx
 * to confirm that the handler will not run any more.
 * @retval OPAL_SUCCESS, OPAL_ERR_OUT_OF_RESOURCE (nothing was asked),
 *         OPAL_ERROR (PMIx refused), OPAL_ERR_TIMEOUT (the handler may
 *         still run)
 * Context: INIT, TOOL (never on PMIx's progress thread).
 */
static inline int mca_common_evt_latch_deregister(size_t id, int timeout_ms)
{
    mca_common_evt_latch_t *l = mca_common_evt_latch_new();

    if (NULL == l) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    if (PMIX_SUCCESS != PMIx_Deregister_event_handler(id, mca_common_evt_latch_op_cb, l)) {
        mca_common_evt_latch_cancel(l);
        mca_common_evt_latch_cancel(l);
        return OPAL_ERROR;
    }
    return mca_common_evt_latch_wait(l, timeout_ms, NULL, NULL);
}

#endif /* MCA_COMMON_EVT_LATCH_H */
