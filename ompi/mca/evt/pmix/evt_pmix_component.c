/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/pmix component: the component struct, its MCA parameters, and the
 * decision whether it can run here (evtc_init). Register never allocates
 * (but the enumerators mca_base_var keeps); init parses the parameters.
 */

#include "ompi_config.h"

#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ompi/constants.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/base/evt_base_report.h"
#include "ompi/mca/evt/base/evt_base_var.h"
#include "ompi/mca/evt/pmix/evt_pmix.h"
#include "ompi/mca/evt/pmix/evt_pmix_clock.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"

static int pmix_register(void);
static int pmix_open(void);
static int pmix_close(void);
static ompi_evt_base_module_t *pmix_init(int *priority);

ompi_evt_pmix_component_t mca_evt_pmix_component = {
    .super = {
        .evtc_version = {
            OMPI_EVT_BASE_VERSION_2_0_0,
            .mca_component_name = "pmix",
            MCA_BASE_MAKE_VERSION(component, 2, 0, 0),
            .mca_open_component = pmix_open,
            .mca_close_component = pmix_close,
            .mca_register_component_params = pmix_register,
        },
        .evtc_data = {
            /* The component is checkpoint ready */
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .evtc_init = pmix_init,
    },
    .priority = OMPI_EVT_PMIX_DEFAULT_PRIORITY,
    .output = -1,
};
MCA_BASE_COMPONENT_INIT(ompi, evt, pmix)

static const mca_base_var_enum_value_t range_values[] = {
    {OMPI_EVT_PMIX_RANGE_LOCAL, "local"},     {OMPI_EVT_PMIX_RANGE_NAMESPACE, "namespace"},
    {OMPI_EVT_PMIX_RANGE_SESSION, "session"}, {OMPI_EVT_PMIX_RANGE_GLOBAL, "global"},
    {OMPI_EVT_PMIX_RANGE_CUSTOM, "custom"},   {0, NULL},
};

/* Register the evt_pmix_* variables (the kit's between sink and verbose,
 * the order ompi_info lists them in). No allocation but the enumerator
 * mca_base_var keeps. Context: INIT. */
static int pmix_register(void)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    const mca_base_component_t *v = &c->super.evtc_version;
    const ompi_evt_base_var_t vars[] = {
        {"events",
         "Events to export: comma-separated name patterns, '*' matches any characters, a "
         "pattern starting with '^' excludes (e.g. \"ompi.mpi.*,^ompi.mpi.p2p_*\"); unset: "
         "every event",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_2, &c->events, 0, NULL},
        {"range",
         "PMIx range of the notifications: local (the node; the only range Open MPI 4.1's "
         "mpirun delivers), namespace (the job), session, global, custom "
         "(evt_pmix_custom_range)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_3, &c->range, OMPI_EVT_PMIX_RANGE_LOCAL,
         range_values},
        {"custom_range",
         "With evt_pmix_range=custom: the receivers, comma-separated \"nspace\" (every rank) or "
         "\"nspace:rank\" (e.g. a PMIx tool's own process)",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_3, &c->custom_range, 0, NULL},
        {"batch_bytes",
         "Largest batch (one PMIx notification), bytes (4096 to 64 MiB): a batch leaves when it "
         "is full",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, &c->batch_bytes, OMPI_EVT_PMIX_DEFAULT_BATCH_BYTES,
         NULL},
        {"flush_interval",
         "Milliseconds a batch waits at most for more records before it leaves (a timer thread "
         "drains every quarter interval, so a rank that does not call MPI still exports)",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_4, &c->flush_interval,
         OMPI_EVT_PMIX_DEFAULT_FLUSH_INTERVAL_MS, NULL},
        {"finalize_timeout",
         "Milliseconds MPI_Finalize waits at most for the last batches to complete, and the "
         "node sink for every local rank's last batch, counted from when every rank reached "
         "MPI_Finalize (when every rank runs evt/pmix); also the bound of each clock "
         "measurement",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_4, &c->finalize_timeout,
         OMPI_EVT_PMIX_DEFAULT_FINALIZE_MS, NULL},
        {"max_inflight",
         "Most notifications in flight at once (1 to 1024; the PMIx client slows down with "
         "thousands): when all are in flight, records wait in the rings",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, &c->max_inflight,
         OMPI_EVT_PMIX_DEFAULT_MAX_INFLIGHT, NULL},
        {"sink",
         "Folder of the node files: the lowest rank of each node appends its node's batches to "
         "DIR/<host>.evt (read them with ompi-evt-listen --read); unset: no node sink",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_2, &c->sink, 0, NULL},
        {"clock_align",
         "Measure each rank's clock offset to rank 0 (ping-pong over a private communicator, "
         "PMPI) at the end of MPI_Init and the start of MPI_Finalize, and send it with the "
         "batches, so that readers put every node's events on one timeline. One measurement per "
         "clock: ranks on rank 0's node (same boot) get exactly 0. If some rank runs with 0, no "
         "rank measures",
         MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_4, &c->clock_align, true, NULL},
        {"server_nodelay",
         "Turn Nagle's algorithm off on this process's TCP connection to its PMIx server "
         "(PMIx 4.2 leaves it on: a message sent right after a notification, which the server "
         "does not answer, waited up to 40 ms for the server's delayed acknowledgement)",
         MCA_BASE_VAR_TYPE_BOOL, OPAL_INFO_LVL_5, &c->server_nodelay, true, NULL},
        {"test_clock_skew",
         "TEST ONLY: \"HOST:SECONDS\" adds SECONDS (may be fractional or negative) to every "
         "CLOCK_REALTIME reading the export makes on the node PMIx names HOST, as if that node's "
         "clock were off; for the tests of clock alignment, never for real runs",
         MCA_BASE_VAR_TYPE_STRING, OPAL_INFO_LVL_9, &c->test_clock_skew, 0, NULL},
    };
    const ompi_evt_base_var_t verbose[] = {
        {"verbose",
         "Verbosity of evt/pmix (10: what is exported where, and the counts at the end; 1: "
         "errors). evt_base_verbose is used when it is higher",
         MCA_BASE_VAR_TYPE_INT, OPAL_INFO_LVL_5, &c->verbose, 0, NULL},
    };
    /* drop-new only, and the timer follows evt_pmix_flush_interval
     * (pmix_init): no overflow_policy, no drain_interval */
    const ompi_evt_base_kit_vars_t kit = {
        .ring_size = {&c->ring_size, OMPI_EVT_PMIX_DEFAULT_RING_SIZE},
        .pool_size = {&c->pool_size, OMPI_EVT_PMIX_DEFAULT_POOL_SIZE},
        .drain_budget = {&c->drain_budget, OMPI_EVT_PMIX_DEFAULT_DRAIN_BUDGET},
    };
    int rc;

    rc = ompi_evt_base_register_component(
        v,
        "MPI_T events exported out of the processes through PMIx (local tools keep their "
        "callbacks, as with ring)",
        &c->priority, OMPI_EVT_PMIX_DEFAULT_PRIORITY, OPAL_INFO_LVL_4,
        "Priority of the pmix delivery component (below sync and ring: select it with --mca "
        "evt pmix)");
    if (OPAL_SUCCESS == rc) {
        rc = ompi_evt_base_register_vars(v, vars, sizeof(vars) / sizeof(vars[0]));
    }
    if (OPAL_SUCCESS == rc) {
        rc = ompi_evt_base_kit_register_params(v, &kit);
    }
    if (OPAL_SUCCESS == rc) {
        rc = ompi_evt_base_register_vars(v, verbose, 1);
    }
    return rc;
}

/* Context: INIT. */
static int pmix_open(void)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    int base = ompi_evt_base_framework.framework_verbose;

    /* our help file sits beside the base's when installed, in our source
     * folder in a build tree */
    (void) opal_show_help_add_dir(OMPI_EVT_PMIX_SRC_HELPDIR);
    c->output = opal_output_open(NULL);
    opal_output_set_verbosity(c->output, c->verbose > base ? c->verbose : base);
    return OMPI_SUCCESS;
}

/* Context: INIT. */
static int pmix_close(void)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;

    mca_common_evt_name_filter_free(&c->filter);
    if (0 <= c->output) {
        opal_output_close(c->output);
        c->output = -1;
    }
    return OMPI_SUCCESS;
}

/* Context: INIT. */
bool ompi_evt_pmix_is_client(const char **why_not)
{
    extern char **environ;
    bool uri = false;

    if (PMIx_Initialized()) {
        return true;
    }
    for (char **e = environ; NULL != e && NULL != *e; ++e) {
        uri = uri || 0 == strncmp(*e, "PMIX_SERVER_URI", 15);
    }
    if (NULL == getenv("PMIX_NAMESPACE") || NULL == getenv("PMIX_RANK") || !uri) {
        *why_not = "this process is not a PMIx client (PMIx is not initialised and no PMIx "
                   "server put PMIX_NAMESPACE, PMIX_RANK and PMIX_SERVER_URI* in its "
                   "environment: e.g. a program run without mpirun or a PMIx server)";
        return false;
    }
    return true;
}

/* Context: INIT. */
int ompi_evt_pmix_parse_custom_range(const char *spec, void **procs, size_t *nprocs,
                                     const char **error)
{
    const char *why = "evt_pmix_range=custom needs evt_pmix_custom_range (\"nspace\" or "
                      "\"nspace:rank\", comma-separated)";
    pmix_proc_t *p = NULL;
    size_t n = 0, cap = 1;
    const char *s;

    *procs = NULL;
    *nprocs = 0;
    if (NULL == spec || '\0' == spec[0]) {
        goto fail;
    }
    for (s = spec; '\0' != *s; ++s) {
        cap += ',' == *s;
    }
    p = calloc(cap, sizeof(*p));
    if (NULL == p) {
        if (NULL != error) {
            *error = "out of memory";
        }
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    for (s = spec; n < cap;) {
        const char *end = strchr(s, ','), *colon;
        size_t len = NULL == end ? strlen(s) : (size_t) (end - s);
        char item[PMIX_MAX_NSLEN + 16];
        pmix_rank_t rank = PMIX_RANK_WILDCARD;

        if (0 == len || len >= sizeof(item)) {
            why = "an empty or too long item in evt_pmix_custom_range";
            goto fail;
        }
        memcpy(item, s, len);
        item[len] = '\0';
        colon = strrchr(item, ':');
        if (NULL != colon) {
            char *num_end;
            unsigned long r = strtoul(colon + 1, &num_end, 10);
            if ('\0' == colon[1] || '\0' != *num_end || r >= PMIX_RANK_VALID) {
                why = "a rank in evt_pmix_custom_range is not a number";
                goto fail;
            }
            rank = (pmix_rank_t) r;
            item[colon - item] = '\0';
        }
        if ('\0' == item[0] || strlen(item) > PMIX_MAX_NSLEN) {
            why = "an empty or too long namespace in evt_pmix_custom_range";
            goto fail;
        }
        PMIX_LOAD_PROCID(&p[n], item, rank);
        ++n;
        if (NULL == end) {
            break;
        }
        s = end + 1;
    }
    *procs = p;
    *nprocs = n;
    return OPAL_SUCCESS;

fail:
    free(p);
    if (NULL != error) {
        *error = why;
    }
    return OPAL_ERR_BAD_PARAM;
}

static void bad_param(const char *name, const char *value, const char *why)
{
    opal_show_help("help-mca-evt-pmix.txt", "bad-parameter", true, name,
                   NULL == value ? "(unset)" : value, why);
    /* the help message may be lost by mpirun: say it here too */
    ompi_evt_base_report_error(OMPI_EVT_REPORT_ONCE_PER_NODE,
                               "evt/pmix: %s=%s: %s; nothing is exported", name,
                               NULL == value ? "(unset)" : value, why);
}

/* Usable when this is a PMIx client and the parameters make sense; the
 * reason goes to evt_base_verbose (not a client) or to a help message (a
 * parameter the user got wrong). Context: INIT. */
static ompi_evt_base_module_t *pmix_init(int *priority)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    ompi_evt_base_kit_params_t *kit = &ompi_evt_pmix_module.evtm_kit;
    const int output = ompi_evt_base_framework.framework_output;
    const char *why = NULL;
    char value[32];
    void *custom = NULL;
    size_t ncustom;
    int64_t skew;
    struct stat st;

    if (!ompi_evt_pmix_is_client(&why)) {
        opal_output_verbose(1, output, "evt:pmix: not usable: %s", why);
        return NULL;
    }
    mca_common_evt_name_filter_free(&c->filter);
    if (OPAL_SUCCESS != mca_common_evt_name_filter_parse(&c->filter, c->events, &why)) {
        bad_param("evt_pmix_events", c->events, why);
        return NULL;
    }
    if (OMPI_EVT_PMIX_RANGE_CUSTOM == c->range) {
        if (OPAL_SUCCESS
            != ompi_evt_pmix_parse_custom_range(c->custom_range, &custom, &ncustom, &why)) {
            bad_param("evt_pmix_custom_range", c->custom_range, why);
            goto fail;
        }
        free(custom);
    }
    if (c->batch_bytes < (int) MCA_COMMON_EVT_WIRE_MIN_BATCH
        || (unsigned) c->batch_bytes > MCA_COMMON_EVT_WIRE_MAX_BATCH) {
        (void) snprintf(value, sizeof(value), "%d", c->batch_bytes);
        bad_param("evt_pmix_batch_bytes", value, "must be between 4096 and 67108864");
        goto fail;
    }
    if (1 > c->flush_interval || 3600000 < c->flush_interval) {
        (void) snprintf(value, sizeof(value), "%d", c->flush_interval);
        bad_param("evt_pmix_flush_interval", value, "must be between 1 and 3600000 ms");
        goto fail;
    }
    if (NULL != c->test_clock_skew
        && OPAL_SUCCESS != ompi_evt_pmix_clock_parse_skew(c->test_clock_skew, NULL, &skew, &why)) {
        bad_param("evt_pmix_test_clock_skew", c->test_clock_skew, why);
        goto fail;
    }
    if (0 > c->finalize_timeout) {
        (void) snprintf(value, sizeof(value), "%d", c->finalize_timeout);
        bad_param("evt_pmix_finalize_timeout", value, "cannot be negative");
        goto fail;
    }
    if (1 > c->max_inflight || OMPI_EVT_PMIX_MAX_INFLIGHT < c->max_inflight) {
        (void) snprintf(value, sizeof(value), "%d", c->max_inflight);
        bad_param("evt_pmix_max_inflight", value, "must be between 1 and 1024");
        goto fail;
    }
    if (NULL != c->sink && (0 != stat(c->sink, &st) || !S_ISDIR(st.st_mode))) {
        bad_param("evt_pmix_sink", c->sink, "not an existing folder");
        goto fail;
    }
    kit->ring_size = 0 < c->ring_size ? (size_t) c->ring_size : 0;
    kit->pool_size = c->pool_size;
    kit->drain_budget = c->drain_budget;
    /* drop-new only: a drain in the raising thread would call PMIx there */
    kit->overflow = OMPI_EVT_OVERFLOW_DROP_NEW;
    /* the timer drains every quarter interval: a batch leaves between one
     * and one and a quarter intervals after its first record, and a rank
     * that never calls MPI exports up to drain_budget records per tick
     * (4096 per 2.5 ms: 1.6 million/s with the defaults) */
    kit->drain_interval = c->flush_interval * 250;
    kit->storage = NULL;
    why = ompi_evt_base_kit_check_params(kit);
    if (NULL != why) {
        bad_param("evt_pmix_ring_size / _pool_size / _drain_budget", "", why);
        goto fail;
    }
    *priority = c->priority;
    return &ompi_evt_pmix_module;

fail:
    mca_common_evt_name_filter_free(&c->filter);
    return NULL;
}
