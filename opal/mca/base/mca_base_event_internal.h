/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Engine-private state of the MPI_T events engine. Nothing here is part of
 * the producer or tool contract (mca_base_event.h).
 *
 * Who owns what:
 *   - the engine mutex (mca_base_event_lock) serialises every writer: the
 *     registry arrays, handle slots, per-event registration lists, sinks,
 *     listen callbacks and the retire lists;
 *   - readers (dispatch, count_dropped) take no lock: they announce
 *     themselves in a per-thread record (mca_base_event_grace.c) and read the
 *     immutable registration snapshot (mca_base_event_regset_t) of an event;
 *   - snapshots and freed registrations are reclaimed only after a grace
 *     period (every thread that could be reading them has left dispatch).
 */

#ifndef OPAL_MCA_BASE_EVENT_INTERNAL_H
#define OPAL_MCA_BASE_EVENT_INTERNAL_H

#include "opal_config.h"

#include <stdatomic.h>
#include <stdint.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/threads/mutex.h"

BEGIN_C_DECLS

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2
                   && ATOMIC_INT_LOCK_FREE == 2,
               "SIGNAL context needs always-lock-free counters and pointers");

/** Cache line used to pad per-thread records apart (x86-64, aarch64). */
#define MCA_BASE_EVENT_CACHE_LINE 64
/** Per-thread records preallocated statically: a thread's first raise (even
 *  from a signal handler) claims one without malloc. More threads than this
 *  get malloc'ed records, allocated only outside SIGNAL context (plus a few
 *  spares, MCA_BASE_EVENT_SPARE_THREAD_RECORDS, for signal handlers). */
#define MCA_BASE_EVENT_STATIC_THREAD_RECORDS 256
/** Producer sinks: drained from a stack copy, so the count is bounded. */
#define MCA_BASE_EVENT_MAX_SINKS 32

/** The engine mutex (static initialiser: usable before mca_base_event_init). */
extern opal_mutex_t mca_base_event_lock;

/* ------------------------------------------------------------------------
 * Registrations and snapshots
 * ------------------------------------------------------------------------ */

/** A registration. Reached by tools only through its token (handle value),
 *  by dispatch only through a snapshot entry. Fields without a comment are
 *  written under the engine mutex only. */
typedef struct mca_base_event_reg_t {
    struct mca_base_event_priv_t *event;
    const void *obj;
    uint64_t epoch;                          /**< registration epoch at alloc */
    mca_base_event_registration_t *handle;   /**< the token tools hold */
    uint32_t slot;
    mca_base_event_cb_fn_t cb_fn[MCA_BASE_EVENT_CB_SAFETY_COUNT];
    void *cb_user_data[MCA_BASE_EVENT_CB_SAFETY_COUNT];
    opal_info_t *cb_info[MCA_BASE_EVENT_CB_SAFETY_COUNT];
    mca_base_event_dropped_cb_fn_t dropped_cb;
    opal_info_t *info;
    bool listening;                          /**< counted in event->active */
    /** Drops not yet reported; saturating (never wraps). Any thread, SIGNAL. */
    _Atomic uint64_t dropped;
    /** The thread (its record) reporting this registration's drops from
     *  mca_base_event_report_drops(), NULL when none: a delivery on another
     *  thread waits for it before the callback, so the dropped handler
     *  still sees the count before the next delivery. */
    _Atomic(struct mca_base_event_thread_t *) reporter;
    /** Set (seq_cst) by handle_free; checked by dispatch after it announced
     *  the registration in its per-thread record (Dekker pair, see
     *  mca_base_event_dispatch.c). */
    atomic_bool freed;
    /** Bumped (relaxed, under the mutex, before the rebuild that publishes
     *  the change) by every callback or dropped-handler change: a dispatch whose snapshot
     *  entry carries an older value looks up the current entry, so a
     *  callback cleared or replaced by this thread (from a callback of an
     *  outer dispatch) is never called after the change returned. */
    _Atomic uint32_t cb_gen;
    /** Free callback left to the retire path (a callback was running). */
    bool free_cb_pending;
    mca_base_event_free_cb_fn_t free_cb;
    void *free_user_data;
    /** Dropped handler left to the retire path with the free callback: it
     *  reports the drops still pending just before the free callback. */
    mca_base_event_dropped_cb_fn_t final_dropped_cb;
    void *final_dropped_user_data;
    /** Per-event list of live registrations. */
    struct mca_base_event_reg_t *next, *prev;
    /** Retire list. */
    struct mca_base_event_reg_t *retire_next;
    uint64_t retire_epoch;
} mca_base_event_reg_t;

/** One live, listening registration as dispatch sees it: an immutable copy
 *  of what dispatch needs, so no field can change under a reader. */
typedef struct mca_base_event_regset_entry_t {
    mca_base_event_reg_t *reg;
    const void *obj;
    uint64_t epoch;
    mca_base_event_dropped_cb_fn_t dropped_cb;
    /** sel[c]: the callback slot serving a context requiring level c (the
     *  lowest level >= c with a callback), -1 when none. */
    int8_t sel[MCA_BASE_EVENT_CB_SAFETY_COUNT];
    bool has_cb;
    uint32_t cb_gen; /**< reg->cb_gen when the snapshot was built */
    mca_base_event_cb_fn_t cb_fn[MCA_BASE_EVENT_CB_SAFETY_COUNT];
    void *cb_user_data[MCA_BASE_EVENT_CB_SAFETY_COUNT];
} mca_base_event_regset_entry_t;

struct mca_base_event_regset_t {
    int count;
    struct mca_base_event_regset_t *retire_next;
    uint64_t retire_epoch;
    mca_base_event_regset_entry_t entries[];
};
typedef struct mca_base_event_regset_t mca_base_event_regset_t;

/** An event type with its engine-private part (the public struct first). */
typedef struct mca_base_event_priv_t {
    mca_base_event_t super;
    mca_base_event_reg_t *regs;              /**< live registrations */
    int local_listeners;                     /**< registrations counted in active */
    mca_base_event_listen_fn_t listen_fn;
    void *listen_ctx;
} mca_base_event_priv_t;

/* ------------------------------------------------------------------------
 * Registry (mca_base_event_registry.c, mca_base_event_source.c)
 * ------------------------------------------------------------------------ */

/** Every registered event (index order). Under the mutex. */
extern mca_base_event_priv_t **mca_base_event_events;
extern int mca_base_event_num_events;
/** Is @p source one of ours? Caller holds the mutex. */
bool mca_base_event_source_is_registered(const mca_base_event_source_t *source);

/* ------------------------------------------------------------------------
 * Grace periods (mca_base_event_grace.c)
 * ------------------------------------------------------------------------ */

/** Per-thread record: what a writer must see of a reader. Never freed;
 *  reused by a later thread once its owner exited. */
typedef struct mca_base_event_thread_t {
    /** Grace epoch at the outermost dispatch entry, 0 outside dispatch. */
    _Atomic uint64_t active;
    atomic_bool in_use;
    struct mca_base_event_thread_t *next; /**< malloc'ed records list */
} __attribute__((aligned(MCA_BASE_EVENT_CACHE_LINE))) mca_base_event_thread_t;

/** Per-thread state: initial-exec TLS (no __tls_get_addr, no lazy malloc:
 *  usable from a signal handler). */
typedef struct mca_base_event_tls_t {
    int depth;                       /**< dispatch nesting on this thread */
    bool flushing;                   /**< inside mca_base_event_flush() */
    /** Inside a dropped handler called by mca_base_event_report_drops():
     *  flush points do not wait for the delivery (a delivery on another
     *  thread may be waiting for this report while holding it). */
    bool reporting;
    mca_base_event_thread_t *rec;
} mca_base_event_tls_t;

extern __thread mca_base_event_tls_t mca_base_event_tls
    __attribute__((tls_model("initial-exec")));

/** Global grace epoch (starts at 1; 0 means "not reading"). */
extern _Atomic uint64_t mca_base_event_grace_epoch;
/** Set when something waits on the retire lists. */
extern atomic_bool mca_base_event_retire_pending;

/** Spare malloc'ed records kept free once the static pool is used up, so
 *  that a new thread's first raise from a signal handler still finds one. */
#define MCA_BASE_EVENT_SPARE_THREAD_RECORDS 16

/** Claim this thread's record (first use). NULL if none can be had.
 *  @p may_alloc false (SIGNAL context): only a free record of the pools is
 *  taken, nothing is allocated; true: beyond the static pool, a record is
 *  allocated if needed and the spares are topped up (a safe point). */
mca_base_event_thread_t *mca_base_event_thread_claim(bool may_alloc);

/** Instances dropped in SIGNAL context because the raising thread had no
 *  per-thread record and none was free (so no registration could be found
 *  to charge them to). Saturating. */
extern _Atomic uint64_t mca_base_event_lost_no_record;

/** Enter a read-side section (nesting counted). Returns this thread's record
 *  or NULL (then the caller must not read snapshots). @p may_alloc: see
 *  mca_base_event_thread_claim(). Context: RAISE, SIGNAL (may_alloc false). */
static inline mca_base_event_thread_t *mca_base_event_reader_enter(bool may_alloc)
{
    mca_base_event_tls_t *t = &mca_base_event_tls;
    mca_base_event_thread_t *rec = t->rec;
    if (OPAL_UNLIKELY(NULL == rec)) {
        rec = mca_base_event_thread_claim(may_alloc);
        if (NULL == rec) {
            return NULL;
        }
    }
    if (0 == t->depth++) {
        uint64_t e = atomic_load_explicit(&mca_base_event_grace_epoch, memory_order_relaxed);
        /* seq_cst: the announcement must be visible before this thread loads
         * any snapshot. Pairs with the seq_cst publish + epoch bump + scan in
         * mca_base_event_retire_*() / mca_base_event_grace_ready(). */
        atomic_exchange_explicit(&rec->active, e, memory_order_seq_cst);
    }
    return rec;
}

void mca_base_event_reader_exit_slow(mca_base_event_cb_safety_t context);

/** Leave a read-side section. The outermost exit clears the announcement
 *  and, when retirements wait and the context allows, reclaims.
 *  Context: RAISE, SIGNAL. */
static inline void mca_base_event_reader_exit(mca_base_event_thread_t *rec,
                                              mca_base_event_cb_safety_t context)
{
    if (0 == --mca_base_event_tls.depth) {
        /* release: every read of snapshot memory above happens before a
         * writer sees us gone. Pairs with the seq_cst load of active in
         * mca_base_event_grace_ready(). */
        atomic_store_explicit(&rec->active, 0, memory_order_release);
        if (OPAL_UNLIKELY(atomic_load_explicit(&mca_base_event_retire_pending,
                                               memory_order_relaxed))) {
            mca_base_event_reader_exit_slow(context);
        }
    }
}

/** Retire a snapshot / a registration: caller holds the mutex and has
 *  already published the replacement (seq_cst). */
void mca_base_event_retire_regset(mca_base_event_regset_t *rs);
void mca_base_event_retire_reg(mca_base_event_reg_t *reg);
/** Reclaim what is past its grace period; free callbacks run outside the
 *  mutex. @p block: wait for the mutex (false: trylock, give up). */
void mca_base_event_reclaim(bool block, mca_base_event_cb_safety_t context);
/** Finalize: reclaim everything (no reader may be left). */
void mca_base_event_grace_finalize(void);

/* ------------------------------------------------------------------------
 * Dispatch (mca_base_event_dispatch.c) and handles (mca_base_event_handle.c)
 * ------------------------------------------------------------------------ */

/** Current registration epoch (incremented at each handle alloc). */
extern _Atomic uint64_t mca_base_event_reg_epoch;
/** The installed delivery (NULL: inline). */
extern _Atomic(const mca_base_event_delivery_t *) mca_base_event_delivery;

/** Set when some registration's drop counter went from 0 to nonzero since
 *  the last mca_base_event_report_drops() walk (may be set spuriously). */
extern atomic_bool mca_base_event_drops_pending;

/** Saturating increment of a drop counter. Context: RAISE, SIGNAL. */
static inline void mca_base_event_reg_count_drop(mca_base_event_reg_t *reg)
{
    uint64_t old = atomic_load_explicit(&reg->dropped, memory_order_relaxed);
    do {
        if (UINT64_MAX == old) {
            return; /* saturated: never wrap */
        }
        /* release (same instruction as relaxed on x86): what this thread
         * did before the drop (e.g. the registration's previous callback)
         * happens before the dropped handler run by a reporter on another
         * thread. Pairs with the acq_rel swap in
         * mca_base_event_report_drops() and flush_dropped(). */
    } while (!atomic_compare_exchange_weak_explicit(&reg->dropped, &old, old + 1,
                                                    memory_order_release,
                                                    memory_order_relaxed));
    if (OPAL_UNLIKELY(0 == old)) {
        /* release RMW (an RMW so that every setter's release sequence
         * reaches the clearing exchange, not just the last setter's): the
         * increment above is visible to whoever clears the flag seeing it
         * set. Pairs with the acquire exchange in
         * mca_base_event_report_drops(). Only on a 0 -> nonzero step. */
        (void) atomic_exchange_explicit(&mca_base_event_drops_pending, true,
                                        memory_order_release);
    }
}

/** Rebuild and publish @p ev's snapshot; caller holds the mutex.
 *  @retval OPAL_SUCCESS, OPAL_ERR_OUT_OF_RESOURCE (old snapshot kept). */
int mca_base_event_regset_rebuild(mca_base_event_priv_t *ev);

/** Update reg->listening from its slots and event->active; caller holds the
 *  mutex. Returns +1 / -1 when the event's local listeners went 0->1 / 1->0,
 *  else 0 (the caller fires the listen callback after unlocking). */
int mca_base_event_reg_update_listening(mca_base_event_reg_t *reg);
/** Fire @p ev's listen callback (outside the mutex) for a transition. */
void mca_base_event_listen_notify(mca_base_event_priv_t *ev, int transition);

/** Exporter share of the gate, added to new events while an EXPORTS delivery
 *  is installed (under the mutex). */
extern int mca_base_event_exporters;

/** Register mca_base_event_clock and switch the default clock to it
 *  (mca_base_event_init(), under the mutex). Context: INIT. */
int mca_base_event_clock_register(void);

/** Free every live registration (finalize). Caller does not hold the mutex. */
void mca_base_event_handles_finalize(void);
/** Read the registration cap (MCA parameter). */
int mca_base_event_max_registrations(void);

END_C_DECLS

#endif /* OPAL_MCA_BASE_EVENT_INTERNAL_H */
