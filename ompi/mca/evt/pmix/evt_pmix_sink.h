/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The node sink (evt_pmix_sink=DIR): in the lowest local rank of each node,
 * a PMIx event handler for MCA_COMMON_EVT_WIRE_PMIX_STATUS that appends every
 * valid batch sent from its node to DIR/<host>.evt (the node file,
 * common_evt_nodefile.h). Nothing is decoded to text during the run.
 *
 * The handler runs on PMIx's threads: its progress thread, and, in PMIx
 * 4.2, also the thread that calls PMIx_Notify_event when the process
 * itself is a receiver (the sink's rank delivers its own batches to itself
 * from inside its drain). The sink's lock serialises them. It
 * validates each batch (mca_common_evt_wire_decode), refuses a batch whose
 * sender (namespace, rank) is not the notification's PMIx source (any
 * process of the job could otherwise write in another's name: its batch
 * numbers would make the real ones look like duplicates), keeps only
 * those whose sender is on this node (with the LOCAL range that is every
 * batch; wider ranges would bring other nodes' batches too), drops
 * duplicates (a batch sequence number already seen from that sender),
 * counts the batches that never arrived (gaps in a sender's sequence), and
 * appends.
 *
 * No room (file system full, quota, RLIMIT_FSIZE): a batch that does not
 * fit is written restated as drops (mca_common_evt_wire_batch_as_drops(): same
 * number, records counted per type, flagged NOT_STORED), into a reserve
 * kept free for that (OMPI_EVT_PMIX_SINK_RESERVE), so a reader still
 * accounts for every event and knows the recording is incomplete. The
 * sink rank says so on its stderr when it first happens and with the
 * totals at the end.
 *
 * Finalize: every sender ends with a batch flagged FINAL. The sink waits
 * (evt_pmix_finalize_timeout) until each local peer's FINAL batch arrived,
 * then stops; peers whose FINAL did not come are named in a warning, with
 * the last batch sequence number seen from each, so a reader knows where
 * their records stop.
 */

#ifndef MCA_EVT_PMIX_SINK_H
#define MCA_EVT_PMIX_SINK_H

#include "ompi_config.h"

#include <pmix.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_seqset.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

BEGIN_C_DECLS

/** Bytes of the node file's file system kept for the batches restated as
 *  drops when the rest is full (a few hundred bytes each). */
#define OMPI_EVT_PMIX_SINK_RESERVE (128 * 1024)

/** What the sink knows of one sender (handler thread only, then read at
 *  close). */
typedef struct ompi_evt_pmix_sink_peer_t {
    char nspace[PMIX_MAX_NSLEN + 1];
    uint32_t rank;
    bool expected;                /**< a local peer of the sink's job (its FINAL is awaited) */
    bool final;                   /**< its FINAL batch arrived */
    mca_common_evt_seqset_t seqs; /**< batch numbers that arrived */
    uint64_t batches;             /**< appended */
    uint64_t unstored;            /**< did not fit: kept as counts of drops (or lost) */
    uint64_t uncounted;           /**< did not fit even as counts */
} ompi_evt_pmix_sink_peer_t;

typedef struct ompi_evt_pmix_sink_t {
    mca_common_evt_nodefile_t file;
    char host[MCA_COMMON_EVT_WIRE_HOST_MAX + 1];
    char nspace[PMIX_MAX_NSLEN + 1];
    int output;     /**< opal_output stream for verbose lines */
    size_t handler; /**< PMIx event handler id */
    bool registered;
    bool open;
    /** Serialises the handler's invocations (PMIx may run several at once). */
    pthread_mutex_t lock;
    ompi_evt_pmix_sink_peer_t *peers;
    int npeers, cap_peers;
    int nexpected;
    /** Expected peers whose FINAL arrived (release by the handler, acquire
     *  by the waiter in ompi_evt_pmix_sink_wait()). */
    atomic_int finals;
    atomic_ulong batches, records, bytes, rejected, foreign, duplicates, write_errors, missing;
    /** Batches whose claimed sender was not the notification's source. */
    atomic_ulong forged;
    /** Batches (and their records) that did not fit; of those, the ones
     *  that did not fit even restated as drops. */
    atomic_ulong unstored, unstored_records, uncounted, uncounted_records;
    bool forged_said, full_said; /**< stderr lines said (under the lock) */
    /** CLOCK_MONOTONIC ns of the last append (statistics). */
    _Atomic int64_t last_append_ns;
    atomic_bool error_logged;
} ompi_evt_pmix_sink_t;

/**
 * Become the node sink: create DIR/<host>.evt (and its index), then
 * register the PMIx handler (waiting for PMIx to confirm it, at most
 * @p timeout_ms).
 * @param[in] peers, npeers  ranks of @p nspace on this node (their FINAL
 *                           batches are awaited at the end)
 * @retval OPAL_SUCCESS
 * @retval the node file's error (mca_common_evt_nodefile_open()), or
 *         OPAL_ERROR / OPAL_ERR_TIMEOUT for the registration
 * Context: INIT, after PMIx is up. One sink per process.
 */
int ompi_evt_pmix_sink_open(ompi_evt_pmix_sink_t *sink, const char *dir, const char *host,
                            const char *nspace, const uint32_t *peers, int npeers, int output,
                            int timeout_ms);

/** Wait until every expected peer's FINAL batch arrived, at most until
 *  @p deadline_ns (CLOCK_MONOTONIC). @return peers still missing.
 *  Context: INIT. */
int ompi_evt_pmix_sink_wait(ompi_evt_pmix_sink_t *sink, int64_t deadline_ns);

/** Deregister the handler (no batch is handled after this returns), close
 *  the node file, say what was written (verbose) and which peers ended
 *  without a FINAL batch (a warning). Safe when not open. Context: INIT. */
void ompi_evt_pmix_sink_close(ompi_evt_pmix_sink_t *sink, int timeout_ms);

/** Handle one notification's batch bytes as the PMIx handler does (tests
 *  feed batches without PMIx).
 *  @param[in] source  who sent the notification, as PMIx says (NULL:
 *                     unknown, the batch is refused)
 *  Context: ANY (the sink's lock serialises calls). */
void ompi_evt_pmix_sink_take(ompi_evt_pmix_sink_t *sink, const pmix_proc_t *source, const void *buf,
                             size_t len);

/** Test-only: ompi_evt_pmix_sink_open() without PMIx (no handler is
 *  registered; batches are fed with ompi_evt_pmix_sink_take()). */
int ompi_evt_pmix_sink_test_open(ompi_evt_pmix_sink_t *sink, const char *dir, const char *host,
                                 const char *nspace, const uint32_t *peers, int npeers);

END_C_DECLS

#endif /* MCA_EVT_PMIX_SINK_H */
