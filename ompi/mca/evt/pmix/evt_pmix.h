/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/pmix: the job's events exported out of the processes through PMIx.
 *
 * Capture and local delivery are the kit's (ompi/mca/evt/base/
 * evt_base_kit.h), exactly as evt/ring: per-thread lock-free rings, drained
 * at progress, drain points and a timer; local tools keep their callbacks.
 * On top, the module is an exporter (MCA_BASE_EVENT_DELIVERY_EXPORTS):
 *   - evtm_exports: the evt_pmix_events filter (evt/base's common_evt_name_filter.h) says
 *     which events leave the process; only their gates stay open;
 *   - evtm_consume: each drained record of an exported event is encoded
 *     into the current batch (the wire format, common_evt_wire.h);
 *   - evtm_progress / evtm_flush: full batches, batches older than
 *     evt_pmix_flush_interval, and the batch of a drain point leave with
 *     PMIx_Notify_event (non-blocking, completion callback,
 *     PMIX_EVENT_NON_DEFAULT, PMIX_EVENT_DO_NOT_CACHE), at most
 *     evt_pmix_max_inflight at a time (evt_pmix_send.h);
 *   - evtm_notice: at the end of MPI_Init the module connects (PMIx is up
 *     then) and, with evt_pmix_sink, the node sink starts
 *     (evt_pmix_sink.h); with evt_pmix_clock_align every rank measures
 *     its clock offset to rank 0 there and again at the start of
 *     MPI_Finalize (evt_pmix_clock.h), and every later batch carries the
 *     samples; at the start of MPI_Finalize every rank waits until all
 *     are there (MPI_Finalize's fence would make it wait anyway), then the
 *     last batch (flagged FINAL, with the last drop counts) leaves and the
 *     sink waits for its node's FINAL batches, each bounded by
 *     evt_pmix_finalize_timeout: no wait runs out because a rank came
 *     late, so finalize costs the job nothing;
 *   - evt_pmix_events patterns that match no event type known at the end
 *     of MPI_Init are named once per job (rank 0's stderr).
 *
 * The raise never blocks and never calls PMIx: it is the kit's store. The
 * overflow policy is always drop-new (a "drain" policy would call PMIx in
 * the raising thread). Nothing is lost silently: a record of an exported
 * event the process cannot export (ring full at the raise, batch refused
 * by PMIx, server gone) is counted per event type
 * (mca_base_event_count_export_dropped()), and the counts travel in the
 * next batch and in the FINAL one; batch sequence numbers reveal batches
 * that never arrived.
 */

#ifndef MCA_EVT_PMIX_H
#define MCA_EVT_PMIX_H

#include "ompi_config.h"

#include "ompi/mca/common/evt/common_evt_name_filter.h"
#include "ompi/mca/evt/evt.h"

BEGIN_C_DECLS

/** Default of evt_pmix_priority: 0, so it is used only when asked for by
 *  name (--mca evt pmix): the base never selects a component of priority <= 0
 *  by elimination (evt_base_select.c). */
#define OMPI_EVT_PMIX_DEFAULT_PRIORITY 0
/** Defaults of the batching parameters. */
#define OMPI_EVT_PMIX_DEFAULT_BATCH_BYTES       (64 * 1024)
#define OMPI_EVT_PMIX_DEFAULT_FLUSH_INTERVAL_MS 10
#define OMPI_EVT_PMIX_DEFAULT_FINALIZE_MS       10000
#define OMPI_EVT_PMIX_DEFAULT_MAX_INFLIGHT      64
/** Most notifications in flight evt_pmix_max_inflight accepts (beyond a few
 *  hundred the PMIx 4 client slows down quadratically: it scans its list of
 *  pending requests at every reply). */
#define OMPI_EVT_PMIX_MAX_INFLIGHT 1024
/** Defaults of the kit parameters: rings of 1 MiB hold about 18,000
 *  records of a 16-byte payload, i.e. a 10 ms flush interval at 1.8 M
 *  raises/s per thread before the timer's drain. */
#define OMPI_EVT_PMIX_DEFAULT_RING_SIZE    (1024 * 1024)
#define OMPI_EVT_PMIX_DEFAULT_POOL_SIZE    64
#define OMPI_EVT_PMIX_DEFAULT_DRAIN_BUDGET 4096

/** evt_pmix_range values (the PMIx data ranges of the notifications). */
typedef enum {
    OMPI_EVT_PMIX_RANGE_LOCAL = 0,     /**< the node (all 4.1.4's mpirun delivers) */
    OMPI_EVT_PMIX_RANGE_NAMESPACE = 1, /**< the job */
    OMPI_EVT_PMIX_RANGE_SESSION = 2,   /**< the allocation */
    OMPI_EVT_PMIX_RANGE_GLOBAL = 3,    /**< everyone the server reaches */
    OMPI_EVT_PMIX_RANGE_CUSTOM = 4,    /**< evt_pmix_custom_range's processes */
} ompi_evt_pmix_range_t;

/** The component: the base component plus its parameter values. */
typedef struct ompi_evt_pmix_component_t {
    ompi_evt_base_component_t super;
    int priority;          /**< evt_pmix_priority */
    char *events;          /**< evt_pmix_events: patterns, NULL = all */
    int range;             /**< evt_pmix_range (ompi_evt_pmix_range_t) */
    char *custom_range;    /**< evt_pmix_custom_range: "nspace[:rank],..." */
    int batch_bytes;       /**< evt_pmix_batch_bytes */
    int flush_interval;    /**< evt_pmix_flush_interval, ms */
    int finalize_timeout;  /**< evt_pmix_finalize_timeout, ms */
    int max_inflight;      /**< evt_pmix_max_inflight */
    char *sink;            /**< evt_pmix_sink: folder of the node files, NULL = none */
    bool clock_align;      /**< evt_pmix_clock_align (evt_pmix_clock.h) */
    bool server_nodelay;   /**< evt_pmix_server_nodelay (evt_pmix_nodelay.h) */
    char *test_clock_skew; /**< evt_pmix_test_clock_skew: "HOST:SECONDS", test only */
    int ring_size;         /**< evt_pmix_ring_size, bytes per thread */
    int pool_size;         /**< evt_pmix_pool_size */
    int drain_budget;      /**< evt_pmix_drain_budget */
    int verbose;           /**< evt_pmix_verbose */
    int output;            /**< opal_output stream (verbose) */
    /** Parsed evt_pmix_events (by evtc_init). */
    mca_common_evt_name_filter_t filter;
} ompi_evt_pmix_component_t;

OMPI_DECLSPEC extern ompi_evt_pmix_component_t mca_evt_pmix_component;

/** The module (evt_pmix_module.c); its kit parameters are set by the
 *  component's init. */
extern ompi_evt_base_module_t ompi_evt_pmix_module;

/** Is this process a PMIx client (already initialised, or started by a
 *  PMIx server that told it where to connect)? Context: INIT. */
bool ompi_evt_pmix_is_client(const char **why_not);

/** Parse evt_pmix_custom_range into an array of PMIx processes (as
 *  pmix_proc_t, allocated). NULL @p spec is an error for the custom range.
 *  @retval OPAL_SUCCESS, OPAL_ERR_BAD_PARAM (*error says why),
 *          OPAL_ERR_OUT_OF_RESOURCE. Context: INIT. */
int ompi_evt_pmix_parse_custom_range(const char *spec, void **procs, size_t *nprocs,
                                     const char **error);

/** Test-only: the module's sender (tests connect it without PMIx and put a
 *  fake PMIx_Notify_event in place, ompi_evt_pmix_test_set_notify()). */
struct ompi_evt_pmix_sender_t *ompi_evt_pmix_test_sender(void);
/** Test-only: the module's node sink, NULL when this rank is none. */
struct ompi_evt_pmix_sink_t *ompi_evt_pmix_test_sink(void);

END_C_DECLS

#endif /* MCA_EVT_PMIX_H */
