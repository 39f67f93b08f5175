/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_get_info (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_get_info = PMPI_T_event_get_info

/*
 * Context: TOOL. NULL OUT arguments are ignored (MPI-4.1 sec. 15.3.3).
 * num_elements is INOUT: in, the length of array_of_datatypes and
 * array_of_displacements (each may be NULL); out, the event's number of
 * elements. Only the first min(in, out) entries are written. Its input is
 * read only when one of the arrays is given: with both NULL nothing is
 * written, and tools pass an uninitialised count to learn the size first
 * (as Open MPI main and MPICH allow). name_len and desc_len follow the same
 * rule (mpit_event_copy_string()).
 */
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    mca_base_event_t *event;
    int max_elements = 0;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    rc = mca_base_event_get_by_index(event_index, &event);
    if (OPAL_ERR_NOT_FOUND == rc) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    if (OPAL_SUCCESS != rc) {
        return mpit_event_error(rc);
    }
    /* num_elements' input is the arrays' length: meaningless without them. */
    if (NULL != num_elements && (NULL != array_of_datatypes || NULL != array_of_displacements)) {
        max_elements = *num_elements;
        if (MPI_PARAM_CHECK && max_elements < 0) {
            return MPI_T_ERR_INVALID;
        }
    }
    if (NULL != info) {
        /* Event types carry no hints: a new, empty info. */
        rc = mpit_event_info_out(NULL, info);
        if (MPI_SUCCESS != rc) {
            return rc;
        }
    }
    mpit_event_copy_string(name, name_len, event->name);
    mpit_event_copy_string(desc, desc_len, event->description);
    if (NULL != verbosity) {
        *verbosity = (int) event->verbosity;
    }
    if (NULL != num_elements) {
        int n = max_elements < event->num_elements ? max_elements : event->num_elements;
        for (int i = 0; i < n; ++i) {
            if (NULL != array_of_datatypes) {
                array_of_datatypes[i] = mpit_event_datatype(event->types[i]);
            }
            if (NULL != array_of_displacements) {
                array_of_displacements[i] = (MPI_Aint) event->offsets[i];
            }
        }
        *num_elements = event->num_elements;
    }
    if (NULL != enumtype) {
        *enumtype = NULL == event->enumerator ? MPI_T_ENUM_NULL : (MPI_T_enum) event->enumerator;
    }
    if (NULL != bind) {
        *bind = event->bind;
    }
    return MPI_SUCCESS;
}
