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
 *   2. deliver: the installed delivery (mca_base_event_delivery_set() in
 *      mca_base_event_delivery.h, the selected evt module) either
 *      dispatches at once (sync) or keeps the
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
    int index;  /**< index reported to tools */
    char *name; /**< verbatim from the producer */
    char *description;
    mca_base_event_source_order_t ordering;
    opal_count_t ticks_per_second;
    opal_count_t max_ticks;
    mca_base_event_timestamp_fn_t get_timestamp; /**< never NULL (default clock) */
    bool supports_adhoc;                         /**< MPI_T_source_get_timestamp allowed */
    void *ctx;
    /** ORDERED sources: highest timestamp dispatched so far; a later record
     *  with a lower one is dispatched with this value instead. */
    _Atomic opal_count_t last_timestamp;
} mca_base_event_source_t;

/**
 * Register a source, or find the one already registered under @p name.
 *
 * Idempotent by name for the same source: its identity is @p ordering,
 * the clock (@p get_timestamp, and @p ctx when a clock is given),
 * @p ticks_per_second (ignored with the default clock, which always has
 * 1e9), @p max_ticks and @p supports_adhoc. A second registration with the
 * same identity returns the existing index (its @p description is ignored);
 * one that differs is an error.
 *
 * @param[in] get_timestamp  NULL: CLOCK_MONOTONIC in ns (1e9 ticks/s)
 * @retval >=0  the source's index (the existing index if the same source
 *              is known by that name)
 * @retval OPAL_ERR_BAD_PARAM  NULL or empty name, ticks_per_second <= 0,
 *                             max_ticks <= 0, bad ordering
 * @retval OPAL_EXISTS  @p name is registered with another identity
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
 * Ad-hoc timestamp of a source. A drain point (mca_base_event_flush()):
 * pending records and producer sinks are delivered first, in this thread
 * (callbacks may run here), except those a drain on another thread is
 * delivering while it runs a callback (never waited for); then the
 * source's clock is read.
 *
 * @retval OPAL_SUCCESS  *timestamp set
 * @retval OPAL_ERR_NOT_FOUND  bad index;  OPAL_ERR_BAD_PARAM  NULL pointer
 * @retval OPAL_ERR_NOT_SUPPORTED  the source does not allow ad-hoc reads
 *
 * Context: TOOL, ANY (from a callback of a drain, the drain is not entered
 * again: only the clock is read).
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
    char *name; /**< full name, always "ompi." + framework_component_name */
    char *description;
    mca_base_var_info_lvl_t verbosity;
    int num_elements;
    mca_base_var_type_t *types; /**< num_elements entries */
    ptrdiff_t *offsets;         /**< num_elements entries, ascending from 0 */
    size_t extent;              /**< payload bytes: last offset + its size */
    mca_base_var_enum_t *enumerator;
    int bind;       /**< MCA_BASE_VAR_BIND_* */
    uint32_t flags; /**< MCA_BASE_EVENT_FLAG_* */
    mca_base_event_source_t *source;
    void *ctx;
    /** Live registrations (engine-private, see mca_base_event_dispatch.c). */
    _Atomic(struct mca_base_event_regset_t *) regset;
    /** The installed delivery exports this event (its records leave the
     *  process or are recorded): set under the engine mutex when a delivery
     *  is installed or the event registered; read relaxed by deliveries. */
    atomic_bool exported;
    /** A registration was ever allocated for this event: set under the
     *  engine mutex before the registration's epoch is published, never
     *  cleared. A record captured while it was false is owed to no
     *  registration (every later one has a newer epoch), so the raise
     *  flags it MCA_BASE_EVENT_RECORD_DISPATCHED and a deferred delivery
     *  has nothing to dispatch locally. */
    atomic_bool listened;
    /** Element names (num_elements strings) given by the producer with
     *  mca_base_event_set_element_names(), or NULL. Published with a
     *  release store, read with mca_base_event_element_name(); set once,
     *  freed at mca_base_event_finalize(). */
    _Atomic(char **) element_names;
} mca_base_event_t;

/**
 * Register an event type, or find the one already registered under the same
 * full name. Full name = "ompi." + framework, component and name joined with
 * "_", NULL parts skipped; @p project is accepted and ignored (the prefix is
 * always "ompi."). (NULL, NULL, "mpi.initialization") -> "ompi.mpi.initialization";
 * ("mything", "base", "happened") -> "ompi.mything_base_happened".
 *
 * Idempotent by full name for the same event: its identity is the layout
 * (@p num_elements, @p types, @p offsets), @p bind, @p source, @p flags and
 * @p verbosity, i.e. everything the raise path and the tools rely on. A
 * second registration with the same identity returns the existing index
 * (its @p description, @p enumerator and @p ctx are ignored: the first
 * registration's are kept); one that differs in any of them is an error.
 *
 * @param[in] types, offsets  num_elements exact-width types (INT32_T, UINT32_T,
 *            INT64_T, UINT64_T, DOUBLE, BOOL) at ascending offsets from 0;
 *            extent <= MCA_BASE_EVENT_MAX_PAYLOAD
 * @retval >=0 the event's index (new, or the existing one of the same event)
 * @retval OPAL_ERR_BAD_PARAM  bad name, layout, source (NULL) or bind
 * @retval OPAL_EXISTS  the full name is registered with another identity
 * @retval OPAL_ERR_OUT_OF_RESOURCE  allocation failed
 * On error nothing is registered.
 *
 * Context: INIT, ANY. Locks: takes the engine mutex.
 */
OPAL_DECLSPEC int mca_base_event_register(
    const char *project, const char *framework, const char *component, const char *name,
    const char *description, mca_base_var_info_lvl_t verbosity, int num_elements,
    const mca_base_var_type_t types[], const ptrdiff_t offsets[], mca_base_var_enum_t *enumerator,
    int bind, uint32_t flags, mca_base_event_source_t *source, void *ctx);

/**
 * mca_base_event_register() and mca_base_event_get_by_index() in one call:
 * what a producer does to keep the event object it raises with (the object
 * is never freed before mca_base_event_finalize(), so the pointer stays
 * valid). Same arguments, identity rule and return codes as
 * mca_base_event_register(), plus @p event.
 *
 * @param[out] event  set to the event object on success; untouched on error
 * @retval >=0 the event's index (*event set)
 * @retval OPAL_ERR_BAD_PARAM  @p event NULL, or as mca_base_event_register()
 * @retval OPAL_EXISTS, OPAL_ERR_OUT_OF_RESOURCE  as mca_base_event_register()
 * On error nothing is registered.
 *
 * Context: INIT, ANY. Locks: takes the engine mutex.
 */
OPAL_DECLSPEC int mca_base_event_register_ptr(
    const char *project, const char *framework, const char *component, const char *name,
    const char *description, mca_base_var_info_lvl_t verbosity, int num_elements,
    const mca_base_var_type_t types[], const ptrdiff_t offsets[], mca_base_var_enum_t *enumerator,
    int bind, uint32_t flags, mca_base_event_source_t *source, void *ctx, mca_base_event_t **event);

/**
 * Name the elements of an event type (optional; the producer API of Open
 * MPI main works unchanged without it). Exporters carry the names (the wire
 * format's dictionary) so readers can show values by name; tools see them
 * nowhere else.
 *
 * @param[in] event  a registered event type
 * @param[in] names  event->num_elements names, each 1..255 characters of
 *            [A-Za-z0-9_] not starting with a digit, all different; copied
 * @retval OPAL_SUCCESS  set (or the same names were already set)
 * @retval OPAL_ERR_BAD_PARAM  NULL event or names, a NULL, empty, invalid
 *         or repeated name
 * @retval OPAL_EXISTS  other names were set before (names never change:
 *         lock-free readers may hold them)
 * @retval OPAL_ERR_OUT_OF_RESOURCE  allocation failed (nothing set)
 * The installed exporting delivery is asked again whether it exports the
 * event (its exports hook, under the engine mutex), so that it can carry
 * names that arrived after the registration.
 * Context: INIT, ANY. Locks: takes the engine mutex.
 */
OPAL_DECLSPEC int mca_base_event_set_element_names(mca_base_event_t *event,
                                                   const char *const names[]);

/** Name of element @p i of @p event, or NULL when the producer gave none or
 *  @p i is out of range. The string lives until mca_base_event_finalize().
 *  Context: ANY, lock-free (an acquire load). */
OPAL_DECLSPEC const char *mca_base_event_element_name(const mca_base_event_t *event, int i);

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
    const void *obj;        /**< bound object, NULL for unbound raises */
    opal_count_t timestamp; /**< in the source's ticks */
    uint64_t epoch;         /**< registration epoch at capture */
    const void *data;       /**< event->extent bytes */
    /** Causal depth: 0 for a raise outside every callback, d + 1 for a raise
     *  from a callback of a record of depth d, whether that record was
     *  dispatched at its raise or later from a ring. A raise at depth
     *  MCA_BASE_EVENT_MAX_DEPTH is counted as dropped: it bounds raise loops
     *  across deferral too. */
    uint32_t depth;
    uint32_t flags; /**< MCA_BASE_EVENT_RECORD_* */
} mca_base_event_record_t;

/** Record flags. */
enum {
    /** Nothing to dispatch to the local registrations: dispatched at the
     *  raise (an event flagged synchronous, handed to the delivery
     *  afterwards for export or recording only), or captured while its
     *  event had never had a registration (no registration can take it).
     *  A deferred delivery does not dispatch it, and no drop is charged
     *  for it. */
    MCA_BASE_EVENT_RECORD_DISPATCHED = 0x1,
};

/** Out of line part of the raise (capture, then the installed delivery).
 *  @retval OPAL_SUCCESS  captured and handed to the delivery
 *  @retval OPAL_ERR_NOT_SUPPORTED  @p safety cannot be served by the selected
 *          delivery (e.g. ASYNC_SIGNAL_SAFE with sync); counted as dropped
 *  @retval OPAL_ERR_BAD_PARAM  NULL event or data, or a source other than the
 *          event's own
 *  @retval OPAL_ERR_TEMP_OUT_OF_RESOURCE  dropped (depth cap, full ring), counted
 *  Context: RAISE; SIGNAL when safety is ASYNC_SIGNAL_SAFE. */
OPAL_DECLSPEC int mca_base_event_raise_internal(mca_base_event_t *event,
                                                mca_base_event_source_t *source, const void *obj,
                                                const void *data,
                                                mca_base_event_cb_safety_t safety);

/** mca_base_event_raise_internal() with the record's timestamp given by the
 *  producer (mca_base_event_raise_stamped()). Same return codes.
 *  Context: RAISE; SIGNAL when safety is ASYNC_SIGNAL_SAFE. */
OPAL_DECLSPEC int mca_base_event_raise_stamped_internal(mca_base_event_t *event,
                                                        mca_base_event_source_t *source,
                                                        const void *obj, const void *data,
                                                        mca_base_event_cb_safety_t safety,
                                                        opal_count_t timestamp);

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
    return mca_base_event_raise_internal(event, source, NULL, data, MCA_BASE_EVENT_CB_REQUIRE_NONE);
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
    return mca_base_event_raise_internal(event, source, obj, data, MCA_BASE_EVENT_CB_REQUIRE_NONE);
}

/** Now, on @p source's clock (what a raise stamps its record with): for a
 *  producer that needs the time anyway (an operation's start or completion
 *  in its payload) and raises with mca_base_event_raise_stamped(), so that
 *  one clock read serves both. Context: RAISE, SIGNAL (source clocks are
 *  async-signal-safe). */
static inline opal_count_t mca_base_event_source_now(mca_base_event_source_t *source)
{
    return source->get_timestamp(source->ctx);
}

/**
 * Raise with a timestamp the producer already has, instead of a new clock
 * read: the record is stamped with @p timestamp. It must come from the
 * event's source clock (mca_base_event_source_now() on event->source),
 * read at or after the occurrence and before this call, by this thread:
 * then the records of an ORDERED source keep their order exactly as with
 * mca_base_event_raise() (their delivered timestamps never decrease), and
 * tools see the same instant in the record and in the payload. @p obj as
 * mca_base_event_raise_bound() (NULL for unbound events), @p safety as
 * mca_base_event_raise_ctx(). Returns at once, OPAL_SUCCESS, when nobody
 * listens: a producer reads the clock only after mca_base_event_active().
 *
 * Context: RAISE; SIGNAL when @p safety is ASYNC_SIGNAL_SAFE.
 */
static inline int mca_base_event_raise_stamped(mca_base_event_t *event,
                                               mca_base_event_source_t *source, const void *obj,
                                               const void *data, mca_base_event_cb_safety_t safety,
                                               opal_count_t timestamp)
{
    if (OPAL_LIKELY(!mca_base_event_active(event))) {
        return OPAL_SUCCESS;
    }
    return mca_base_event_raise_stamped_internal(event, source, obj, data, safety, timestamp);
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
                                               int source_index, mca_base_event_cb_safety_t safety,
                                               void *user_data);

/**
 * Allocate a registration. It receives only instances raised after this
 * call: records carry the registration epoch of their capture, and producer
 * sinks are drained first (their aggregated instances are raised for the
 * existing registrations; with a delivery that dispatches at the raise,
 * their callbacks run here). Nothing else is delivered from this call.
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

/** Start freeing a registration: this thread starts no callback of it
 *  after this returns (another thread whose dispatch had already taken the
 *  registration may still run one); @p free_cb (may be NULL) runs with
 *  @p user_data once none is running (here, or when the last running
 *  callback returns, or at the end of a drain running on another thread).
 *  Records raised for it and still queued in a deferred delivery are not
 *  delivered: they are counted as dropped and reported to its dropped
 *  handler just before @p free_cb. Runs no other user code, never waits for
 *  a callback. Legal from inside the registration's own callback.
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

/** Set (or clear) the dropped handler. Runs no user code: drops counted so
 *  far stay pending and reach whichever handler is set at the next report
 *  (a drain point, or before the next delivery); without a handler they
 *  stay pending, never cleared. Context: TOOL, ANY. */
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
 * Producer services
 * ------------------------------------------------------------------------ */

/** A producer sink: accumulates occurrences in a restricted context and
 *  raises them when drained. Context of the call: ANY (a drain point, a
 *  handle alloc, the delivery's progress), never SIGNAL. */
typedef void (*mca_base_event_sink_drain_fn_t)(void *ctx);

/** Drain @p fn at every drain point (before the delivery's flush), at
 *  handle alloc, and from mca_base_event_drain_sinks(). Context: INIT.
 *  @retval OPAL_SUCCESS, OPAL_ERR_OUT_OF_RESOURCE */
OPAL_DECLSPEC int mca_base_event_sink_register(mca_base_event_sink_drain_fn_t fn, void *ctx);
/** The same for a sink that calls mca_base_event_sink_pending() after each
 *  count: a deferred delivery's progress drains it only then (a sink
 *  registered with mca_base_event_sink_register() is drained at every
 *  progress call). Context: INIT. */
OPAL_DECLSPEC int mca_base_event_sink_register_notifying(mca_base_event_sink_drain_fn_t fn,
                                                         void *ctx);
OPAL_DECLSPEC int mca_base_event_sink_unregister(mca_base_event_sink_drain_fn_t fn, void *ctx);
/** Drain every producer sink (the drain points call it).
 *  Context: ANY, PROGRESS. */
OPAL_DECLSPEC void mca_base_event_drain_sinks(void);
/** A notifying sink has counted something: the next
 *  mca_base_event_drain_sinks_pending() drains the notifying sinks.
 *  Context: RAISE, SIGNAL (one store). */
OPAL_DECLSPEC void mca_base_event_sink_pending(void);
/** Drain the sinks that do not notify, and the notifying ones if one said
 *  it has something since the last call (a deferred delivery's progress:
 *  two relaxed loads when there is nothing to do). Context: ANY, PROGRESS. */
OPAL_DECLSPEC void mca_base_event_drain_sinks_pending(void);

/** The return of an MPI call whose events the caller raised (a PMPI
 *  wrapper, after the PMPI call): a drain point in context NONE (the tool
 *  may call MPI there) that a delivery keeping records takes when they
 *  should not wait: @p prompt (an event a tool expects at once, e.g. a
 *  communicator created), or its own policy (records batched, not two or
 *  three per call) given @p now, the default clock's time when the caller
 *  read it (0: not read). A few loads and a branch when there is nothing
 *  to do. Context: ANY (not SIGNAL). */
OPAL_DECLSPEC void mca_base_event_call_return(bool prompt, int64_t now);

/** Delivery flags (also the evt modules' flags, evt.h). */
enum {
    /** deliver() may be called from SIGNAL context (ASYNC_SIGNAL_SAFE raises). */
    MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE = 0x1,
    /** Records are kept and dispatched later, by the delivery's drains. */
    MCA_BASE_EVENT_DELIVERY_DEFERRED = 0x2,
    /** Records leave the process (or are recorded): the gates of the events
     *  the delivery exports stay open, listened to or not. */
    MCA_BASE_EVENT_DELIVERY_EXPORTS = 0x4,
};

/** The flags of the installed delivery (0 when records are dispatched at
 *  the raise):
 *  what a producer may raise (ASYNC_SIGNAL_SAFE raises need
 *  MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE). Context: ANY. */
OPAL_DECLSPEC uint32_t mca_base_event_delivery_flags(void);

/** Count one dropped instance for every registration @p record would have
 *  been delivered to: a record a producer could not raise (e.g. an
 *  operation whose completion it can no longer see), or one a delivery
 *  could not carry. Context: RAISE, SIGNAL. Locks: none. */
OPAL_DECLSPEC void mca_base_event_count_dropped(const mca_base_event_record_t *record);

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
    MCA_BASE_EVENT_CLOCK_TSC = 1,       /**< invariant TSC kept on CLOCK_MONOTONIC */
    /** tsc where the TSC is invariant, monotonic elsewhere (the default;
     *  only asked for, never in use) */
    MCA_BASE_EVENT_CLOCK_AUTO = 2,
};

/** Switch the default clock (mca_base_event_init() does it from
 *  mca_base_event_clock). Either way timestamps are CLOCK_MONOTONIC
 *  nanoseconds (1e9 ticks/s), monotonic per thread. The TSC is calibrated
 *  once per process, at the first request (~10 ms), and kept on
 *  CLOCK_MONOTONIC by the raises.
 *  @retval OPAL_SUCCESS
 *  @retval OPAL_ERR_NOT_SUPPORTED  TSC asked (here or by the parameter) but
 *          not invariant, or not x86-64: the monotonic clock is in use
 *          (AUTO then falls back without an error)
 *  @retval OPAL_ERR_BAD_PARAM  unknown value
 *  Context: INIT (raises may run meanwhile: they read one or the other). */
OPAL_DECLSPEC int mca_base_event_clock_set(int clock);
/** The default clock in use (MCA_BASE_EVENT_CLOCK_*). Context: ANY. */
OPAL_DECLSPEC int mca_base_event_clock_get(void);

/** Are @p source's timestamps this host's CLOCK_MONOTONIC (the default
 *  clock: CLOCK_MONOTONIC itself, or the TSC kept on it within tens of ns)?
 *  Then every process of the host reads the same clock, and one clock pair
 *  converts all their timestamps alike; a per-process conversion would put
 *  their events up to its sampling error apart. A producer's clock is
 *  unknown. Context: ANY. */
OPAL_DECLSPEC bool mca_base_event_source_on_host_clock(const mca_base_event_source_t *source);

END_C_DECLS

#endif /* OPAL_MCA_BASE_EVENT_H */
