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
 *     listen callbacks and the retire lists. It is never held while user
 *     code runs, so waiting for it is always bounded;
 *   - readers (dispatch, count_dropped, the drop report) take no lock: they
 *     announce themselves in a per-thread record (mca_base_event_grace.c)
 *     and read the immutable registration snapshot (mca_base_event_regset_t)
 *     of an event;
 *   - snapshots, freed registrations and whatever a delivery retires are
 *     reclaimed only after a grace period (every thread that could be
 *     reading them has left its read-side section).
 */

#ifndef OPAL_MCA_BASE_EVENT_INTERNAL_H
#define OPAL_MCA_BASE_EVENT_INTERNAL_H

#include "opal_config.h"

#include <stdatomic.h>
#include <stdint.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/mca/base/mca_base_event_test.h"
#include "opal/threads/mutex.h"

BEGIN_C_DECLS

/* Everything declared here is private to the engine's files: hidden, so that
 * the raise path calls it directly and reads its globals without going
 * through the PLT and the GOT. */
#pragma GCC visibility push(hidden)

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2
                   && ATOMIC_INT_LOCK_FREE == 2,
               "SIGNAL context needs always-lock-free counters and pointers");

/** Cache line used to pad per-thread records apart (x86-64, aarch64). */
#define MCA_BASE_EVENT_CACHE_LINE 64
/** Per-thread records preallocated statically: a thread's first raise (even
 *  from a signal handler) claims one without malloc. More threads than this
 *  get malloc'ed records, allocated only outside SIGNAL context (plus a few
 *  spares, MCA_BASE_EVENT_SPARE_THREAD_RECORDS, for signal handlers). A
 *  thread that finds none in SIGNAL context reads as an anonymous reader
 *  (mca_base_event_anon_enter()), so nothing it raises is lost uncounted. */
#define MCA_BASE_EVENT_STATIC_THREAD_RECORDS 256
/** Spare malloc'ed records kept free once the static pool is used up. */
#define MCA_BASE_EVENT_SPARE_THREAD_RECORDS 16
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
    /** The registration epoch its free started at (UINT64_MAX while live):
     *  records captured at or after it were raised after the free and are
     *  not its own, neither delivered nor counted dropped, even while a
     *  dispatch still holds a snapshot naming it. Set under the mutex;
     *  read relaxed, after reg->freed was seen set. */
    _Atomic uint64_t end_epoch;
    mca_base_event_registration_t *handle;   /**< the token tools hold */
    uint32_t slot;
    mca_base_event_cb_fn_t cb_fn[MCA_BASE_EVENT_CB_SAFETY_COUNT];
    void *cb_user_data[MCA_BASE_EVENT_CB_SAFETY_COUNT];
    opal_info_t *cb_info[MCA_BASE_EVENT_CB_SAFETY_COUNT];
    mca_base_event_dropped_cb_fn_t dropped_cb;
    opal_info_t *info;
    bool listening;                          /**< counted in event->active */
    /** Drops not yet reported; saturating (never wraps). Any thread, SIGNAL.
     *  Cleared only by the exchange that hands the count to a dropped
     *  handler (mca_base_event_drops.c): without a handler it stays. */
    _Atomic uint64_t dropped;
    /** Set by handle_free (relaxed): a dispatch that still holds a snapshot
     *  naming the registration counts the record as dropped instead of
     *  calling a callback. Other threads may see it late; the free callback
     *  waits for them through the grace period, so none runs after it. */
    atomic_bool freed;
    /** Bumped (relaxed, under the mutex, before the rebuild that publishes
     *  the change) by every callback or dropped-handler change: a dispatch
     *  whose snapshot entry carries an older value looks up the current
     *  entry, so a callback cleared or replaced by this thread (from a
     *  callback of an outer dispatch) is never called after the change
     *  returned. */
    _Atomic uint32_t cb_gen;
    /** Freed while a deferred delivery drained on another thread: stays in
     *  the snapshot (dispatch counts its records dropped) until that drain
     *  completes the withdraw (mca_base_event_withdraw_pending()). */
    bool withdraw_pending;
    /** Free callback left to the retire path. */
    bool free_cb_pending;
    mca_base_event_free_cb_fn_t free_cb;
    void *free_user_data;
    /** Dropped handler left to the retire path with the free callback: it
     *  reports the drops still pending just before the free callback. */
    mca_base_event_dropped_cb_fn_t final_dropped_cb;
    void *final_dropped_user_data;
    /** Per-event list of live registrations. */
    struct mca_base_event_reg_t *next, *prev;
    /** Retire list, or the list of pending withdraws. */
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
    /** Records of this type the delivery could not export (not charged to
     *  any local registration); saturating. */
    _Atomic uint64_t export_dropped;
} mca_base_event_priv_t;

/** Was @p record raised while @p reg lived (before its free)? Called once
 *  reg->freed is seen set. */
static inline bool mca_base_event_reg_owns(const mca_base_event_reg_t *reg,
                                           const mca_base_event_record_t *record)
{
    /* relaxed: written before freed under the mutex; a stale UINT64_MAX only
     * counts a concurrent raise for the registration */
    return record->epoch < atomic_load_explicit(&reg->end_epoch, memory_order_relaxed);
}

/** Does @p e (a snapshot entry of @p event) take @p record: the same bound
 *  object, and registered at or before the record's capture. */
static inline bool mca_base_event_entry_matches(const mca_base_event_t *event,
                                                const mca_base_event_regset_entry_t *e,
                                                const mca_base_event_record_t *record)
{
    if (MCA_BASE_VAR_BIND_NO_OBJECT != event->bind && e->obj != record->obj) {
        return false;
    }
    return e->epoch <= record->epoch;
}

/* ------------------------------------------------------------------------
 * Registry (mca_base_event_registry.c, mca_base_event_source.c)
 * ------------------------------------------------------------------------ */

/** Every registered event (index order). Under the mutex. */
extern mca_base_event_priv_t **mca_base_event_events;
extern int mca_base_event_num_events;
/** Is @p source one of ours? Caller holds the mutex. */
bool mca_base_event_source_is_registered(const mca_base_event_source_t *source);

/* ------------------------------------------------------------------------
 * Per-thread records and grace periods (mca_base_event_grace.c)
 * ------------------------------------------------------------------------ */

/** Per-thread record: what a writer must see of a reader. Never freed;
 *  reused by a later thread once its owner exited. */
typedef struct mca_base_event_thread_t {
    /** Grace epoch at the outermost read-side entry, 0 outside. Written by
     *  the owner only. */
    _Atomic uint64_t active;
    /** Raise-path sections inside the installed delivery
     *  (mca_base_event_delivery_enter()): odd while the thread is inside
     *  one, bumped at the outermost entry and exit; written by the owner
     *  only. A writer waiting for the thread to leave the delivery waits
     *  while it reads the same odd value. */
    _Atomic uint32_t dseq;
    /** Non-zero while the owner is inside the single-dispatcher clamp of an
     *  ORDERED source (mca_base_event_dispatch.c); written by the owner
     *  only, read by the thread that ends single-dispatcher mode. */
    _Atomic uint32_t clamping;
    atomic_bool in_use;
    struct mca_base_event_thread_t *next; /**< malloc'ed records list */
} __attribute__((aligned(MCA_BASE_EVENT_CACHE_LINE))) mca_base_event_thread_t;

/** Per-thread state: initial-exec TLS (no __tls_get_addr, no lazy malloc:
 *  usable from a signal handler). */
typedef struct mca_base_event_tls_t {
    int depth;                       /**< read-side nesting on this thread */
    /** Causal depth given to records raised on this thread now: the depth
     *  of the record whose callbacks run, plus one (0 outside callbacks). */
    uint32_t chain;
    bool flushing;                   /**< inside mca_base_event_flush() */
    mca_base_event_thread_t *rec;
} mca_base_event_tls_t;

extern __thread mca_base_event_tls_t mca_base_event_tls
    __attribute__((tls_model("initial-exec")));

/** Global grace epoch (starts at 1; 0 means "not reading"). */
extern _Atomic uint64_t mca_base_event_grace_epoch;
/** Set when something waits on the retire lists. */
extern atomic_bool mca_base_event_retire_pending;
/** Readers are announced with a plain store and writers use the kernel's
 *  asymmetric fence (membarrier): true once it is registered. Otherwise
 *  each announcement is a seq_cst exchange. */
extern bool mca_base_event_asym_fence;

/** Create the per-thread record key and set up the asymmetric fence, once
 *  per process. Context: INIT (mca_base_event_init()). */
void mca_base_event_grace_init(void);

/** The asymmetric fence (membarrier, or a full fence where readers use
 *  seq_cst exchanges): every thread's plain announcement made before it is
 *  visible after it. Context: ANY (never SIGNAL); a system call. */
void mca_base_event_asym_fence_now(void);

/** Claim this thread's record (first use). NULL if none can be had.
 *  @p may_alloc false (SIGNAL context): only a free record of the pools is
 *  taken, nothing is allocated; true: beyond the static pool, a record is
 *  allocated if needed and the spares are topped up (a safe point). */
mca_base_event_thread_t *mca_base_event_thread_claim(bool may_alloc);

/** Enter a read-side section (nesting counted). Returns this thread's record
 *  or NULL (then use mca_base_event_anon_enter() or do not read snapshots).
 *  @p may_alloc: see mca_base_event_thread_claim(). Context: RAISE, SIGNAL
 *  (may_alloc false). */
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
        /* acquire: a reader that sees the epoch a writer bumped also sees
         * the snapshot that writer published before the bump (pairs with
         * the seq_cst fetch_add in mca_base_event_retire_*()). */
        uint64_t e = atomic_load_explicit(&mca_base_event_grace_epoch, memory_order_acquire);
        if (OPAL_LIKELY(mca_base_event_asym_fence)) {
            /* A plain store: the writer's membarrier() makes it visible
             * before the writer scans, or makes every load below see the
             * writer's publish (mca_base_event_grace.c). The compiler
             * barrier keeps the loads below after the store. */
            atomic_store_explicit(&rec->active, e, memory_order_relaxed);
            atomic_signal_fence(memory_order_seq_cst);
        } else {
            /* seq_cst: the announcement is visible before this thread
             * loads any snapshot. Pairs with the seq_cst scan. */
            atomic_exchange_explicit(&rec->active, e, memory_order_seq_cst);
        }
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
         * writer sees us gone. Pairs with the acquire loads of the scan in
         * mca_base_event_grace.c. */
        atomic_store_explicit(&rec->active, 0, memory_order_release);
        if (OPAL_UNLIKELY(atomic_load_explicit(&mca_base_event_retire_pending,
                                               memory_order_relaxed))) {
            mca_base_event_reader_exit_slow(context);
        }
    }
}

/** A read-side section for a thread without a record (more threads than
 *  records, first raise in a signal handler): a global counter, checked by
 *  every grace scan (while it is non-zero nothing is reclaimed). Used only
 *  to charge drops (no callback runs inside). Context: RAISE, SIGNAL. */
void mca_base_event_anon_enter(void);
void mca_base_event_anon_exit(void);

/** Enter / leave a raise-path section inside the installed delivery
 *  (mca_base_event_capture.c). mca_base_event_delivery_set() waits for
 *  every thread inside one before it returns, so a removed delivery's
 *  memory can be released. Never held across user code. A section entered
 *  while the thread is already inside one (a signal handler that
 *  interrupted it) is covered by the outer one: enter returns false and
 *  exit is then not called. Context: RAISE, SIGNAL. */
static inline bool mca_base_event_delivery_enter(mca_base_event_thread_t *rec)
{
    uint32_t d = atomic_load_explicit(&rec->dseq, memory_order_relaxed);
    if (OPAL_UNLIKELY(0 != (d & 1))) {
        return false;
    }
    if (OPAL_LIKELY(mca_base_event_asym_fence)) {
        /* as the reader announcement: plain store + compiler barrier, the
         * writer runs membarrier() before it scans */
        atomic_store_explicit(&rec->dseq, d + 1, memory_order_relaxed);
        atomic_signal_fence(memory_order_seq_cst);
    } else {
        atomic_exchange_explicit(&rec->dseq, d + 1, memory_order_seq_cst);
    }
    return true;
}

static inline void mca_base_event_delivery_exit(mca_base_event_thread_t *rec)
{
    /* release: the accesses of the section happen before a writer sees the
     * thread out (pairs with the acquire loads in
     * mca_base_event_delivery_wait()). */
    atomic_store_explicit(&rec->dseq, atomic_load_explicit(&rec->dseq, memory_order_relaxed) + 1,
                          memory_order_release);
}

/** Wait until every thread that was inside a delivery section when this was
 *  called has left it. Bounded: sections hold no lock and run no user code.
 *  Context: INIT. */
void mca_base_event_delivery_wait(void);

/** Retire a snapshot / a registration: caller holds the mutex and has
 *  already published the replacement (seq_cst). */
void mca_base_event_retire_regset(mca_base_event_regset_t *rs);
void mca_base_event_retire_reg(mca_base_event_reg_t *reg);
/** Reclaim what is past its grace period; free callbacks and final drop
 *  reports run outside the mutex. @p block: wait for the mutex (false:
 *  trylock, give up). */
void mca_base_event_reclaim(bool block, mca_base_event_cb_safety_t context);
/** Finalize: reclaim everything (no reader may be left). */
void mca_base_event_grace_finalize(void);

/** The child of a fork(): forget every other thread's record (those threads
 *  do not exist here) and re-arm the asymmetric fence. Context: the atfork
 *  child handler (one thread). */
void mca_base_event_grace_atfork_child(void);

/** The child of a fork(): the TSC clock's refresh, which a thread that is
 *  not in this process may have been doing, is free again. Context: the
 *  atfork child handler (one thread). */
void mca_base_event_clock_atfork_child(void);

/* ------------------------------------------------------------------------
 * Dispatch (mca_base_event_dispatch.c), capture (mca_base_event_capture.c)
 * ------------------------------------------------------------------------ */

/** Current registration epoch (incremented at each handle alloc). */
extern _Atomic uint64_t mca_base_event_reg_epoch;
/** The installed delivery (NULL: inline). */
extern _Atomic(const mca_base_event_delivery_t *) mca_base_event_delivery;

/** Dispatch @p record (the engine's own, mutable: the ORDERED clamp may
 *  raise its timestamp) in @p context: mca_base_event_dispatch() without
 *  the argument checks and the copy. Context: RAISE, PROGRESS, ANY. */
int mca_base_event_dispatch_record(mca_base_event_record_t *record,
                                   mca_base_event_cb_safety_t context);

/** The thread whose dispatches alone clamp ORDERED timestamps with plain
 *  stores (NULL before the first dispatch; MCA_BASE_EVENT_CLAMP_SHARED once
 *  a second thread dispatched, or without the asymmetric fence: then every
 *  clamp is an atomic max). See mca_base_event_dispatch.c. */
extern _Atomic(mca_base_event_thread_t *) mca_base_event_clamp_owner;
#define MCA_BASE_EVENT_CLAMP_SHARED ((mca_base_event_thread_t *) (uintptr_t) 1)

/** Rebuild and publish @p ev's snapshot; caller holds the mutex.
 *  @retval OPAL_SUCCESS, OPAL_ERR_OUT_OF_RESOURCE (old snapshot kept). */
int mca_base_event_regset_rebuild(mca_base_event_priv_t *ev);

/** Update reg->listening from its slots and event->active; caller holds the
 *  mutex. Returns +1 / -1 when the event's local listeners went 0->1 / 1->0,
 *  else 0 (the caller fires the listen callback after unlocking). */
int mca_base_event_reg_update_listening(mca_base_event_reg_t *reg);
/** Fire @p ev's listen callback (outside the mutex) for a transition. */
void mca_base_event_listen_notify(mca_base_event_priv_t *ev, int transition);

/** Set event->exported from the installed delivery (its EXPORTS flag and
 *  filter) and keep event->active in step. Caller holds the mutex. */
void mca_base_event_export_update(mca_base_event_priv_t *ev,
                                  const mca_base_event_delivery_t *delivery);

/* ------------------------------------------------------------------------
 * Drops (mca_base_event_drops.c)
 * ------------------------------------------------------------------------ */

/** Set when some registration's drop counter went from 0 to nonzero since
 *  the last mca_base_event_report_drops() walk (may be set spuriously). */
extern atomic_bool mca_base_event_drops_pending;

/** Saturating increment of a drop counter. Context: RAISE, SIGNAL. */
static inline void mca_base_event_reg_count_drop(mca_base_event_reg_t *reg, uint64_t n)
{
    uint64_t old = atomic_load_explicit(&reg->dropped, memory_order_relaxed);
    uint64_t now;
    do {
        if (UINT64_MAX == old) {
            return; /* saturated: never wrap */
        }
        now = UINT64_MAX - old < n ? UINT64_MAX : old + n;
        /* release: what this thread did before the drop happens before the
         * dropped handler run by a reporter on another thread. Pairs with
         * the acq_rel exchanges that take the count (drops.c). */
    } while (!atomic_compare_exchange_weak_explicit(&reg->dropped, &old, now,
                                                    memory_order_release,
                                                    memory_order_relaxed));
    if (OPAL_UNLIKELY(0 == old)) {
        /* release RMW (so that every setter's release sequence reaches the
         * clearing exchange): the increment above is visible to whoever
         * clears the flag seeing it set. Pairs with the acquire exchange in
         * mca_base_event_report_drops(). */
        (void) atomic_exchange_explicit(&mca_base_event_drops_pending, true,
                                        memory_order_release);
    }
}

/** Report @p e's pending drops to its dropped handler before a delivery to
 *  it (in @p context, with @p user_data of the callback about to run).
 *  Outside every lock. Context: RAISE, PROGRESS, ANY (a dispatch), after
 *  mca_base_event_reg_drops_waiting(): one relaxed load when nothing was
 *  dropped. */
void mca_base_event_drops_report_one(const mca_base_event_regset_entry_t *e,
                                     const mca_base_event_record_t *record,
                                     mca_base_event_cb_safety_t context, void *user_data);
/** Whether @p e has drops to report before a delivery to it
 *  (mca_base_event_drops_report_one(), which the caller runs, then looks
 *  again at the registration: the handler may have freed it or changed
 *  its callbacks). relaxed: the cheap test; the exchange in the report
 *  orders. Context: RAISE, PROGRESS, ANY (a dispatch). */
static inline bool mca_base_event_reg_drops_waiting(const mca_base_event_regset_entry_t *e)
{
    return OPAL_UNLIKELY(NULL != e->dropped_cb
                         && 0 != atomic_load_explicit(&e->reg->dropped, memory_order_relaxed));
}

/* ------------------------------------------------------------------------
 * Registrations (mca_base_event_handle.c)
 * ------------------------------------------------------------------------ */

/** Free every live registration (the end of the MPI_T session, finalize).
 *  Caller holds no lock. */
void mca_base_event_handles_finalize(void);
/** Read the registration cap (MCA parameter). */
int mca_base_event_max_registrations(void);
/** A live registration by token, NULL otherwise. Caller holds the mutex. */
mca_base_event_reg_t *mca_base_event_reg_lookup(mca_base_event_registration_t *handle);
/** The token table's size, and the registration in slot @p slot (NULL when
 *  free). Caller holds the mutex (the drop report walks them). */
uint32_t mca_base_event_reg_slot_count(void);
mca_base_event_reg_t *mca_base_event_reg_at_slot(uint32_t slot);

/* ------------------------------------------------------------------------
 * Clock (mca_base_event_source.c)
 * ------------------------------------------------------------------------ */

/** Register mca_base_event_clock and switch the default clock to it
 *  (mca_base_event_init(), under the mutex). Context: INIT. */
int mca_base_event_clock_register(void);

#pragma GCC visibility pop

END_C_DECLS

#endif /* OPAL_MCA_BASE_EVENT_INTERNAL_H */
