/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_source_get_timestamp (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_source_get_timestamp = PMPI_T_source_get_timestamp

/* Context: TOOL. A flush point (through the engine): callbacks may run
 * before this returns; no lock is held here. */
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    opal_count_t ts;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (MPI_PARAM_CHECK && NULL == timestamp) {
        return MPI_T_ERR_INVALID;
    }
    rc = mca_base_event_source_get_timestamp(source_index, &ts);
    switch (rc) {
    case OPAL_SUCCESS:
        *timestamp = (MPI_Count) ts;
        return MPI_SUCCESS;
    case OPAL_ERR_NOT_FOUND:
        return MPI_T_ERR_INVALID_INDEX;
    case OPAL_ERR_NOT_SUPPORTED:
        return MPI_T_ERR_NOT_SUPPORTED;
    default:
        return mpit_event_error(rc);
    }
}
