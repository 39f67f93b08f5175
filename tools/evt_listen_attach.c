/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Attaching to a PMIx server as a tool to receive exported batches
 * (evt_listen_attach.h).
 */

#include "ompi_config.h"

#include <errno.h>
#include <pmix_tool.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/common/evt/common_evt_latch.h"
#include "ompi/mca/common/evt/common_evt_receive.h"
#include "opal/constants.h"
#include "tools/evt_listen_attach.h"

struct ompi_evt_listen_attach_t {
    ompi_evt_listen_attach_batch_fn_t on_batch;
    ompi_evt_listen_attach_lost_fn_t on_lost;
    void *ctx;
    pmix_proc_t me;
    size_t batch_handler, lost_handler;
    bool batch_registered, lost_registered;
    atomic_ulong batches, invalid, forged, bytes;
    atomic_bool lost;
    /** PMIx 4.2 may run handlers on several threads at once: the callbacks
     *  are called one at a time under it. */
    pthread_mutex_t lock;
};

/* PMIx event handlers take no user data: the process's one attachment.
 * Set (release) before the handlers are registered; handlers load it with
 * acquire. */
static _Atomic(ompi_evt_listen_attach_t *) the_attach;

/* ------------------------------------------------------------------------
 * Handlers (PMIx's progress thread)
 * ------------------------------------------------------------------------ */

static void batch_handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                          pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    ompi_evt_listen_attach_t *a = atomic_load_explicit(&the_attach, memory_order_acquire);
    mca_common_evt_receive_t found = MCA_COMMON_EVT_RECEIVE_NONE;
    mca_common_evt_wire_batch_t batch;
    const void *buf;
    size_t len;

    if (NULL != a) {
        found = mca_common_evt_receive_find(info, ninfo, &buf, &len);
    }
    if (MCA_COMMON_EVT_RECEIVED == found) {
        switch (mca_common_evt_receive_decode(source, buf, len, &batch)) {
        case MCA_COMMON_EVT_RECEIVED:
            atomic_fetch_add_explicit(&a->batches, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&a->bytes, len, memory_order_relaxed);
            (void) pthread_mutex_lock(&a->lock);
            a->on_batch(buf, len, &batch, a->ctx);
            (void) pthread_mutex_unlock(&a->lock);
            break;
        case MCA_COMMON_EVT_RECEIVE_FORGED:
            atomic_fetch_add_explicit(&a->forged, 1, memory_order_relaxed);
            break;
        default:
            atomic_fetch_add_explicit(&a->invalid, 1, memory_order_relaxed);
            break;
        }
        mca_common_evt_wire_batch_destruct(&batch);
    } else if (MCA_COMMON_EVT_RECEIVE_INVALID == found) {
        atomic_fetch_add_explicit(&a->invalid, 1, memory_order_relaxed);
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

static void lost_handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    ompi_evt_listen_attach_t *a = atomic_load_explicit(&the_attach, memory_order_acquire);

    if (NULL != a && !atomic_exchange(&a->lost, true) && NULL != a->on_lost) {
        (void) pthread_mutex_lock(&a->lock);
        a->on_lost(status, a->ctx);
        (void) pthread_mutex_unlock(&a->lock);
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* ------------------------------------------------------------------------
 * API
 * ------------------------------------------------------------------------ */

int ompi_evt_listen_attach_parse(const char *spec, ompi_evt_listen_attach_target_t *target,
                                 const char **error)
{
    const char *why = "expected pid:N, uri:URI, system or nspace:NAMESPACE";

    memset(target, 0, sizeof(*target));
    if (NULL == spec) {
        goto fail;
    }
    if (0 == strcmp(spec, "system")) {
        target->kind = OMPI_EVT_LISTEN_ATTACH_SYSTEM;
        return OPAL_SUCCESS;
    }
    if (0 == strncmp(spec, "pid:", 4)) {
        char *end;
        long pid;

        errno = 0;
        pid = strtol(spec + 4, &end, 10);
        if ('\0' == spec[4] || '\0' != *end || 0 != errno || 0 >= pid || (pid_t) pid != pid) {
            why = "pid: needs a positive process id";
            goto fail;
        }
        target->kind = OMPI_EVT_LISTEN_ATTACH_PID;
        target->pid = (pid_t) pid;
        return OPAL_SUCCESS;
    }
    if (0 == strncmp(spec, "uri:", 4) || 0 == strncmp(spec, "nspace:", 7)) {
        bool uri = 'u' == spec[0];
        const char *v = spec + (uri ? 4 : 7);

        if ('\0' == *v || strlen(v) >= (uri ? sizeof(target->value) : PMIX_MAX_NSLEN + 1)) {
            why = uri ? "uri: needs the server's URI"
                      : "nspace: needs a namespace (at most 255 bytes)";
            goto fail;
        }
        target->kind = uri ? OMPI_EVT_LISTEN_ATTACH_URI : OMPI_EVT_LISTEN_ATTACH_NSPACE;
        (void) snprintf(target->value, sizeof(target->value), "%s", v);
        return OPAL_SUCCESS;
    }
fail:
    if (NULL != error) {
        *error = why;
    }
    return OPAL_ERR_BAD_PARAM;
}

/* A handler named @p name, confirmed by PMIx within @p timeout_ms.
 * Context: TOOL. */
static int register_handler(pmix_status_t *codes, size_t ncodes, const char *name,
                            pmix_notification_fn_t fn, int timeout_ms, size_t *id)
{
    pmix_status_t status;
    pmix_info_t info;
    int rc;

    PMIX_INFO_LOAD(&info, PMIX_EVENT_HDLR_NAME, name, PMIX_STRING);
    rc = mca_common_evt_latch_register(codes, ncodes, &info, 1, fn, timeout_ms, &status, id);
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

int ompi_evt_listen_attach_open(const ompi_evt_listen_attach_target_t *target, const char *tmpdir,
                                int timeout_ms, ompi_evt_listen_attach_batch_fn_t on_batch,
                                ompi_evt_listen_attach_lost_fn_t on_lost, void *ctx,
                                ompi_evt_listen_attach_t **attach, char *error, size_t error_len)
{
    pmix_status_t codes[1] = {MCA_COMMON_EVT_WIRE_PMIX_STATUS};
    pmix_status_t lost_codes[2] = {PMIX_ERR_LOST_CONNECTION, PMIX_ERR_UNREACH};
    ompi_evt_listen_attach_t *a;
    ompi_evt_listen_attach_t *expected = NULL;
    pmix_info_t info[5];
    size_t ninfo = 0;
    uint32_t retries = (uint32_t) (timeout_ms / 100 + 1);
    pmix_status_t status;
    bool yes = true;
    int rc;

    char no_error[1];

    if (NULL == error) {
        error = no_error;
        error_len = sizeof(no_error);
    }
    if (NULL == target || NULL == on_batch || NULL == attach) {
        return OPAL_ERR_BAD_PARAM;
    }
    *attach = NULL;
    a = calloc(1, sizeof(*a));
    if (NULL == a) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    (void) pthread_mutex_init(&a->lock, NULL);
    a->on_batch = on_batch;
    a->on_lost = on_lost;
    a->ctx = ctx;
    if (!atomic_compare_exchange_strong(&the_attach, &expected, a)) {
        free(a);
        (void) snprintf(error, error_len, "this process is attached already");
        return OPAL_EXISTS;
    }

    if (NULL != tmpdir) {
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    }
    PMIX_INFO_LOAD(&info[ninfo++], PMIX_CONNECT_MAX_RETRIES, &retries, PMIX_UINT32);
    switch (target->kind) {
    case OMPI_EVT_LISTEN_ATTACH_PID:
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_PIDINFO, &target->pid, PMIX_PID);
        break;
    case OMPI_EVT_LISTEN_ATTACH_URI:
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_URI, target->value, PMIX_STRING);
        break;
    case OMPI_EVT_LISTEN_ATTACH_SYSTEM:
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_CONNECT_TO_SYSTEM, &yes, PMIX_BOOL);
        break;
    case OMPI_EVT_LISTEN_ATTACH_NSPACE:
        PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_NSPACE, target->value, PMIX_STRING);
        break;
    default:
        rc = OPAL_ERR_BAD_PARAM;
        goto fail;
    }
    status = PMIx_tool_init(&a->me, info, ninfo);
    for (size_t i = 0; i < ninfo; ++i) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    if (PMIX_SUCCESS != status) {
        (void) snprintf(error, error_len,
                        "PMIx_tool_init failed: %s (no server found, or it "
                        "does not accept tools)",
                        PMIx_Error_string(status));
        rc = OPAL_ERR_UNREACH;
        goto fail;
    }
    rc = register_handler(lost_codes, 2, "ompi.evt.listen.lost", lost_handler, timeout_ms,
                          &a->lost_handler);
    a->lost_registered = OPAL_SUCCESS == rc;
    rc = register_handler(codes, 1, "ompi.evt.listen", batch_handler, timeout_ms,
                          &a->batch_handler);
    if (OPAL_SUCCESS != rc) {
        (void) snprintf(error, error_len, "the PMIx event handler could not be registered (%s)",
                        OPAL_ERR_TIMEOUT == rc ? "no answer in time" : "refused");
        if (a->lost_registered) {
            (void) mca_common_evt_latch_deregister(a->lost_handler, timeout_ms);
        }
        (void) PMIx_tool_finalize();
        goto fail;
    }
    a->batch_registered = true;
    *attach = a;
    return OPAL_SUCCESS;

fail:
    atomic_store(&the_attach, NULL);
    (void) pthread_mutex_destroy(&a->lock);
    free(a);
    return rc;
}

void ompi_evt_listen_attach_self(const ompi_evt_listen_attach_t *attach, char *nspace,
                                 size_t nspace_len, uint32_t *rank)
{
    (void) snprintf(nspace, nspace_len, "%s", attach->me.nspace);
    *rank = attach->me.rank;
}

void ompi_evt_listen_attach_stats(const ompi_evt_listen_attach_t *attach,
                                  ompi_evt_listen_attach_stats_t *stats)
{
    stats->batches = atomic_load_explicit(&attach->batches, memory_order_relaxed);
    stats->invalid = atomic_load_explicit(&attach->invalid, memory_order_relaxed);
    stats->forged = atomic_load_explicit(&attach->forged, memory_order_relaxed);
    stats->bytes = atomic_load_explicit(&attach->bytes, memory_order_relaxed);
    stats->lost = atomic_load_explicit(&attach->lost, memory_order_relaxed);
}

void ompi_evt_listen_attach_close(ompi_evt_listen_attach_t *attach)
{
    const int timeout_ms = 5000;

    if (NULL == attach) {
        return;
    }
    if (attach->batch_registered) {
        (void) mca_common_evt_latch_deregister(attach->batch_handler, timeout_ms);
    }
    if (attach->lost_registered) {
        (void) mca_common_evt_latch_deregister(attach->lost_handler, timeout_ms);
    }
    /* a handler that was already running finishes with the attachment
     * still valid: PMIx_tool_finalize stops PMIx's progress thread */
    (void) PMIx_tool_finalize();
    atomic_store(&the_attach, NULL);
    (void) pthread_mutex_destroy(&attach->lock);
    free(attach);
}
