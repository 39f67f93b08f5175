/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * MPI_T events engine: the producer API and the engine services the MPI_T
 * tool bindings (ompi/mpi/tool/) and the evt delivery framework
 * (ompi/mca/evt/) are built on.
 *
 * Producers register an event *source* (a clock domain) and event *types*
 * (a name plus a fixed element layout) and raise instances of them. Tools
 * allocate registrations (handles) on event types and attach callbacks.
 * Names, arguments and meaning follow "Writing an MPI_T event producer"
 * (Open MPI main's mca_base_event.h): code written from that page compiles
 * and works unchanged against this header.
 *
 * The raise path is split in two, and the split is the evt framework's seam:
 *   1. capture (engine): gate, dispatch-depth check, timestamp from the
 *      source's clock, a record {event, source, obj, timestamp, epoch, data};
 *   2. deliver: the installed delivery (mca_base_event_delivery_set(), the
 *      selected evt module) either dispatches at once (sync) or keeps the
 *      record and calls mca_base_event_dispatch() later (ring), or forwards
 *      it (pmix). With no delivery installed the engine dispatches inline.
 * Dispatch matches live registrations (bound object equal, allocated at or
 * before the record's epoch), picks each one's callback by safety level,
 * flushes its pending drop count to its dropped handler, then calls the
 * callback. What cannot be delivered is counted as dropped, never lost.
 *
 * Context tags (the decoder; every function below names the contexts it may
 * be called from):
 *   INIT     framework/engine register, open, close, select; one thread; may
 *            allocate and print.
 *   TOOL     reached from an MPI_T_* binding; never raises, never runs a user
 *            callback while an engine lock is held.
 *   ANY      any thread between init and finalize; may take the engine mutex,
 *            never calls user code while holding it.
 *   PROGRESS inside an opal_progress callback, possibly several threads at
 *            once; non-blocking, bounded.
 *   RAISE    the producer hot path, any thread; no allocation once warm, no
 *            blocking lock, no output.
 *   SIGNAL   async-signal or allocator-hook context (inside free/munmap);
 *            only lock-free atomics on preallocated memory.
 *
 * Locks: one engine mutex serialises registration changes (source/event
 * registration, handle alloc/free, callback and info changes). Dispatch
 * takes no lock: the registration set of an event is an immutable snapshot
 * published with a release store and reclaimed only after every thread that
 * could have read it has left dispatch. No user callback ever runs under the
 * engine mutex; a callback may re-enter MPI_T, raise, and free its own handle.
 *
 * Atomics: the engine uses C11 <stdatomic.h>. Open MPI 4.1's OPAL atomics are
 * volatile accesses plus builtins, which ThreadSanitizer cannot see as
 * atomic; Open MPI main's opal_stdatomic.h maps to the same C11 operations.
 */

#ifndef OPAL_MCA_BASE_EVENT_H
#define OPAL_MCA_BASE_EVENT_H

#include "opal_config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opal/constants.h"
#include "opal/mca/base/mca_base_pvar.h" /* MCA_BASE_VAR_BIND_* */
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/info.h"

BEGIN_C_DECLS

/* ------------------------------------------------------------------------
 * Types the host may lack (Open MPI 4.1 has no opal_count_t).
 * ------------------------------------------------------------------------ */
#ifndef OPAL_COUNT_MAX
/** Same width and signedness as MPI_Count (OMPI_MPI_COUNT_TYPE). */
typedef long long opal_count_t;
#    define OPAL_COUNT_MAX LLONG_MAX
#endif

/* ------------------------------------------------------------------------
 * Bounds, each with its reason.
 * ------------------------------------------------------------------------ */
/** Largest payload extent. Raise copies the payload into preallocated
 *  storage (a stack record, a ring slot); the cap keeps that allocation-free. */
#define MCA_BASE_EVENT_MAX_PAYLOAD 256
/** Nested raises (a callback raising, whose callback raises ...) deeper than
 *  this are counted as dropped: it bounds stack use and breaks raise loops. */
#define MCA_BASE_EVENT_MAX_DEPTH 8
/** Default of the MCA parameter mca_base_event_max_registrations. */
#define MCA_BASE_EVENT_DEFAULT_MAX_REGISTRATIONS 1024

/** Ordering guarantee of a source (values match MPI_T_source_order). */
typedef enum {
    MCA_BASE_EVENT_SOURCE_ORDERED = 0,
    MCA_BASE_EVENT_SOURCE_UNORDERED = 1,
} mca_base_event_source_order_t;

/** Callback safety levels, weakest to strictest (values match MPI_T_cb_safety).
 *  A callback registered at level S may run in any context needing <= S. */
typedef enum {
    MCA_BASE_EVENT_CB_REQUIRE_NONE = 0,
    MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED = 1,
    MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE = 2,
    MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE = 3,
} mca_base_event_cb_safety_t;
/** Number of safety levels: one callback slot per level. */
#define MCA_BASE_EVENT_CB_SAFETY_COUNT 4
_Static_assert(MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE + 1 == MCA_BASE_EVENT_CB_SAFETY_COUNT,
               "callback slots are indexed by safety level");

/** Event type flags (mca_base_event_register()'s flags). */
enum {
    /** Deliver at the raise, after everything pending, whatever the delivery
     *  component: the callback must see the state the raise describes
     *  (communicator_name_set, errhandler_invoked). */
    MCA_BASE_EVENT_FLAG_SYNCHRONOUS = 0x1,
};

/* ------------------------------------------------------------------------
 * Sources
 * ------------------------------------------------------------------------ */

/**
 * Clock of a source.
 *
 * @param[in] ctx  the ctx given to mca_base_event_source_register()
 * @return the current time in the source's ticks, in [0, max_ticks]
 *
 * Context: RAISE and SIGNAL (a ring may take timestamps inside a signal
 * handler): must be async-signal-safe and lock-free.
 */
typedef opal_count_t (*mca_base_event_timestamp_fn_t)(void *ctx);

/** A registered source. Never freed before mca_base_event_finalize(); the
 *  fields are set at registration and read-only afterwards. */
typedef struct mca_base_event_source_t {
    int index;                              /**< index reported to tools */
    char *name;                             /**< verbatim from the producer */
    char *description;
    mca_base_event_source_order_t ordering;
    opal_count_t ticks_per_second;
    opal_count_t max_ticks;
    mca_base_event_timestamp_fn_t get_timestamp; /**< never NULL (default clock) */
    bool supports_adhoc;                    /**< MPI_T_source_get_timestamp allowed */
    void *ctx;
    /** ORDERED sources: highest timestamp dispatched so far; a later record
     *  with a lower one is dispatched with this value instead. */
    _Atomic opal_count_t last_timestamp;
} mca_base_event_source_t;

/**
 * Register a source, or find the one already registered under @p name.
 *
 * @param[in] get_timestamp  NULL: CLOCK_MONOTONIC in ns (1e9 ticks/s)
 * @retval >=0  the source's index (the existing index if the name is known)
 * @retval OPAL_ERR_BAD_PARAM  NULL or empty name, ticks_per_second <= 0,
 *                             max_ticks <= 0, bad ordering
 * @retval OPAL_ERR_OUT_OF_RESOURCE  allocation failed (nothing registered)
 *
 * Context: INIT, ANY. Locks: takes the engine mutex.
 */
OPAL_DECLSPEC int mca_base_event_source_register(const char *name, const char *description,
                                                 mca_base_event_source_order_t ordering,
                                                 opal_count_t ticks_per_second,
                                                 opal_count_t max_ticks,
                                                 mca_base_event_timestamp_fn_t get_timestamp,
                                                 bool supports_adhoc, void *ctx);

/** @retval OPAL_SUCCESS  *source set
 *  @retval OPAL_ERR_NOT_FOUND  no such index;  OPAL_ERR_BAD_PARAM  NULL out pointer
 *  Context: ANY. */
OPAL_DECLSPEC int mca_base_event_source_get_by_index(int index, mca_base_event_source_t **source);

/** Number of registered sources. Context: ANY. */
OPAL_DECLSPEC int mca_base_event_source_get_count(void);

/**
 * Ad-hoc timestamp of a source. Flushes pending deliveries and producer
 * sinks first (a flush point), then reads the source's clock.
 *
 * @retval OPAL_SUCCESS  *timestamp set
 * @retval OPAL_ERR_NOT_FOUND  bad index;  OPAL_ERR_BAD_PARAM  NULL pointer
 * @retval OPAL_ERR_NOT_SUPPORTED  the source does not allow ad-hoc reads
 *
 * Context: TOOL, ANY (not from a callback of this source's events while a
 * drain holds records: the flush is then skipped, not waited for).
 */
OPAL_DECLSPEC int mca_base_event_source_get_timestamp(int index, opal_count_t *timestamp);

/* ------------------------------------------------------------------------
 * Event types
 * ------------------------------------------------------------------------ */

struct mca_base_event_regset_t; /* engine-private registration snapshot */

/** A registered event type. Never freed before mca_base_event_finalize(). */
typedef struct mca_base_event_t {
    /** Registrations with a callback or dropped handler, plus exporters.
     *  The raise gate: read relaxed; 0 means nobody listens. First member so
     *  the gate is the first word of the object. */
    atomic_int active;
    int index;
    char *name;        /**< full name, always "ompi." + framework_component_name */
    char *description;
    mca_base_var_info_lvl_t verbosity;
    int num_elements;
    mca_base_var_type_t *types;   /**< num_elements entries */
    ptrdiff_t *offsets;           /**< num_elements entries, ascending from 0 */
    size_t extent;                /**< payload bytes: last offset + its size */
    mca_base_var_enum_t *enumerator;
    int bind;                     /**< MCA_BASE_VAR_BIND_* */
    uint32_t flags;               /**< MCA_BASE_EVENT_FLAG_* */
    mca_base_event_source_t *source;
    void *ctx;
    /** Live registrations (engine-private, see mca_base_event_dispatch.c). */
    _Atomic(struct mca_base_event_regset_t *) regset;
} mca_base_event_t;

/**
 * Register an event type, or find the one already registered under the same
 * full name. Full name = "ompi." + framework, component and name joined with
 * "_", NULL parts skipped; @p project is accepted and ignored (the prefix is
 * always "ompi."). (NULL, NULL, "mpi.initialization") -> "ompi.mpi.initialization";
 * ("mything", "base", "happened") -> "ompi.mything_base_happened".
 *
 * @param[in] types, offsets  num_elements exact-width types (INT32_T, UINT32_T,
 *            INT64_T, UINT64_T, DOUBLE, BOOL) at ascending offsets from 0;
 *            extent <= MCA_BASE_EVENT_MAX_PAYLOAD
 * @retval >=0 the event's index
 * @retval OPAL_ERR_BAD_PARAM  bad name, layout, source (NULL) or bind
 * @retval OPAL_ERR_OUT_OF_RESOURCE  allocation failed
 * On error nothing is registered.
 *
 * Context: INIT, ANY. Locks: takes the engine mutex.
 */
OPAL_DECLSPEC int mca_base_event_register(const char *project, const char *framework,
                                          const char *component, const char *name,
                                          const char *description,
                                          mca_base_var_info_lvl_t verbosity, int num_elements,
                                          const mca_base_var_type_t types[],
                                          const ptrdiff_t offsets[],
                                          mca_base_var_enum_t *enumerator, int bind,
                                          uint32_t flags, mca_base_event_source_t *source,
                                          void *ctx);

/** Context: ANY. @retval OPAL_SUCCESS, OPAL_ERR_NOT_FOUND, OPAL_ERR_BAD_PARAM */
OPAL_DECLSPEC int mca_base_event_get_by_index(int index, mca_base_event_t **event);
/** Context: ANY. Full name ("ompi.mpi.initialization"). Same return codes. */
OPAL_DECLSPEC int mca_base_event_get_by_name(const char *name, mca_base_event_t **event);
/** Number of registered event types. Context: ANY. */
OPAL_DECLSPEC int mca_base_event_get_count(void);

/* ------------------------------------------------------------------------
 * Raising
 * ------------------------------------------------------------------------ */

/** An event instance as a callback sees it (MPI_T_event_instance). The
 *  record and @c data are valid only for the duration of the callback. */
typedef struct mca_base_event_record_t {
    mca_base_event_t *event;
    mca_base_event_source_t *source;
    const void *obj;           /**< bound object, NULL for unbound raises */
    opal_count_t timestamp;    /**< in the source's ticks */
    uint64_t epoch;            /**< registration epoch at capture */
    const void *data;          /**< event->extent bytes */
} mca_base_event_record_t;

/** Out of line part of the raise (capture, then the installed delivery).
 *  @retval OPAL_SUCCESS  captured and handed to the delivery
 *  @retval OPAL_ERR_NOT_SUPPORTED  @p safety cannot be served by the selected
 *          delivery (e.g. ASYNC_SIGNAL_SAFE with sync); counted as dropped
 *  @retval OPAL_ERR_BAD_PARAM  NULL event or data, or a source other than the
 *          event's own
 *  @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  dropped (depth cap, full ring), counted
 *  Context: RAISE; SIGNAL when safety is ASYNC_SIGNAL_SAFE. */
OPAL_DECLSPEC int mca_base_event_raise_internal(mca_base_event_t *event,
                                                mca_base_event_source_t *source,
                                                const void *obj, const void *data,
                                                mca_base_event_cb_safety_t safety);

/** True when somebody listens to (or exports) @p event: one relaxed load.
 *  Context: RAISE, SIGNAL. */
static inline bool mca_base_event_active(mca_base_event_t *event)
{
    /* relaxed: a stale answer only moves the instant a new listener starts
     * seeing raises; registration epochs decide what it receives. */
    return 0 != atomic_load_explicit(&event->active, memory_order_relaxed);
}

/**
 * Raise an unbound event. @p source NULL means event->source. @p data holds
 * event->extent bytes laid out as registered. Returns at once, OPAL_SUCCESS,
 * when nobody listens.
 *
 * Context: RAISE (a normal thread context, not under the MPI_T big lock).
 */
static inline int mca_base_event_raise(mca_base_event_t *event, mca_base_event_source_t *source,
                                       const void *data)
{
    if (OPAL_LIKELY(!mca_base_event_active(event))) {
        return OPAL_SUCCESS;
    }
    return mca_base_event_raise_internal(event, source, NULL, data,
                                         MCA_BASE_EVENT_CB_REQUIRE_NONE);
}

/** Raise an event bound to @p obj (the internal object, e.g. the
 *  ompi_communicator_t *): only registrations bound to @p obj receive it.
 *  Context: RAISE. */
static inline int mca_base_event_raise_bound(mca_base_event_t *event,
                                             mca_base_event_source_t *source, const void *obj,
                                             const void *data)
{
    if (OPAL_LIKELY(!mca_base_event_active(event))) {
        return OPAL_SUCCESS;
    }
    return mca_base_event_raise_internal(event, source, obj, data,
                                         MCA_BASE_EVENT_CB_REQUIRE_NONE);
}

/** Raise from a restricted context: @p safety is the strictest requirement
 *  the raising context imposes on callbacks (ASYNC_SIGNAL_SAFE inside a
 *  signal handler or free()/munmap()). With a delivery that cannot serve the
 *  context (sync and ASYNC_SIGNAL_SAFE) the raise is refused with
 *  OPAL_ERR_NOT_SUPPORTED and counted as dropped.
 *  Context: RAISE, SIGNAL (per @p safety). */
static inline int mca_base_event_raise_ctx(mca_base_event_t *event, mca_base_event_source_t *source,
                                           const void *obj, const void *data,
                                           mca_base_event_cb_safety_t safety)
{
    if (OPAL_LIKELY(!mca_base_event_active(event))) {
        return OPAL_SUCCESS;
    }
    return mca_base_event_raise_internal(event, source, obj, data, safety);
}

/* ------------------------------------------------------------------------
 * Registrations (handles), callbacks, instances: what MPI_T_event_* wraps.
 * All return OPAL codes; ompi/mpi/tool/ maps them to MPI_T_ERR_* per call.
 * ------------------------------------------------------------------------ */

/** Opaque registration (MPI_T_event_registration). Handles are validated by
 *  value: a freed, stale or forged handle is rejected with
 *  OPAL_ERR_BAD_PARAM, never dereferenced blindly. */
typedef struct mca_base_event_registration_t mca_base_event_registration_t;

/** MPI_T_event_cb_function. Context: whatever @p safety says; outside any
 *  engine lock. */
typedef void (*mca_base_event_cb_fn_t)(mca_base_event_record_t *instance,
                                       mca_base_event_registration_t *registration,
                                       mca_base_event_cb_safety_t safety, void *user_data);
/** MPI_T_event_free_cb_function: runs once no callback of the registration
 *  can still be running or start. */
typedef void (*mca_base_event_free_cb_fn_t)(mca_base_event_registration_t *registration,
                                            mca_base_event_cb_safety_t safety, void *user_data);
/** MPI_T_event_dropped_cb_function: @p count instances were dropped since
 *  the last call (saturated to OPAL_COUNT_MAX). */
typedef void (*mca_base_event_dropped_cb_fn_t)(opal_count_t count,
                                               mca_base_event_registration_t *registration,
                                               int source_index,
                                               mca_base_event_cb_safety_t safety,
                                               void *user_data);

/**
 * Allocate a registration. A flush point: pending deliveries and producer
 * sinks are delivered to the existing registrations first, so the new one
 * sees only instances raised after this call.
 *
 * @param[in] obj   for a bound event the internal object (already
 *                  dereferenced from the tool's obj_handle), NULL otherwise
 * @param[in] info  may be NULL; its keys are kept and returned by get_info
 * @retval OPAL_SUCCESS  *registration set
 * @retval OPAL_ERR_BAD_PARAM  NULL event or out pointer, NULL obj for a bound event
 * @retval OPAL_ERR_OUT_OF_RESOURCE  registration cap reached or allocation failed
 *
 * Context: TOOL, ANY, and from inside a callback. Locks: engine mutex.
 */
OPAL_DECLSPEC int mca_base_event_handle_alloc(mca_base_event_t *event, const void *obj,
                                              opal_info_t *info,
                                              mca_base_event_registration_t **registration);

/** Start freeing a registration: no callback starts after this returns;
 *  @p free_cb (may be NULL) runs with @p user_data once none is running
 *  (at once, or when the last running callback returns). Legal from inside
 *  the registration's own callback. A flush point.
 *  @retval OPAL_SUCCESS;  OPAL_ERR_BAD_PARAM  invalid or already freed handle
 *  @retval OPAL_ERR_OUT_OF_RESOURCE  the event's registration snapshot could
 *          not be rebuilt: nothing changed, the handle is still valid
 *  Context: TOOL, ANY, callbacks. */
OPAL_DECLSPEC int mca_base_event_handle_free(mca_base_event_registration_t *registration,
                                             void *user_data, mca_base_event_free_cb_fn_t free_cb);

/** Set or clear (cb_fn NULL) the callback of one safety level.
 *  @retval OPAL_SUCCESS;  OPAL_ERR_BAD_PARAM  bad handle or safety
 *  Context: TOOL, ANY, callbacks. */
OPAL_DECLSPEC int mca_base_event_register_callback(mca_base_event_registration_t *registration,
                                                   mca_base_event_cb_safety_t safety,
                                                   opal_info_t *info, void *user_data,
                                                   mca_base_event_cb_fn_t cb_fn);

/** Info of a handle / of one callback slot. set_info merges the keys of
 *  @p info; get_info returns a new opal_info_t the caller releases
 *  (OBJ_RELEASE) holding every key set so far.
 *  @retval OPAL_SUCCESS;  OPAL_ERR_BAD_PARAM  bad handle, safety, NULL pointer
 *  @retval OPAL_ERR_NOT_FOUND  callback_*: no callback at that safety level
 *  @retval OPAL_ERR_OUT_OF_RESOURCE  allocation failed
 *  Context: TOOL, ANY. */
OPAL_DECLSPEC int mca_base_event_handle_set_info(mca_base_event_registration_t *registration,
                                                 opal_info_t *info);
OPAL_DECLSPEC int mca_base_event_handle_get_info(mca_base_event_registration_t *registration,
                                                 opal_info_t **info_used);
OPAL_DECLSPEC int mca_base_event_callback_set_info(mca_base_event_registration_t *registration,
                                                   mca_base_event_cb_safety_t safety,
                                                   opal_info_t *info);
OPAL_DECLSPEC int mca_base_event_callback_get_info(mca_base_event_registration_t *registration,
                                                   mca_base_event_cb_safety_t safety,
                                                   opal_info_t **info_used);

/** Set (or clear) the dropped handler. A flush point: the handler first sees
 *  drops counted so far. Context: TOOL, ANY. */
OPAL_DECLSPEC int mca_base_event_set_dropped_handler(mca_base_event_registration_t *registration,
                                                     mca_base_event_dropped_cb_fn_t dropped_cb);

/** Is @p registration a live handle? Context: ANY. */
OPAL_DECLSPEC bool mca_base_event_handle_is_valid(mca_base_event_registration_t *registration);

/** The event type of a live handle (NULL if invalid). Context: ANY. */
OPAL_DECLSPEC mca_base_event_t *
mca_base_event_handle_event(mca_base_event_registration_t *registration);

/** Instance accessors (MPI_T_event_read/_copy/_get_timestamp/_get_source).
 *  @retval OPAL_SUCCESS;  OPAL_ERR_BAD_PARAM  NULL instance or buffer
 *  @retval OPAL_ERR_NOT_FOUND  read: element index out of range
 *  Context: inside a callback (the instance is valid only there). */
OPAL_DECLSPEC int mca_base_event_read(const mca_base_event_record_t *instance, int element_index,
                                      void *buffer);
OPAL_DECLSPEC int mca_base_event_copy(const mca_base_event_record_t *instance, void *buffer);
OPAL_DECLSPEC int mca_base_event_get_timestamp(const mca_base_event_record_t *instance,
                                               opal_count_t *timestamp);
OPAL_DECLSPEC int mca_base_event_get_source(const mca_base_event_record_t *instance,
                                            int *source_index);

/** Size in bytes of one element of type @p type (0 for a non exact-width
 *  type). Context: ANY. */
OPAL_DECLSPEC size_t mca_base_event_type_size(mca_base_var_type_t type);

/* ------------------------------------------------------------------------
 * Engine life cycle
 * ------------------------------------------------------------------------ */

/** Reference-counted: the first call registers the engine's MCA parameters
 *  (mca_base_event_max_registrations); later calls only count.
 *  Context: INIT (after opal_init_util). */
OPAL_DECLSPEC int mca_base_event_init(void);
/** The last call flushes, runs pending free callbacks, frees every
 *  registration; sources and event types stay registered (their indexes are
 *  stable across MPI_T init/finalize cycles). Context: INIT. */
OPAL_DECLSPEC int mca_base_event_finalize(void);

/* ------------------------------------------------------------------------
 * The delivery seam (used by ompi/mca/evt/base; producers never call these)
 * ------------------------------------------------------------------------ */

/** Delivery flags. */
enum {
    /** deliver() may be called from SIGNAL context (ASYNC_SIGNAL_SAFE raises). */
    MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE = 0x1,
    /** Records may be dispatched after deliver() returns. */
    MCA_BASE_EVENT_DELIVERY_DEFERRED = 0x2,
    /** Records leave the process: keep every event's gate open. */
    MCA_BASE_EVENT_DELIVERY_EXPORTS = 0x4,
};

/** How captured records travel. All hooks are called outside every engine
 *  lock. */
typedef struct mca_base_event_delivery_t {
    const char *name;
    /** Take one captured record (copy what must outlive the call). Context:
     *  RAISE, and SIGNAL if the ASYNC_SIGNAL_SAFE flag is set. Returns an
     *  OPAL code; on failure it has counted the drop itself
     *  (mca_base_event_count_dropped()). */
    int (*deliver)(const mca_base_event_record_t *record, mca_base_event_cb_safety_t context);
    /** Dispatch everything pending now (flush points). Context: ANY, TOOL;
     *  returns at once if a drain is already running on this thread. */
    int (*flush)(void);
    /** Opportunistic bounded drain (MPI_T calls, timers). Context: ANY. May be NULL. */
    int (*progress)(void);
    uint32_t flags;
    /* appended after flags: positional initializers of the first five
     * fields stay valid */
    /** Deferred deliveries (may be NULL): a registration is being freed.
     *  While no record is dispatched (by any other thread), count the
     *  pending records (captured, not dispatched yet) that
     *  @p match(record, arg) accepts, then call @p remove(arg, count): the
     *  engine counts them as dropped for the registration and removes it;
     *  its dropped handler sees them before the free callback. After the
     *  flush that precedes a free, such records exist only when the free
     *  comes from a callback of the drain itself (which cannot flush) or
     *  races with raises on other threads.
     *  Context: TOOL, ANY, callbacks (not SIGNAL). */
    void (*withdraw)(void (*remove)(void *arg, uint64_t count),
                     bool (*match)(const mca_base_event_record_t *record, void *arg),
                     void *arg);
} mca_base_event_delivery_t;

/** Install (or, with NULL, remove) the delivery. The engine flushes the old
 *  one first. Context: INIT. */
OPAL_DECLSPEC int mca_base_event_delivery_set(const mca_base_event_delivery_t *delivery);

/** Dispatch one record to the matching registrations now, in context
 *  @p context (the safety level the calling context requires).
 *  @return the number of callbacks invoked (>= 0)
 *  Context: RAISE, PROGRESS, ANY; re-entrant (callbacks may raise and
 *  dispatch, up to MCA_BASE_EVENT_MAX_DEPTH). Locks: none. */
OPAL_DECLSPEC int mca_base_event_dispatch(const mca_base_event_record_t *record,
                                          mca_base_event_cb_safety_t context);

/** Can every registration that @p record would reach be served in
 *  @p context? False when one has callbacks, but none at a level serving
 *  @p context (a callback registered only at MPI_T_CB_REQUIRE_NONE, and a
 *  drain on another thread): a deferred delivery then keeps the record for
 *  a drain in a context that serves it, instead of having it counted as
 *  dropped. Context: ANY, PROGRESS. Locks: none. */
OPAL_DECLSPEC bool mca_base_event_can_serve(const mca_base_event_record_t *record,
                                            mca_base_event_cb_safety_t context);

/** Report every live registration's pending drop count to its dropped
 *  handler now (saturated, outside every lock), in @p context, with the
 *  user data of the callback dispatch would pick for @p context (NULL for a
 *  dropped-handler-only registration). A registration with callbacks but
 *  none serving @p context keeps its count for a later report. Costs one
 *  relaxed load when nothing was dropped since the last report. Called by
 *  mca_base_event_flush() and by deferred deliveries at the end of a drain.
 *  Does nothing in SIGNAL context (ASYNC_SIGNAL_SAFE) or inside a dispatch
 *  (a callback reaching a flush point): the next report outside does it.
 *  Context: TOOL, PROGRESS, ANY (not SIGNAL). Locks: takes the engine
 *  mutex; caller holds none. */
OPAL_DECLSPEC void mca_base_event_report_drops(mca_base_event_cb_safety_t context);

/** Count one dropped instance for every registration @p record would have
 *  been delivered to. Context: RAISE, SIGNAL. Locks: none. */
OPAL_DECLSPEC void mca_base_event_count_dropped(const mca_base_event_record_t *record);

/** Run every flush point's work: producer sinks, then the delivery's flush.
 *  Context: ANY, TOOL (the engine calls it at its own flush points). */
OPAL_DECLSPEC int mca_base_event_flush(void);

/* ------------------------------------------------------------------------
 * Producer services
 * ------------------------------------------------------------------------ */

/** A producer sink: accumulates occurrences in a restricted context and
 *  raises them when drained. Context of the call: ANY (a flush point or the
 *  delivery's progress), never SIGNAL. */
typedef void (*mca_base_event_sink_drain_fn_t)(void *ctx);

/** Drain @p fn at every flush point (before the delivery's flush) and from
 *  mca_base_event_drain_sinks(). Context: INIT.
 *  @retval OPAL_SUCCESS, OPAL_ERR_OUT_OF_RESOURCE */
OPAL_DECLSPEC int mca_base_event_sink_register(mca_base_event_sink_drain_fn_t fn, void *ctx);
OPAL_DECLSPEC int mca_base_event_sink_unregister(mca_base_event_sink_drain_fn_t fn, void *ctx);
/** Drain every producer sink (deliveries call it from their progress).
 *  Context: ANY, PROGRESS. */
OPAL_DECLSPEC void mca_base_event_drain_sinks(void);

/** Told when @p event gains its first listener (listening true) or loses its
 *  last one (false), so a producer installs costly hooks only while needed.
 *  Called outside the engine mutex, after the change. Context: INIT; the
 *  callback runs in TOOL/ANY context. One callback per event. */
typedef void (*mca_base_event_listen_fn_t)(mca_base_event_t *event, bool listening, void *ctx);
OPAL_DECLSPEC int mca_base_event_set_listen_callback(mca_base_event_t *event,
                                                     mca_base_event_listen_fn_t fn, void *ctx);

/* ------------------------------------------------------------------------
 * The default clock (sources registered without a get_timestamp function)
 * ------------------------------------------------------------------------ */

/** Values of the engine's MCA parameter mca_base_event_clock. */
enum {
    MCA_BASE_EVENT_CLOCK_MONOTONIC = 0, /**< clock_gettime(CLOCK_MONOTONIC), ns */
    MCA_BASE_EVENT_CLOCK_TSC = 1,       /**< invariant TSC calibrated to ns */
};

/** Switch the default clock (mca_base_event_init() does it from
 *  mca_base_event_clock). Either way timestamps are CLOCK_MONOTONIC
 *  nanoseconds (1e9 ticks/s), monotonic per thread. The TSC is calibrated
 *  once per process, at the first request (~10 ms).
 *  @retval OPAL_SUCCESS
 *  @retval OPAL_ERR_NOT_SUPPORTED  TSC asked (here or by the parameter) but
 *          not invariant, or not x86-64: the monotonic clock is in use
 *  @retval OPAL_ERR_BAD_PARAM  unknown value
 *  Context: INIT (raises may run meanwhile: they read one or the other). */
OPAL_DECLSPEC int mca_base_event_clock_set(int clock);
/** The default clock in use (MCA_BASE_EVENT_CLOCK_*). Context: ANY. */
OPAL_DECLSPEC int mca_base_event_clock_get(void);

/* ------------------------------------------------------------------------
 * Test-only seams (test/unit, test/stress; never called by the project)
 * ------------------------------------------------------------------------ */

/** Preload @p registration's drop counter (saturation tests).
 *  @retval OPAL_SUCCESS, OPAL_ERR_BAD_PARAM. Context: ANY. */
OPAL_DECLSPEC int mca_base_event_test_set_dropped(mca_base_event_registration_t *registration,
                                                  uint64_t value);
/** Number of retired snapshots and registrations still waiting for their
 *  grace period. Context: ANY. */
OPAL_DECLSPEC int mca_base_event_test_retired_count(void);
/** Test-only: per-thread records allocated beyond the static pool (return
 *  value) and how many of them are free (*spare, may be NULL). */
OPAL_DECLSPEC int mca_base_event_test_thread_records(int *spare);
/** Test-only: instances dropped in SIGNAL context for want of a per-thread
 *  record (not chargeable to any registration). */
OPAL_DECLSPEC uint64_t mca_base_event_test_lost_no_record(void);

END_C_DECLS

#endif /* OPAL_MCA_BASE_EVENT_H */
