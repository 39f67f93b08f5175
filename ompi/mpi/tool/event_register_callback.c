/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_register_callback (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_register_callback = PMPI_T_event_register_callback

/*
 * Context: TOOL, and from inside a callback. event_cb_function NULL clears
 * the slot of that safety level. The engine calls the tool's function
 * itself (mpit_event_internal.h: the MPI and engine signatures are the same
 * ABI), so nothing of the binding sits between them, and no lock of the
 * binding is held around the engine call.
 */
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function *event_cb_function)
{
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
    rc = mca_base_event_register_callback(event_registration,
                                          (mca_base_event_cb_safety_t) cb_safety, opal_info,
                                          user_data, mpit_event_cb_fn(event_cb_function));
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID_HANDLE; /* safety was checked above */
    default:
        return mpit_event_error(rc);
    }
}
