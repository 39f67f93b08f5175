/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The PMIx side of the PMIx producer (ompi_evt_pmix.h): one event handler
 * for the status codes the parameters ask for, the monitor requests
 * (heartbeat, file, process resource usage), the heartbeats, and the
 * decoding of what the handler receives into the events' payloads.
 *
 * The handler runs on PMIx's progress thread. It raises (THREAD_SAFE). For
 * job events it answers PMIX_EVENT_NO_ACTION_TAKEN, so the handlers after
 * it (Open MPI's own default handler among them) still see the event and
 * the process behaves as without this producer; the alerts of the
 * monitors it requested and the resource updates it asked for end with it
 * (PMIX_EVENT_ACTION_COMPLETE: Open MPI 4.1's default handler would abort
 * the job on them). It reads only what ompi_evt_pmix_client_start() wrote
 * before registering it, and atomics.
 *
 * Heartbeats (mpi_events_pmix_monitor_heartbeat=S): PMIx_Heartbeat() from a
 * low-priority opal_progress callback, at most every S/2 seconds. So the
 * PMIx server hears from a process as long as it enters Open MPI's progress
 * engine (any blocking or testing MPI call); one that computes, sleeps or
 * hangs outside MPI for S x mpi_events_pmix_monitor_drops seconds is reported. The
 * monitors are cancelled at the start of MPI_Finalize (PMIX_MONITOR_CANCEL).
 */

#include "ompi_config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

#include "ompi/constants.h"
#include "ompi/runtime/ompi_evt_pmix.h"
#include "ompi/runtime/ompi_evt_pmix_keys.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"

/** Monitor ids (PMIX_MONITOR_ID), to cancel them. */
#define ID_HEARTBEAT "ompi-evt.heartbeat"
#define ID_FILE      "ompi-evt.file"
#define ID_RESOURCE  "ompi-evt.resusage"

/** Job events: the process and job codes of PMIx 4 (and the older names
 *  Open MPI 4.1's runtime may still use), the lost connection. */
static const pmix_status_t job_codes[] = {
    PMIX_ERR_LOST_CONNECTION,
    PMIX_EVENT_PROC_TERMINATED,
    PMIX_PROC_TERMINATED,
    PMIX_ERR_PROC_TERM_WO_SYNC,
    PMIX_ERR_PROC_REQUESTED_ABORT,
    PMIX_ERR_PROC_KILLED_BY_CMD,
    PMIX_ERR_PROC_FAILED_TO_START,
    PMIX_ERR_PROC_ABORTED_BY_SIG,
    PMIX_ERR_PROC_SENSOR_BOUND_EXCEEDED,
    PMIX_ERR_EXIT_NONZERO_TERM,
    PMIX_EVENT_JOB_END,
    PMIX_ERR_JOB_ABORTED,
    PMIX_ERR_JOB_ABORTED_BY_SIG,
    PMIX_ERR_JOB_TERM_WO_SYNC,
    PMIX_ERR_JOB_NON_ZERO_TERM,
    PMIX_ERR_JOB_KILLED_BY_CMD,
    PMIX_EVENT_NODE_DOWN,
#ifdef PMIX_ERR_PROC_ABORTED
    PMIX_ERR_PROC_ABORTED, /* deprecated in PMIx 4 */
#endif
#ifdef PMIX_ERR_PROC_ABORTING
    PMIX_ERR_PROC_ABORTING, /* deprecated in PMIx 4 */
#endif
};
#define NUM_JOB_CODES (sizeof(job_codes) / sizeof(job_codes[0]))
/* the alerts and the resource update come on top */
#define MAX_CODES (NUM_JOB_CODES + 3)

/* ------------------------------------------------------------------------
 * State. Written by ompi_evt_pmix_client_start() (INIT) before the handler
 * is registered, read by the handler (PMIx's thread) afterwards: the
 * registration is the hand-off (PMIx's thread shift orders it).
 * ------------------------------------------------------------------------ */
static pmix_proc_t me;
static bool is_client = false;
static bool handler_registered = false;
/** The handler raises events. Cleared at the start of MPI_Finalize rather
 *  than deregistering the handler: on a connection to the server with
 *  Nagle's algorithm on (PMIx 4.2's default; evt/pmix turns it off), the
 *  request after a deregistration (the finalize fence) waited 40-90 ms for
 *  the server's delayed acknowledgement. The handler stays registered,
 *  quiet, until MPI_Finalize ends PMIx. */
static atomic_bool handler_live = false;
/** Handler calls under way that may raise (the stop waits for them). */
static atomic_int handler_running = 0;
static bool monitor_heartbeat = false, monitor_file = false, monitor_resource = false;
static bool progress_registered = false;
/** PMIx has reported this process's resource usage at least once. */
static atomic_bool pmix_serves = false;
/** Next heartbeat (CLOCK_MONOTONIC ns) and the interval between two. */
static _Atomic int64_t hb_next = 0;
static int64_t hb_period_ns = 0;

/* Context: ANY. */
bool ompi_evt_pmix_client_serves_resources(void)
{
    /* relaxed: a flag that publishes no data; the sampler only stops
     * sampling a little later or earlier */
    return atomic_load_explicit(&pmix_serves, memory_order_relaxed);
}

static int64_t now_ns(void)
{
    struct timespec ts;

    (void) clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ------------------------------------------------------------------------
 * Decoding
 * ------------------------------------------------------------------------ */

/* A PMIx rank as an i32 element (OMPI_EVT_PMIX_RANK_* for the specials). */
static int32_t rank_of(const pmix_proc_t *p)
{
    if (NULL == p || PMIX_RANK_UNDEF == p->rank) {
        return OMPI_EVT_PMIX_RANK_NONE;
    }
    if (PMIX_RANK_WILDCARD == p->rank) {
        return OMPI_EVT_PMIX_RANK_WILDCARD;
    }
    return PMIX_RANK_VALID >= p->rank && INT32_MAX >= p->rank ? (int32_t) p->rank
                                                              : OMPI_EVT_PMIX_RANK_NONE;
}

static bool same_job(const pmix_proc_t *p)
{
    return NULL != p && PMIX_CHECK_NSPACE(p->nspace, me.nspace);
}

/* Any numeric PMIx value as a double. Context: ANY. */
static bool value_number(const pmix_value_t *v, double *d)
{
    switch (v->type) {
    case PMIX_FLOAT:
        *d = v->data.fval;
        return true;
    case PMIX_DOUBLE:
        *d = v->data.dval;
        return true;
    case PMIX_INT:
        *d = v->data.integer;
        return true;
    case PMIX_INT8:
        *d = v->data.int8;
        return true;
    case PMIX_INT16:
        *d = v->data.int16;
        return true;
    case PMIX_INT32:
        *d = v->data.int32;
        return true;
    case PMIX_INT64:
        *d = (double) v->data.int64;
        return true;
    case PMIX_UINT:
        *d = v->data.uint;
        return true;
    case PMIX_UINT8:
        *d = v->data.uint8;
        return true;
    case PMIX_UINT16:
        *d = v->data.uint16;
        return true;
    case PMIX_UINT32:
        *d = v->data.uint32;
        return true;
    case PMIX_UINT64:
        *d = (double) v->data.uint64;
        return true;
    case PMIX_SIZE:
        *d = (double) v->data.size;
        return true;
    case PMIX_PID:
        *d = v->data.pid;
        return true;
    case PMIX_TIME:
        *d = (double) v->data.time;
        return true;
    default:
        return false;
    }
}

/* One PMIX_PROC_RESOURCE_USAGE container. @retval true: it is about @p who
 * and @p p is filled. Context: ANY. */
static bool parse_container(const pmix_proc_t *who, const pmix_data_array_t *da,
                            ompi_evt_pmix_resource_usage_payload_t *p)
{
    const pmix_info_t *f;
    double d;

    if (NULL == da || PMIX_INFO != da->type || 0 == da->size || NULL == da->array) {
        return false;
    }
    f = (const pmix_info_t *) da->array;
    /* the subject first: PMIx_Process_monitor(3) puts PMIX_PROCID at the
     * head of each process container */
    if (!PMIX_CHECK_KEY(&f[0], PMIX_PROCID) || PMIX_PROC != f[0].value.type
        || NULL == f[0].value.data.proc || !PMIX_CHECK_PROCID(f[0].value.data.proc, who)) {
        return false;
    }
    memset(p, 0, sizeof(*p));
    p->rank = rank_of(who);
    p->pid = (int32_t) getpid();
    p->state = -1;
    p->priority = -1;
    p->cpu = -1;
    p->origin = OMPI_EVT_PMIX_ORIGIN_PMIX;
    p->percent_cpu = p->pss_mb = p->vsize_mb = p->rss_mb = p->peak_vsize_mb = -1.0;
    p->sample_time = -1;
    for (size_t i = 1; i < da->size; ++i) {
        const pmix_value_t *v = &f[i].value;

        if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_OS_STATE)) {
            if (PMIX_STRING == v->type && NULL != v->data.string && '\0' != v->data.string[0]) {
                p->state = (int32_t) (unsigned char) v->data.string[0];
            }
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_TIME)) {
            if (PMIX_TIMEVAL == v->type && 0 <= v->data.tv.tv_sec && 0 <= v->data.tv.tv_usec) {
                p->cpu_time_usec = (uint64_t) v->data.tv.tv_sec * 1000000
                                   + (uint64_t) v->data.tv.tv_usec;
            }
        } else if (!value_number(v, &d)) {
            continue; /* unknown type for a number: stays -1 */
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_PERCENT_CPU)) {
            p->percent_cpu = d;
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_PRIORITY)) {
            p->priority = (int32_t) d;
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_NUM_THREADS)) {
            p->num_threads = 0 <= d ? (uint32_t) d : 0;
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_PSS)) {
            p->pss_mb = d;
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_VSIZE)) {
            p->vsize_mb = d;
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_RSS)) {
            p->rss_mb = d;
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_PEAK_VSIZE)) {
            p->peak_vsize_mb = d;
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_CPU)) {
            p->cpu = (int32_t) d;
        } else if (PMIX_CHECK_KEY(&f[i], PMIX_PROC_SAMPLE_TIME)) {
            p->sample_time = (int64_t) d;
        }
    }
    return true;
}

/* Context: ANY. */
size_t ompi_evt_pmix_resusage_parse(const pmix_proc_t *who, const pmix_info_t *info, size_t ninfo,
                                    ompi_evt_pmix_resource_usage_payload_t *out, size_t max,
                                    size_t *skipped_over_max)
{
    size_t n = 0, over = 0;

    if (NULL == who || (NULL == info && 0 < ninfo) || (NULL == out && 0 < max)) {
        return 0;
    }
    for (size_t i = 0; i < ninfo; ++i) {
        ompi_evt_pmix_resource_usage_payload_t p;

        if (!PMIX_CHECK_KEY(&info[i], PMIX_PROC_RESOURCE_USAGE)
            || PMIX_DATA_ARRAY != info[i].value.type
            || !parse_container(who, info[i].value.data.darray, &p)) {
            continue;
        }
        if (n < max) {
            out[n++] = p;
        } else {
            ++over;
        }
    }
    if (NULL != skipped_over_max) {
        *skipped_over_max = over;
    }
    return n;
}

/* ------------------------------------------------------------------------
 * The event handler (PMIx's progress thread)
 * ------------------------------------------------------------------------ */

/** Containers raised per update; more are counted as lost samples. */
#define MAX_USAGE_PER_UPDATE 8

static void on_resource_update(const pmix_info_t *info, size_t ninfo)
{
    ompi_evt_pmix_resource_usage_payload_t p[MAX_USAGE_PER_UPDATE];
    size_t over = 0, n;

    n = ompi_evt_pmix_resusage_parse(&me, info, ninfo, p, MAX_USAGE_PER_UPDATE, &over);
    /* relaxed: see ompi_evt_pmix_client_serves_resources(); the exchange
     * lets one update say so */
    if (0 < n && !atomic_exchange_explicit(&pmix_serves, true, memory_order_relaxed)) {
        opal_output_verbose(10, ompi_evt_pmix_output(),
                            "evt:pmix: the PMIx server reports this process's resource usage: "
                            "the events come from PMIx from now on");
    }
    for (size_t i = 0; i < n; ++i) {
        ompi_evt_pmix_raise_resource(&p[i]);
    }
    for (size_t i = 0; i < over; ++i) {
        ompi_evt_pmix_resource_lost();
    }
}

static void on_job_event(pmix_status_t status, const pmix_proc_t *source, const pmix_info_t *info,
                         size_t ninfo)
{
    ompi_evt_pmix_job_event_payload_t p;
    const pmix_proc_t *affected = NULL;
    const pmix_data_array_t *many = NULL;
    bool raised = false;

    memset(&p, 0, sizeof(p));
    p.status = status;
    p.source_rank = rank_of(source);
    p.affected_rank = OMPI_EVT_PMIX_RANK_NONE;
    p.flags = same_job(source) ? OMPI_EVT_PMIX_FLAG_SOURCE_SAME_JOB : 0;
    for (size_t i = 0; i < ninfo; ++i) {
        const pmix_value_t *v = &info[i].value;

        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && PMIX_PROC == v->type) {
            affected = v->data.proc;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROCS) && PMIX_DATA_ARRAY == v->type
                   && NULL != v->data.darray && PMIX_PROC == v->data.darray->type) {
            many = v->data.darray;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE)) {
            double d;

            if (value_number(v, &d)) {
                p.exit_code = (int32_t) d;
                p.flags |= OMPI_EVT_PMIX_FLAG_EXIT_CODE;
            }
        }
    }
    if (NULL != many && NULL != many->array) {
        /* one event per affected process */
        for (size_t k = 0; k < many->size; ++k) {
            const pmix_proc_t *a = &((const pmix_proc_t *) many->array)[k];
            ompi_evt_pmix_job_event_payload_t q = p;

            q.affected_rank = rank_of(a);
            q.flags |= OMPI_EVT_PMIX_FLAG_AFFECTED | (same_job(a) ? OMPI_EVT_PMIX_FLAG_SAME_JOB : 0)
                       | (PMIX_CHECK_PROCID(a, &me) ? OMPI_EVT_PMIX_FLAG_SELF : 0);
            ompi_evt_pmix_raise_job(&q);
            raised = true;
        }
    }
    if (!raised) {
        if (NULL != affected) {
            p.affected_rank = rank_of(affected);
            p.flags |= OMPI_EVT_PMIX_FLAG_AFFECTED
                       | (same_job(affected) ? OMPI_EVT_PMIX_FLAG_SAME_JOB : 0)
                       | (PMIX_CHECK_PROCID(affected, &me) ? OMPI_EVT_PMIX_FLAG_SELF : 0);
        }
        ompi_evt_pmix_raise_job(&p);
    }
}

/* Context: PMIx's progress thread. */
static void handler(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                    size_t ninfo, pmix_info_t *results, size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    /* Job events: Open MPI's default handler after ours decides what the
     * process does (as without this producer). Alerts of the monitors we
     * requested and resource updates: handled here. Passed on, Open MPI
     * 4.1's default handler aborts the job with the status (seen: mpirun
     * exits 189 after a heartbeat alert, 188 after a file alert) although
     * nobody but this producer asked for them. */
    pmix_status_t action = PMIX_EVENT_ACTION_COMPLETE;

    /* seq_cst, as the stop's store and loads: either the stop sees this
     * call running, or this call sees the handler stopped */
    atomic_fetch_add(&handler_running, 1);
    if (!atomic_load(&handler_live)) {
        if (PMIX_MONITOR_HEARTBEAT_ALERT != status && PMIX_MONITOR_FILE_ALERT != status
            && PMIX_MONITOR_RESUSAGE_UPDATE != status) {
            action = PMIX_EVENT_NO_ACTION_TAKEN; /* job events: the next handlers act */
        }
    } else if (PMIX_MONITOR_HEARTBEAT_ALERT == status || PMIX_MONITOR_FILE_ALERT == status) {
        ompi_evt_pmix_monitor_alert_payload_t p = {
            .status = status,
            .kind = PMIX_MONITOR_HEARTBEAT_ALERT == status ? OMPI_EVT_PMIX_MONITOR_HEARTBEAT
                                                           : OMPI_EVT_PMIX_MONITOR_FILE,
            .rank = rank_of(source),
            .flags = same_job(source) ? OMPI_EVT_PMIX_FLAG_SAME_JOB : 0,
        };

        ompi_evt_pmix_raise_alert(&p);
    } else if (PMIX_MONITOR_RESUSAGE_UPDATE == status) {
        on_resource_update(info, ninfo);
    } else {
        on_job_event(status, source, info, ninfo);
        action = PMIX_EVENT_NO_ACTION_TAKEN; /* the next handlers act */
    }
    atomic_fetch_sub(&handler_running, 1);
    if (NULL != cbfunc) {
        cbfunc(action, NULL, 0, NULL, NULL, cbdata);
    }
}

/* ------------------------------------------------------------------------
 * Monitors
 * ------------------------------------------------------------------------ */

/* The opal_progress callback that sends heartbeats. Several threads may run
 * it at once: the CAS lets one of them send. Context: PROGRESS. */
static int heartbeat_progress(void)
{
    int64_t next = atomic_load_explicit(&hb_next, memory_order_relaxed);
    int64_t now;

    if (0 == next) {
        return 0; /* stopped */
    }
    now = now_ns();
    if (now < next
        || !atomic_compare_exchange_strong_explicit(&hb_next, &next, now + hb_period_ns,
                                                    memory_order_relaxed, memory_order_relaxed)) {
        return 0;
    }
    PMIx_Heartbeat();
    return 0;
}

/* PMIx_Process_monitor (blocking) of @p monitor with @p dirs, freeing both.
 * Context: INIT. */
static pmix_status_t request(pmix_info_t *monitor, pmix_status_t code, pmix_info_t *dirs,
                             size_t ndirs)
{
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc;

    rc = PMIx_Process_monitor(monitor, code, dirs, ndirs, &results, &nresults);
    if (NULL != results) {
        PMIX_INFO_FREE(results, nresults);
    }
    PMIX_INFO_DESTRUCT(monitor);
    for (size_t i = 0; i < ndirs; ++i) {
        PMIX_INFO_DESTRUCT(&dirs[i]);
    }
    return rc;
}

/* mpi_events_pmix_monitor_heartbeat. Context: INIT. */
static void start_heartbeat(unsigned int seconds, unsigned int drops)
{
    pmix_info_t mon, dirs[3];
    uint32_t t = seconds, d = drops;
    bool yes = true;
    pmix_status_t rc;

    PMIX_INFO_LOAD(&mon, PMIX_MONITOR_HEARTBEAT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_HEARTBEAT_TIME, &t, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[1], PMIX_MONITOR_HEARTBEAT_DROPS, &d, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[2], PMIX_MONITOR_ID, ID_HEARTBEAT, PMIX_STRING);
    rc = request(&mon, PMIX_MONITOR_HEARTBEAT_ALERT, dirs, 3);
    opal_output_verbose(10, ompi_evt_pmix_output(),
                        "evt:pmix: heartbeat monitor (%u s, %u drops): PMIx_Process_monitor "
                        "returned %d (%s)",
                        seconds, drops, rc, PMIx_Error_string(rc));
    if (PMIX_SUCCESS != rc) {
        return;
    }
    monitor_heartbeat = true;
    hb_period_ns = (int64_t) seconds * 1000000000 / 2;
    PMIx_Heartbeat();
    atomic_store_explicit(&hb_next, now_ns() + hb_period_ns, memory_order_relaxed);
    progress_registered = OPAL_SUCCESS == opal_progress_register_lp(heartbeat_progress);
    if (!progress_registered) {
        opal_output_verbose(1, ompi_evt_pmix_output(),
                            "evt:pmix: heartbeats cannot be sent (opal_progress_register_lp "
                            "failed): this process will be reported");
    }
}

/* mpi_events_pmix_monitor_file: the path with "%r" replaced by the rank.
 * Context: INIT. */
static void start_file(const ompi_evt_pmix_params_t *prm)
{
    const char *pat = prm->file, *r = strstr(pat, "%r");
    pmix_info_t mon, dirs[4];
    uint32_t t = prm->file_check, d = prm->drops;
    bool yes = true;
    char *path = NULL;
    const char *test_key;
    pmix_status_t rc;

    if (NULL == r) {
        path = strdup(pat);
    } else if (0 > asprintf(&path, "%.*s%u%s", (int) (r - pat), pat, me.rank, r + 2)) {
        path = NULL;
    }
    if (NULL == path) {
        return;
    }
    test_key = OMPI_EVT_PMIX_FILE_ACCESS == prm->file_test   ? PMIX_MONITOR_FILE_ACCESS
               : OMPI_EVT_PMIX_FILE_MODIFY == prm->file_test ? PMIX_MONITOR_FILE_MODIFY
                                                             : PMIX_MONITOR_FILE_SIZE;
    PMIX_INFO_LOAD(&mon, PMIX_MONITOR_FILE, path, PMIX_STRING);
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_FILE_CHECK_TIME, &t, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[1], PMIX_MONITOR_FILE_DROPS, &d, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[2], test_key, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&dirs[3], PMIX_MONITOR_ID, ID_FILE, PMIX_STRING);
    rc = request(&mon, PMIX_MONITOR_FILE_ALERT, dirs, 4);
    opal_output_verbose(10, ompi_evt_pmix_output(),
                        "evt:pmix: file monitor of %s (%s, every %u s, %u drops): "
                        "PMIx_Process_monitor returned %d (%s)",
                        path, test_key, prm->file_check, prm->drops, rc, PMIx_Error_string(rc));
    free(path);
    monitor_file = PMIX_SUCCESS == rc;
}

/* PMIX_MONITOR_PROC_RESOURCE_USAGE of this process every @p rate seconds,
 * every process field named, the update delivered to this process only.
 * Context: INIT. */
static bool start_resource(unsigned int rate)
{
    static const char *const keys[] = {
        PMIX_PROC_OS_STATE,    PMIX_PROC_TIME, PMIX_PROC_PERCENT_CPU, PMIX_PROC_PRIORITY,
        PMIX_PROC_NUM_THREADS, PMIX_PROC_PSS,  PMIX_PROC_VSIZE,       PMIX_PROC_RSS,
        PMIX_PROC_PEAK_VSIZE,  PMIX_PROC_CPU,  PMIX_PROC_SAMPLE_TIME,
    };
    const size_t nkeys = sizeof(keys) / sizeof(keys[0]);
    pmix_data_array_t *fields = NULL, *targets = NULL;
    pmix_info_t mon, dirs[5];
    pmix_data_range_t range = PMIX_RANGE_PROC_LOCAL;
    uint32_t r = rate;
    bool yes = true;
    pmix_status_t rc;

    PMIX_DATA_ARRAY_CREATE(fields, nkeys, PMIX_INFO);
    PMIX_DATA_ARRAY_CREATE(targets, 1, PMIX_PROC);
    if (NULL == fields || NULL == fields->array || NULL == targets || NULL == targets->array) {
        if (NULL != fields) {
            PMIX_DATA_ARRAY_FREE(fields);
        }
        if (NULL != targets) {
            PMIX_DATA_ARRAY_FREE(targets);
        }
        return false;
    }
    for (size_t i = 0; i < nkeys; ++i) {
        /* the keys select the fields; PMIx ignores their values */
        PMIX_INFO_LOAD(&((pmix_info_t *) fields->array)[i], keys[i], NULL, PMIX_UNDEF);
    }
    memcpy(targets->array, &me, sizeof(me));
    /* the arrays go with the infos (PMIX_INFO_DESTRUCT frees them) */
    PMIX_INFO_CONSTRUCT(&mon);
    PMIX_LOAD_KEY(mon.key, PMIX_MONITOR_PROC_RESOURCE_USAGE);
    mon.value.type = PMIX_DATA_ARRAY;
    mon.value.data.darray = fields;
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_RESOURCE_RATE, &r, PMIX_UINT32);
    PMIX_INFO_CONSTRUCT(&dirs[1]);
    PMIX_LOAD_KEY(dirs[1].key, PMIX_MONITOR_TARGET_PROCS);
    dirs[1].value.type = PMIX_DATA_ARRAY;
    dirs[1].value.data.darray = targets;
    PMIX_INFO_LOAD(&dirs[2], PMIX_MONITOR_LOCAL_ONLY, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&dirs[3], PMIX_RANGE, &range, PMIX_DATA_RANGE);
    PMIX_INFO_LOAD(&dirs[4], PMIX_MONITOR_ID, ID_RESOURCE, PMIX_STRING);
    rc = request(&mon, PMIX_MONITOR_RESUSAGE_UPDATE, dirs, 5);
    opal_output_verbose(10, ompi_evt_pmix_output(),
                        "evt:pmix: PMIX_MONITOR_PROC_RESOURCE_USAGE every %u s (key strings %s "
                        "the PMIx headers): PMIx_Process_monitor returned %d (%s)",
                        rate, OMPI_EVT_PMIX_KEYS_DEFINED ? "defined here, absent from" : "from", rc,
                        PMIx_Error_string(rc));
    monitor_resource = PMIX_SUCCESS == rc;
    return monitor_resource;
}

/* Cancel the monitor @p id. Context: INIT. */
static void cancel(const char *id)
{
    pmix_info_t mon;
    pmix_status_t rc;

    PMIX_INFO_LOAD(&mon, PMIX_MONITOR_CANCEL, id, PMIX_STRING);
    rc = request(&mon, PMIX_SUCCESS, NULL, 0);
    opal_output_verbose(10, ompi_evt_pmix_output(), "evt:pmix: cancel of monitor %s: %d (%s)", id,
                        rc, PMIx_Error_string(rc));
}

/* ------------------------------------------------------------------------
 * Start and stop
 * ------------------------------------------------------------------------ */

/* Context: INIT (end of MPI_Init). */
void ompi_evt_pmix_client_start(ompi_evt_pmix_client_state_t *state)
{
    const ompi_evt_pmix_params_t *prm = &ompi_evt_pmix_params;
    pmix_status_t codes[MAX_CODES];
    bool want_resource = 0 < prm->resource_rate && OMPI_EVT_PMIX_RES_PROC != prm->resource_source;
    bool want_file = NULL != prm->file && '\0' != prm->file[0];
    size_t ncodes = 0;
    pmix_status_t rc;
    int out = ompi_evt_pmix_output();

    state->client = false;
    state->rank = OMPI_EVT_PMIX_RANK_NONE;
    state->resource_pmix = false;
    atomic_store_explicit(&pmix_serves, false, memory_order_relaxed);
    if (!PMIx_Initialized()) {
        opal_output_verbose(10, out,
                            "evt:pmix: this process is not a PMIx client: no monitors, no job "
                            "events");
        return;
    }
    /* a reference on the instance Open MPI made (same proc, refcounted) */
    rc = PMIx_Init(&me, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        opal_output_verbose(1, out, "evt:pmix: PMIx_Init failed: %d (%s)", rc,
                            PMIx_Error_string(rc));
        return;
    }
    is_client = true;
    state->client = true;
    state->rank = rank_of(&me);

    if (prm->job_events) {
        memcpy(codes, job_codes, sizeof(job_codes));
        ncodes = NUM_JOB_CODES;
    }
    if (0 < prm->heartbeat || want_file) {
        codes[ncodes++] = PMIX_MONITOR_HEARTBEAT_ALERT;
        codes[ncodes++] = PMIX_MONITOR_FILE_ALERT;
    }
    if (want_resource) {
        codes[ncodes++] = PMIX_MONITOR_RESUSAGE_UPDATE;
    }
    if (0 < ncodes && handler_registered) {
        atomic_store(&handler_live, true); /* the one kept quiet since a stop */
    } else if (0 < ncodes) {
        atomic_store(&handler_live, true);
        /* blocking form: the reference, or a negative error */
        rc = PMIx_Register_event_handler(codes, ncodes, NULL, 0, handler, NULL, NULL);
        handler_registered = 0 <= rc;
        opal_output_verbose(10, out,
                            "evt:pmix: rank %u of %s: event handler for %zu status codes%s: %d",
                            me.rank, me.nspace, ncodes,
                            prm->job_events ? " (job events included)" : "", rc);
        if (!handler_registered) {
            return; /* nothing could reach us: request no monitor either */
        }
    }
    if (0 < prm->heartbeat) {
        start_heartbeat(prm->heartbeat, prm->drops);
    }
    if (want_file) {
        start_file(prm);
    }
    if (want_resource) {
        state->resource_pmix = start_resource(prm->resource_rate);
    }
}

/* Context: INIT (start of MPI_Finalize). */
void ompi_evt_pmix_client_stop(void)
{
    if (!is_client) {
        return;
    }
    if (progress_registered) {
        atomic_store_explicit(&hb_next, 0, memory_order_relaxed);
        (void) opal_progress_unregister(heartbeat_progress);
        progress_registered = false;
    }
    if (monitor_heartbeat) {
        cancel(ID_HEARTBEAT);
        monitor_heartbeat = false;
    }
    if (monitor_file) {
        cancel(ID_FILE);
        monitor_file = false;
    }
    if (monitor_resource) {
        cancel(ID_RESOURCE);
        monitor_resource = false;
    }
    if (handler_registered) {
        /* afterwards the handler raises nothing any more */
        atomic_store(&handler_live, false);
        while (0 != atomic_load(&handler_running)) {
            struct timespec nap = {0, 100000};
            (void) nanosleep(&nap, NULL);
        }
    }
    (void) PMIx_Finalize(NULL, 0); /* our reference only */
    is_client = false;
}
