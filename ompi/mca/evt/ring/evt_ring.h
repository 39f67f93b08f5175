/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/ring: events copied into per-thread lock-free rings at the raise and
 * delivered at the next progress call.
 *
 * Why per-thread rings and not one multi-producer ring: a multi-producer
 * ring shares its tail line between every raising thread (~118 ns per
 * bounce here) and its commit waits for earlier reservations, which
 * deadlocks when a signal handler interrupts a reservation (STYLE.md). With
 * one ring per thread the raise writes only lines that thread owns and a
 * nested raise from a handler is refused (busy flag) and counted.
 *
 * Pieces, one idea per file:
 *   evt_ring_buf.h        the SPSC ring primitive (inline)
 *   evt_ring_pool.c       the ring pool: allocation at open (hwloc), claim by
 *                         a thread's first raise, release at thread exit,
 *                         reuse after drain
 *   evt_ring_module.c     module ops: deliver (raise path), drain with the
 *                         k-way merge, progress, flush, drain timer
 *   evt_ring_component.c  the component struct, register/open/close/init
 *
 * Delivery semantics are sync's (registration epochs, flush points, the
 * ORDERED clamp are the engine's): a raise stores the captured record, the
 * drain dispatches it later with mca_base_event_dispatch(); what cannot be
 * stored (full ring, nested raise, pool exhausted) is counted with
 * mca_base_event_count_dropped() for every registration that would have
 * received it, so per registration delivered + dropped == raised.
 *
 * ORDERED sources: the drain merges the rings by timestamp (k-way merge over
 * the ring heads), so records of sources sharing a clock (every source on
 * the default CLOCK_MONOTONIC clock) come out in timestamp order across
 * threads. Two cases can still see a record older than one already
 * delivered: a record committed after the drain took its snapshot of the
 * rings (its thread was preempted between the timestamp and the commit),
 * and a raise from a signal handler that interrupted its thread between
 * the timestamp and the commit. The engine then delivers it with the last
 * delivered timestamp (mca_base_event_dispatch()'s clamp), so delivered
 * timestamps never decrease.
 */

#ifndef MCA_EVT_RING_H
#define MCA_EVT_RING_H

#include "ompi_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ompi/mca/evt/evt.h"
#include "ompi/mca/evt/ring/evt_ring_buf.h"

BEGIN_C_DECLS

/** Default of evt_ring_priority: below sync (20), so sync stays the
 *  default and --mca evt ring selects ring. */
#define OMPI_EVT_RING_DEFAULT_PRIORITY 10
/** Default of evt_ring_ring_size (bytes per thread). 64 KiB hold ~1100
 *  records with a 16-byte payload. */
#define OMPI_EVT_RING_DEFAULT_RING_SIZE (64 * 1024)
/** Smallest ring the parameter accepts: room for several records of the
 *  largest payload (capacity/2 >= one record). */
#define OMPI_EVT_RING_MIN_RING_SIZE 4096
/** Default of evt_ring_pool_size (rings, i.e. raising threads). */
#define OMPI_EVT_RING_DEFAULT_POOL_SIZE 64
/** Default of evt_ring_drain_budget (records per progress call). */
#define OMPI_EVT_RING_DEFAULT_DRAIN_BUDGET 1024

/** Overflow policies (evt_ring_overflow_policy). */
typedef enum {
    /** Drop the new record, count it for its registrations (default). */
    OMPI_EVT_RING_OVERFLOW_DROP_NEW = 0,
    /** In a normal raise context (not SIGNAL, not inside a drain), drain
     *  the rings at once (as sync would deliver) and retry; drop-new when
     *  that is impossible (another thread drains, SIGNAL context). */
    OMPI_EVT_RING_OVERFLOW_DRAIN = 1,
} ompi_evt_ring_overflow_t;

/** Pool entry states (ompi_evt_ring_t::state). */
enum {
    OMPI_EVT_RING_FREE = 0,     /**< no owner, empty */
    OMPI_EVT_RING_OWNED = 1,    /**< a live thread produces into it */
    OMPI_EVT_RING_RELEASED = 2, /**< its thread exited; drain, then FREE */
};

/** One ring of the pool. */
typedef struct ompi_evt_ring_t {
    /** The SPSC ring (own cache lines per side). Producer: the owning
     *  thread. Consumer: whoever holds the drain lock. */
    ompi_evt_ring_spsc_t buf;
    /* ---- producer-private bookkeeping (the owner thread only) ---- */
    struct {
        /** Claimed from a signal handler: pthread_setspecific() is still
         *  to be done by a raise in a normal context. */
        bool needs_key;
        /** Records stored / dropped because full / nested raise refused.
         *  Written by the owner only; read (relaxed) by test seams. */
        atomic_ulong stored, dropped_full, dropped_nested;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) own;
    /* ---- pool line: claim/release hand-off ---- */
    struct {
        /** OMPI_EVT_RING_*. FREE->OWNED by a claimer's CAS (acquire pairs
         *  with the drainer's release store of FREE); OWNED->RELEASED by the
         *  exiting owner (release, pairs with the drainer's acquire load). */
        atomic_int state;
        int index;
    } __attribute__((aligned(OMPI_EVT_CACHE_LINE))) pool;
} ompi_evt_ring_t;

/** The ring component: the base component plus parameter values and the
 *  state open() builds. */
typedef struct ompi_evt_ring_component_t {
    ompi_evt_base_component_t super;
    /* parameters (register) */
    int priority;      /**< evt_ring_priority */
    int ring_size;     /**< evt_ring_ring_size, bytes, power of two */
    int pool_size;     /**< evt_ring_pool_size */
    int drain_budget;  /**< evt_ring_drain_budget, records per progress call */
    int overflow;      /**< evt_ring_overflow_policy (ompi_evt_ring_overflow_t) */
    int drain_interval; /**< evt_ring_drain_interval, microseconds; 0 = no timer */
    /* state (open/close) */
    ompi_evt_ring_t *rings;   /**< pool_size entries */
    void **ring_data;         /**< pool_size buffers of ring_size bytes */
    bool data_from_hwloc;     /**< ring_data came from hwloc_alloc() */
    bool key_created;
    pthread_key_t key;        /**< thread-exit release of a claimed ring */
    /** Rings ever claimed (scan bound of the drain); only grows while open. */
    atomic_int high_water;
    /** Raises dropped because every ring was owned. */
    atomic_ulong dropped_pool;
    /** Pool generation: bumped at every open, so a thread's ring pointer
     *  from an earlier open (MPI_T init/finalize cycles) is not reused. */
    atomic_uint generation;
} ompi_evt_ring_component_t;

OMPI_DECLSPEC extern ompi_evt_ring_component_t mca_evt_ring_component;

/** The module instance (evt_ring_module.c). */
extern const ompi_evt_base_module_t ompi_evt_ring_module;

/* ---- pool (evt_ring_pool.c) ---- */

/** Allocate the pool (component open). Context: INIT.
 *  @retval OMPI_SUCCESS, OPAL_ERR_BAD_PARAM (ring size), OPAL_ERR_OUT_OF_RESOURCE */
int ompi_evt_ring_pool_open(void);
/** Free the pool (component close). Context: INIT. */
void ompi_evt_ring_pool_close(void);
/** This thread's ring and the pool generation it was claimed from
 *  (evt_ring_pool.c). initial-exec: a fixed offset from the thread pointer,
 *  no lazy allocation, so usable in a signal handler. */
extern __thread ompi_evt_ring_t *ompi_evt_ring_mine __attribute__((tls_model("initial-exec")));
extern __thread unsigned int ompi_evt_ring_mine_gen __attribute__((tls_model("initial-exec")));

/* ompi_evt_ring_mine after this thread's key destructor ran: the thread is
 * exiting. glibc still releases part of the thread's stack (madvise, seen by
 * the memory hooks, which raise ompi.mca.memory.patcher.release) after the
 * destructors: a claim then would own a ring that no destructor ever gives
 * back, one ring lost per thread exit until the pool is empty. Such late
 * raises are dropped (counted) instead. Never dereferenced. */
#define OMPI_EVT_RING_EXITED ((ompi_evt_ring_t *) (uintptr_t) 1)

/** Out of line part of ompi_evt_ring_pool_mine(). Context: RAISE, SIGNAL. */
ompi_evt_ring_t *ompi_evt_ring_pool_mine_slow(bool signal_context);

/** This thread's ring, claimed on first use; NULL when the pool is exhausted
 *  (the caller counts the drop). @p signal_context: called from a signal
 *  handler (defers pthread_setspecific()). Inline: on the raise path it is
 *  two TLS loads, one load of the generation and one byte test.
 *  Context: RAISE, SIGNAL. */
static inline ompi_evt_ring_t *ompi_evt_ring_pool_mine(bool signal_context)
{
    ompi_evt_ring_t *ring = ompi_evt_ring_mine;

    /* relaxed: the generation changes only in INIT context, while no raise
     * reaches this module. */
    /* NULL (no ring yet) and OMPI_EVT_RING_EXITED take the slow path */
    if (OPAL_LIKELY((uintptr_t) OMPI_EVT_RING_EXITED < (uintptr_t) ring
                    && atomic_load_explicit(&mca_evt_ring_component.generation,
                                            memory_order_relaxed)
                           == ompi_evt_ring_mine_gen
                    && !ring->own.needs_key)) {
        return ring;
    }
    return ompi_evt_ring_pool_mine_slow(signal_context);
}
/** Make a RELEASED ring that the drainer found empty FREE again.
 *  Context: the drainer (drain lock held). */
void ompi_evt_ring_pool_recycle(ompi_evt_ring_t *ring);

/* ---- module internals shared with the component ---- */

/** Start / stop the drain timer on OPAL's progress thread.
 *  Context: INIT. */
int ompi_evt_ring_timer_start(void);
void ompi_evt_ring_timer_stop(void);

/* ------------------------------------------------------------------------
 * Test-only seams (test/unit, test/stress; never called by the project)
 * ------------------------------------------------------------------------ */

/** Counters summed over the pool. */
typedef struct ompi_evt_ring_test_stats_t {
    unsigned long stored;          /**< records written into rings */
    unsigned long dropped_full;    /**< refused: ring full */
    unsigned long dropped_nested;  /**< refused: nested raise (signal) */
    unsigned long dropped_pool;    /**< refused: pool exhausted */
    unsigned long drained;         /**< records dispatched by drains */
    unsigned long drains_skipped;  /**< progress calls that found the lock held */
    int rings_owned;               /**< OWNED */
    int rings_released;            /**< RELEASED, awaiting drain */
} ompi_evt_ring_test_stats_t;
OMPI_DECLSPEC void ompi_evt_ring_test_stats(ompi_evt_ring_test_stats_t *stats);
/** Take (true) or drop (false) the drain lock as if another thread drained.
 *  @retval true  done (take: the lock was free) */
OMPI_DECLSPEC bool ompi_evt_ring_test_hold_drain_lock(bool take);
/** Forget this thread's ring (as if the thread exited): releases it. */
OMPI_DECLSPEC void ompi_evt_ring_test_thread_exit(void);

END_C_DECLS

#endif /* MCA_EVT_RING_H */
