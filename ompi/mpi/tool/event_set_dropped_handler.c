/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_set_dropped_handler (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_set_dropped_handler = PMPI_T_event_set_dropped_handler

/*
 * Context: TOOL. Runs no user code. Drops counted so far stay pending and
 * reach whichever handler is set at the next report (a drain point, or
 * before the registration's next delivery); removing the handler
 * (dropped_cb_function NULL) keeps them for the next one, never loses them.
 */
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    rc = mca_base_event_set_dropped_handler(event_registration,
                                            mpit_event_dropped_cb_fn(dropped_cb_function));
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID_HANDLE;
    default:
        return mpit_event_error(rc);
    }
}
