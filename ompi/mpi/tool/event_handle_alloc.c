/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_handle_alloc (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc

/*
 * Context: TOOL, and from inside a callback. A flush point (through the
 * engine): callbacks may run before this returns; no lock is held then.
 *
 * For a bound event obj_handle points at the MPI handle of the bound kind
 * (for MPI_T_BIND_MPI_COMM an MPI_Comm *). Open MPI's handles are pointers
 * to the internal objects (MPI_Comm is ompi_communicator_t *), which is what
 * producers raise with: the binding passes the handle's value. For an
 * unbound event obj_handle is ignored.
 */
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    mca_base_event_registration_t *reg = NULL;
    mca_base_event_t *event;
    opal_info_t *opal_info;
    const void *obj = NULL;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (MPI_PARAM_CHECK && NULL == event_registration) {
        return MPI_T_ERR_INVALID;
    }
    rc = mca_base_event_get_by_index(event_index, &event);
    if (OPAL_ERR_NOT_FOUND == rc) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    if (OPAL_SUCCESS != rc) {
        return mpit_event_error(rc);
    }
    if (MCA_BASE_VAR_BIND_NO_OBJECT != event->bind) {
        if (NULL == obj_handle || NULL == *(void **) obj_handle) {
            return MPI_T_ERR_INVALID;
        }
        obj = *(void **) obj_handle;
    }
    rc = mpit_event_info_in(info, &opal_info);
    if (MPI_SUCCESS != rc) {
        return rc;
    }

    rc = mca_base_event_handle_alloc(event, obj, opal_info, &reg);
    switch (rc) {
    case OPAL_SUCCESS:
        break;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID;
    case OPAL_ERR_OUT_OF_RESOURCE:
        /* the registration cap (mca_base_event_max_registrations) */
        return MPI_T_ERR_OUT_OF_HANDLES;
    default:
        return mpit_event_error(rc);
    }
    rc = mpit_event_shim_create(reg);
    if (MPI_SUCCESS != rc) {
        (void) mca_base_event_handle_free(reg, NULL, NULL);
        return rc;
    }
    *event_registration = reg;
    return MPI_SUCCESS;
}
