/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file MPI_T_event_set_dropped_handler (MPI-4.1 sec. 15.3.8). */

#include "ompi_config.h"

#include "ompi/mpi/tool/mpit_event_internal.h"

#pragma weak MPI_T_event_set_dropped_handler = PMPI_T_event_set_dropped_handler

/* Context: TOOL. A flush point: the handler first sees the drops counted so
 * far. dropped_cb_function NULL removes the handler. */
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    mpit_event_shim_t *shim;
    int rc;

    if (!mpit_is_initialized()) {
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    mpit_event_lock();
    shim = mpit_event_shim_get(event_registration);
    if (NULL == shim || shim->freeing) {
        mpit_event_unlock();
        return MPI_T_ERR_INVALID_HANDLE;
    }
    mpit_event_unlock();

    /* The engine calls the tool's handler through the trampoline, which
     * looks the tool's function up in the shim: drops counted so far must
     * reach the handler being replaced, so flush while the shim still
     * names it. All of this outside the bindings' mutex: a flush may run
     * the handler, which takes the mutex. */
    (void) mca_base_event_flush();
    if (NULL != dropped_cb_function) {
        /* new handler: in the shim before the engine can report to it
         * (drops kept while there was none are reported once it is set) */
        mpit_event_lock();
        shim = mpit_event_shim_get(event_registration); /* freed meanwhile? */
        if (NULL == shim || shim->freeing) {
            mpit_event_unlock();
            return MPI_T_ERR_INVALID_HANDLE;
        }
        shim->dropped = dropped_cb_function;
        mpit_event_unlock();
        rc = mca_base_event_set_dropped_handler(event_registration,
                                                mpit_event_dropped_trampoline);
    } else {
        /* removal: the engine first, so its own flush still reports to
         * the old handler; then the shim */
        rc = mca_base_event_set_dropped_handler(event_registration, NULL);
        if (OPAL_SUCCESS == rc) {
            mpit_event_lock();
            shim = mpit_event_shim_get(event_registration);
            if (NULL != shim) {
                shim->dropped = NULL;
            }
            mpit_event_unlock();
        }
    }
    switch (rc) {
    case OPAL_SUCCESS:
        return MPI_SUCCESS;
    case OPAL_ERR_BAD_PARAM:
        return MPI_T_ERR_INVALID_HANDLE;
    default:
        return mpit_event_error(rc);
    }
}
