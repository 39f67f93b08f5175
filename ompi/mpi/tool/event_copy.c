/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_copy (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_copy = PMPI_T_event_copy

/* Context: inside a callback. Copies the whole payload (the event type's
 * extent: last displacement plus its element's size). */
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (NULL == event_instance) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (MPI_PARAM_CHECK && NULL == buffer) {
        return MPI_T_ERR_INVALID;
    }
    rc = mca_base_event_copy(event_instance, buffer);
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID;
    default:
        return mpit_event_error(rc);
    }
}
