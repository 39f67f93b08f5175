/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_handle_alloc (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/communicator/communicator.h"
#include "ompi/mpi/tool/mpit_event_internal.h"
#include "ompi/runtime/mpiruntime.h"

#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc

/* Is @p comm in Open MPI's communicator table? MPI_Comm_free takes a
 * communicator out of it (a pending request may keep it in until the
 * request completes). Found by address: a freed, dangling handle is never
 * dereferenced. Only between MPI_Init and MPI_Finalize: outside it the
 * table is empty, and a tool can only name the predefined communicators,
 * so nothing is checked. Context: TOOL. */
static bool comm_is_live(MPI_Comm comm)
{
    int32_t state = ompi_mpi_state;
    int n;

    if (state < OMPI_MPI_STATE_INIT_COMPLETED || state >= OMPI_MPI_STATE_FINALIZE_STARTED) {
        return true;
    }
    n = opal_pointer_array_get_size(&ompi_mpi_communicators);
    for (int i = 0; i < n; ++i) {
        if ((void *) comm == opal_pointer_array_get_item(&ompi_mpi_communicators, i)) {
            return true;
        }
    }
    return false;
}

/* Can a registration be bound to @p obj (the value of the tool's handle)
 * for an event of bind kind @p bind? Not the kind's NULL handle, and for a
 * communicator a live one (comm_is_live()). Context: TOOL. */
static bool bind_object_is_valid(int bind, void *obj)
{
    switch (bind) {
    case MCA_BASE_VAR_BIND_MPI_COMM:
        return MPI_COMM_NULL != (MPI_Comm) obj && comm_is_live((MPI_Comm) obj);
    case MCA_BASE_VAR_BIND_MPI_DATATYPE:
        return MPI_DATATYPE_NULL != (MPI_Datatype) obj;
    case MCA_BASE_VAR_BIND_MPI_ERRHANDLER:
        return MPI_ERRHANDLER_NULL != (MPI_Errhandler) obj;
    case MCA_BASE_VAR_BIND_MPI_FILE:
        return MPI_FILE_NULL != (MPI_File) obj;
    case MCA_BASE_VAR_BIND_MPI_GROUP:
        return MPI_GROUP_NULL != (MPI_Group) obj;
    case MCA_BASE_VAR_BIND_MPI_OP:
        return MPI_OP_NULL != (MPI_Op) obj;
    case MCA_BASE_VAR_BIND_MPI_REQUEST:
        return MPI_REQUEST_NULL != (MPI_Request) obj;
    case MCA_BASE_VAR_BIND_MPI_WIN:
        return MPI_WIN_NULL != (MPI_Win) obj;
    case MCA_BASE_VAR_BIND_MPI_MESSAGE:
        return MPI_MESSAGE_NULL != (MPI_Message) obj;
    case MCA_BASE_VAR_BIND_MPI_INFO:
        return MPI_INFO_NULL != (MPI_Info) obj;
    default:
        return true;
    }
}

/*
 * Context: TOOL, and from inside a callback. Producer sinks are drained
 * first (through the engine): with dispatch at the raise, their callbacks
 * may run before this returns; no lock is held then.
 *
 * For a bound event obj_handle points at the MPI handle of the bound kind
 * (for MPI_T_BIND_MPI_COMM an MPI_Comm *). Open MPI's handles are pointers
 * to the internal objects (MPI_Comm is ompi_communicator_t *), which is what
 * producers raise with: the binding passes the handle's value. A NULL
 * obj_handle, the kind's NULL handle (MPI_COMM_NULL, ...) or a freed
 * communicator is not an object to bind to: MPI_T_ERR_INVALID. For an
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
        if (NULL == obj_handle || NULL == *(void **) obj_handle
            || !bind_object_is_valid(event->bind, *(void **) obj_handle)) {
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
    *event_registration = reg;
    return MPI_SUCCESS;
}
