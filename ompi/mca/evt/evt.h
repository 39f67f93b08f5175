/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The evt framework: how captured MPI_T event records reach the tools.
 *
 * Why a framework and not a switch in the engine? Delivery is where the
 * trade-offs live (latency vs raise cost vs reach outside the process), and
 * users choose them per job with `--mca evt ring`, as for any other Open MPI
 * framework. The engine (opal/mca/base/mca_base_event.h) captures a record;
 * the selected module decides what happens to it:
 *   - flags 0 (evt/sync): the engine dispatches it at the raise;
 *   - MCA_BASE_EVENT_DELIVERY_DEFERRED (evt/ring): the kit in evt/base
 *     copies it into the raising thread's ring; drains (opal_progress,
 *     drain points, a timer) merge the rings in timestamp order and
 *     dispatch to the local registrations;
 *   - plus MCA_BASE_EVENT_DELIVERY_EXPORTS (evt/pmix, evt/file): the same
 *     drains also hand every record of an exported event to the module's
 *     evtm_consume() (encode and send, record), listened to locally or not.
 * A component holds only what is its own: the kit (base/evt_base_kit.h)
 * owns the rings, the pool, the merged drain, the drain token, withdraw,
 * the timer, progress registration, flush and the drop reports.
 *
 * Where is the framework opened? Not by Open MPI 4.1 (it does not know evt):
 * by ompi_evt_init() (base/base.h), called from the hook component at
 * MPI_Init and from libompi_evt's MPI_T_init_thread, whichever comes first
 * after opal_init_util. Before it is open, and when no component is usable,
 * the engine delivers at the raise (sync semantics).
 *
 * Select-one: each component's evtc_init returns a module and a priority, or
 * NULL when it cannot run here; the base keeps the highest priority (a
 * priority of 0 or less only when the evt parameter names the component:
 * recorders and exporters are asked for, never chosen by elimination), starts
 * it (evtm_init), installs it (the engine's delivery), and registers the
 * kit's progress function with opal_progress once.
 *
 * Context decoder (the same tags as mca_base_event.h):
 *   INIT      framework register/open/close/select; one thread; may allocate.
 *   RAISE     producer hot path, any thread; no allocation, no blocking lock.
 *   SIGNAL    async-signal / allocator-hook context; lock-free only.
 *   PROGRESS  an opal_progress callback, possibly on several threads at once.
 *   DRAIN     the one thread holding the kit's drain token (PROGRESS, a drain
 *             point, or the timer thread): module calls made by the kit run
 *             here, one at a time, never while a user callback runs on the
 *             same thread's stack inside the module.
 *   ANY       any thread between init and finalize.
 *   TOOL      reached from an MPI_T binding.
 */

#ifndef MCA_EVT_H
#define MCA_EVT_H

#include "ompi_config.h"

#include <stddef.h>

#include "opal/mca/base/base.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/mca/mca.h"
#include "ompi/mca/mca.h" /* OMPI_MCA_BASE_VERSION_2_1_0 */

BEGIN_C_DECLS

struct ompi_evt_ring_ctl_t;

/** What a deferred module's rings do when full (ompi_evt_base_kit_params_t). */
typedef enum {
    /** Drop the new record, count it for every registration that would have
     *  received it (and, if exported, as an export drop). */
    OMPI_EVT_OVERFLOW_DROP_NEW = 0,
    /** In a normal raise context (not SIGNAL, not inside a drain), drain in
     *  the raising thread, then store; drop-new where that is impossible. */
    OMPI_EVT_OVERFLOW_DRAIN = 1,
    /** Overwrite the oldest records (a flight recorder): a record not yet
     *  dispatched that is overwritten is counted dropped for its
     *  registrations; records already dispatched stay readable in the ring
     *  until overwritten. */
    OMPI_EVT_OVERFLOW_OVERWRITE = 2,
} ompi_evt_overflow_t;

/** Where a module's rings live, when not in anonymous memory: e.g. a file
 *  mapping, so that the records survive the process. */
typedef struct ompi_evt_base_storage_t {
    /** Memory for ring @p index of @p capacity data bytes: a control block
     *  (the shared positions, struct ompi_evt_ring_ctl_t, zeroed) and the
     *  data bytes (8-byte aligned). Context: INIT (pool open).
     *  @retval OPAL_SUCCESS, or an error (the pool open fails). */
    int (*alloc)(void *ctx, int index, size_t capacity, struct ompi_evt_ring_ctl_t **ctl,
                 void **data);
    /** Release what alloc() gave. May be NULL. Context: INIT, or the end of
     *  a grace period (any thread, no user code). */
    void (*release)(void *ctx, int index, struct ompi_evt_ring_ctl_t *ctl, void *data,
                    size_t capacity);
    /** In the child of a fork(), before the kit empties the child's rings
     *  (they hold the parent's records): storage the parent still uses (a
     *  MAP_SHARED file mapping) must become the child's own here, or the
     *  child would write into the parent's rings. May be NULL (anonymous
     *  memory is copied by fork). Context: the atfork child handler (one
     *  thread; async-signal-safe calls only). */
    void (*atfork_child)(void *ctx);
    /** At the first claim of ring @p index, before the kit writes its data
     *  pages: make them safe to write (e.g. reserve the file blocks behind
     *  them, so that no store meets a full file system as SIGBUS). May be
     *  NULL (nothing to do). Context: RAISE, SIGNAL (the claiming thread;
     *  async-signal-safe system calls only; no lock, no allocation).
     *  @retval OPAL_SUCCESS, or an error: the kit never hands the ring out
     *  (a thread that finds no other ring drops its raises, counted). */
    int (*claim)(void *ctx, int index);
    void *ctx;
} ompi_evt_base_storage_t;

/** The kit settings a deferred module chooses (usually from its own MCA
 *  parameters). */
typedef struct ompi_evt_base_kit_params_t {
    size_t ring_size;       /**< data bytes per ring: a power of two >= 4096 */
    int pool_size;          /**< rings: threads that can raise at once */
    int drain_budget;       /**< records per progress call (> 0) */
    int overflow;           /**< ompi_evt_overflow_t */
    int drain_interval;     /**< microseconds between timer drains; 0: no timer */
    /** NULL: anonymous memory (hwloc, NUMA-local by first touch). */
    const ompi_evt_base_storage_t *storage;
} ompi_evt_base_kit_params_t;

/** Lifecycle notices (evtm_notice). */
typedef enum {
    /** MPI_Init / MPI_Init_thread has completed: MPI and PMIx are up. */
    OMPI_EVT_NOTICE_MPI_INIT_COMPLETE = 1,
    /** MPI_Finalize is starting (still usable); the kit drained first. */
    OMPI_EVT_NOTICE_MPI_FINALIZE_START = 2,
    /** MPI_Finalize was called: the finalization event and a drain point
     *  (evtm_flush) come next, then OMPI_EVT_NOTICE_MPI_FINALIZE_START. A
     *  module that sends what it holds in messages may keep it for its
     *  last one. */
    OMPI_EVT_NOTICE_MPI_FINALIZE_CALLED = 3,
} ompi_evt_base_notice_t;

/** Start the module after it won selection, before it is installed.
 *  @retval OMPI_SUCCESS  usable;  other: selection falls back to sync
 *  Context: INIT. */
typedef int (*ompi_evt_base_module_init_fn_t)(void);

/** Stop the module: at framework close, after the kit drained and removed
 *  it (no raise, no drain reaches it any more); and for a module that lost
 *  selection, without evtm_init (release what evtc_init took).
 *  Context: INIT. */
typedef int (*ompi_evt_base_module_finalize_fn_t)(void);

/** Does the module export @p event (EXPORTS modules; NULL: every event)?
 *  Asked when the module is installed, when an event is registered, and
 *  again when a producer names the event's elements
 *  (mca_base_event_set_element_names): the same event may be asked more
 *  than once. Called under the engine mutex: no engine call except
 *  mca_base_event_element_name(). Context: ANY. */
typedef bool (*ompi_evt_base_module_exports_fn_t)(const mca_base_event_t *event);

/**
 * One record of an exported event, in the drain's merged order, before it
 * is dispatched locally (records with nothing to dispatch locally arrive
 * flagged MCA_BASE_EVENT_RECORD_DISPATCHED: events flagged synchronous,
 * dispatched at the raise, and events that never had a registration). A
 * module without this function lets the drain step over rings holding no
 * record for a local registration without reading them. The record is
 * valid only for the call: copy or encode it.
 * @retval OMPI_SUCCESS  taken
 * @retval OPAL_ERR_WOULD_BLOCK  not now (e.g. too much in flight): the
 *         record stays in its ring and the drain stops; it is offered again
 *         at the next drain
 * @retval other  not taken: the module has counted it
 *         (mca_base_event_count_export_dropped()); the drain goes on
 * Context: DRAIN. No user code, no blocking.
 */
typedef int (*ompi_evt_base_module_consume_fn_t)(const mca_base_event_record_t *record);

/** The module's own work after a drain (send what consume() prepared).
 *  Bounded, non-blocking; returns the amount of work done (>= 0). Runs
 *  after drains that find records, at every timer tick (drain_interval),
 *  and on one idle opal_progress call in OMPI_EVT_KIT_IDLE_PROGRESS_EVERY
 *  per thread: work due by time needs the timer. With
 *  OMPI_EVT_MODULE_IDLE_PROGRESS_ON_DROPS, drains that find nothing (idle
 *  calls, empty timer ticks) run it only once an export drop was counted.
 *  Context: DRAIN. */
typedef int (*ompi_evt_base_module_progress_fn_t)(void);

/** A drain point after the kit emptied the rings: push out what the module
 *  holds (a partial batch). Non-blocking. Context: DRAIN. */
typedef int (*ompi_evt_base_module_flush_fn_t)(void);

/** A lifecycle notice. Context: INIT (the hook's or the PMPI layer's call
 *  at the end of MPI_Init / the start of MPI_Finalize). */
typedef void (*ompi_evt_base_module_notice_fn_t)(ompi_evt_base_notice_t notice);

/** evtm_flags bits that are the framework's own, not the engine's delivery
 *  flags (the base passes the others to mca_base_event_delivery_set()). */
#define OMPI_EVT_MODULE_OWN_FLAGS 0xffff0000u
/** The module's evtm_progress has work on a drain that finds no record
 *  only once an export drop was counted (it moves the engine's export drop
 *  counts somewhere: mca_base_event_claim_export_drops(), then
 *  mca_base_event_take_export_dropped()): such drains leave it until
 *  mca_base_event_export_drops_waiting(). Without it the module may have
 *  work due by time. */
#define OMPI_EVT_MODULE_IDLE_PROGRESS_ON_DROPS 0x00010000u

/** The module: one designated-initializer table per component; a NULL slot
 *  says "nothing to do". */
struct ompi_evt_base_module_2_0_0_t {
    /** MCA_BASE_EVENT_DELIVERY_DEFERRED (the kit's rings; async-signal-safe
     *  raises then accepted) and MCA_BASE_EVENT_DELIVERY_EXPORTS; 0 for
     *  dispatch at the raise; with DEFERRED, OMPI_EVT_MODULE_* bits. */
    uint32_t evtm_flags;
    /** DEFERRED modules: the kit's settings. */
    ompi_evt_base_kit_params_t evtm_kit;
    ompi_evt_base_module_init_fn_t evtm_init;
    ompi_evt_base_module_finalize_fn_t evtm_finalize;
    ompi_evt_base_module_exports_fn_t evtm_exports;
    ompi_evt_base_module_consume_fn_t evtm_consume;
    ompi_evt_base_module_progress_fn_t evtm_progress;
    ompi_evt_base_module_flush_fn_t evtm_flush;
    ompi_evt_base_module_notice_fn_t evtm_notice;
};
typedef struct ompi_evt_base_module_2_0_0_t ompi_evt_base_module_2_0_0_t;
typedef ompi_evt_base_module_2_0_0_t ompi_evt_base_module_t;

/**
 * Component initialization (the select-one shape of Open MPI's older
 * frameworks): return the module and its priority, or NULL when the
 * component cannot run here (the reason goes to evt_base_verbose).
 * Context: INIT.
 */
typedef ompi_evt_base_module_t *(*ompi_evt_base_component_init_fn_t)(int *priority);

/** The component. A public instance named mca_evt_<name>_component must
 *  exist in every component. */
struct ompi_evt_base_component_2_0_0_t {
    mca_base_component_t evtc_version;
    mca_base_component_data_t evtc_data;
    ompi_evt_base_component_init_fn_t evtc_init;
};
typedef struct ompi_evt_base_component_2_0_0_t ompi_evt_base_component_2_0_0_t;
typedef ompi_evt_base_component_2_0_0_t ompi_evt_base_component_t;

/** Version macro for evt components. */
#define OMPI_EVT_BASE_VERSION_2_0_0 OMPI_MCA_BASE_VERSION_2_1_0("evt", 2, 0, 0)

/* Open MPI main pastes a component pointer together with this macro; 4.1
 * lacks it. The fallback gives the same symbol, so components written as on
 * main ("mca_evt_<c>_component" + MCA_BASE_COMPONENT_INIT) build on both. */
#ifndef MCA_BASE_COMPONENT_INIT
#    define MCA_BASE_COMPONENT_INIT(project, framework, component)                   \
        OPAL_DECLSPEC const void *mca_##framework##_##component##_component_ptr = \
            &mca_##framework##_##component##_component;
#endif

END_C_DECLS

#endif /* MCA_EVT_H */
