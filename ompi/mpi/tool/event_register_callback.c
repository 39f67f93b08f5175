/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_register_callback (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#include <stdlib.h>

#pragma weak MPI_T_event_register_callback = PMPI_T_event_register_callback

/*
 * Context: TOOL, and from inside a callback. event_cb_function NULL clears
 * the slot of that safety level. The engine calls a trampoline whose
 * user_data is an immutable slot {function, user_data}; a replaced slot is
 * retired and freed with the registration (a callback on another thread may
 * still be using it).
 */
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function *event_cb_function)
{
    mpit_event_cb_slot_t *slot = NULL;
    mpit_event_shim_t *shim;
    opal_info_t *opal_info;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (!mpit_event_safety_is_valid(cb_safety)) {
        return MPI_T_ERR_INVALID;
    }
    rc = mpit_event_info_in(info, &opal_info);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (NULL != event_cb_function) {
        slot = calloc(1, sizeof(*slot));
        if (NULL == slot) {
            return MPI_T_ERR_MEMORY;
        }
        slot->fn = event_cb_function;
        slot->user_data = user_data;
    }

    /* Hold the bindings' mutex across the engine call so that two threads
     * registering on the same slot retire in the engine's order. The
     * engine's register_callback runs no user code. */
    mpit_event_lock();
    shim = mpit_event_shim_get(event_registration);
    if (NULL == shim || shim->freeing) {
        mpit_event_unlock();
        free(slot);
        return MPI_T_ERR_INVALID_HANDLE;
    }
    rc = mca_base_event_register_callback(event_registration,
                                          (mca_base_event_cb_safety_t) cb_safety, opal_info,
                                          slot,
                                          NULL == slot ? NULL : mpit_event_cb_trampoline);
    if (OPAL_SUCCESS == rc) {
        mpit_event_cb_slot_t *old = shim->slots[cb_safety];
        if (NULL != old) {
            old->next_retired = shim->retired;
            shim->retired = old;
        }
        shim->slots[cb_safety] = slot;
    }
    mpit_event_unlock();

    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        free(slot);
        return MPI_T_ERR_INVALID_HANDLE; /* safety was checked above */
    default:
        free(slot);
        return mpit_event_error(rc);
    }
}
