/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The sending side of evt/pmix: records become batches (the wire encoder)
 * and batches become PMIx notifications.
 *
 * Slots. A batch leaves from one of evt_pmix_max_inflight slots: the
 * finished batch is copied into the slot's buffer and handed to
 * PMIx_Notify_event with the slot as the callback data; the completion
 * callback (on PMIx's progress thread) frees the slot. Slots are used in
 * order (a circular array), so batches leave in sequence order, and at most
 * max_inflight notifications are ever in flight: the PMIx 4 client scans its
 * list of pending requests at every reply, so thousands in flight slow it
 * down quadratically. When the batch being built is full and no slot is
 * free, consume() answers OPAL_ERR_WOULD_BLOCK: the record stays in its
 * ring and the drain stops until a notification completes (back-pressure;
 * records are lost only if the ring itself fills, and those are counted at
 * the raise).
 *
 * States: UNCONNECTED (before the end of MPI_Init: batches are built and
 * wait in their slots; with no slot free a record is counted as dropped,
 * never waited for), CONNECTED, LOST (PMIx said the server is unreachable:
 * every record is counted as dropped, nothing is sent any more), CLOSED
 * (after the FINAL batch: likewise).
 *
 * Drops. Before a batch is closed, the engine's export drop counts of every
 * event are taken (mca_base_event_take_export_dropped()) into its DROPS
 * section. A batch that PMIx refuses (at the call, or in the completion)
 * is decoded again and its records and drops are counted back into the
 * engine's counters, so the next batch carries them; its sequence number
 * is not reused, so a receiver sees the gap and the counts that explain it.
 *
 * Context: every function but the callback takes the sender's lock, which
 * serialises the drainer (DRAIN: consume, progress, flush) with the
 * lifecycle notices (INIT: connect, finish). The lock is never held while
 * waiting or while user code runs; PMIx_Notify_event does not block.
 */

#ifndef MCA_EVT_PMIX_SEND_H
#define MCA_EVT_PMIX_SEND_H

#include "ompi_config.h"

#include <pmix.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "ompi/mca/common/evt/common_evt_wire.h"
#include "opal/mca/base/mca_base_event.h"

BEGIN_C_DECLS

/** Sender states (ompi_evt_pmix_sender_t::state). */
enum {
    OMPI_EVT_PMIX_SEND_UNCONNECTED = 0,
    OMPI_EVT_PMIX_SEND_CONNECTED = 1,
    OMPI_EVT_PMIX_SEND_LOST = 2,
    OMPI_EVT_PMIX_SEND_CLOSED = 3,
};

/** Slot states. */
enum {
    OMPI_EVT_PMIX_SLOT_FREE = 0,
    OMPI_EVT_PMIX_SLOT_FILLED = 1,   /**< holds a batch not yet handed to PMIx */
    OMPI_EVT_PMIX_SLOT_INFLIGHT = 2, /**< PMIx has it; the completion frees it */
};

struct ompi_evt_pmix_sender_t;

/** One notification's storage. */
typedef struct ompi_evt_pmix_slot_t {
    /** OMPI_EVT_PMIX_SLOT_*. INFLIGHT -> FREE by the completion callback
     *  (release store; the drainer's acquire load pairs with it). */
    atomic_int state;
    uint64_t seq;
    uint32_t records;
    size_t len;
    uint8_t *buf;      /**< batch_bytes */
    pmix_info_t *info; /**< [0] the batch (points at buf), then the flags */
    size_t ninfo;
    struct ompi_evt_pmix_sender_t *owner;
} ompi_evt_pmix_slot_t;

/** What the sender was built with. */
typedef struct ompi_evt_pmix_send_params_t {
    size_t batch_bytes; /**< largest batch */
    int max_inflight;   /**< slots */
    int64_t flush_interval_ns;
    pmix_data_range_t range;
    const pmix_proc_t *custom; /**< PMIX_RANGE_CUSTOM targets (copied) */
    size_t ncustom;
    /** CLOCK_REALTIME of the batches' clock pairs (NULL: clock_gettime);
     *  see mca_common_evt_wire_encoder_set_realtime() */
    int64_t (*realtime_ns)(void);
} ompi_evt_pmix_send_params_t;

/** Counters (relaxed atomics: statistics, read at finalize and by tests). */
typedef struct ompi_evt_pmix_send_stats_t {
    atomic_ulong batches_sent;    /**< completed successfully */
    atomic_ulong batches_failed;  /**< refused at the call or in the completion */
    atomic_ulong records_encoded; /**< records put into batches */
    atomic_ulong records_sent;    /**< records of batches completed successfully */
    atomic_ulong records_dropped; /**< records counted as export drops here */
    atomic_ulong bytes_sent;
    atomic_ulong would_block; /**< consume() answers OPAL_ERR_WOULD_BLOCK */
} ompi_evt_pmix_send_stats_t;

typedef struct ompi_evt_pmix_sender_t {
    pthread_mutex_t lock;
    /** OMPI_EVT_PMIX_SEND_*; written under the lock, and LOST by the
     *  completion callback (CAS from CONNECTED). */
    atomic_int state;
    mca_common_evt_wire_encoder_t enc;
    mca_common_evt_wire_sender_t who;
    ompi_evt_pmix_send_params_t params;
    pmix_proc_t *custom;
    uint64_t next_seq;
    uint32_t batch_flags;
    bool finishing;     /**< the open batch is the FINAL one: only finish() sends it */
    bool holding;       /**< flush() leaves the open batch (hold()) */
    size_t batch_items; /**< records and drop entries in the open batch */
    int64_t batch_t0;   /**< clock ns of the open batch's first item */
    int64_t last_poll;  /**< clock ns of the last drop poll */
    ompi_evt_pmix_slot_t *slots;
    int nslots;
    uint64_t fill; /**< next slot to fill (index mod nslots) */
    uint64_t send; /**< next FILLED slot to hand to PMIx */
    atomic_int inflight;
    atomic_int last_error; /**< last PMIx status that refused a batch */
    ompi_evt_pmix_send_stats_t stats;
} ompi_evt_pmix_sender_t;

/**
 * Build the sender: the encoder and the slots (allocates about
 * (3 + max_inflight) x batch_bytes).
 * @retval OPAL_SUCCESS, OPAL_ERR_BAD_PARAM (sizes, sender strings),
 *         OPAL_ERR_OUT_OF_RESOURCE
 * Context: INIT.
 */
int ompi_evt_pmix_sender_construct(ompi_evt_pmix_sender_t *s,
                                   const mca_common_evt_wire_sender_t *who,
                                   const ompi_evt_pmix_send_params_t *params);

/** Release the storage. Slots still in flight (their completion never came)
 *  are left allocated: PMIx may still call back with them. Context: INIT. */
void ompi_evt_pmix_sender_destruct(ompi_evt_pmix_sender_t *s);

/**
 * Change who the batches say they come from (the PMIx identity is known
 * only once PMIx is up): the open batch leaves first (or waits in a slot).
 * The offset samples given before are not carried by later batches: add
 * them after it. Context: INIT.
 */
int ompi_evt_pmix_sender_set_identity(ompi_evt_pmix_sender_t *s,
                                      const mca_common_evt_wire_sender_t *who);

/**
 * A sample of this rank's clock offset (evt_pmix_clock.h): the open batch
 * and every later one carry it (if the open batch is too full for it, it
 * leaves now when a slot is free, so the next one carries it).
 * @retval OPAL_SUCCESS, OPAL_ERR_OUT_OF_RESOURCE (too many samples)
 * Context: INIT.
 */
int ompi_evt_pmix_sender_add_offset(ompi_evt_pmix_sender_t *s,
                                    const mca_common_evt_wire_offset_t *sample);

/** PMIx is up: hand the batches waiting in their slots to PMIx, from now
 *  on send as they fill. Context: INIT. */
void ompi_evt_pmix_sender_connect(ompi_evt_pmix_sender_t *s);

/** PMIx will not be reached (it could not be initialised): count what
 *  waits and every later record as dropped. Context: INIT. */
void ompi_evt_pmix_sender_disconnect(ompi_evt_pmix_sender_t *s);

/** PMIx says the server is gone (its event handler): LOST, and what waits
 *  is counted if the lock is free (else the drainer does it next). Never
 *  blocks. Context: a PMIx thread, possibly inside the drainer's own
 *  PMIx_Notify_event. */
void ompi_evt_pmix_sender_lost(ompi_evt_pmix_sender_t *s);

/**
 * Encode one record (evtm_consume).
 * @retval OPAL_SUCCESS           in the batch
 * @retval OPAL_ERR_WOULD_BLOCK   batch full and every slot in flight: offer
 *                                it again later (nothing counted)
 * @retval other                  not exported, counted as an export drop
 * Context: DRAIN.
 */
int ompi_evt_pmix_sender_consume(ompi_evt_pmix_sender_t *s, const mca_base_event_record_t *rec);

/** Time-driven work: send the open batch once it is flush_interval old,
 *  poll the drop counters once per interval. Returns batches handed to
 *  PMIx. Context: DRAIN. */
int ompi_evt_pmix_sender_progress(ompi_evt_pmix_sender_t *s);

/** Send the open batch now if it holds anything and a slot is free;
 *  nothing after hold(). Context: DRAIN. */
int ompi_evt_pmix_sender_flush(ompi_evt_pmix_sender_t *s);

/** From now on flush() leaves the open batch to become the FINAL one:
 *  one message at the end instead of two. A batch still leaves when it is
 *  full or flush_interval old. Context: INIT. */
void ompi_evt_pmix_sender_hold(ompi_evt_pmix_sender_t *s);

/**
 * The end: send the open batch, then a batch flagged FINAL with every drop
 * count left, then wait until every notification completed, at most until
 * @p deadline_ns (CLOCK_MONOTONIC). After it every record is counted as
 * dropped.
 * @retval OPAL_SUCCESS   the FINAL batch completed
 * @retval OPAL_ERR_TIMEOUT  not everything completed in time
 * @retval other          the FINAL batch could not be sent (LOST, ...)
 * Context: INIT (a lifecycle notice). Sleeps (1 ms steps) without the lock.
 */
int ompi_evt_pmix_sender_finish(ompi_evt_pmix_sender_t *s, int64_t deadline_ns);

/** CLOCK_MONOTONIC in ns. Context: ANY. */
int64_t ompi_evt_pmix_now_ns(void);

/** Test-only: replace PMIx_Notify_event (NULL restores it). */
typedef pmix_status_t (*ompi_evt_pmix_notify_fn_t)(pmix_status_t status, const pmix_proc_t *source,
                                                   pmix_data_range_t range,
                                                   const pmix_info_t info[], size_t ninfo,
                                                   pmix_op_cbfunc_t cbfunc, void *cbdata);
void ompi_evt_pmix_test_set_notify(ompi_evt_pmix_notify_fn_t fn);

END_C_DECLS

#endif /* MCA_EVT_PMIX_SEND_H */
