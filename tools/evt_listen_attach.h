/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Receiving a job's exported events outside the job: this process attaches
 * as a PMIx tool to a PMIx server and receives the batches evt/pmix sends
 * (status MCA_COMMON_EVT_WIRE_PMIX_STATUS, common_evt_wire.h). It is the library
 * behind `ompi-evt-listen --attach`.
 *
 * Which servers: any that accepts tools (Open MPI 5's PRRTE; the tests'
 * own server, test/pmix). Not Open MPI 4.1.4's mpirun: it crashes inside
 * libpmix when a tool connects, and it delivers only node-local
 * notifications anyway; there, record with the node sink instead
 * (evt_pmix_sink). The ranks must send with a range that reaches tools
 * (evt_pmix_range=namespace, session or global; or custom naming the
 * tool's process).
 *
 * Targets (ompi_evt_listen_attach_parse()):
 *   pid:N      the server of process N (PMIX_SERVER_PIDINFO)
 *   uri:U      the server listening at URI U (PMIX_SERVER_URI)
 *   system     the node's system server (PMIX_CONNECT_TO_SYSTEM)
 *   nspace:NS  the server whose namespace is NS (PMIX_SERVER_NSPACE)
 * The rendezvous files of the server are looked for in @p tmpdir
 * (PMIX_SYSTEM_TMPDIR and PMIX_SERVER_TMPDIR), or where PMIx looks by
 * default when it is NULL.
 *
 * Only valid batches whose sender (namespace, rank) is the process PMIx
 * names as the notification's source reach the callback; the others are
 * counted (ompi_evt_listen_attach_stats_t: invalid, forged).
 *
 * Threads: the callbacks run on PMIx's threads (PMIx 4.2 may use more than
 * one), one at a time (the library serialises them). A callback must not
 * call ompi_evt_listen_attach_close().
 */

#ifndef OMPI_EVT_LISTEN_ATTACH_H
#define OMPI_EVT_LISTEN_ATTACH_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ompi/mca/common/evt/common_evt_wire.h"

BEGIN_C_DECLS

/** How to find the server. */
typedef enum {
    OMPI_EVT_LISTEN_ATTACH_PID = 1,
    OMPI_EVT_LISTEN_ATTACH_URI = 2,
    OMPI_EVT_LISTEN_ATTACH_SYSTEM = 3,
    OMPI_EVT_LISTEN_ATTACH_NSPACE = 4,
} ompi_evt_listen_attach_kind_t;

typedef struct ompi_evt_listen_attach_target_t {
    ompi_evt_listen_attach_kind_t kind;
    pid_t pid;        /**< PID */
    char value[4096]; /**< URI or NSPACE */
} ompi_evt_listen_attach_target_t;

/**
 * Parse "pid:N", "uri:U", "system" or "nspace:NS".
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM  anything else (*error says what is wrong)
 * Context: any.
 */
int ompi_evt_listen_attach_parse(const char *spec, ompi_evt_listen_attach_target_t *target,
                                 const char **error);

/** A valid batch (decoded: @p batch; its bytes: @p buf, @p len, e.g. to be
 *  written to a file). Valid only during the call. Context: a PMIx
 *  thread, one call at a time. */
typedef void (*ompi_evt_listen_attach_batch_fn_t)(const void *buf, size_t len,
                                                  const mca_common_evt_wire_batch_t *batch,
                                                  void *ctx);
/** The connection to the server is gone (its PMIx status: lost
 *  connection, unreachable). No batch comes after it. Context: PMIx's
 *  progress thread. */
typedef void (*ompi_evt_listen_attach_lost_fn_t)(int status, void *ctx);

/** Counters (read any time). */
typedef struct ompi_evt_listen_attach_stats_t {
    uint64_t batches; /**< valid batches handed to the callback */
    uint64_t invalid; /**< notifications of the status code that were not valid batches */
    uint64_t forged;  /**< valid batches whose sender was not the notification's source
                           (refused) */
    uint64_t bytes;   /**< of the valid batches */
    bool lost;        /**< the connection is gone */
} ompi_evt_listen_attach_stats_t;

typedef struct ompi_evt_listen_attach_t ompi_evt_listen_attach_t;

/**
 * Attach (PMIx_tool_init) and register for the batches; when this returns
 * OPAL_SUCCESS, every batch the server delivers from now on reaches
 * @p on_batch.
 * @param[in] tmpdir      where the server's rendezvous files are (NULL: PMIx's default)
 * @param[in] timeout_ms  bound on the attach and the registration
 * @param[in] on_lost     may be NULL
 * @param[out] error      on failure, what went wrong (NULL allowed)
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM      NULL target or callback
 * @retval OPAL_EXISTS             this process is attached already (one per process)
 * @retval OPAL_ERR_UNREACH        no server found or it refused the tool
 * @retval OPAL_ERR_TIMEOUT, OPAL_ERROR  the registration failed
 * Context: a normal thread, not a PMIx callback.
 */
int ompi_evt_listen_attach_open(const ompi_evt_listen_attach_target_t *target, const char *tmpdir,
                                int timeout_ms, ompi_evt_listen_attach_batch_fn_t on_batch,
                                ompi_evt_listen_attach_lost_fn_t on_lost, void *ctx,
                                ompi_evt_listen_attach_t **attach, char *error, size_t error_len);

/** The tool's own PMIx process (e.g. for evt_pmix_custom_range). */
void ompi_evt_listen_attach_self(const ompi_evt_listen_attach_t *attach, char *nspace,
                                 size_t nspace_len, uint32_t *rank);

/** Counters so far. Context: any. */
void ompi_evt_listen_attach_stats(const ompi_evt_listen_attach_t *attach,
                                  ompi_evt_listen_attach_stats_t *stats);

/** Deregister, detach (PMIx_tool_finalize), free. No callback runs after it
 *  returns. Context: a normal thread, not a PMIx callback. */
void ompi_evt_listen_attach_close(ompi_evt_listen_attach_t *attach);

END_C_DECLS

#endif /* OMPI_EVT_LISTEN_ATTACH_H */
