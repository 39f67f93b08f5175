/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_category_get_events (MPI-4.1 sec. 15.3.7). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"
#include "opal/mca/base/mca_base_var_group.h"

#pragma weak MPI_T_category_get_events = PMPI_T_category_get_events

/* Context: TOOL. Writes the indexes (ascending) of at most len events of
 * the category; the same membership rule as MPI_T_category_get_num_events. */
int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    const mca_base_var_group_t *group;
    mca_base_event_t *event;
    int written = 0, n;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (MPI_PARAM_CHECK && (len < 0 || (len > 0 && NULL == indices))) {
        return MPI_T_ERR_INVALID;
    }
    ompi_mpit_lock();
    if (OPAL_SUCCESS != mca_base_var_group_get(cat_index, &group) || !group->group_isvalid) {
        ompi_mpit_unlock();
        return MPI_T_ERR_INVALID_INDEX;
    }
    n = mca_base_event_get_count();
    for (int i = 0; i < n && written < len; ++i) {
        if (OPAL_SUCCESS == mca_base_event_get_by_index(i, &event)
            && cat_index == mpit_event_category_of(event)) {
            indices[written++] = i;
        }
    }
    ompi_mpit_unlock();
    return MPI_SUCCESS;
}
