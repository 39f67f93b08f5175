/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_get_index (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_get_index = PMPI_T_event_get_index

/* Context: TOOL. */
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    mca_base_event_t *event;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (MPI_PARAM_CHECK && (NULL == name || NULL == event_index)) {
        return MPI_T_ERR_INVALID;
    }
    rc = mca_base_event_get_by_name(name, &event);
    switch (rc) {
    case OPAL_SUCCESS:
        *event_index = event->index;
        return MPI_SUCCESS;
    case OPAL_ERR_NOT_FOUND:
        return MPI_T_ERR_INVALID_NAME;
    default:
        return mpit_event_error(rc);
    }
}
