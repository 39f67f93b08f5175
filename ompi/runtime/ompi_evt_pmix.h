/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The PMIx producer: events from PMIx itself, on source "ompi.pmix",
 * whatever the delivery component (docs/events.md, "Events from PMIx"):
 *   ompi.pmix.proc_resource_usage  this process's resource usage every
 *                                  mpi_events_pmix_resource_rate seconds
 *   ompi.pmix.monitor_alert        PMIx_Process_monitor alarms (heartbeat,
 *                                  file) about the job's processes
 *   ompi.pmix.job_event            job events the host reports (a process
 *                                  terminated or aborted, the job ended, the
 *                                  server connection lost)
 * Payloads: ompi_evt_payloads.h.
 *
 * Pieces, one idea per file:
 *   ompi_evt_pmix_events.c   source, event types, MCA parameters, start and
 *                            stop at MPI_Init / MPI_Finalize, the raises
 *   ompi_evt_pmix_client.c   the PMIx side: event handlers, monitor requests,
 *                            heartbeats, resource-usage updates
 *   ompi_evt_pmix_sampler.c  the /proc sampler thread
 *   ompi_evt_procstat.c      /proc parsing (ompi_evt_procstat.h)
 *
 * Why it starts at the end of MPI_Init and stops at the start of
 * MPI_Finalize: Open MPI 4.1 makes the process a PMIx client inside
 * MPI_Init and finalizes PMIx inside MPI_Finalize; before and after,
 * PMIx_Initialized() is false and only the /proc sampler could run (it
 * does not: the producer describes an MPI process of a job).
 *
 * Where the raises come from: PMIx's own progress thread (alerts, job
 * events, PMIx resource updates) and the sampler thread (the /proc path),
 * never the application's thread. Both raise with
 * MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE: a callback that may only run where
 * MPI may be called (MPI_T_CB_REQUIRE_NONE) gets these records at the next
 * drain point of a deferred delivery (evt/ring), and with evt/sync it
 * counts them as dropped (its dropped handler says so); register at
 * MPI_T_CB_REQUIRE_THREAD_SAFE to receive them at once.
 */

#ifndef OMPI_EVT_PMIX_H
#define OMPI_EVT_PMIX_H

#include "ompi_config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <pmix_common.h>

#include "ompi/runtime/ompi_evt_payloads.h"
#include "opal/mca/base/mca_base_event.h"

BEGIN_C_DECLS

/** Values of mpi_events_pmix_resource_source. */
enum {
    OMPI_EVT_PMIX_RES_AUTO = 0, /**< ask PMIx; sample /proc until (unless) PMIx reports */
    OMPI_EVT_PMIX_RES_PMIX = 1, /**< PMIx only (nothing where it does not report) */
    OMPI_EVT_PMIX_RES_PROC = 2, /**< /proc only */
};

/** Values of mpi_events_pmix_monitor_file_test. */
enum {
    OMPI_EVT_PMIX_FILE_SIZE = 0,   /**< the file must grow */
    OMPI_EVT_PMIX_FILE_ACCESS = 1, /**< the file must be read */
    OMPI_EVT_PMIX_FILE_MODIFY = 2, /**< the file must be modified */
};

/** The producer's MCA parameters (registered by
 *  ompi_evt_pmix_events_register(); read at MPI_Init's end). */
typedef struct ompi_evt_pmix_params_t {
    unsigned int resource_rate; /**< mpi_events_pmix_resource_rate: s, 0 off */
    int resource_source;        /**< mpi_events_pmix_resource_source: OMPI_EVT_PMIX_RES_* */
    unsigned int heartbeat;     /**< mpi_events_pmix_monitor_heartbeat: s, 0 off */
    char *file;                 /**< mpi_events_pmix_monitor_file: path ("%r": the rank), NULL off */
    unsigned int file_check;    /**< mpi_events_pmix_monitor_file_check: s between checks */
    int file_test;              /**< mpi_events_pmix_monitor_file_test: OMPI_EVT_PMIX_FILE_* */
    unsigned int drops;         /**< mpi_events_pmix_monitor_drops: misses before an alert */
    bool job_events;            /**< mpi_events_pmix_job_events */
} ompi_evt_pmix_params_t;

/** Current values (storage of the MCA variables). Context: INIT writes. */
OMPI_DECLSPEC extern ompi_evt_pmix_params_t ompi_evt_pmix_params;

/** The event types (NULL until registered; never freed). */
OMPI_DECLSPEC extern mca_base_event_t *ompi_evt_pmix_resource_event;
OMPI_DECLSPEC extern mca_base_event_t *ompi_evt_pmix_alert_event;
OMPI_DECLSPEC extern mca_base_event_t *ompi_evt_pmix_job_event;

/** The verbose stream (evt_base_verbose). Context: ANY. */
OMPI_DECLSPEC int ompi_evt_pmix_output(void);

/* ------------------------------------------------------------------------
 * The raises (ompi_evt_pmix_events.c). Context: RAISE from a thread of
 * PMIx or of the producer (THREAD_SAFE, see the file comment).
 * ------------------------------------------------------------------------ */

/** Raise a resource-usage sample: seq is assigned here (one sequence for
 *  both origins). */
OMPI_DECLSPEC void ompi_evt_pmix_raise_resource(ompi_evt_pmix_resource_usage_payload_t *p);
/** A sample that could not be taken: its seq is used up (a gap). */
OMPI_DECLSPEC void ompi_evt_pmix_resource_lost(void);
OMPI_DECLSPEC void ompi_evt_pmix_raise_alert(const ompi_evt_pmix_monitor_alert_payload_t *p);
OMPI_DECLSPEC void ompi_evt_pmix_raise_job(const ompi_evt_pmix_job_event_payload_t *p);

/* ------------------------------------------------------------------------
 * The PMIx side (ompi_evt_pmix_client.c)
 * ------------------------------------------------------------------------ */

/** What the PMIx side started. */
typedef struct ompi_evt_pmix_client_state_t {
    bool client;        /**< this process is a PMIx client (PMIx_Init took a reference) */
    int32_t rank;       /**< our PMIx rank, OMPI_EVT_PMIX_RANK_NONE if not a client */
    bool resource_pmix; /**< the resource-usage request was accepted */
} ompi_evt_pmix_client_state_t;

/**
 * Become a PMIx client user (if Open MPI made the process one), register
 * the event handlers and request the monitors the parameters ask for.
 * Failures are reported at evt_base_verbose and leave the feature off.
 * @param[out] state  what was started
 * Context: INIT (end of MPI_Init, the application's thread).
 */
OMPI_DECLSPEC void ompi_evt_pmix_client_start(ompi_evt_pmix_client_state_t *state);

/** Cancel the monitors, deregister the handlers, drop the PMIx reference.
 *  After it returns no handler of ours runs. Context: INIT (start of
 *  MPI_Finalize). */
OMPI_DECLSPEC void ompi_evt_pmix_client_stop(void);

/** PMIx has delivered a resource-usage update for this process (the /proc
 *  sampler then stops in auto mode). Context: ANY. */
OMPI_DECLSPEC bool ompi_evt_pmix_client_serves_resources(void);

/**
 * Read a PMIX_MONITOR_RESUSAGE_UPDATE event's data: every
 * PMIX_PROC_RESOURCE_USAGE container in @p info whose PMIX_PROCID is
 * @p me becomes a payload (origin PMIX, rank and pid set, fields absent
 * or of an unexpected type -1). Containers of other processes, and
 * malformed ones (not an array of pmix_info_t, no PMIX_PROCID first), are
 * skipped.
 * @param[out] out  room for @p max payloads
 * @return the number of payloads filled (<= @p max; the rest are counted
 *         in *@p skipped_over_max when not NULL)
 * Context: ANY (a PMIx event handler).
 */
OMPI_DECLSPEC size_t ompi_evt_pmix_resusage_parse(const pmix_proc_t *me, const pmix_info_t *info,
                                                  size_t ninfo,
                                                  ompi_evt_pmix_resource_usage_payload_t *out,
                                                  size_t max, size_t *skipped_over_max);

/* ------------------------------------------------------------------------
 * The /proc sampler (ompi_evt_pmix_sampler.c)
 * ------------------------------------------------------------------------ */

/** Start the sampler thread: a sample now, then every @p rate_s seconds,
 *  raised with @p rank; it stops by itself once @p stop_if returns true
 *  (NULL: never). Context: INIT.
 *  @retval OMPI_SUCCESS; OPAL_ERR_OUT_OF_RESOURCE; OPAL_ERR_NOT_FOUND (no
 *          /proc/self/stat here) */
OMPI_DECLSPEC int ompi_evt_pmix_sampler_start(unsigned int rate_s, int32_t rank,
                                              bool (*stop_if)(void));
/** Tell the sampler thread to stop; never waits for it (it is detached and
 *  frees itself; a raise it is making completes). Context: INIT. */
OMPI_DECLSPEC void ompi_evt_pmix_sampler_stop(void);

END_C_DECLS

#endif /* OMPI_EVT_PMIX_H */
