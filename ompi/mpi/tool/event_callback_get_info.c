/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_callback_get_info (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_callback_get_info = PMPI_T_event_callback_get_info

/* Context: TOOL. *info_used is a new MPI_Info the tool frees. */
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    opal_info_t *opal_info = NULL;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (MPI_PARAM_CHECK && NULL == info_used) {
        return MPI_T_ERR_INVALID;
    }
    if (!mpit_event_safety_is_valid(cb_safety)) {
        return MPI_T_ERR_INVALID;
    }
    if (!mca_base_event_handle_is_valid(event_registration)) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    rc = mca_base_event_callback_get_info(event_registration,
                                          (mca_base_event_cb_safety_t) cb_safety, &opal_info);
    switch (rc) {
    case OPAL_SUCCESS:
        break;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID_HANDLE;
    case OPAL_ERR_NOT_FOUND:
        return MPI_T_ERR_INVALID; /* no callback at that safety level */
    case OPAL_ERR_OUT_OF_RESOURCE:
        return MPI_T_ERR_MEMORY;
    default:
        return mpit_event_error(rc);
    }
    rc = mpit_event_info_out(opal_info, info_used);
    if (NULL != opal_info) {
        OBJ_RELEASE(opal_info);
    }
    return rc;
}
