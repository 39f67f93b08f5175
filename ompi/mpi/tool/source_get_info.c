/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_source_get_info (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_source_get_info = PMPI_T_source_get_info

/* Context: TOOL. NULL OUT arguments are ignored (MPI-4.1 sec. 15.3.3). */
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc,
                           int *desc_len, MPI_T_source_order *ordering,
                           MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
    mca_base_event_source_t *source;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    rc = mca_base_event_source_get_by_index(source_index, &source);
    if (OPAL_ERR_NOT_FOUND == rc) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    if (OPAL_SUCCESS != rc) {
        return mpit_event_error(rc);
    }
    if (NULL != info) {
        /* The source has no hints of its own: a new, empty info. */
        rc = mpit_event_info_out(NULL, info);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
    }
    mpit_event_copy_string(name, name_len, source->name);
    mpit_event_copy_string(desc, desc_len, source->description);
    if (NULL != ordering) {
        *ordering = (MPI_T_source_order) source->ordering;
    }
    if (NULL != ticks_per_second) {
        *ticks_per_second = (MPI_Count) source->ticks_per_second;
    }
    if (NULL != max_ticks) {
        *max_ticks = (MPI_Count) source->max_ticks;
    }
    return MPI_SUCCESS;
}
