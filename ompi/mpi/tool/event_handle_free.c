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
 * Context: TOOL, and from inside the registration's own callback. Runs no
 * other user code and never waits for a callback: records still queued
 * for the registration are counted dropped, and the tool's
 * free_cb_function (may be NULL) runs once no callback of the registration
 * runs or can start (here, or later on the thread whose callback ends
 * last).
 */
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    rc = mca_base_event_handle_free(event_registration, user_data,
                                    mpit_event_free_cb_fn(free_cb_function));
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID_HANDLE;
    default:
        return mpit_event_error(rc);
    }
}
