/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit: what every deferred evt component is built from. A component
 * sets MCA_BASE_EVENT_DELIVERY_DEFERRED and its kit parameters in its
 * module (evt.h); the base then runs everything below for it, and the
 * component supplies only what is its own (evtm_consume, evtm_progress,
 * evtm_flush, a ring storage). docs/writing-an-evt-component.md explains
 * how the pieces fit.
 *
 * Pieces, one idea per file:
 *   evt_base_ring.h   the SPSC ring primitive (inline): drop-new and
 *                     overwrite-oldest, shared positions placeable in a file
 *   evt_base_pool.c   per-thread rings: allocated at open (NUMA-local by
 *                     first touch, or in the component's storage), claimed
 *                     by a thread's first raise with one CAS, handed back at
 *                     thread exit with their records still queued
 *   evt_base_store.c  the raise path: a captured record into the raising
 *                     thread's ring (no lock, no allocation, no system call,
 *                     async-signal-safe)
 *   evt_base_drain.c  the drain token, the timestamp-merged drain of all
 *                     rings (local dispatch + the module's consume), the
 *                     drain points (flush, progress), withdraw, drop reports
 *   evt_base_timer.c  a drain timer thread for processes that do not call
 *                     MPI for long
 *
 * Ring records: an ompi_evt_kit_rec_t then the payload (event->extent
 * bytes), inside a ring record of kind OMPI_EVT_KIT_KIND_RECORD. The layout
 * is fixed (a file-placed ring is read back by ompi-evt-listen): the event
 * is named by its index, which the recorder's own dictionary maps to a name
 * and a layout.
 *
 * The drain token: one drainer at a time, because each ring has one
 * consumer. It is an atomic exchange, not OPAL_THREAD_TRYLOCK (in a process
 * without threads that macro "succeeds" without taking anything, so a
 * callback calling MPI would re-enter the drain). Nobody ever waits for the
 * token: a second drainer, a drain point on another thread, a withdraw and
 * the close all go on without it (the close hands the pool's release to the
 * drain that holds it). So a callback running under a drain can block on
 * anything of the tool's without deadlocking us.
 */

#ifndef OMPI_EVT_BASE_KIT_H
#define OMPI_EVT_BASE_KIT_H

#include "ompi_config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ompi/mca/evt/base/evt_base_ring.h"
#include "ompi/mca/evt/evt.h"

BEGIN_C_DECLS

/** Ring record kind of a captured record. */
#define OMPI_EVT_KIT_KIND_RECORD OMPI_EVT_RING_KIND_USER

/** A captured record in a ring (the payload follows). Fixed layout, 32
 *  bytes: with the ring header a 16-byte payload takes 56 bytes. */
typedef struct ompi_evt_kit_rec_t {
    uint32_t event;     /**< the event's index (mca_base_event_lookup()) */
    uint16_t depth;     /**< mca_base_event_record_t::depth */
    uint16_t flags;     /**< mca_base_event_record_t::flags */
    uint64_t obj;       /**< the bound object, 0 when unbound */
    int64_t timestamp;  /**< in the event's source's ticks */
    uint64_t epoch;     /**< registration epoch at capture */
} ompi_evt_kit_rec_t;
_Static_assert(32 == sizeof(ompi_evt_kit_rec_t), "fixed layout");
_Static_assert(0 == sizeof(ompi_evt_kit_rec_t) % OMPI_EVT_RING_ALIGN, "payload stays aligned");

/** Ring size bounds the kit accepts (bytes). */
#define OMPI_EVT_KIT_MIN_RING_SIZE 4096
/** A record is at most this large (header, kit record, largest payload). */
#define OMPI_EVT_KIT_MAX_RECORD                                                      \
    (sizeof(ompi_evt_ring_hdr_t) + sizeof(ompi_evt_kit_rec_t) + MCA_BASE_EVENT_MAX_PAYLOAD)

/** Pool states of a ring. */
enum {
    OMPI_EVT_KIT_RING_FREE = 0,  /**< no owner (may still hold records to drain) */
    OMPI_EVT_KIT_RING_OWNED = 1, /**< a live thread produces into it */
    /** its storage refused it at its first claim (storage->claim): never
     *  handed out, never written */
    OMPI_EVT_KIT_RING_UNUSABLE = 2,
};

/** One ring of the pool. */
typedef struct ompi_evt_kit_ring_t {
    ompi_evt_ring_spsc_t buf;
    /* ---- producer-private bookkeeping (the owner thread only) ---- */
    struct {
        /** Claimed from a signal handler: pthread_setspecific() is still
         *  to be done by a raise in a normal context. */
        bool needs_key;
        /** Records stored / dropped because full / nested raise refused /
         *  overwritten before dispatch. Written by the owner only; read
         *  (relaxed) by the statistics. */
        atomic_ulong stored, dropped_full, dropped_nested, overwritten;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) own;
    /* ---- mark line: the records a local registration may take (those
     * not flagged MCA_BASE_EVENT_RECORD_DISPATCHED). Written by the owner
     * for such records only, so the look of another thread's progress
     * call at a ring of records nobody takes does not pull the line the
     * owner writes at every raise. ---- */
    struct {
        /** Where the last of them ends (a ring position). Stored (relaxed)
         *  before count. */
        atomic_uint end;
        /** How many were stored, ever (64 bits: never wraps). Stored
         *  (release) after end and before the record's commit: a drainer
         *  that read tail (acquire) and then count (acquire) knows whether
         *  the ring got such a record since it last looked
         *  (blocked.local_done), and reads an end at least as far as the
         *  last record count counts. */
        _Atomic uint64_t count;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) local;
    /* ---- pool line: claim/release hand-off ---- */
    struct {
        /** OMPI_EVT_KIT_RING_*. FREE->OWNED by a claimer's CAS (acquire
         *  pairs with the exiting owner's release store of FREE). */
        atomic_int state;
        /** The pages were touched by a first owner (NUMA placement done). */
        bool touched;
        int index;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) pool;
    /* ---- drainer line: where a restricted drain had to leave the ring ---- */
    struct {
        /** The consumer position of the record a drain in context @c ctx
         *  could not serve (no registration's callback fits that context:
         *  the ring waits for a drain that serves it), and the engine's
         *  serve generation then (mca_base_event_serve_generation()); ctx
         *  0: none. While the ring's head, the context and the generation
         *  are the same, later drains in that context (or a stricter one)
         *  skip the ring without looking at the record again. Written by
         *  the drain token's holder; read relaxed (a hint) without it. */
        atomic_uint pos;
        atomic_int ctx;
        _Atomic uint64_t gen;
        /** local.count as it was when a drain had taken every record it
         *  counts: while the count is unchanged, nothing the ring holds is
         *  for a local registration, and a drain whose module consumes
         *  nothing steps over the ring's records in one move. Written by
         *  the drain token's holder; read relaxed (a hint) by the idle
         *  check of a progress call. */
        _Atomic uint64_t local_done;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) blocked;
} ompi_evt_kit_ring_t;

/* ------------------------------------------------------------------------
 * Life cycle (the base calls these; a component does not)
 * ------------------------------------------------------------------------ */

/** Build the kit for @p module (DEFERRED): the pool per its kit parameters,
 *  the timer. Context: INIT.
 *  @retval OMPI_SUCCESS; OPAL_ERR_BAD_PARAM (parameters, with the reason at
 *          evt_base_verbose); OPAL_ERR_OUT_OF_RESOURCE */
OMPI_DECLSPEC int ompi_evt_base_kit_open(const ompi_evt_base_module_t *module,
                                         const char *name);
/** Stop the module's part: after this returns no drain calls the module
 *  (a drain running on another thread finishes without it). The caller has
 *  already removed the delivery (no raise reaches the pool). Context: INIT. */
OMPI_DECLSPEC void ompi_evt_base_kit_detach_module(void);
/** Release the pool (now, or, when a drain holds the token, at that
 *  drain's end), after completing pending withdraws. Context: INIT. */
OMPI_DECLSPEC void ompi_evt_base_kit_close(void);

/** The engine's delivery hooks for a deferred module (installed by the
 *  base; see mca_base_event_delivery_t for each contract). */
OMPI_DECLSPEC int ompi_evt_base_kit_deliver(const mca_base_event_record_t *record,
                                            mca_base_event_cb_safety_t context);
OMPI_DECLSPEC int ompi_evt_base_kit_flush(mca_base_event_cb_safety_t context);
OMPI_DECLSPEC int ompi_evt_base_kit_withdraw(void (*remove)(void *arg, uint64_t count),
                                             bool (*match)(const mca_base_event_record_t *record,
                                                           void *arg),
                                             void *arg);

/** The opal_progress callback: a bounded MPI_RESTRICTED drain (producer
 *  sinks, the rings, the module's progress, the drop reports). Never
 *  blocks; returns at once when another thread drains. Context: PROGRESS. */
OMPI_DECLSPEC int ompi_evt_base_kit_progress(void);

/** How long records may wait, at the return of wrapped MPI calls, for a
 *  drain in context NONE after a restricted drain (opal_progress, the
 *  timer) had to leave them (their callbacks want NONE), unless the ring
 *  is a quarter full first: in a busy loop of MPI calls the records then
 *  go to the callbacks in batches, not two or three per call. */
#define OMPI_EVT_KIT_NONE_WAIT_NS 50000
/** An opal_progress call that finds the rings empty runs the module's
 *  progress function one time in this many (per thread). */
#define OMPI_EVT_KIT_IDLE_PROGRESS_EVERY 16

/** The kit's call_return (mca_base_event_call_return(), the delivery's
 *  hook): a drain at the return of an MPI call (a PMPI wrapper: the tool
 *  may call MPI there, context NONE) when this thread's ring holds records
 *  and: @p prompt, or the ring is a quarter full (the drain keeps pace with
 *  a busy raiser in batches), or a restricted drain left records that only
 *  a NONE drain serves and they have waited OMPI_EVT_KIT_NONE_WAIT_NS since
 *  a return first saw them (@p now, default clock ns; 0: the caller did not
 *  read the clock, drain them now). A few loads and a branch otherwise.
 *  Context: ANY. */
OMPI_DECLSPEC void ompi_evt_base_kit_call_return(bool prompt, int64_t now);

/** Start / stop the drain timer (kit parameter drain_interval). The stop
 *  never waits for a drain in progress on the timer thread. Context: INIT. */
int ompi_evt_base_kit_timer_start(int interval_us);
void ompi_evt_base_kit_timer_stop(void);

/** One bounded drain in @p context, the module's progress and (outside the
 *  token) the drop reports, if the token is free. The timer calls it.
 *  Context: ANY. @return records drained */
int ompi_evt_base_kit_drain_once(mca_base_event_cb_safety_t context, long budget);

/* ------------------------------------------------------------------------
 * For components
 * ------------------------------------------------------------------------ */

/** Can the kit be built with @p params? NULL when it can, else why not (a
 *  static string for evt_base_verbose). A component calls it from its
 *  evtc_init and returns NULL when the answer is not NULL.
 *  Context: INIT. */
OMPI_DECLSPEC const char *ompi_evt_base_kit_check_params(const ompi_evt_base_kit_params_t *params);

/** Decode a ring record into an engine record (event looked up by index).
 *  @retval false  the index names no event (a damaged record)
 *  Context: any. */
OMPI_DECLSPEC bool ompi_evt_base_kit_decode(const ompi_evt_kit_rec_t *rec,
                                            mca_base_event_record_t *record);

/** Is the calling thread the drainer (inside a drain, e.g. a callback)?
 *  Context: any. */
OMPI_DECLSPEC bool ompi_evt_base_kit_draining(void);

/** The rings of the pool (component storage and tests): count and ring.
 *  Context: INIT, DRAIN. */
OMPI_DECLSPEC int ompi_evt_base_kit_ring_count(void);
OMPI_DECLSPEC ompi_evt_kit_ring_t *ompi_evt_base_kit_ring(int index);

/* ------------------------------------------------------------------------
 * Test-only seams (test/unit, test/stress; never called by the project)
 * ------------------------------------------------------------------------ */

/** Counters summed over the pool. */
typedef struct ompi_evt_kit_test_stats_t {
    unsigned long stored;          /**< records written into rings */
    unsigned long dropped_full;    /**< refused: ring full */
    unsigned long dropped_nested;  /**< refused: nested raise (signal) */
    unsigned long dropped_pool;    /**< refused: pool exhausted */
    unsigned long overwritten;     /**< overwrite mode: evicted before dispatch */
    unsigned long drained;         /**< records dispatched by drains */
    unsigned long drains_skipped;  /**< progress calls that found the token held */
    unsigned long blocked;         /**< restricted drains that left a ring for later */
    unsigned long passed;          /**< rings a drain stepped over unread */
    int rings_owned;               /**< OWNED */
} ompi_evt_kit_test_stats_t;
OMPI_DECLSPEC void ompi_evt_base_kit_test_stats(ompi_evt_kit_test_stats_t *stats);
/** Take (true) or drop (false) the drain token as if another thread
 *  drained: running a callback (@p user_code: a drain point does not wait
 *  for it) or the kit's own code (a drain point waits for it).
 *  @retval true  done (take: the token was free) */
OMPI_DECLSPEC bool ompi_evt_base_kit_test_hold_token(bool take, bool user_code);
/** Forget this thread's ring (as if the thread exited): releases it. */
OMPI_DECLSPEC void ompi_evt_base_kit_test_thread_exit(void);

END_C_DECLS

#endif /* OMPI_EVT_BASE_KIT_H */
