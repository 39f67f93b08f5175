/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_callback_set_info (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_callback_set_info = PMPI_T_event_callback_set_info

/* Context: TOOL. */
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    opal_info_t *opal_info;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (!mpit_event_safety_is_valid(cb_safety)) {
        return MPI_T_ERR_INVALID;
    }
    if (!mca_base_event_handle_is_valid(event_registration)) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    rc = mpit_event_info_in(info, &opal_info);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (NULL == opal_info) {
        /* MPI_INFO_NULL: no keys to set, but the same errors as with keys
         * (no callback at that level is MPI_T_ERR_INVALID either way). */
        opal_info_t *used = NULL;

        rc = mca_base_event_callback_get_info(event_registration,
                                              (mca_base_event_cb_safety_t) cb_safety, &used);
        if (NULL != used) {
            OBJ_RELEASE(used);
        }
        switch (rc) {
        case OPAL_SUCCESS:
            return MPI_SUCCESS;
        case OPAL_ERR_BAD_PARAM:
            return MPI_T_ERR_INVALID_HANDLE;
        case OPAL_ERR_NOT_FOUND:
            return MPI_T_ERR_INVALID; /* no callback at that safety level */
        case OPAL_ERR_OUT_OF_RESOURCE:
            return MPI_T_ERR_MEMORY;
        default:
            return mpit_event_error(rc);
        }
    }
    rc = mca_base_event_callback_set_info(event_registration,
                                          (mca_base_event_cb_safety_t) cb_safety, opal_info);
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID_HANDLE;
    case OPAL_ERR_NOT_FOUND:
        return MPI_T_ERR_INVALID; /* no callback at that safety level */
    case OPAL_ERR_OUT_OF_RESOURCE:
        return MPI_T_ERR_MEMORY;
    default:
        return mpit_event_error(rc);
    }
}
