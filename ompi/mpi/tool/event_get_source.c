/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_get_source (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_get_source = PMPI_T_event_get_source

/* Context: inside a callback. */
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (NULL == event_instance) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (MPI_PARAM_CHECK && NULL == source_index) {
        return MPI_T_ERR_INVALID;
    }
    rc = mca_base_event_get_source(event_instance, source_index);
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID;
    default:
        return mpit_event_error(rc);
    }
}
