/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_get_num (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_get_num = PMPI_T_event_get_num

/* Context: TOOL. */
int PMPI_T_event_get_num(int *num_events)
{
    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (MPI_PARAM_CHECK && NULL == num_events) {
        return MPI_T_ERR_INVALID;
    }
    *num_events = mca_base_event_get_count();
    return MPI_SUCCESS;
}
