/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_handle_set_info (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_handle_set_info = PMPI_T_event_handle_set_info

/* Context: TOOL. */
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    opal_info_t *opal_info;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (!mca_base_event_handle_is_valid(event_registration)) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    rc = mpit_event_info_in(info, &opal_info);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (NULL == opal_info) {
        return MPI_SUCCESS; /* MPI_INFO_NULL: no keys to set */
    }
    rc = mca_base_event_handle_set_info(event_registration, opal_info);
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID_HANDLE; /* freed meanwhile */
    case OPAL_ERR_OUT_OF_RESOURCE:
        return MPI_T_ERR_MEMORY;
    default:
        return mpit_event_error(rc);
    }
}
