/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The delivery seam of the MPI_T events engine: what a delivery (the evt
 * framework's base and its components, ompi/mca/evt/) installs, and the
 * engine services it calls to dispatch, count drops and drain. Producers
 * and tools never need it: their API is mca_base_event.h.
 */

#ifndef OPAL_MCA_BASE_EVENT_DELIVERY_H
#define OPAL_MCA_BASE_EVENT_DELIVERY_H

#include "opal/mca/base/mca_base_event.h"

BEGIN_C_DECLS

/* ------------------------------------------------------------------------
 * The delivery seam (used by ompi/mca/evt/base; producers never call these)
 * ------------------------------------------------------------------------ */

/* The delivery flags (MCA_BASE_EVENT_DELIVERY_*) are in mca_base_event.h:
 * producers read them too (mca_base_event_delivery_flags()). */

/** How captured records travel. The engine calls every hook outside its
 *  mutex. */
typedef struct mca_base_event_delivery_t {
    const char *name;
    /** Take one captured record (copy what must outlive the call). NULL: the
     *  engine dispatches every record at its raise (sync).
     *  @retval OPAL_SUCCESS  taken
     *  @retval OPAL_ERR_WOULD_BLOCK  full, and a drain in this context would
     *          make room: the engine calls flush(context) outside the
     *          delivery and tries once more (nothing was counted)
     *  @retval other  not taken; the delivery has counted the drop
     *  Context: RAISE, and SIGNAL if the ASYNC_SIGNAL_SAFE flag is set;
     *  inside a delivery section (mca_base_event_delivery_set() waits for
     *  it): no user code, no lock. */
    int (*deliver)(const mca_base_event_record_t *record, mca_base_event_cb_safety_t context);
    /** A drain point: dispatch what is pending now, in @p context (the
     *  safety level the calling context requires). A drain on another
     *  thread is waited for only while it runs no user code (then this one
     *  dispatches what it left); one running user code is never waited
     *  for (it and the next drain point deliver those records). Returns at
     *  once on the thread that is draining. NULL: nothing is ever pending.
     *  Context: ANY, TOOL, PROGRESS. */
    int (*flush)(mca_base_event_cb_safety_t context);
    uint32_t flags;
    /** A registration is being freed: count the pending records (captured,
     *  not dispatched yet) that @p match accepts and call @p remove with the
     *  count, while no record is dispatched (the delivery's drain token is
     *  held, or this thread is the drainer). Never waits for a drain.
     *  @retval OPAL_SUCCESS  done: the engine counted them as dropped and
     *          removed the registration
     *  @retval OPAL_ERR_WOULD_BLOCK  a drain runs on another thread;
     *          @p remove was not called. That drain calls
     *          mca_base_event_withdraw_pending() before it ends.
     *  NULL: nothing is ever pending. Context: TOOL, ANY, callbacks. */
    int (*withdraw)(void (*remove)(void *arg, uint64_t count),
                    bool (*match)(const mca_base_event_record_t *record, void *arg), void *arg);
    /** With EXPORTS: does the delivery export @p event? NULL: every event.
     *  Called under the engine mutex: no engine call. Context: ANY. */
    bool (*exports)(const mca_base_event_t *event);
    /** The return of an MPI call whose events a producer raised
     *  (mca_base_event_call_return()): a drain point in context NONE that
     *  the delivery may take, or leave to batch records. NULL: nothing is
     *  pending between drain points. Context: ANY (not SIGNAL). */
    void (*call_return)(bool prompt, int64_t now);
} mca_base_event_delivery_t;

/** A thread's stay in a delivery section (mca_base_event_delivery_section_enter()). */
typedef struct mca_base_event_section_t {
    void *rec;  /**< the engine's per-thread record */
    bool outer; /**< this enter opened the section (leave closes it) */
} mca_base_event_section_t;

/**
 * Enter a delivery section if a delivery is installed. While the thread is
 * inside, the delivery's memory stays: mca_base_event_delivery_set() waits
 * for every section before it returns, and a delivery releases its memory
 * only after its removal. For the checks a delivery makes outside
 * deliver() on memory it releases once removed (is anything pending? how
 * full is this thread's buffer?). A section is two plain stores on this
 * thread's record; it holds no lock and must run no user code: leave it
 * before draining.
 * @retval 1   entered, a delivery is installed: leave with
 *             mca_base_event_delivery_section_exit()
 * @retval 0   no delivery is installed: nothing entered
 * @retval -1  this thread has no record (more threads than records):
 *             nothing entered; take a path that needs no section
 * Context: ANY (not SIGNAL).
 */
OPAL_DECLSPEC int mca_base_event_delivery_section_enter(mca_base_event_section_t *section);

/** Leave the section @p section entered (its enter returned 1).
 *  Context: ANY (not SIGNAL). */
OPAL_DECLSPEC void mca_base_event_delivery_section_exit(mca_base_event_section_t *section);

/** Install (or, with NULL, remove) the delivery. Does not flush: the caller
 *  drains the old one first. Returns once no thread is inside the old
 *  delivery's deliver() any more, so the caller may release its memory.
 *  Context: INIT. */
OPAL_DECLSPEC int mca_base_event_delivery_set(const mca_base_event_delivery_t *delivery);

/** Dispatch one record to the matching registrations now, in context
 *  @p context (the safety level the calling context requires). Records
 *  flagged MCA_BASE_EVENT_RECORD_DISPATCHED are ignored.
 *  @return the number of callbacks invoked (>= 0)
 *  Context: RAISE, PROGRESS, ANY; re-entrant (callbacks may raise and
 *  dispatch, up to MCA_BASE_EVENT_MAX_DEPTH). Locks: none. */
OPAL_DECLSPEC int mca_base_event_dispatch(const mca_base_event_record_t *record,
                                          mca_base_event_cb_safety_t context);

/** mca_base_event_dispatch() of a record the caller owns and does not need
 *  afterwards (a deferred delivery's decoded copy): not copied, the
 *  callbacks get @p record itself, the ORDERED clamp may raise its
 *  timestamp. Same return value and context. */
OPAL_DECLSPEC int mca_base_event_dispatch_owned(mca_base_event_record_t *record,
                                                mca_base_event_cb_safety_t context);

/** Can every registration that @p record would reach be served in
 *  @p context? False when one has callbacks, but none at a level serving
 *  @p context (a callback registered only at MPI_T_CB_REQUIRE_NONE, and a
 *  drain inside opal_progress or on a timer thread): a deferred delivery
 *  then keeps the record for a drain in a context that serves it, instead
 *  of having it counted as dropped. Runs no user code (it never
 *  reclaims). Context: ANY, PROGRESS. Locks: none. */
OPAL_DECLSPEC bool mca_base_event_can_serve(const mca_base_event_record_t *record,
                                            mca_base_event_cb_safety_t context);

/** A number that changes whenever what mca_base_event_can_serve() answers
 *  may change (a callback set or cleared, a registration allocated or
 *  freed): a deferred delivery that had to leave a record for a context
 *  that serves it need not ask again while this stays the same.
 *  Context: ANY, PROGRESS (one relaxed load). */
OPAL_DECLSPEC uint64_t mca_base_event_serve_generation(void);

/** Report every live registration's pending drop count to its dropped
 *  handler now (saturated, outside every lock), in @p context, with the
 *  user data of the callback dispatch would pick for @p context (NULL for a
 *  dropped-handler-only registration). A registration with callbacks but
 *  none serving @p context, or without a dropped handler, keeps its count
 *  for a later report. Costs one relaxed load when nothing was dropped
 *  since the last report. Does nothing in SIGNAL context or inside a
 *  dispatch (a callback reaching a drain point): the next report outside
 *  does it. Context: TOOL, PROGRESS, ANY (not SIGNAL). Locks: takes the
 *  engine mutex between handler calls; caller holds none. */
OPAL_DECLSPEC void mca_base_event_report_drops(mca_base_event_cb_safety_t context);

/** The end of a drain outside the delivery's token: the pending drop
 *  reports (mca_base_event_report_drops()), then what waits for its grace
 *  period (free callbacks). One relaxed load each when there is nothing.
 *  Context: TOOL, PROGRESS, ANY (not SIGNAL). */
OPAL_DECLSPEC void mca_base_event_drain_end(mca_base_event_cb_safety_t context);

/** Count @p n records of @p event that an exporting delivery could not
 *  export (not charged to a local registration; a record that also missed
 *  its local registrations is counted for them with
 *  mca_base_event_count_dropped()). Saturating. Context: RAISE, SIGNAL,
 *  PROGRESS. */
OPAL_DECLSPEC void mca_base_event_count_export_dropped(mca_base_event_t *event, uint64_t n);
/** Take (and zero) @p event's export drop count. Context: PROGRESS, ANY. */
OPAL_DECLSPEC uint64_t mca_base_event_take_export_dropped(mca_base_event_t *event);
/** Whether an export drop was counted since the last
 *  mca_base_event_claim_export_drops(): an exporter that takes the counts
 *  only when there are some need not look before. A hint (one relaxed
 *  load). Context: ANY. */
OPAL_DECLSPEC bool mca_base_event_export_drops_waiting(void);
/** Clear that mark before taking the counts: a drop counted meanwhile sets
 *  it again, and every count whose mark this call cleared is visible to the
 *  takes that follow. @return whether it was set. Context: PROGRESS, ANY. */
OPAL_DECLSPEC bool mca_base_event_claim_export_drops(void);

/** A deferred delivery's drain ends (it holds its drain token, no record is
 *  being dispatched): complete every withdraw that found it busy. @p count
 *  counts the pending records @p match accepts, as withdraw() does.
 *  Context: PROGRESS, ANY (the drainer). Locks: takes the engine mutex; no
 *  user code runs. */
OPAL_DECLSPEC void mca_base_event_withdraw_pending(
    uint64_t (*count)(bool (*match)(const mca_base_event_record_t *record, void *arg), void *arg,
                      void *ctx),
    void *ctx);
/** Some withdraw waits for mca_base_event_withdraw_pending() (a hint: one
 *  that starts waiting right after is seen by the next drain). Lock-free.
 *  Context: any. */
OPAL_DECLSPEC bool mca_base_event_withdraws_waiting(void);

/** The fast event lookup for drains (records carry the event's index):
 *  lock-free; NULL for an index not registered. Context: any, SIGNAL. */
OPAL_DECLSPEC mca_base_event_t *mca_base_event_lookup(uint32_t index);

/** A drain point in context NONE: producer sinks, then the delivery's
 *  flush, then the pending drop reports. Never waits for a drain running
 *  user code on another thread. Context: ANY, TOOL (the engine calls it at
 *  its own drain points). */
OPAL_DECLSPEC int mca_base_event_flush(void);
/** The same in the safety level @p context requires (opal_progress runs
 *  MPI_RESTRICTED drains, a timer thread THREAD_SAFE ones). */
OPAL_DECLSPEC int mca_base_event_flush_ctx(mca_base_event_cb_safety_t context);

/** Free every registration (the end of an MPI_T session: handles end with
 *  it, MPI-4.1 sec. 15.3.4). Pending drops reach the dropped handlers;
 *  free callbacks set by earlier handle frees run. Context: INIT, TOOL. */
OPAL_DECLSPEC void mca_base_event_handles_free_all(void);

END_C_DECLS

#endif /* OPAL_MCA_BASE_EVENT_DELIVERY_H */
