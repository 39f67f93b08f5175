/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_read (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_read = PMPI_T_event_read

/* Context: inside a callback (the instance is valid only there). */
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
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
    rc = mca_base_event_read(event_instance, element_index, buffer);
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_NOT_FOUND:
        return MPI_T_ERR_INVALID_INDEX; /* element_index out of range */
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID;
    default:
        return mpit_event_error(rc);
    }
}
