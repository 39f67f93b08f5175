/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * State shared by the kit's files (evt_base_pool.c, evt_base_store.c,
 * evt_base_drain.c, evt_base_timer.c). Not installed: components use
 * evt_base_kit.h.
 */

#ifndef OMPI_EVT_BASE_KIT_INTERNAL_H
#define OMPI_EVT_BASE_KIT_INTERNAL_H

#include "ompi_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "ompi/mca/evt/base/evt_base_kit.h"

BEGIN_C_DECLS

/* Private to the kit's files: hidden, so the raise path reaches the kit's
 * state without the GOT. */
#pragma GCC visibility push(hidden)

/** A ring with records in a drain's snapshot (the merge heads). */
typedef struct evt_kit_head_t {
    ompi_evt_kit_ring_t *ring;
    const ompi_evt_ring_hdr_t *hdr;
    opal_count_t timestamp;
    uint64_t local_count; /**< the ring's local.count after the snapshot */
} evt_kit_head_t;

/** The pool: every ring, allocated at open. Freed by the close, or, when a
 *  drain holds the token then, by that drain as it ends (orphaned). */
typedef struct evt_kit_pool_t {
    ompi_evt_kit_ring_t *rings; /**< size entries */
    int size;
    size_t ring_size;
    bool overwrite;
    /** Anonymous storage (storage == NULL): the control blocks, and the
     *  data buffers (hwloc_alloc or mmap). */
    ompi_evt_ring_ctl_t *ctls;
    void **data;
    bool data_from_hwloc;
    const ompi_evt_base_storage_t *storage;
    /** The drain's merge heads (one per ring: on the heap, not the stack,
     *  so a pool of any size drains on a small thread stack). Used by the
     *  token holder only. */
    evt_kit_head_t *heads;
    /** Rings ever claimed (scan bound of the drain); only grows. */
    atomic_int high_water;
    /** Raises dropped because every ring was owned. */
    atomic_ulong dropped_pool;
    /** Set by the close while a drain held the token: that drain releases
     *  the pool as it ends. */
    atomic_bool orphaned;
} evt_kit_pool_t;

/** The kit (one: evt selects one module). */
typedef struct evt_kit_t {
    /** The installed pool; NULL while closed. Raisers reach it through
     *  their thread's ring (checked against generation); drainers load it
     *  under the token. */
    _Atomic(evt_kit_pool_t *) pool;
    /** The module whose consume/progress/flush the drains call; NULL once
     *  detached. Loaded inside a module section (module_busy). */
    _Atomic(const ompi_evt_base_module_t *) module;
    /** A drainer is inside a module call: detach waits for it (bounded:
     *  module calls run no user code). */
    atomic_int module_busy;
    /** The module has an evtm_progress (a drain with empty rings still
     *  calls it). */
    atomic_bool module_progress;
    /** ... whose work on drains that find nothing is only to take export
     *  drops (OMPI_EVT_MODULE_IDLE_PROGRESS_ON_DROPS). */
    atomic_bool module_progress_on_drops;
    /** The module has an evtm_consume (a hint for the idle check of a
     *  progress call; the drain asks the module itself). */
    atomic_bool module_consumes;
    ompi_evt_base_kit_params_t params;
    const char *name;
    /** Bumped at every open and close: a thread's ring pointer from an
     *  earlier pool is not used. */
    atomic_uint generation;
    pthread_key_t key;
    bool key_created;
    /** pthread_setspecific() of the key is async-signal-safe here (glibc,
     *  a first-level key): a ring claimed in a signal handler can be
     *  handed back at thread exit without a later normal raise. */
    bool key_signal_safe;
    /** The drain token (0 free, 1 held) and its statistics. */
    atomic_int token;
    /** The token's holder may run user code or block (a drain dispatching
     *  a record; a withdraw, the close or a drain completing withdraws,
     *  which take the engine's mutex and tell producers): a drain point
     *  that finds the token held waits for the holder only while this is
     *  0. Written by the holder only; cleared as the token is let go. */
    atomic_int token_user;
    atomic_ulong drained, drains_skipped, blocked;
    /** Rings whose records a drain stepped over unread (nothing in them
     *  for a local registration or the module). */
    atomic_ulong passed;
    /** A restricted drain (opal_progress, the timer) left records for a
     *  drain in context NONE: the next return of a wrapped MPI call drains
     *  whatever its ring holds. */
    atomic_bool none_waiting;
} evt_kit_t;

extern evt_kit_t ompi_evt_kit;

/** This thread's ring and the kit generation it was claimed in.
 *  initial-exec: a fixed offset from the thread pointer, no lazy
 *  allocation, so usable in a signal handler. */
extern __thread ompi_evt_kit_ring_t *ompi_evt_kit_mine __attribute__((tls_model("initial-exec")));
extern __thread unsigned int ompi_evt_kit_mine_gen __attribute__((tls_model("initial-exec")));

/** Whether the return of the MPI call this thread raises in should look at
 *  its ring (ompi_evt_base_kit_call_return()): set by every store, true when
 *  the ring holds a quarter or more or a restricted drain left records for a
 *  NONE one; otherwise that return has nothing to drain and enters no
 *  section. initial-exec: written at every raise. */
extern __thread bool ompi_evt_kit_return_due __attribute__((tls_model("initial-exec")));

/* ompi_evt_kit_mine after this thread's key destructor ran: the thread is
 * exiting. glibc still releases part of the thread's stack (madvise, seen by
 * the memory hooks, which raise) after the destructors: a claim then would
 * own a ring that no destructor ever gives back. Such late raises are
 * dropped (counted) instead. Never dereferenced. */
#define OMPI_EVT_KIT_EXITED ((ompi_evt_kit_ring_t *) (uintptr_t) 1)

/** Out of line part of evt_kit_mine(). Context: RAISE, SIGNAL. */
ompi_evt_kit_ring_t *ompi_evt_kit_pool_mine_slow(bool signal_context);

/** This thread's ring, claimed on first use; NULL when the pool is
 *  exhausted or closed (the caller counts the drop). Context: RAISE, SIGNAL. */
static inline ompi_evt_kit_ring_t *evt_kit_mine(bool signal_context)
{
    ompi_evt_kit_ring_t *ring = ompi_evt_kit_mine;

    /* relaxed: the generation changes only in INIT context, while no raise
     * reaches the kit (the engine's delivery sections). NULL (no ring yet)
     * and OMPI_EVT_KIT_EXITED take the slow path. */
    if (OPAL_LIKELY((uintptr_t) OMPI_EVT_KIT_EXITED < (uintptr_t) ring
                    && atomic_load_explicit(&ompi_evt_kit.generation, memory_order_relaxed)
                           == ompi_evt_kit_mine_gen
                    && !ring->own.needs_key)) {
        return ring;
    }
    return ompi_evt_kit_pool_mine_slow(signal_context);
}

/** Allocate / release a pool per the kit parameters. Context: INIT; release
 *  also from the end of a drain (orphaned pool). */
int ompi_evt_kit_pool_create(const ompi_evt_base_kit_params_t *params, evt_kit_pool_t **pool);
void ompi_evt_kit_pool_release(evt_kit_pool_t *pool);
/** Thread-exit key, created once per open. Context: INIT. */
int ompi_evt_kit_pool_key_create(void);
void ompi_evt_kit_pool_key_delete(void);
/** Wait until no thread-exit destructor runs any more: after the kit moved
 *  its generation on, none that starts later touches the old pool. The wait
 *  is on a few instructions of each destructor, never on user code.
 *  Context: INIT (the kit closing). */
void ompi_evt_kit_pool_exits_wait(void);
/** The child of a fork: forget the parent's pending records and the rings of
 *  threads that do not exist here. Context: the atfork child handler. */
void ompi_evt_kit_pool_atfork_child(evt_kit_pool_t *pool);

/** The child of a fork: the timer thread is the parent's. Context: the
 *  atfork child handler. */
void ompi_evt_base_kit_timer_atfork_child(void);

/* The drain token and module sections (evt_base_token.c). */
/** This thread holds the drain token. */
extern __thread bool ompi_evt_kit_draining_tls __attribute__((tls_model("initial-exec")));
/** A pool closed while a drain held the token (released by the holder). */
extern _Atomic(evt_kit_pool_t *) ompi_evt_kit_orphan;
/** Bumped in the child of a fork (evt_base_kit.c): a drain that was
 *  running in the forking thread stops. */
extern atomic_uint ompi_evt_kit_fork_gen;
/** Take the token if free; never waits. Context: any. */
bool ompi_evt_kit_token_try(void);
/** Let the token go (and release an orphaned pool). Context: the drainer. */
void ompi_evt_kit_token_release(void);
/** Enter / leave a module section: the module, or NULL when detached.
 *  Context: the drainer. */
const ompi_evt_base_module_t *ompi_evt_kit_module_enter(void);
void ompi_evt_kit_module_exit(void);

/** Count the pending records @p match accepts in the pool @p ctx (the
 *  engine's withdraw callback form). Context: the drainer (token held). */
uint64_t ompi_evt_kit_count_pending(bool (*match)(const mca_base_event_record_t *, void *),
                                    void *arg, void *ctx);

/** Relaxed increment of an owner-written counter (no RMW needed: only the
 *  owner and its signal handlers write it, inside enter()/exit()). */
static inline void evt_kit_count(atomic_ulong *counter)
{
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

#pragma GCC visibility pop

END_C_DECLS

#endif /* OMPI_EVT_BASE_KIT_INTERNAL_H */
