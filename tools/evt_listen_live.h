/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi-evt-listen --attach: receive a job's batches live, as a PMIx tool
 * attached to a server that accepts tools (tools/evt_listen_attach.h),
 * into a node file in the output folder, until the job is over. The
 * listener then reads that file exactly as --read reads a node sink's, so
 * the outputs of a live job and of a recorded one are the same, and what
 * arrived survives a listener that is killed before it wrote them.
 *
 * When it is over: every expected rank has sent its FINAL batch (when the
 * number of ranks is given), the server is gone, SIGINT or SIGTERM (Ctrl-C)
 * arrived, or the time limit passed.
 */

#ifndef OMPI_EVT_LISTEN_LIVE_H
#define OMPI_EVT_LISTEN_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What ended the reception. */
typedef enum {
    LISTEN_LIVE_ALL_FINAL = 1, /**< every expected rank sent its FINAL batch */
    LISTEN_LIVE_SERVER_GONE,   /**< the connection to the server was lost */
    LISTEN_LIVE_INTERRUPTED,   /**< SIGINT or SIGTERM */
    LISTEN_LIVE_TIMED_OUT,     /**< the time limit passed */
} listen_live_end_t;

typedef struct listen_live_opts_t {
    const char *target; /**< pid:N | uri:U | system | nspace:NS */
    const char *tmpdir; /**< the server's rendezvous folder, NULL: PMIx's default */
    const char *ready;  /**< created once attached and registered (NULL: none) */
    uint64_t ranks;     /**< stop after this many FINAL batches (0: do not count) */
    double seconds;     /**< time limit (0: none) */
    bool quiet;         /**< no progress line on a terminal */
} listen_live_opts_t;

typedef struct listen_live_result_t {
    listen_live_end_t end;
    uint64_t batches;      /**< valid batches written */
    uint64_t bytes;        /**< their size */
    uint64_t finals;       /**< of them flagged FINAL */
    uint64_t invalid;      /**< notifications of the status code that were not valid batches */
    uint64_t write_errors; /**< batches that could not be written, not even as drop counts */
    uint64_t forged;       /**< batches refused: their sender was not who sent them */
    uint64_t not_stored;   /**< batches kept only as drop counts (no room) */
    char path[4096];       /**< the node file written */
} listen_live_result_t;

/**
 * Attach, receive into OUTDIR/attached.evt until the reception ends (see
 * the file comment), detach.
 * @retval 0   received (possibly nothing); @p res says how it ended
 * @retval -1  the target is malformed, the file cannot be created, or the
 *             attach failed: @p err says why, nothing was received
 * Context: the main thread of the tool; blocks SIGINT and SIGTERM in every
 * thread it creates and waits for them itself while receiving.
 */
int listen_live_receive(const listen_live_opts_t *opts, const char *outdir,
                        listen_live_result_t *res, char *err, size_t errlen);

#endif /* OMPI_EVT_LISTEN_LIVE_H */
