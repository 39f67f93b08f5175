/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The node sink (evt_pmix_sink.h).
 */

#include "ompi_config.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ompi/mca/common/evt/common_evt_latch.h"
#include "ompi/mca/common/evt/common_evt_receive.h"
#include "ompi/mca/evt/base/evt_base_report.h"
#include "ompi/mca/evt/pmix/evt_pmix_send.h"
#include "ompi/mca/evt/pmix/evt_pmix_sink.h"
#include "opal/constants.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"

/* The process's sink: PMIx event handlers take no user data. Set before
 * the handler is registered, cleared after it is deregistered. */
static ompi_evt_pmix_sink_t *the_sink;

static inline void count(atomic_ulong *c, unsigned long n)
{
    /* relaxed: statistics, read after the handler is deregistered */
    atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

/* Context: the handler thread. */
static ompi_evt_pmix_sink_peer_t *peer_find(ompi_evt_pmix_sink_t *sink, const char *nspace,
                                            uint32_t rank)
{
    ompi_evt_pmix_sink_peer_t *p;

    for (int i = 0; i < sink->npeers; ++i) {
        if (sink->peers[i].rank == rank && 0 == strcmp(sink->peers[i].nspace, nspace)) {
            return &sink->peers[i];
        }
    }
    if (sink->npeers == sink->cap_peers) {
        int cap = 0 == sink->cap_peers ? 16 : 2 * sink->cap_peers;
        p = realloc(sink->peers, (size_t) cap * sizeof(*p));
        if (NULL == p) {
            return NULL;
        }
        sink->peers = p;
        sink->cap_peers = cap;
    }
    p = &sink->peers[sink->npeers++];
    memset(p, 0, sizeof(*p));
    (void) snprintf(p->nspace, sizeof(p->nspace), "%s", nspace);
    p->rank = rank;
    return p;
}

/* Free the senders' records. Context: INIT (no handler runs). */
static void peers_free(ompi_evt_pmix_sink_t *sink)
{
    for (int i = 0; i < sink->npeers; ++i) {
        mca_common_evt_seqset_free(&sink->peers[i].seqs);
    }
    free(sink->peers);
    sink->peers = NULL;
}

static void log_once(ompi_evt_pmix_sink_t *sink, const char *what, const char *detail)
{
    if (!atomic_exchange_explicit(&sink->error_logged, true, memory_order_relaxed)) {
        opal_output_verbose(1, sink->output, "evt:pmix:sink: %s: %s (said once)", what,
                            NULL == detail ? "" : detail);
    }
}

/* A batch whose claimed sender is not the notification's source: counted,
 * said once. Context: the handler thread, sink lock held. */
static void forged(ompi_evt_pmix_sink_t *sink, const mca_common_evt_wire_batch_t *b,
                   const pmix_proc_t *source)
{
    count(&sink->forged, 1);
    if (!sink->forged_said) {
        sink->forged_said = true;
        ompi_evt_base_report_warning(
            OMPI_EVT_REPORT_THIS_PROCESS,
            "node sink %s: a batch claiming to come from %s rank %u was sent by %s rank %u: "
            "ignored (batches whose sender is not the notification's source are not recorded; "
            "said once)",
            sink->file.path, b->sender.nspace, b->sender.rank,
            NULL == source ? "an unknown process" : source->nspace,
            NULL == source ? 0u : source->rank);
    }
}

/* The numbers missing from a sender grew by @p add, or shrank by @p sub (a
 * late batch filled one). The total saturates: one sender numbering its
 * batches near UINT64_MAX must not wrap it below the other senders' gaps.
 * Context: the handler thread, sink lock held (the only writer). */
static void missing_adjust(ompi_evt_pmix_sink_t *sink, uint64_t add, uint64_t sub)
{
    unsigned long m = atomic_load_explicit(&sink->missing, memory_order_relaxed);

    if (ULONG_MAX == m) {
        return; /* saturated */
    }
    m = add > ULONG_MAX - m ? ULONG_MAX : m + (unsigned long) add;
    if (ULONG_MAX != m) {
        m -= sub <= m ? (unsigned long) sub : m;
    }
    atomic_store_explicit(&sink->missing, m, memory_order_relaxed);
}

/* No room for a batch: keep it restated as drops (same number, the
 * records counted per type), in the reserve if need be, so a reader still
 * accounts for every event. Context: the handler thread, sink lock held. */
static void keep_as_drops(ompi_evt_pmix_sink_t *sink, ompi_evt_pmix_sink_peer_t *peer,
                          const void *buf, size_t len, const mca_common_evt_wire_batch_t *b)
{
    mca_common_evt_wire_batch_t restated = *b;
    void *drops = NULL;
    size_t dlen = 0;
    int rc;

    ++peer->unstored;
    count(&sink->unstored, 1);
    count(&sink->unstored_records, b->num_records);
    if (!sink->full_said) {
        sink->full_said = true;
        ompi_evt_base_report_warning(
            OMPI_EVT_REPORT_THIS_PROCESS,
            "node sink %s: no room for the batches of this node (%s): from now on a batch that "
            "does not fit is kept only as counts of dropped events, and the recording is "
            "incomplete (said once; the totals follow at the end)",
            sink->file.path, sink->file.error);
    }
    rc = mca_common_evt_wire_batch_as_drops(buf, len, b, MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED,
                                            &drops, &dlen);
    if (OPAL_SUCCESS == rc) {
        restated.flags |= MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED;
        rc = mca_common_evt_nodefile_append_decoded(&sink->file, drops, dlen, &restated);
        if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
            rc = mca_common_evt_nodefile_append_reserved(&sink->file, drops, dlen, &restated);
        }
        free(drops);
    }
    if (OPAL_SUCCESS != rc) {
        ++peer->uncounted;
        count(&sink->uncounted, 1);
        count(&sink->uncounted_records, b->num_records);
    }
}

/* Context: a PMIx thread, or the sink rank's drainer inside its own
 * PMIx_Notify_event: PMIx 4.2 runs event handlers on more than one thread,
 * sometimes at once, so the sink serialises them (the node file has one
 * writer at a time). */
void ompi_evt_pmix_sink_take(ompi_evt_pmix_sink_t *sink, const pmix_proc_t *source, const void *buf,
                             size_t len)
{
    mca_common_evt_wire_batch_t b;
    ompi_evt_pmix_sink_peer_t *peer;
    uint64_t last;
    bool had_last;
    int rc;

    (void) pthread_mutex_lock(&sink->lock);
    switch (mca_common_evt_receive_decode(source, buf, len, &b)) {
    case MCA_COMMON_EVT_RECEIVED:
        break;
    case MCA_COMMON_EVT_RECEIVE_FORGED:
        forged(sink, &b, source);
        goto out;
    case MCA_COMMON_EVT_RECEIVE_NOMEM:
        count(&sink->rejected, 1);
        log_once(sink, "out of memory", "a batch was not written");
        goto out;
    default:
        count(&sink->rejected, 1);
        log_once(sink, "a notification that is not a valid batch was ignored", b.error);
        goto out;
    }
    if (0 != strcmp(b.sender.host, sink->host)) {
        count(&sink->foreign, 1); /* another node's batch: its sink has it */
        goto out;
    }
    peer = peer_find(sink, b.sender.nspace, b.sender.rank);
    if (NULL == peer) {
        count(&sink->rejected, 1);
        log_once(sink, "out of memory", "a batch was not written");
        goto out;
    }
    /* the change of the sender's gaps follows from its highest number: no
     * walk over its intervals per batch (O(n) each: quadratic for a sender
     * whose numbers are sparse) */
    had_last = mca_common_evt_seqset_last(&peer->seqs, &last);
    switch (mca_common_evt_seqset_add(&peer->seqs, b.seq)) {
    case 0:
        count(&sink->duplicates, 1);
        goto out;
    case 1:
        /* above the highest: the numbers between are missing (so far); below
         * it: a late batch fills a gap, the count of missing ones goes down */
        if (!had_last) {
            missing_adjust(sink, b.seq, 0);
        } else if (b.seq > last) {
            missing_adjust(sink, b.seq - last - 1, 0);
        } else {
            missing_adjust(sink, 0, 1);
        }
        break;
    default:
        count(&sink->rejected, 1);
        log_once(sink, "out of memory", "a batch was not written");
        goto out;
    }
    rc = mca_common_evt_nodefile_append_decoded(&sink->file, buf, len, &b);
    if (OPAL_SUCCESS != rc) {
        count(&sink->write_errors, 1);
        log_once(sink, "a batch could not be written", sink->file.error);
        keep_as_drops(sink, peer, buf, len, &b);
    } else {
        ++peer->batches;
        count(&sink->batches, 1);
        count(&sink->records, b.num_records);
        count(&sink->bytes, len);
        atomic_store_explicit(&sink->last_append_ns, ompi_evt_pmix_now_ns(), memory_order_relaxed);
    }
    if (0 != (b.flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL) && !peer->final) {
        peer->final = true;
        if (peer->expected) {
            /* release: pairs with the acquire in ompi_evt_pmix_sink_wait() */
            atomic_fetch_add_explicit(&sink->finals, 1, memory_order_release);
        }
    }
out:
    mca_common_evt_wire_batch_destruct(&b);
    (void) pthread_mutex_unlock(&sink->lock);
}

/* PMIx's event handler. Context: PMIx's progress thread. */
static void sink_handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    ompi_evt_pmix_sink_t *sink = the_sink;
    const void *buf;
    size_t len;

    if (NULL != sink) {
        switch (mca_common_evt_receive_find(info, ninfo, &buf, &len)) {
        case MCA_COMMON_EVT_RECEIVED:
            ompi_evt_pmix_sink_take(sink, source, buf, len);
            break;
        case MCA_COMMON_EVT_RECEIVE_INVALID:
            count(&sink->rejected, 1);
            break;
        default:
            break;
        }
    }
    if (NULL != cbfunc) {
        /* PMIX_SUCCESS: other handlers of the code (a tool's) still run */
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* The node file and the expected peers. Context: INIT. */
static int sink_prepare(ompi_evt_pmix_sink_t *sink, const char *dir, const char *host,
                        const char *nspace, const uint32_t *peers, int npeers, int output)
{
    int rc;

    memset(sink, 0, sizeof(*sink));
    (void) pthread_mutex_init(&sink->lock, NULL);
    sink->output = output;
    (void) snprintf(sink->host, sizeof(sink->host), "%s", host);
    (void) snprintf(sink->nspace, sizeof(sink->nspace), "%s", nspace);
    for (int i = 0; i < npeers; ++i) {
        ompi_evt_pmix_sink_peer_t *p = peer_find(sink, nspace, peers[i]);
        if (NULL == p) {
            peers_free(sink);
            return OPAL_ERR_OUT_OF_RESOURCE;
        }
        if (!p->expected) {
            p->expected = true;
            ++sink->nexpected;
        }
    }
    rc = mca_common_evt_nodefile_open(&sink->file, dir, host);
    if (OPAL_SUCCESS != rc) {
        /* said here, by this rank: this decides that nothing of the node
         * is recorded, and a help message forwarded through mpirun may be
         * lost */
        ompi_evt_base_report_error(OMPI_EVT_REPORT_THIS_PROCESS,
                                   "node sink: cannot create the node file of \"%s\" in %s: "
                                   "%s%s. Nothing of this node is recorded.",
                                   host, dir, sink->file.error,
                                   OPAL_EXISTS == rc ? " (files are never overwritten: choose "
                                                       "an empty folder)"
                                                     : "");
        peers_free(sink);
        return rc;
    }
    if (OPAL_SUCCESS
        != mca_common_evt_nodefile_set_reserve(&sink->file, OMPI_EVT_PMIX_SINK_RESERVE)) {
        ompi_evt_base_report_warning(OMPI_EVT_REPORT_THIS_PROCESS,
                                     "node sink %s: less than %d KiB of room (%s): batches that "
                                     "do not fit will be lost without being counted",
                                     sink->file.path, OMPI_EVT_PMIX_SINK_RESERVE / 1024,
                                     sink->file.error);
    }
    sink->open = true;
    return OPAL_SUCCESS;
}

/* Test-only. */
int ompi_evt_pmix_sink_test_open(ompi_evt_pmix_sink_t *sink, const char *dir, const char *host,
                                 const char *nspace, const uint32_t *peers, int npeers)
{
    return sink_prepare(sink, dir, host, nspace, peers, npeers, -1);
}

/* Context: INIT. */
int ompi_evt_pmix_sink_open(ompi_evt_pmix_sink_t *sink, const char *dir, const char *host,
                            const char *nspace, const uint32_t *peers, int npeers, int output,
                            int timeout_ms)
{
    pmix_status_t code = MCA_COMMON_EVT_WIRE_PMIX_STATUS, status = PMIX_ERROR;
    pmix_info_t name;
    int rc;

    rc = sink_prepare(sink, dir, host, nspace, peers, npeers, output);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    the_sink = sink;

    PMIX_INFO_LOAD(&name, PMIX_EVENT_HDLR_NAME, "ompi.evt.sink", PMIX_STRING);
    rc = mca_common_evt_latch_register(&code, 1, &name, 1, sink_handler, timeout_ms, &status,
                                       &sink->handler);
    PMIX_INFO_DESTRUCT(&name);
    if (OPAL_SUCCESS != rc) {
        goto fail;
    }
    sink->registered = true;
    opal_output_verbose(10, output,
                        "evt:pmix:sink: node sink of %s: %s, awaiting %d local rank(s) of %s", host,
                        sink->file.path, sink->nexpected, nspace);
    return OPAL_SUCCESS;

fail:
    ompi_evt_base_report_error(OMPI_EVT_REPORT_THIS_PROCESS,
                               "node sink: the PMIx event handler could not be registered "
                               "(%s): nothing of node \"%s\" is recorded",
                               OPAL_ERR_TIMEOUT == rc ? "no answer in time"
                                                      : PMIx_Error_string(status),
                               host);
    the_sink = NULL;
    mca_common_evt_nodefile_close(&sink->file);
    mca_common_evt_nodefile_remove(&sink->file);
    sink->open = false;
    peers_free(sink);
    return rc;
}

/* Context: INIT. */
int ompi_evt_pmix_sink_wait(ompi_evt_pmix_sink_t *sink, int64_t deadline_ns)
{
    if (!sink->open) {
        return 0;
    }
    /* acquire: pairs with the handler's release; the peers it marked are
     * read only after the deregistration anyway */
    while (atomic_load_explicit(&sink->finals, memory_order_acquire) < sink->nexpected) {
        struct timespec ts = {.tv_sec = 0, .tv_nsec = 1000000};

        if (ompi_evt_pmix_now_ns() >= deadline_ns) {
            break;
        }
        (void) nanosleep(&ts, NULL);
    }
    return sink->nexpected - atomic_load_explicit(&sink->finals, memory_order_acquire);
}

/* Context: INIT. */
void ompi_evt_pmix_sink_close(ompi_evt_pmix_sink_t *sink, int timeout_ms)
{
    char missing[512] = "";
    size_t used = 0;
    int nmissing = 0;

    if (!sink->open) {
        return;
    }
    if (sink->registered) {
        sink->registered = false;
        if (OPAL_ERR_TIMEOUT == mca_common_evt_latch_deregister(sink->handler, timeout_ms)) {
            /* the handler may still run: keep the sink's memory (the_sink
             * stays) and the file open */
            opal_output_verbose(1, sink->output,
                                "evt:pmix:sink: PMIx did not confirm the handler's removal in "
                                "%d ms: the node file stays open",
                                timeout_ms);
            return;
        }
    }
    the_sink = NULL;
    for (int i = 0; i < sink->npeers; ++i) {
        const ompi_evt_pmix_sink_peer_t *p = &sink->peers[i];
        if (p->expected && !p->final && used < sizeof(missing) - 64) {
            uint64_t last;
            if (mca_common_evt_seqset_last(&p->seqs, &last)) {
                used += (size_t) snprintf(missing + used, sizeof(missing) - used,
                                          "%srank %u (last batch %llu)", 0 == nmissing ? "" : ", ",
                                          p->rank, (unsigned long long) last);
            } else {
                used += (size_t) snprintf(missing + used, sizeof(missing) - used,
                                          "%srank %u (no batch)", 0 == nmissing ? "" : ", ",
                                          p->rank);
            }
            ++nmissing;
        }
    }
    opal_output_verbose(
        10, sink->output,
        "evt:pmix:sink: %s: %lu batches (%lu records), %lu bytes from %d sender(s); %lu "
        "batches never arrived, %lu duplicates, %lu invalid, %lu of other "
        "nodes, %lu write errors",
        sink->file.path, atomic_load(&sink->batches), atomic_load(&sink->records),
        atomic_load(&sink->bytes), sink->npeers, atomic_load(&sink->missing),
        atomic_load(&sink->duplicates), atomic_load(&sink->rejected), atomic_load(&sink->foreign),
        atomic_load(&sink->write_errors));
    if (0 < atomic_load(&sink->unstored)) {
        unsigned long uncounted = atomic_load(&sink->uncounted);
        char lost[128] = "";

        if (0 < uncounted) {
            (void) snprintf(lost, sizeof(lost),
                            "; %lu batch(es) (%lu events) did not fit even so and are missing",
                            uncounted, atomic_load(&sink->uncounted_records));
        }
        ompi_evt_base_report_warning(
            OMPI_EVT_REPORT_THIS_PROCESS,
            "node sink %s: %lu batch(es) holding %lu event(s) did not fit (%s). The recording "
            "is incomplete: %lu of them are in the file as counts of dropped events per rank and "
            "type%s",
            sink->file.path, atomic_load(&sink->unstored), atomic_load(&sink->unstored_records),
            sink->file.error, atomic_load(&sink->unstored) - uncounted, lost);
    }
    if (0 < atomic_load(&sink->forged)) {
        ompi_evt_base_report_warning(OMPI_EVT_REPORT_THIS_PROCESS,
                                     "node sink %s: %lu batch(es) whose sender was not the "
                                     "process that sent them were ignored",
                                     sink->file.path, atomic_load(&sink->forged));
    }
    if (0 < nmissing) {
        /* Straight to the rank's stderr, not through opal_show_help: at
         * this point of a job that lost a rank, Open MPI 4.1.4's mpirun
         * fails to unpack forwarded help messages ("Data unpack would read
         * past end of buffer" in orte/util/show_help.c) and the warning
         * would be lost. */
        opal_output(0,
                    "evt:pmix:sink: WARNING: %s: the last batch of %d local rank(s) did not "
                    "arrive: %s. Their records after the batch named here are not in the "
                    "file (a rank that died, or that reached MPI_Finalize more than "
                    "evt_pmix_finalize_timeout ms after this one)",
                    sink->file.path, nmissing, missing);
    }
    mca_common_evt_nodefile_close(&sink->file);
    sink->open = false;
    peers_free(sink);
    sink->npeers = sink->cap_peers = 0;
    (void) pthread_mutex_destroy(&sink->lock);
}
