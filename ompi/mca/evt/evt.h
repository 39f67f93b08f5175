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
 * framework. The engine (opal/mca/base/mca_base_event.h) captures a record
 * and hands it to the selected module's deliver(); the module dispatches it
 * now (sync), later from opal_progress (ring), or forwards it (pmix).
 *
 * Where is the framework opened? Not by Open MPI 4.1 (it does not know evt):
 * by ompi_evt_init() (ompi/runtime/ompi_evt_init.h), called from the hook
 * component at MPI_Init and from MPI_T_init_thread, whichever comes first
 * after opal_init_util. Before it is open, and when no component is usable,
 * the engine delivers inline (sync semantics).
 *
 * Select-one: each component's evtc_init returns a module and a priority, or
 * NULL when it cannot run here; the base keeps the highest priority, calls
 * its evtm_init, installs it as the engine's delivery and registers its
 * progress function with opal_progress once.
 *
 * Context decoder (the same tags as mca_base_event.h):
 *   INIT      framework register/open/close/select; one thread; may allocate.
 *   RAISE     producer hot path, any thread; no allocation, no blocking lock.
 *   SIGNAL    async-signal / allocator-hook context; lock-free only.
 *   PROGRESS  an opal_progress callback, possibly on several threads at once:
 *             guarded by a real atomic trylock, returns at once when held.
 *   ANY       any thread between init and finalize.
 *   TOOL      reached from an MPI_T binding.
 */

#ifndef MCA_EVT_H
#define MCA_EVT_H

#include "ompi_config.h"

#include "opal/mca/base/base.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/mca.h"
#include "ompi/mca/mca.h" /* OMPI_MCA_BASE_VERSION_2_1_0 */

BEGIN_C_DECLS

/** Module flags (evtm_flags). */
enum {
    /** Records may be dispatched after deliver() returns. */
    OMPI_EVT_MODULE_FLAG_DEFERRED = 0x1,
    /** Records are forwarded outside the process (keep every gate open). */
    OMPI_EVT_MODULE_FLAG_EXPORTS = 0x2,
    /** deliver() is async-signal-safe: ASYNC_SIGNAL_SAFE raises accepted. */
    OMPI_EVT_MODULE_FLAG_ASYNC_SIGNAL_RAISE = 0x4,
};

/**
 * Start the module after it won selection. Called once, after every other
 * component's module was finalized and before the module is installed as
 * the engine's delivery.
 * @retval OMPI_SUCCESS  the module is usable
 * @retval other         selection falls back to inline delivery
 * Context: INIT.
 */
typedef int (*ompi_evt_base_module_init_fn_t)(void);

/** Stop the module. Called for the winner at framework close, after the base
 *  flushed it, removed it from the engine and unregistered its progress; and
 *  for a module that lost selection (without evtm_init: release what evtc_init
 *  took). May be NULL. Context: INIT. */
typedef int (*ompi_evt_base_module_finalize_fn_t)(void);

/**
 * Take one captured record.
 * @param[in] record   valid only for this call: copy what must outlive it
 * @param[in] context  the safety level the raising context requires
 * @retval OMPI_SUCCESS          taken (dispatched, queued or forwarded)
 * @retval OPAL_ERR_NOT_SUPPORTED  cannot serve @p context
 * @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  full
 * On failure the module itself has counted the record as dropped
 * (mca_base_event_count_dropped(), or a per-ring counter flushed later), as
 * mca_base_event_delivery_t's deliver contract says; the base adds nothing.
 * Context: RAISE; SIGNAL if OMPI_EVT_MODULE_FLAG_ASYNC_SIGNAL_RAISE.
 */
typedef int (*ompi_evt_base_module_deliver_fn_t)(const mca_base_event_record_t *record,
                                                 mca_base_event_cb_safety_t context);

/** Dispatch everything pending, now. Returns at once (OMPI_SUCCESS) if a
 *  drain is already running on this thread. Context: ANY, TOOL. */
typedef int (*ompi_evt_base_module_flush_fn_t)(void);

/** Bounded, non-blocking drain; the number of records progressed.
 *  Context: PROGRESS. May be NULL. */
typedef int (*ompi_evt_base_module_progress_fn_t)(void);

/** A registration is being freed: count the pending records @p match
 *  accepts while no record is dispatched, then call @p remove with the
 *  count (mca_base_event_delivery_t::withdraw). Context: TOOL, ANY,
 *  callbacks. May be NULL (nothing is ever pending after a flush). */
typedef void (*ompi_evt_base_module_withdraw_fn_t)(
    void (*remove)(void *arg, uint64_t count),
    bool (*match)(const mca_base_event_record_t *record, void *arg), void *arg);

/** The module: one designated-initializer table per component. */
struct ompi_evt_base_module_1_0_0_t {
    ompi_evt_base_module_init_fn_t evtm_init;
    ompi_evt_base_module_finalize_fn_t evtm_finalize;
    ompi_evt_base_module_deliver_fn_t evtm_deliver;
    ompi_evt_base_module_flush_fn_t evtm_flush;
    ompi_evt_base_module_progress_fn_t evtm_progress;
    uint32_t evtm_flags; /**< OMPI_EVT_MODULE_FLAG_* */
    ompi_evt_base_module_withdraw_fn_t evtm_withdraw; /**< may be NULL */
};
typedef struct ompi_evt_base_module_1_0_0_t ompi_evt_base_module_1_0_0_t;
typedef ompi_evt_base_module_1_0_0_t ompi_evt_base_module_t;

/**
 * Component initialization (the select-one shape of Open MPI's older
 * frameworks): return the module and its priority, or NULL when the
 * component cannot run here (the reason goes to evt_base_verbose).
 * Context: INIT.
 */
typedef ompi_evt_base_module_t *(*ompi_evt_base_component_init_fn_t)(int *priority);

/** The component. A public instance named mca_evt_<name>_component must
 *  exist in every component. */
struct ompi_evt_base_component_1_0_0_t {
    mca_base_component_t evtc_version;
    mca_base_component_data_t evtc_data;
    ompi_evt_base_component_init_fn_t evtc_init;
};
typedef struct ompi_evt_base_component_1_0_0_t ompi_evt_base_component_1_0_0_t;
typedef ompi_evt_base_component_1_0_0_t ompi_evt_base_component_t;

/** Version macro for evt components. */
#define OMPI_EVT_BASE_VERSION_1_0_0 OMPI_MCA_BASE_VERSION_2_1_0("evt", 1, 0, 0)

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
