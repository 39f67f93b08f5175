/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_handle_free (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_handle_free = PMPI_T_event_handle_free

/*
 * Context: TOOL, and from inside the registration's own callback. A flush
 * point. The tool's free_cb_function (may be NULL) runs once no callback of
 * the registration runs or can start, perhaps before this returns.
 */
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    mpit_event_shim_t *shim;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    mpit_event_lock();
    shim = mpit_event_shim_get(event_registration);
    if (NULL == shim || shim->freeing) {
        mpit_event_unlock();
        return MPI_T_ERR_INVALID_HANDLE;
    }
    shim->freeing = true;
    shim->free_fn = free_cb_function;
    shim->free_user_data = user_data;
    mpit_event_unlock();

    /* The free trampoline runs the tool's function and releases the shim. */
    rc = mca_base_event_handle_free(event_registration, shim, mpit_event_free_trampoline);
    if (OPAL_SUCCESS == rc) {
        return MPI_SUCCESS;
    }
    mpit_event_lock();
    shim->freeing = false;
    shim->free_fn = NULL;
    shim->free_user_data = NULL;
    mpit_event_unlock();
    return OPAL_ERR_BAD_PARAM == rc ? MPI_T_ERR_INVALID_HANDLE : mpit_event_error(rc);
}
