/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/pmix module: the exporter's slots of the module table (evt.h) and its
 * life cycle: built at selection, connected at the end of MPI_Init (PMIx
 * is up then), finished at the start of MPI_Finalize (the FINAL batch, the
 * node sink's wait). evt_pmix.h gives the overview.
 */

#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ompi/constants.h"
#include "ompi/mca/common/evt/common_evt_identity.h"
#include "ompi/mca/common/evt/common_evt_latch.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/pmix/evt_pmix.h"
#include "ompi/mca/evt/pmix/evt_pmix_clock.h"
#include "ompi/mca/evt/pmix/evt_pmix_nodelay.h"
#include "ompi/mca/evt/pmix/evt_pmix_send.h"
#include "ompi/mca/evt/pmix/evt_pmix_sink.h"
#include "opal/util/output.h"
#include "opal/util/show_help.h"

static int pmix_module_init(void);
static int pmix_module_finalize(void);
static bool pmix_exports(const mca_base_event_t *event);
static int pmix_consume(const mca_base_event_record_t *record);
static int pmix_progress(void);
static int pmix_flush(void);
static void pmix_notice(ompi_evt_base_notice_t notice);

/* evtm_kit is filled by pmix_init() (evt_pmix_component.c). */
ompi_evt_base_module_t ompi_evt_pmix_module = {
    .evtm_flags = MCA_BASE_EVENT_DELIVERY_DEFERRED | MCA_BASE_EVENT_DELIVERY_EXPORTS,
    .evtm_init = pmix_module_init,
    .evtm_finalize = pmix_module_finalize,
    .evtm_exports = pmix_exports,
    .evtm_consume = pmix_consume,
    .evtm_progress = pmix_progress,
    .evtm_flush = pmix_flush,
    .evtm_notice = pmix_notice,
};

/* The module's state. Written in INIT context; the sender has its own
 * lock for what drains touch. */
static struct {
    bool built;     /**< the sender exists (evtm_init ran) */
    bool connected; /**< we hold a PMIx_Init reference */
    bool finished;  /**< the FINAL batch went (or was given up) */
    bool sink_open;
    bool lost_registered; /**< lost_handler is registered */
    size_t lost_handler;
    pmix_proc_t me;
    ompi_evt_pmix_clock_t clock;
    ompi_evt_pmix_sender_t sender;
    ompi_evt_pmix_sink_t sink;
} pm;

static const char *const range_names[] = {"local", "namespace", "session", "global", "custom"};

static pmix_data_range_t pmix_range(int range)
{
    switch (range) {
    case OMPI_EVT_PMIX_RANGE_NAMESPACE:
        return PMIX_RANGE_NAMESPACE;
    case OMPI_EVT_PMIX_RANGE_SESSION:
        return PMIX_RANGE_SESSION;
    case OMPI_EVT_PMIX_RANGE_GLOBAL:
        return PMIX_RANGE_GLOBAL;
    case OMPI_EVT_PMIX_RANGE_CUSTOM:
        return PMIX_RANGE_CUSTOM;
    default:
        return PMIX_RANGE_LOCAL;
    }
}

/* The ranks of our job on this node (PMIX_LOCAL_PEERS, "0,1,2"), allocated.
 * Context: INIT. */
static uint32_t *local_peers(int *n)
{
    pmix_value_t *val = NULL;
    pmix_proc_t wild;
    uint32_t *peers = NULL;

    *n = 0;
    PMIX_LOAD_PROCID(&wild, pm.me.nspace, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS == PMIx_Get(&wild, PMIX_LOCAL_PEERS, NULL, 0, &val) && NULL != val
        && PMIX_STRING == val->type && NULL != val->data.string) {
        const char *p = val->data.string;
        int cap = 1;

        for (const char *q = p; '\0' != *q; ++q) {
            cap += ',' == *q;
        }
        peers = calloc((size_t) cap, sizeof(*peers));
        while (NULL != peers && '\0' != *p && *n < cap) {
            char *end;
            unsigned long r = strtoul(p, &end, 10);
            if (end == p) {
                break;
            }
            peers[(*n)++] = (uint32_t) r;
            p = ',' == *end ? end + 1 : end;
        }
    }
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
    return peers;
}

/* Was this job started by another's MPI_Comm_spawn? PMIX_PARENT_ID, or
 * OMPI_PARENT_PORT (Open MPI 4.1.4's mpirun gives a spawned process only
 * the latter, which its MPI_Init reads). Context: INIT, connected. */
static bool job_was_spawned(void)
{
    const char *port = getenv("OMPI_PARENT_PORT");
    pmix_value_t *val = NULL;
    pmix_proc_t me;
    bool spawned;

    if (NULL != port && '\0' != port[0]) {
        return true;
    }
    PMIX_LOAD_PROCID(&me, pm.me.nspace, pm.me.rank);
    spawned = PMIX_SUCCESS == PMIx_Get(&me, PMIX_PARENT_ID, NULL, 0, &val);
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
    return spawned;
}

/* With evt_pmix_sink: become the node's sink if we are its lowest rank.
 * Context: INIT, connected. */
static void sink_start(const char *host)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    uint32_t *peers, lowest;
    int npeers, rc;

    peers = local_peers(&npeers);
    if (NULL == peers || 0 == npeers) {
        opal_show_help("help-mca-evt-pmix.txt", "sink-no-peers", true, c->sink, host);
        free(peers);
        return;
    }
    lowest = peers[0];
    for (int i = 1; i < npeers; ++i) {
        lowest = peers[i] < lowest ? peers[i] : lowest;
    }
    if (lowest == pm.me.rank) {
        rc = ompi_evt_pmix_sink_open(&pm.sink, c->sink, host, pm.me.nspace, peers, npeers,
                                     c->output, 10000);
        if (OPAL_SUCCESS == rc) {
            pm.sink_open = true;
        } else if (OPAL_EXISTS == rc && job_was_spawned()) {
            /* The node file of a spawned job's node where its parent job
             * runs is the parent's sink's, which writes every batch of its
             * node whatever the job (evt_pmix_sink.c): this job's batches
             * are recorded there, not lost. */
            opal_output_verbose(10, c->output,
                                "evt:pmix: %s: the node sink of the parent job records the "
                                "batches of this spawned job",
                                pm.sink.file.error);
        } else {
            opal_show_help("help-mca-evt-pmix.txt", "sink-open-failed", true, c->sink, host,
                           '\0' != pm.sink.file.error[0] ? pm.sink.file.error : "see above", rc);
        }
    }
    free(peers);
}

/* The PMIx server is gone. Runs first among the handlers of the code:
 * Open MPI 4.1.4 ends the process (exit status 195) in one of the later
 * ones, so this is the last word of the exporter. Context: a PMIx thread. */
static void lost_handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    ompi_evt_pmix_send_stats_t *st = &pm.sender.stats;

    if (pm.built) {
        ompi_evt_pmix_sender_lost(&pm.sender);
        opal_output(0,
                    "evt:pmix: %s:%u: the PMIx server is gone (%s): exporting stopped; %lu "
                    "records exported in %lu batches, %lu records not exported (counted), %d "
                    "notifications unconfirmed",
                    pm.sender.who.nspace, pm.sender.who.rank, PMIx_Error_string(status),
                    atomic_load(&st->records_sent), atomic_load(&st->batches_sent),
                    atomic_load(&st->records_dropped), atomic_load(&pm.sender.inflight));
    }
    if (NULL != cbfunc) {
        /* the other handlers (Open MPI's) decide what happens to the process */
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* Context: INIT. */
static void lost_register(void)
{
    pmix_status_t codes[2] = {PMIX_ERR_LOST_CONNECTION, PMIX_ERR_UNREACH};
    pmix_status_t status = PMIX_ERROR;
    pmix_info_t info[2];
    bool yes = true;
    int rc;

    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_HDLR_NAME, "ompi.evt.pmix.lost", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_HDLR_FIRST, &yes, PMIX_BOOL);
    rc = mca_common_evt_latch_register(codes, 2, info, 2, lost_handler, 10000, &status,
                                       &pm.lost_handler);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (OPAL_ERR_OUT_OF_RESOURCE == rc) {
        return;
    }
    pm.lost_registered = OPAL_SUCCESS == rc;
    if (!pm.lost_registered) {
        opal_output_verbose(1, mca_evt_pmix_component.output,
                            "evt:pmix: no handler for a lost PMIx server (%s): its loss is "
                            "seen only when a batch is refused",
                            PMIx_Error_string(status));
    }
}

/* Context: INIT. */
static void lost_deregister(void)
{
    /* without memory for the latch nothing is asked: still registered */
    if (pm.lost_registered
        && OPAL_ERR_OUT_OF_RESOURCE
               != mca_common_evt_latch_deregister(pm.lost_handler,
                                                  mca_evt_pmix_component.finalize_timeout)) {
        pm.lost_registered = false;
    }
}

/* evt_pmix_test_clock_skew: once the node's name is known (PMIx). In a
 * process whose MPI_Init selected the module, PMIx is up before any batch
 * is built, so every clock pair has the skew; a process that opened MPI_T
 * first may have built batches before (said). Context: INIT. */
static void skew_start(const char *host)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    const char *why = NULL;
    int64_t skew = 0;

    if (NULL == c->test_clock_skew
        || OPAL_SUCCESS != ompi_evt_pmix_clock_parse_skew(c->test_clock_skew, host, &skew, &why)
        || 0 == skew) {
        return;
    }
    ompi_evt_pmix_clock_set_skew(skew);
    opal_output_verbose(10, c->output,
                        "evt:pmix: TEST ONLY: node %s's CLOCK_REALTIME readings are off by %lld "
                        "ns (evt_pmix_test_clock_skew)%s",
                        host, (long long) skew,
                        0 < pm.sender.next_seq ? "; batches built before have no skew" : "");
}

/* The clock offset to rank 0 (evt_pmix_clock.h), measured by every rank at
 * the same point; the sample goes with every later batch. Context: INIT,
 * MPI usable. */
static void clock_sample(bool last)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    mca_common_evt_wire_offset_t sample;
    int timeout = 0 < c->finalize_timeout ? c->finalize_timeout : 1;
    int rc;

    if (!c->clock_align) {
        return;
    }
    rc = ompi_evt_pmix_clock_align(&pm.clock, last, timeout, &sample);
    if (OPAL_SUCCESS == rc) {
        rc = ompi_evt_pmix_sender_add_offset(&pm.sender, &sample);
        opal_output_verbose(10, c->output,
                            "evt:pmix: %s:%u clock offset to rank 0 at %s: %lld ns (+- %llu ns)",
                            pm.sender.who.nspace, pm.sender.who.rank,
                            last ? "MPI_Finalize" : "MPI_Init", (long long) sample.offset_ns,
                            (unsigned long long) sample.uncertainty_ns);
    }
    if (OPAL_SUCCESS != rc && OPAL_ERR_NOT_AVAILABLE != rc) {
        opal_output_verbose(1, c->output,
                            "evt:pmix: %s:%u: no clock alignment at %s (%s): this rank's "
                            "events keep its own clock",
                            pm.sender.who.nspace, pm.sender.who.rank,
                            last ? "MPI_Finalize" : "MPI_Init",
                            OPAL_ERR_TIMEOUT == rc ? "some rank did not take part in time"
                            : OPAL_ERR_NOT_SUPPORTED == rc
                                ? "some rank did not take part: it runs with evt_pmix_clock_align=0"
                                : "an MPI call failed");
    }
}

/* evt_pmix_events: say which patterns match no event type registered by
 * the end of MPI_Init. Once per job, by rank 0. Context: INIT. */
static void filter_check(void)
{
    if (0 == pm.sender.who.rank) {
        mca_common_evt_name_filter_check_registered(&mca_evt_pmix_component.filter, "evt:pmix",
                                                    "evt_pmix_events",
                                                    mca_evt_pmix_component.events);
    }
}

/* Every rank joins the private communicator at the end of MPI_Init (the
 * clock samples and the finalize barrier travel on it). Context: INIT,
 * MPI usable. */
static void clock_join(void)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    int rc = ompi_evt_pmix_clock_join(&pm.clock, pm.sender.who.host, c->clock_align,
                                      0 < c->finalize_timeout ? c->finalize_timeout : 1);

    if (OPAL_SUCCESS != rc && OPAL_ERR_NOT_AVAILABLE != rc) {
        opal_output_verbose(1, c->output,
                            "evt:pmix: %s:%u: no clock alignment at MPI_Init (%s): this rank's "
                            "events keep its own clock, and MPI_Finalize waits up to "
                            "evt_pmix_finalize_timeout for the other ranks' last batches",
                            pm.sender.who.nspace, pm.sender.who.rank,
                            OPAL_ERR_TIMEOUT == rc ? "some rank did not take part in time"
                                                   : "an MPI call failed");
    }
}

/* Set by the finalize fence's completion (PMIx's thread); a static, not
 * the stack: a wait given up leaves the callback still to come. */
static atomic_int finalize_fence_done;

static void finalize_fence_cb(pmix_status_t status, void *cbdata)
{
    (void) status;
    (void) cbdata;
    atomic_store(&finalize_fence_done, 1);
}

/* Wait until every rank of the job reached the start of MPI_Finalize: a
 * PMIx_Fence over the namespace, as MPI_Finalize's own (which would make
 * an early rank wait for the others anyway). Unbounded, as that one is; a
 * rank that died does not hold it up under --enable-recovery (the server
 * completes fences without it), and the PMIx server gone ends it. Only
 * when every rank runs evt/pmix (it joined the clock communicator at
 * MPI_Init, collectively): a fence of ours alone would be matched with
 * another rank's MPI_Finalize fence. @retval true every rank is here.
 * Context: INIT. */
static bool finalize_fence(void)
{
    pmix_status_t rc;

    if (!pm.connected || !pm.clock.have_comm) {
        return false;
    }
    atomic_store(&finalize_fence_done, 0);
    rc = PMIx_Fence_nb(NULL, 0, NULL, 0, finalize_fence_cb, NULL);
    if (PMIX_SUCCESS != rc) {
        opal_output_verbose(1, mca_evt_pmix_component.output,
                            "evt:pmix: the finalize fence failed (%s): the last batches are "
                            "awaited at most evt_pmix_finalize_timeout from now",
                            PMIx_Error_string(rc));
        return false;
    }
    while (0 == atomic_load(&finalize_fence_done)) {
        struct timespec ts = {.tv_sec = 0, .tv_nsec = 1000000};

        if (OMPI_EVT_PMIX_SEND_LOST == atomic_load(&pm.sender.state)) {
            return false;
        }
        (void) nanosleep(&ts, NULL);
    }
    return true;
}

/* PMIx is up (end of MPI_Init, or evtm_init in a process where it already
 * was): take a reference, learn who we are, start the node sink, and let
 * the batches go. Context: INIT. */
static void pmix_connect(void)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    mca_common_evt_wire_sender_t who;
    pmix_status_t rc;

    if (pm.connected || pm.finished || !pm.built) {
        return;
    }
    rc = PMIx_Init(&pm.me, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        opal_output_verbose(1, c->output,
                            "evt:pmix: PMIx_Init failed (%s): nothing is exported; every "
                            "record of an exported event is counted as dropped",
                            PMIx_Error_string(rc));
        ompi_evt_pmix_sender_disconnect(&pm.sender);
        return;
    }
    pm.connected = true;
    if (c->server_nodelay) {
        const char *why = NULL;
        int set = ompi_evt_pmix_server_nodelay(&why);
        if (0 > set) {
            opal_output_verbose(10, c->output,
                                "evt:pmix: TCP_NODELAY on the connection to the PMIx server not "
                                "set: %s",
                                why);
        } else {
            opal_output_verbose(10, c->output,
                                "evt:pmix: TCP_NODELAY on the connection to the PMIx server: %s",
                                0 < set ? "set" : "no TCP connection to it found");
        }
    }
    lost_register();
    (void) mca_common_evt_identity(&who);
    if (OPAL_SUCCESS != ompi_evt_pmix_sender_set_identity(&pm.sender, &who)) {
        opal_output_verbose(1, c->output,
                            "evt:pmix: the node name \"%s\" or namespace \"%s\" cannot be "
                            "written in a batch: batches keep the names of the environment",
                            who.host, who.nspace);
    }
    if (NULL != c->sink) {
        sink_start(pm.sender.who.host);
        /* Every rank waits until every node's sink listens: a LOCAL
         * notification is delivered only to handlers registered when it
         * arrives, and the first batches are on their way right after
         * this. */
        rc = PMIx_Fence(NULL, 0, NULL, 0);
        if (PMIX_SUCCESS != rc) {
            opal_output_verbose(1, c->output,
                                "evt:pmix: PMIx_Fence failed (%s): a node's first batches "
                                "may reach its sink before it listens",
                                PMIx_Error_string(rc));
        }
    }
    skew_start(pm.sender.who.host);
    ompi_evt_pmix_sender_connect(&pm.sender);
    opal_output_verbose(10, c->output,
                        "evt:pmix: exporting as %s:%u on %s: range %s, batches up to %d bytes "
                        "every %d ms, at most %d in flight%s%s",
                        pm.sender.who.nspace, pm.sender.who.rank, pm.sender.who.host,
                        range_names[c->range], c->batch_bytes, c->flush_interval, c->max_inflight,
                        pm.sink_open ? ", node sink " : "", pm.sink_open ? pm.sink.file.path : "");
}

/* Do the kit's rings hold records not drained yet? A look at the shared
 * positions (as the kit's own hint): a record committed right after is
 * not seen. *heads: the sum of the consumer positions (it moves while a
 * drain makes progress). Context: INIT. */
static bool rings_pending(unsigned long *heads)
{
    int n = ompi_evt_base_kit_ring_count();
    bool pending = false;

    *heads = 0;
    for (int i = 0; i < n; ++i) {
        ompi_evt_kit_ring_t *r = ompi_evt_base_kit_ring(i);
        unsigned int head;

        if (NULL == r || NULL == r->buf.g.ctl) {
            continue;
        }
        /* relaxed: a hint; the drains order what they take */
        head = atomic_load_explicit(&r->buf.g.ctl->c.head, memory_order_relaxed);
        *heads += head;
        pending = pending
                  || atomic_load_explicit(&r->buf.g.ctl->p.tail, memory_order_relaxed) != head;
    }
    return pending;
}

/* The FINAL batch, the sink's wait, the reference on PMIx. @p attached:
 * the kit still hands records to the module (the MPI_Finalize notice; not
 * the module's finalize, which comes after the kit let it go).
 * Context: INIT. */
static void pmix_finish(bool attached)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    ompi_evt_pmix_send_stats_t *st = &pm.sender.stats;
    int64_t start = ompi_evt_pmix_now_ns(), timeout = (int64_t) c->finalize_timeout * 1000000;
    int rc;

    if (pm.finished || !pm.built) {
        return;
    }
    pm.finished = true;
    if (attached) {
        /* Every rank waits here until all are in MPI_Finalize, whose own
         * fence would wait for them anyway: so what follows (the last
         * clock sample, the FINAL batches, the sink's wait for its node's
         * FINAL batches) starts with every rank present and takes
         * milliseconds, and no rank's wait runs out while a later rank is
         * still computing. Without the fence each wait stays bounded by
         * evt_pmix_finalize_timeout alone. */
        if (finalize_fence()) {
            start = ompi_evt_pmix_now_ns();
        }
        /* the second sample, for the FINAL batch (every rank is here) */
        clock_sample(true);
    }
    ompi_evt_pmix_clock_release(&pm.clock);
    if (attached) {
        /* The drain point before this notice returns at once when another
         * thread (the kit's timer) holds the drain token and runs a
         * callback: records raised before MPI_Finalize may still be in the
         * rings. The FINAL batch
         * must come after them: wait while drains make progress (the
         * timer's), giving up after a second (or four flush intervals, if
         * longer) without any, and at the finalize timeout. Records only a context-NONE drain may
         * take (a local callback registered only at MPI_T_CB_REQUIRE_NONE)
         * are not taken by the timer: they are counted as not exported
         * (after the FINAL batch: the local count, not the receivers'). */
        const int64_t idle = 4 * c->flush_interval > 1000
                                 ? 4 * (int64_t) c->flush_interval * 1000000
                                 : 1000000000;
        unsigned long heads, last = 0;
        int64_t now = start, progress = start;

        while (rings_pending(&heads) && now - progress < idle && now - start < timeout) {
            struct timespec ts = {.tv_sec = 0, .tv_nsec = 500000};

            /* progress: the drains take records, or notifications complete
             * (a drain waiting for a free slot goes on after them) */
            heads += atomic_load(&pm.sender.stats.batches_sent)
                     + atomic_load(&pm.sender.stats.batches_failed);
            if (heads != last) {
                last = heads;
                progress = now;
            }
            (void) nanosleep(&ts, NULL);
            now = ompi_evt_pmix_now_ns();
        }
    }
    rc = ompi_evt_pmix_sender_finish(&pm.sender, start + timeout);
    if (pm.sink_open) {
        (void) ompi_evt_pmix_sink_wait(&pm.sink, ompi_evt_pmix_now_ns() + timeout);
        ompi_evt_pmix_sink_close(&pm.sink, c->finalize_timeout);
        pm.sink_open = pm.sink.open;
    }
    opal_output_verbose(10, c->output,
                        "evt:pmix: %s:%u done: %lu records exported in %lu batches (%lu "
                        "bytes); %lu records not exported (counted, reported in later "
                        "batches); %lu batches refused by PMIx; %lu waits for a free slot",
                        pm.sender.who.nspace, pm.sender.who.rank, atomic_load(&st->records_sent),
                        atomic_load(&st->batches_sent), atomic_load(&st->bytes_sent),
                        atomic_load(&st->records_dropped), atomic_load(&st->batches_failed),
                        atomic_load(&st->would_block));
    if (OPAL_ERR_TIMEOUT == rc) {
        opal_show_help("help-mca-evt-pmix.txt", "finalize-timeout", true, pm.sender.who.nspace,
                       pm.sender.who.rank, atomic_load(&pm.sender.inflight), c->finalize_timeout);
    } else if (OPAL_SUCCESS != rc) {
        opal_output_verbose(1, c->output,
                            "evt:pmix: %s:%u: the FINAL batch could not be sent (%s); %lu "
                            "records were not exported",
                            pm.sender.who.nspace, pm.sender.who.rank,
                            PMIx_Error_string(atomic_load(&pm.sender.last_error)),
                            atomic_load(&st->records_dropped));
    }
    if (pm.connected) {
        lost_deregister();
        (void) PMIx_Finalize(NULL, 0);
        pm.connected = false;
    }
}

/* ------------------------------------------------------------------------
 * Module slots
 * ------------------------------------------------------------------------ */

/* Context: INIT. */
static int pmix_module_init(void)
{
    ompi_evt_pmix_component_t *c = &mca_evt_pmix_component;
    ompi_evt_pmix_send_params_t params = {
        .batch_bytes = (size_t) c->batch_bytes,
        .max_inflight = c->max_inflight,
        .flush_interval_ns = (int64_t) c->flush_interval * 1000000,
        .range = pmix_range(c->range),
        .realtime_ns = ompi_evt_pmix_clock_realtime_ns,
    };
    mca_common_evt_wire_sender_t who;
    void *custom = NULL;
    int rc;

    memset(&pm, 0, sizeof(pm));
    if (OMPI_EVT_PMIX_RANGE_CUSTOM == c->range) {
        rc = ompi_evt_pmix_parse_custom_range(c->custom_range, &custom, &params.ncustom, NULL);
        if (OPAL_SUCCESS != rc) {
            return rc; /* checked by pmix_init() already */
        }
        params.custom = custom;
    }
    (void) mca_common_evt_identity(&who);
    rc = ompi_evt_pmix_sender_construct(&pm.sender, &who, &params);
    free(custom);
    if (OPAL_SUCCESS != rc) {
        opal_output_verbose(1, c->output, "evt:pmix: the sender could not be built (%d)", rc);
        return rc;
    }
    pm.built = true;
    if (PMIx_Initialized()) {
        /* selected after MPI_Init (the hook): PMIx is up already */
        pmix_connect();
    }
    return OMPI_SUCCESS;
}

/* Context: INIT (framework close: the kit no longer calls the module). */
static int pmix_module_finalize(void)
{
    if (pm.built) {
        /* no MPI_Finalize notice came (MPI_T only, or MPI_Init never
         * completed): end here, still bounded */
        pmix_finish(false);
        if (pm.sink_open) {
            ompi_evt_pmix_sink_close(&pm.sink, mca_evt_pmix_component.finalize_timeout);
        }
        ompi_evt_pmix_sender_destruct(&pm.sender);
        pm.built = false;
    }
    mca_common_evt_name_filter_free(&mca_evt_pmix_component.filter);
    return OMPI_SUCCESS;
}

/* Under the engine mutex: no engine call. Context: ANY. */
static bool pmix_exports(const mca_base_event_t *event)
{
    return mca_common_evt_name_filter_match(&mca_evt_pmix_component.filter, event->name);
}

/* Context: DRAIN. */
static int pmix_consume(const mca_base_event_record_t *record)
{
    return ompi_evt_pmix_sender_consume(&pm.sender, record);
}

/* Context: DRAIN. */
static int pmix_progress(void)
{
    return ompi_evt_pmix_sender_progress(&pm.sender);
}

/* Context: DRAIN. */
static int pmix_flush(void)
{
    return ompi_evt_pmix_sender_flush(&pm.sender);
}

/* Test-only. */
struct ompi_evt_pmix_sender_t *ompi_evt_pmix_test_sender(void)
{
    return pm.built ? &pm.sender : NULL;
}

/* Test-only. */
struct ompi_evt_pmix_sink_t *ompi_evt_pmix_test_sink(void)
{
    return pm.sink_open ? &pm.sink : NULL;
}

/* Context: INIT. */
static void pmix_notice(ompi_evt_base_notice_t notice)
{
    switch (notice) {
    case OMPI_EVT_NOTICE_MPI_INIT_COMPLETE:
        pmix_connect();
        if (pm.built && !pm.finished) {
            filter_check();
            clock_join();
            clock_sample(false);
        }
        break;
    case OMPI_EVT_NOTICE_MPI_FINALIZE_CALLED:
        /* The records of the finalization go with the FINAL batch: one
         * notification at the end instead of two. (Sent on their own just
         * before the finalize fence they cost 40-90 ms, until the
         * connection to the server had TCP_NODELAY: evt_pmix_nodelay.h.) */
        if (pm.built && !pm.finished) {
            ompi_evt_pmix_sender_hold(&pm.sender);
        }
        break;
    case OMPI_EVT_NOTICE_MPI_FINALIZE_START:
        pmix_finish(true);
        break;
    }
}
