/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The OS memory-release producer: what it promises, and in which contexts.
 *
 * Open MPI's memory framework (memory/patcher) intercepts munmap, madvise,
 * brk/sbrk, mremap and shmdt, including the ones glibc's free() and
 * malloc_trim() make, and calls every registered release hook in the thread
 * that releases, *before* the memory goes away, possibly inside libc's
 * allocator (measured with Open MPI 4.1.4's memory/patcher). Raw syscall(SYS_munmap) is not seen.
 *
 * Events (all on source "ompi.unordered": UNORDERED, 1e9 ticks/s,
 * CLOCK_MONOTONIC, ad-hoc readable):
 *   ompi.mca.memory.patcher.released  {count:u64@0, bytes:u64@8}
 *       releases since the previous batch, aggregated in a lock-free sink
 *       (memory_patcher_event_sink.c) and raised as one event at the safe
 *       points: the engine's flush points (handle alloc/free,
 *       MPI_T_source_get_timestamp, finalize) and a delivery's progress drain
 *       (mca_base_event_drain_sinks()). No event when the sink is empty.
 *       Every batch has count >= 1; sums of count and bytes over batches are
 *       exact. A release racing with a drain may have its bytes in one batch
 *       and its count in the next (never a count without its bytes).
 *   ompi.mca.memory.patcher.release   {bytes:u64@0, address:u64@8}
 *       each release on its own, raised from inside the hook with
 *       MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE. Registered ONLY when the
 *       selected delivery can carry such raises (delivery flag
 *       MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE, i.e. evt/ring): with sync
 *       every raise would be refused, so a tool tells by the event's absence
 *       (MPI_T_event_get_index fails) rather than by a stream of drops.
 *
 * Both are registered only where the hooks work: after opal_init (not after
 * opal_init_util alone, where registering a hook crashes Open MPI 4.1.4) and
 * when, once memory framework is open, opal_mem_hooks_support_level() has
 * FREE and MUNMAP support. Elsewhere (e.g. --mca memory ^patcher) neither is
 * registered and the reason goes to the memory_patcher_event_verbose stream:
 * a smaller event set is conformant. The memory framework, once opened by
 * this producer, stays open until Open MPI closes it (as its UCX support
 * does): its patches cannot be taken back anyway.
 *
 * The release hook is registered with Open MPI (opal_mem_hooks_register_release)
 * only while one of the two events has a listener (listen callback 0->1) and
 * removed at the last one (1->0). Inside the hook: relaxed/acquire loads, two
 * relaxed atomic adds into preallocated static counters, and (per-release) the
 * engine's async-signal-safe raise. No lock, no allocation, no list walk.
 */

#ifndef OPAL_MEMORY_PATCHER_EVENT_H
#define OPAL_MEMORY_PATCHER_EVENT_H

#include "opal_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

BEGIN_C_DECLS

/* ------------------------------------------------------------------------
 * Registration (memory_patcher_event.c)
 * ------------------------------------------------------------------------ */

/**
 * Register the producer: source, events, listen callbacks, the sink drain.
 *
 * @param[in] delivery_flags  MCA_BASE_EVENT_DELIVERY_* of the delivery that
 *            is (or will be) installed; the per-release event is registered
 *            only with MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE.
 * @retval OPAL_SUCCESS  registered (again: idempotent; a later call with the
 *                       async-signal flag adds the per-release event)
 * @retval OPAL_ERR_NOT_AVAILABLE  memory hooks do not work here: nothing
 *                       registered (said at verbose level)
 * @retval other  an engine error (nothing further registered)
 *
 * Context: INIT (after opal_init). Locks: the producer's mutex, the engine's.
 */
OPAL_DECLSPEC int opal_memory_patcher_event_register(uint32_t delivery_flags);

/**
 * Remove the hook if it is installed and discard what the sink holds (the
 * events stay registered, their indexes stable). Called by the engine's
 * finalize through the listen callbacks anyway; this is for teardown paths
 * that bypass them. Context: INIT.
 */
OPAL_DECLSPEC void opal_memory_patcher_event_finalize(void);

/* ------------------------------------------------------------------------
 * The sink (memory_patcher_event_sink.c): striped {count, bytes} counters.
 * ------------------------------------------------------------------------ */

/** One aggregated batch. */
typedef struct opal_memory_patcher_event_batch_t {
    uint64_t count; /**< releases */
    uint64_t bytes; /**< bytes released */
} opal_memory_patcher_event_batch_t;

/** Add one release of @p bytes. Context: SIGNAL (inside free/munmap): two
 *  relaxed-plus-release atomic adds on a static stripe, nothing else. */
OPAL_DECLSPEC void opal_memory_patcher_event_sink_add(uint64_t bytes);

/** Read and reset the sink into @p batch.
 *  @retval true   batch->count >= 1 (something to raise)
 *  @retval false  nothing released since the last take (*batch zeroed)
 *  Context: ANY, PROGRESS; several drainers at once take disjoint parts. */
OPAL_DECLSPEC bool opal_memory_patcher_event_sink_take(opal_memory_patcher_event_batch_t *batch);

/** Discard what the sink holds. Context: ANY. */
OPAL_DECLSPEC void opal_memory_patcher_event_sink_reset(void);

/* ------------------------------------------------------------------------
 * The hook (memory_patcher_event_hook.c)
 * ------------------------------------------------------------------------ */

/** Per-release callback the hook calls (after the sink add) while set.
 *  Context of the call: SIGNAL. */
typedef void (*opal_memory_patcher_event_release_fn_t)(void *address, size_t bytes);

/**
 * Make sure Open MPI's memory hooks work here: needs opal_init; opens the
 * memory framework if it is not open yet; checks the support level.
 * @retval OPAL_SUCCESS  FREE and MUNMAP support: hooks can be installed
 * @retval OPAL_ERR_NOT_AVAILABLE  not here (the reason went to the verbose stream)
 * Context: INIT.
 */
OPAL_DECLSPEC int opal_memory_patcher_event_hooks_open(void);

/**
 * Choose what the hook feeds, and install or remove it accordingly:
 * installed iff @p to_sink or @p release_fn is set. A transition that turns
 * the sink on or off discards what it held (nothing counted while off).
 * @retval OPAL_SUCCESS, or Open MPI's error from (un)registering the hook
 * Context: TOOL, ANY (not SIGNAL). Locks: the hook layer's mutex.
 */
OPAL_DECLSPEC int opal_memory_patcher_event_hook_set(bool to_sink,
                                                     opal_memory_patcher_event_release_fn_t release_fn);

/** The memory_patcher_event_verbose output stream (-1 before hooks_open).
 *  Context: ANY. */
OPAL_DECLSPEC int opal_memory_patcher_event_output(void);

/* ------------------------------------------------------------------------
 * Test-only seams (test/unit/test_memory_*, bench/bench_memory.c)
 * ------------------------------------------------------------------------ */

/** Is the release hook registered with Open MPI right now? Context: ANY. */
OPAL_DECLSPEC bool opal_memory_patcher_event_test_hook_installed(void);

/** Number of sink stripes (a power of two). */
#define OPAL_MEMORY_PATCHER_EVENT_SINK_STRIPES 16

END_C_DECLS

#endif /* OPAL_MEMORY_PATCHER_EVENT_H */
