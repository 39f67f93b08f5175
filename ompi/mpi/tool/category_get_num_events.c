/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_category_get_num_events (MPI-4.1 sec. 15.3.7). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"
#include "opal/mca/base/mca_base_var_group.h"

#pragma weak MPI_T_category_get_num_events = PMPI_T_category_get_num_events

/* Context: TOOL. Which events a category holds: mpi_t_events.h. Takes
 * ompi_mpit_lock() around the variable group walk only (no user code). */
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    const mca_base_var_group_t *group;
    mca_base_event_t *event;
    int count = 0, n;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (MPI_PARAM_CHECK && NULL == num_events) {
        return MPI_T_ERR_INVALID;
    }
    ompi_mpit_lock();
    if (OPAL_SUCCESS != mca_base_var_group_get(cat_index, &group) || !group->group_isvalid) {
        ompi_mpit_unlock();
        return MPI_T_ERR_INVALID_INDEX;
    }
    n = mca_base_event_get_count();
    for (int i = 0; i < n; ++i) {
        if (OPAL_SUCCESS == mca_base_event_get_by_index(i, &event)
            && cat_index == mpit_event_category_of(event)) {
            ++count;
        }
    }
    ompi_mpit_unlock();
    *num_events = count;
    return MPI_SUCCESS;
}
