/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What the MPI_T event bindings (ompi/mpi/tool/event_*.c, source_*.c,
 * category_get_*events.c) share: the init check, the string rule, the info
 * conversions and the casts that let the engine call the tool's functions
 * directly.
 *
 * Every binding follows the same order: check init (MPI_T_ERR_NOT_INITIALIZED),
 * check the parameters, call the engine, map the OPAL code explicitly for
 * that call (ompit_opal_to_mpit_error() only for what is left). None takes
 * Open MPI 4.1's ompi_mpit_big_lock around an engine call: engine calls may
 * run user callbacks (flush points), and those may call MPI_T again. The
 * category bindings take it around the MCA variable group walk only, as
 * 4.1's own category functions do, and call nothing there that runs user code.
 *
 * Context: all functions here are TOOL (from an MPI_T_* binding, possibly
 * from inside a user callback), unless they say otherwise.
 */

#ifndef OMPI_MPIT_EVENT_INTERNAL_H
#define OMPI_MPIT_EVENT_INTERNAL_H

#include "ompi_config.h"

#include <stdbool.h>
#include <string.h>

#include "ompi/mpi/tool/mpi_t_events.h"
#include "ompi/runtime/params.h" /* MPI_PARAM_CHECK */
#include "opal/mca/base/mca_base_event.h"

BEGIN_C_DECLS

/* From Open MPI 4.1's ompi/mpi/tool/mpit-internal.h, which is installed but
 * cannot be included from outside its tree (it includes
 * "ompi/include/ompi_config.h"). The same declarations, of symbols libmpi
 * exports: the MPI_T init count and the MPI_T big lock. */
OMPI_DECLSPEC extern volatile uint32_t ompi_mpit_init_count;
OMPI_DECLSPEC void ompi_mpit_lock(void);
OMPI_DECLSPEC void ompi_mpit_unlock(void);
OMPI_DECLSPEC int ompit_opal_to_mpit_error(int rc);

/** Between MPI_T_init_thread and the matching last MPI_T_finalize (the
 *  same test as 4.1's mpit_is_initialized()). Context: ANY. */
static inline bool mpit_is_initialized(void)
{
    return 0 != ompi_mpit_init_count;
}

/** The helpers below cross files of libompi_evt only: keep them out of its
 *  dynamic symbol table. */
#define MPIT_EVENT_HIDDEN __attribute__((visibility("hidden")))

/* The tool-visible values are the engine's: checked once, here. */
_Static_assert((int) MPI_T_CB_REQUIRE_NONE == (int) MCA_BASE_EVENT_CB_REQUIRE_NONE
                   && (int) MPI_T_CB_REQUIRE_MPI_RESTRICTED
                          == (int) MCA_BASE_EVENT_CB_REQUIRE_MPI_RESTRICTED
                   && (int) MPI_T_CB_REQUIRE_THREAD_SAFE
                          == (int) MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE
                   && (int) MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
                          == (int) MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
               "MPI_T_cb_safety must equal mca_base_event_cb_safety_t");
_Static_assert((int) MPI_T_SOURCE_ORDERED == (int) MCA_BASE_EVENT_SOURCE_ORDERED
                   && (int) MPI_T_SOURCE_UNORDERED == (int) MCA_BASE_EVENT_SOURCE_UNORDERED,
               "MPI_T_source_order must equal mca_base_event_source_order_t");
_Static_assert((int) MPI_T_VERBOSITY_USER_BASIC == (int) OPAL_INFO_LVL_1
                   && (int) MPI_T_VERBOSITY_MPIDEV_ALL == (int) OPAL_INFO_LVL_9,
               "verbosity levels are reported unchanged");
_Static_assert((int) MPI_T_BIND_NO_OBJECT == (int) MCA_BASE_VAR_BIND_NO_OBJECT
                   && (int) MPI_T_BIND_MPI_COMM == (int) MCA_BASE_VAR_BIND_MPI_COMM
                   && (int) MPI_T_BIND_MPI_INFO == (int) MCA_BASE_VAR_BIND_MPI_INFO,
               "bind values are reported unchanged");
_Static_assert(sizeof(MPI_Count) == sizeof(opal_count_t), "MPI_Count is opal_count_t");

/** True for a valid safety level. Context: ANY. */
static inline bool mpit_event_safety_is_valid(MPI_T_cb_safety safety)
{
    return (int) safety >= (int) MPI_T_CB_REQUIRE_NONE
           && (int) safety <= (int) MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE;
}

/**
 * The MPI-4.1 string rule (sec. 15.3.3) for an (OUT string, INOUT len) pair.
 *
 * @param[out]   dest  may be NULL: only the needed length is returned
 * @param[inout] len   NULL: nothing is done. In: the size of @p dest. 0 (or
 *                     @p dest NULL): nothing is copied and the needed length
 *                     (strlen + 1) is returned. Otherwise at most len - 1
 *                     characters and a terminating NUL are copied and the
 *                     number of characters written including the NUL returned.
 * @param[in]    source  NULL is treated as ""
 *
 * Context: ANY.
 */
MPIT_EVENT_HIDDEN void mpit_event_copy_string(char *dest, int *len, const char *source);

/**
 * The internal opal_info_t of a tool's MPI_Info input.
 * @retval MPI_SUCCESS  *out is NULL for MPI_INFO_NULL, else the info's opal_info_t
 * @retval MPI_T_ERR_INVALID  a freed info object
 */
MPIT_EVENT_HIDDEN int mpit_event_info_in(MPI_Info info, opal_info_t **out);

/**
 * A new MPI_Info holding the keys of @p src (NULL: none), for the tool to
 * free. Open MPI 4.1 cannot create info objects outside MPI_Init ..
 * MPI_Finalize: there *out is MPI_INFO_NULL.
 * @retval MPI_SUCCESS;  MPI_T_ERR_MEMORY
 */
MPIT_EVENT_HIDDEN int mpit_event_info_out(opal_info_t *src, MPI_Info *out);

/** MPI datatype of an exact-width payload type (MPI_DATATYPE_NULL if none).
 *  Context: ANY. */
MPIT_EVENT_HIDDEN MPI_Datatype mpit_event_datatype(mca_base_var_type_t type);

/** The default mapping, for codes a binding does not map itself. */
MPIT_EVENT_HIDDEN int mpit_event_error(int opal_rc);

/* ------------------------------------------------------------------------
 * The tool's functions, as the engine calls them.
 *
 * The engine stores and calls the tool's callback, dropped handler and free
 * callback itself: the MPI types of their parameters are the engine's
 * (MPI_T_event_instance and MPI_T_event_registration are pointers to the
 * engine's structs, MPI_Count is opal_count_t, MPI_T_cb_safety has the
 * engine's values and size), so the two function types have one ABI, as
 * Open MPI main relies on too. No binding state sits between the engine
 * and the tool: nothing to look up or lock when the engine calls a
 * handler, nothing to keep consistent with the engine's snapshots.
 * ------------------------------------------------------------------------ */

_Static_assert(sizeof(MPI_T_cb_safety) == sizeof(mca_base_event_cb_safety_t),
               "MPI_T_cb_safety is passed where the engine passes its safety level");

static inline mca_base_event_cb_fn_t mpit_event_cb_fn(MPI_T_event_cb_function *fn)
{
    return (mca_base_event_cb_fn_t) fn;
}

static inline mca_base_event_dropped_cb_fn_t
mpit_event_dropped_cb_fn(MPI_T_event_dropped_cb_function *fn)
{
    return (mca_base_event_dropped_cb_fn_t) fn;
}

static inline mca_base_event_free_cb_fn_t mpit_event_free_cb_fn(MPI_T_event_free_cb_function *fn)
{
    return (mca_base_event_free_cb_fn_t) fn;
}

/* ------------------------------------------------------------------------
 * Categories (MCA variable groups) and events: see mpi_t_events.h.
 * ------------------------------------------------------------------------ */

/** Group index of the category holding @p event, or -1. Locks: call with
 *  ompi_mpit_lock() held (walks the variable groups). */
MPIT_EVENT_HIDDEN int mpit_event_category_of(const mca_base_event_t *event);

END_C_DECLS

#endif /* OMPI_MPIT_EVENT_INTERNAL_H */
