/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The PMIx producer's registration (source "ompi.pmix", three event
 * types, the evt_pmix_* MCA parameters), its start at the end of MPI_Init
 * and stop at the start of MPI_Finalize, and the raises. See
 * ompi_evt_pmix.h for the whole producer.
 *
 * Where the MCA parameters live: their names are evt_pmix_*,
 * the prefix of the evt/pmix delivery component's own variables. They are
 * registered as framework-level variables of evt (framework "evt", no
 * component, names "pmix_<x>"), not as variables of the component "pmix":
 * Open MPI deregisters a component's whole variable group when it closes
 * the component (at selection, whenever another delivery wins, and at the
 * framework's close), and the producer works with any delivery, so its
 * parameters must not belong to that group. They are registered before the
 * framework opens (the producer table runs first) and again after each
 * framework close (they go with the evt group then), so ompi-evt-info and
 * MPI_T_cvar list them with the others.
 */

#include "ompi_config.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_pmix.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/output.h"

ompi_evt_pmix_params_t ompi_evt_pmix_params;
mca_base_event_t *ompi_evt_pmix_resource_event = NULL;
mca_base_event_t *ompi_evt_pmix_alert_event = NULL;
mca_base_event_t *ompi_evt_pmix_job_event = NULL;

/** Resource samples raised so far (both origins): the payload's seq. */
static atomic_uint resource_seq;
/** Started by the last ompi_evt_pmix_mpi_init_complete() (INIT only). */
static bool started = false;

/* Context: ANY. */
int ompi_evt_pmix_output(void)
{
    return ompi_evt_base_framework.framework_output;
}

/* ------------------------------------------------------------------------
 * MCA parameters
 * ------------------------------------------------------------------------ */

static const mca_base_var_enum_value_t source_values[] = {
    {OMPI_EVT_PMIX_RES_AUTO, "auto"},
    {OMPI_EVT_PMIX_RES_PMIX, "pmix"},
    {OMPI_EVT_PMIX_RES_PROC, "proc"},
    {0, NULL},
};

static const mca_base_var_enum_value_t file_test_values[] = {
    {OMPI_EVT_PMIX_FILE_SIZE, "size"},
    {OMPI_EVT_PMIX_FILE_ACCESS, "access"},
    {OMPI_EVT_PMIX_FILE_MODIFY, "modify"},
    {0, NULL},
};

/* One mpi_events_<name> variable (see the file comment for the group):
 * the runtime's own namespace (Open MPI's runtime parameters are mpi_*),
 * not the evt/pmix component's. Its first name, evt_<name>, stays a
 * synonym. Context: INIT. */
static int reg_var(const char *name, const char *desc, mca_base_var_type_t type,
                   mca_base_var_enum_t *enumerator, mca_base_var_info_lvl_t level, void *storage)
{
    char full[64];
    int rc;

    (void) snprintf(full, sizeof(full), "events_%s", name);
    rc = mca_base_var_register("ompi", "mpi", NULL, full, desc, type, enumerator, 0, 0, level,
                               MCA_BASE_VAR_SCOPE_READONLY, storage);
    if (0 > rc) {
        return rc;
    }
    rc = mca_base_var_register_synonym(rc, "ompi", "evt", NULL, name, 0);
    return 0 > rc ? rc : OPAL_SUCCESS;
}

/* Register the variables unless they are registered (and valid) already.
 * The default of each is set on the line before its registration.
 * Context: INIT. */
static int register_params(void)
{
    ompi_evt_pmix_params_t *p = &ompi_evt_pmix_params;
    mca_base_var_enum_t *source_enum = NULL, *file_enum = NULL;
    int rc;

    if (0 <= mca_base_var_find("ompi", "mpi", NULL, "events_pmix_resource_rate")) {
        return OPAL_SUCCESS;
    }
    rc = mca_base_var_enum_create("mpi_events_pmix_resource_source", source_values, &source_enum);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    rc = mca_base_var_enum_create("mpi_events_pmix_monitor_file_test", file_test_values,
                                  &file_enum);
    if (OPAL_SUCCESS != rc) {
        OBJ_RELEASE(source_enum);
        return rc;
    }

    p->resource_rate = 0;
    rc = reg_var("pmix_resource_rate",
                 "Seconds between two ompi.pmix.proc_resource_usage events of each MPI process "
                 "(0: none)",
                 MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, OPAL_INFO_LVL_3, &p->resource_rate);
    if (OPAL_SUCCESS != rc) {
        goto cleanup;
    }
    p->resource_source = OMPI_EVT_PMIX_RES_AUTO;
    rc = reg_var("pmix_resource_source",
                 "Where the resource usage comes from: auto (request "
                 "PMIX_MONITOR_PROC_RESOURCE_USAGE from the PMIx server and sample /proc until "
                 "the server's first update, for good if it never comes), pmix (the server "
                 "only), proc (/proc only)",
                 MCA_BASE_VAR_TYPE_INT, source_enum, OPAL_INFO_LVL_5, &p->resource_source);
    if (OPAL_SUCCESS != rc) {
        goto cleanup;
    }
    p->heartbeat = 0;
    rc = reg_var("pmix_monitor_heartbeat",
                 "Ask the PMIx server to watch each MPI process for heartbeats every this many "
                 "seconds (PMIX_MONITOR_HEARTBEAT; 0: no). Heartbeats are sent from Open MPI's "
                 "progress engine: a process that stops making MPI progress is reported "
                 "(ompi.pmix.monitor_alert) to the other processes of its node",
                 MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, OPAL_INFO_LVL_3, &p->heartbeat);
    if (OPAL_SUCCESS != rc) {
        goto cleanup;
    }
    p->file = NULL;
    rc = reg_var("pmix_monitor_file",
                 "Ask the PMIx server to watch this file of each MPI process for signs of life "
                 "(PMIX_MONITOR_FILE; %r in the path is replaced by the process's rank; empty: "
                 "no). An alert (ompi.pmix.monitor_alert) when it shows none for "
                 "mpi_events_pmix_monitor_file_check x mpi_events_pmix_monitor_drops seconds",
                 MCA_BASE_VAR_TYPE_STRING, NULL, OPAL_INFO_LVL_3, &p->file);
    if (OPAL_SUCCESS != rc) {
        goto cleanup;
    }
    p->file_check = 10;
    rc = reg_var("pmix_monitor_file_check",
                 "Seconds between two checks of mpi_events_pmix_monitor_file",
                 MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, OPAL_INFO_LVL_4, &p->file_check);
    if (OPAL_SUCCESS != rc) {
        goto cleanup;
    }
    p->file_test = OMPI_EVT_PMIX_FILE_SIZE;
    rc = reg_var("pmix_monitor_file_test",
                 "What counts as a sign of life of mpi_events_pmix_monitor_file: size (it grew), "
                 "access (it was read), modify (it was modified)",
                 MCA_BASE_VAR_TYPE_INT, file_enum, OPAL_INFO_LVL_4, &p->file_test);
    if (OPAL_SUCCESS != rc) {
        goto cleanup;
    }
    p->drops = 1;
    rc = reg_var("pmix_monitor_drops",
                 "Heartbeats or file checks that may be missed before the PMIx server raises "
                 "the alert (at least 1)",
                 MCA_BASE_VAR_TYPE_UNSIGNED_INT, NULL, OPAL_INFO_LVL_4, &p->drops);
    if (OPAL_SUCCESS != rc) {
        goto cleanup;
    }
    p->job_events = true;
    rc = reg_var("pmix_job_events",
                 "Register PMIx event handlers at MPI_Init for the job events the host reports "
                 "(process terminated or aborted, job end, lost server connection) and raise "
                 "ompi.pmix.job_event for them",
                 MCA_BASE_VAR_TYPE_BOOL, NULL, OPAL_INFO_LVL_4, &p->job_events);
cleanup:
    OBJ_RELEASE(source_enum);
    OBJ_RELEASE(file_enum);
    return rc;
}

/* ------------------------------------------------------------------------
 * Source and event types
 * ------------------------------------------------------------------------ */

/* Element names: the struct field names of ompi_evt_payloads.h, in element
 * order, so exported records and the listener's outputs name their fields. */
static const char *const resource_names[] = {"rank",        "pid",           "state",
                                             "priority",    "num_threads",   "cpu",
                                             "origin",      "seq",           "cpu_time_usec",
                                             "percent_cpu", "pss_mb",        "vsize_mb",
                                             "rss_mb",      "peak_vsize_mb", "sample_time"};
static const char *const alert_names[] = {"status", "kind", "rank", "flags"};
static const char *const job_names[] = {"status", "source_rank", "affected_rank", "exit_code",
                                        "flags"};

/* Context: INIT. */
static mca_base_event_source_t *pmix_source(void)
{
    mca_base_event_source_t *source = NULL;
    int si;

    si = mca_base_event_source_register("ompi.pmix",
                                        "Events from PMIx: monitor alerts, job events and "
                                        "resource usage of the process",
                                        MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, OPAL_COUNT_MAX,
                                        NULL /* CLOCK_MONOTONIC in ns */,
                                        true /* the default clock is freely readable */, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &source)) {
        return NULL;
    }
    return source;
}

#define I32 MCA_BASE_VAR_TYPE_INT32_T
#define U32 MCA_BASE_VAR_TYPE_UINT32_T
#define U64 MCA_BASE_VAR_TYPE_UINT64_T
#define I64 MCA_BASE_VAR_TYPE_INT64_T
#define DBL MCA_BASE_VAR_TYPE_DOUBLE

/* Context: INIT. */
static int register_events(mca_base_event_source_t *source)
{
    typedef ompi_evt_pmix_resource_usage_payload_t res_t;
    typedef ompi_evt_pmix_monitor_alert_payload_t alert_t;
    typedef ompi_evt_pmix_job_event_payload_t job_t;
    static const mca_base_var_type_t res_types[15] = {I32, I32, I32, I32, U32, I32, U32, U32,
                                                      U64, DBL, DBL, DBL, DBL, DBL, I64};
    static const ptrdiff_t res_offsets[15]
        = {offsetof(res_t, rank),          offsetof(res_t, pid),
           offsetof(res_t, state),         offsetof(res_t, priority),
           offsetof(res_t, num_threads),   offsetof(res_t, cpu),
           offsetof(res_t, origin),        offsetof(res_t, seq),
           offsetof(res_t, cpu_time_usec), offsetof(res_t, percent_cpu),
           offsetof(res_t, pss_mb),        offsetof(res_t, vsize_mb),
           offsetof(res_t, rss_mb),        offsetof(res_t, peak_vsize_mb),
           offsetof(res_t, sample_time)};
    static const mca_base_var_type_t alert_types[4] = {I32, I32, I32, U32};
    static const ptrdiff_t alert_offsets[4] = {offsetof(alert_t, status), offsetof(alert_t, kind),
                                               offsetof(alert_t, rank), offsetof(alert_t, flags)};
    static const mca_base_var_type_t job_types[5] = {I32, I32, I32, I32, U32};
    static const ptrdiff_t job_offsets[5] = {offsetof(job_t, status), offsetof(job_t, source_rank),
                                             offsetof(job_t, affected_rank),
                                             offsetof(job_t, exit_code), offsetof(job_t, flags)};
    int ei;

    ei = mca_base_event_register_ptr(
        "ompi", NULL, NULL, "pmix.proc_resource_usage",
        "Resource usage of this MPI process every mpi_events_pmix_resource_rate seconds (PMIx's "
        "process fields): {rank, pid, state, priority, num_threads, cpu, origin (0 /proc, "
        "1 PMIx), seq, cpu_time_usec, percent_cpu, pss_mb, vsize_mb, rss_mb, peak_vsize_mb, "
        "sample_time}",
        OPAL_INFO_LVL_5, 15, res_types, res_offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, source,
        NULL, &ompi_evt_pmix_resource_event);
    if (0 > ei) {
        return ei;
    }
    ei = mca_base_event_register_ptr(
        "ompi", NULL, NULL, "pmix.monitor_alert",
        "A PMIx_Process_monitor alert (mpi_events_pmix_monitor_heartbeat, "
        "mpi_events_pmix_monitor_file): "
        "{status, kind (1 heartbeat, 2 file), rank of the silent process, flags}",
        OPAL_INFO_LVL_4, 4, alert_types, alert_offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0,
        source, NULL, &ompi_evt_pmix_alert_event);
    if (0 > ei) {
        return ei;
    }
    ei = mca_base_event_register_ptr(
        "ompi", NULL, NULL, "pmix.job_event",
        "A job event the PMIx host reported (process terminated or aborted, job end, lost "
        "server connection): {status, source_rank, affected_rank, exit_code, flags}",
        OPAL_INFO_LVL_4, 5, job_types, job_offsets, NULL, MCA_BASE_VAR_BIND_NO_OBJECT, 0, source,
        NULL, &ompi_evt_pmix_job_event);
    return 0 > ei ? ei : OPAL_SUCCESS;
}

/* Context: INIT. */
int ompi_evt_pmix_events_register(void)
{
    mca_base_event_source_t *source;
    int rc;

    rc = register_params();
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    source = pmix_source();
    if (NULL == source) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    rc = register_events(source);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    rc = mca_base_event_set_element_names(ompi_evt_pmix_resource_event, resource_names);
    if (OPAL_SUCCESS == rc) {
        rc = mca_base_event_set_element_names(ompi_evt_pmix_alert_event, alert_names);
    }
    if (OPAL_SUCCESS == rc) {
        rc = mca_base_event_set_element_names(ompi_evt_pmix_job_event, job_names);
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * Raises
 * ------------------------------------------------------------------------ */

/* Context: RAISE (a PMIx or producer thread). */
void ompi_evt_pmix_raise_resource(ompi_evt_pmix_resource_usage_payload_t *p)
{
    mca_base_event_t *ev = ompi_evt_pmix_resource_event;

    if (NULL == ev) {
        return;
    }
    /* numbered whether anyone listens or not: a listener that starts late
     * sees where it started, and a gap is a lost sample */
    p->seq = atomic_fetch_add_explicit(&resource_seq, 1, memory_order_relaxed);
    (void) mca_base_event_raise_ctx(ev, NULL, NULL, p, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
}

/* Context: ANY. */
void ompi_evt_pmix_resource_lost(void)
{
    (void) atomic_fetch_add_explicit(&resource_seq, 1, memory_order_relaxed);
}

/* Context: RAISE (PMIx's thread). */
void ompi_evt_pmix_raise_alert(const ompi_evt_pmix_monitor_alert_payload_t *p)
{
    if (NULL != ompi_evt_pmix_alert_event) {
        (void) mca_base_event_raise_ctx(ompi_evt_pmix_alert_event, NULL, NULL, p,
                                        MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
    }
}

/* Context: RAISE (PMIx's thread). */
void ompi_evt_pmix_raise_job(const ompi_evt_pmix_job_event_payload_t *p)
{
    if (NULL != ompi_evt_pmix_job_event) {
        (void) mca_base_event_raise_ctx(ompi_evt_pmix_job_event, NULL, NULL, p,
                                        MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE);
    }
}

/* ------------------------------------------------------------------------
 * Start and stop
 * ------------------------------------------------------------------------ */

/* Context: INIT (end of MPI_Init). */
void ompi_evt_pmix_mpi_init_complete(void)
{
    const ompi_evt_pmix_params_t *p = &ompi_evt_pmix_params;
    ompi_evt_pmix_client_state_t state;
    int out = ompi_evt_pmix_output();
    bool want_proc;

    if (started || NULL == ompi_evt_pmix_resource_event) {
        return;
    }
    started = true;
    ompi_evt_pmix_client_start(&state);
    if (0 == p->resource_rate) {
        return;
    }
    switch (p->resource_source) {
    case OMPI_EVT_PMIX_RES_PMIX:
        want_proc = false;
        opal_output_verbose(10, out, "evt:pmix: resource usage every %u s: %s", p->resource_rate,
                            state.resource_pmix
                                ? "requested from the PMIx server "
                                  "(mpi_events_pmix_resource_source=pmix)"
                                : "none (mpi_events_pmix_resource_source=pmix and the "
                                  "PMIx request failed)");
        break;
    case OMPI_EVT_PMIX_RES_PROC:
        want_proc = true;
        opal_output_verbose(10, out,
                            "evt:pmix: resource usage every %u s: sampled from /proc "
                            "(mpi_events_pmix_resource_source=proc)",
                            p->resource_rate);
        break;
    default:
        want_proc = true;
        opal_output_verbose(10, out, "evt:pmix: resource usage every %u s: sampled from /proc%s",
                            p->resource_rate,
                            state.resource_pmix
                                ? " until the PMIx server's first update, if one comes "
                                  "(it accepted PMIX_MONITOR_PROC_RESOURCE_USAGE, which does "
                                  "not mean it reports)"
                                : " (the PMIx request failed)");
        break;
    }
    if (want_proc) {
        int rc = ompi_evt_pmix_sampler_start(p->resource_rate, state.rank,
                                             OMPI_EVT_PMIX_RES_AUTO == p->resource_source
                                                     && state.resource_pmix
                                                 ? ompi_evt_pmix_client_serves_resources
                                                 : NULL);

        if (OMPI_SUCCESS != rc) {
            opal_output_verbose(1, out, "evt:pmix: the /proc sampler could not start: %d", rc);
        }
    }
}

/* Context: INIT (start of MPI_Finalize). */
void ompi_evt_pmix_mpi_finalize_start(void)
{
    if (!started) {
        return;
    }
    started = false;
    ompi_evt_pmix_sampler_stop();
    ompi_evt_pmix_client_stop();
}
