/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_get_timestamp (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_get_timestamp = PMPI_T_event_get_timestamp

/* Context: inside a callback. */
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    opal_count_t ts;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (NULL == event_instance) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (MPI_PARAM_CHECK && NULL == event_timestamp) {
        return MPI_T_ERR_INVALID;
    }
    rc = mca_base_event_get_timestamp(event_instance, &ts);
    switch (rc) {
    case OPAL_SUCCESS:
        *event_timestamp = (MPI_Count) ts;
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID;
    default:
        return mpit_event_error(rc);
    }
}
