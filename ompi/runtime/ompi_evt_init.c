/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Reference-counted bring-up of the engine, the producers and the evt
 * framework (see ompi_evt_init.h for who calls it and when).
 */

#include "ompi_config.h"

#include <pthread.h>
#include <stdbool.h>

#include "opal/constants.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/runtime/ompi_evt_init.h"

/* Exported by libopen-pal but not declared in its installed headers: the
 * opal_init_util reference count (0: mca_base_var and friends are down). */
OPAL_DECLSPEC extern int opal_util_initialized;

/* Serialises init/finalize. Recursive: closing flushes, and a callback run
 * by that flush may legally call MPI_T_init_thread / MPI_T_finalize. */
static pthread_mutex_t evt_boot_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
/* Under evt_boot_lock. */
static int evt_refcount = 0;
/* The reference taken for MPI_Init (hook or wrapper), under evt_boot_lock. */
static bool evt_mpi_ref = false;

/* Context: INIT. Locks: evt_boot_lock held. */
static int evt_init_locked(void)
{
    int rc;

    if (0 < evt_refcount) {
        ++evt_refcount;
        return OMPI_SUCCESS;
    }
    if (0 >= opal_util_initialized) {
        /* mca_base_var and the component repository do not exist yet. */
        return OPAL_ERR_NOT_INITIALIZED;
    }
    rc = mca_base_event_init();
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    /* A producer that fails leaves a smaller event set: not fatal. */
    (void) ompi_evt_producers_register();
    /* Neither is the framework: without it the engine delivers inline, and
     * the base has said why (evt_base_verbose, help messages). */
    (void) ompi_evt_base_open();
    evt_refcount = 1;
    return OMPI_SUCCESS;
}

/* Context: INIT. Locks: evt_boot_lock held. */
static int evt_finalize_locked(void)
{
    if (0 == evt_refcount) {
        return OMPI_SUCCESS;
    }
    if (1 < evt_refcount) {
        --evt_refcount;
        return OMPI_SUCCESS;
    }
    /* Close first: removing the delivery flushes what it holds while the
     * registrations still exist; then the engine frees them. The count drops
     * last so that a callback run by that flush sees evt still up. */
    (void) ompi_evt_base_flush();
    (void) ompi_evt_base_close();
    (void) mca_base_event_finalize();
    evt_refcount = 0;
    return OMPI_SUCCESS;
}

/* Context: INIT. */
int ompi_evt_init(void)
{
    int rc;

    (void) pthread_mutex_lock(&evt_boot_lock);
    rc = evt_init_locked();
    (void) pthread_mutex_unlock(&evt_boot_lock);
    return rc;
}

/* Context: INIT. */
int ompi_evt_finalize(void)
{
    int rc;

    (void) pthread_mutex_lock(&evt_boot_lock);
    rc = evt_finalize_locked();
    (void) pthread_mutex_unlock(&evt_boot_lock);
    return rc;
}

/* Context: ANY. */
int ompi_evt_init_refcount(void)
{
    int n;

    (void) pthread_mutex_lock(&evt_boot_lock);
    n = evt_refcount;
    (void) pthread_mutex_unlock(&evt_boot_lock);
    return n;
}

/* Context: INIT (end of MPI_Init). */
int ompi_evt_mpi_init_bottom(int required, int provided)
{
    int rc = OMPI_SUCCESS;
    bool raise = false;

    (void) pthread_mutex_lock(&evt_boot_lock);
    if (!evt_mpi_ref) {
        rc = evt_init_locked();
        evt_mpi_ref = OMPI_SUCCESS == rc;
        raise = evt_mpi_ref;
    }
    (void) pthread_mutex_unlock(&evt_boot_lock);

    /* Outside the lock: the raise runs tool callbacks. */
    if (raise) {
        opal_output_verbose(10, ompi_evt_base_framework.framework_output,
                            "evt:init: MPI_Init seen (thread level %d): raising "
                            "ompi.mpi.initialization",
                            provided);
        ompi_evt_lifecycle_raise_initialization(provided);
    }
    return rc;
}

/* Context: INIT (start of MPI_Finalize). */
int ompi_evt_mpi_finalize_top(void)
{
    bool held;

    (void) pthread_mutex_lock(&evt_boot_lock);
    held = evt_mpi_ref;
    evt_mpi_ref = false;
    (void) pthread_mutex_unlock(&evt_boot_lock);
    if (!held) {
        return OMPI_SUCCESS;
    }

    /* Outside the lock: the raise and the flush run tool callbacks. */
    opal_output_verbose(10, ompi_evt_base_framework.framework_output,
                        "evt:init: MPI_Finalize seen: raising ompi.mpi.finalization");
    ompi_evt_lifecycle_raise_finalization();
    (void) ompi_evt_base_flush();

    (void) pthread_mutex_lock(&evt_boot_lock);
    /* opal_progress goes away inside MPI_Finalize even when a tool keeps
     * MPI_T (and so evt) open past it. */
    ompi_evt_base_progress_detach();
    (void) evt_finalize_locked();
    (void) pthread_mutex_unlock(&evt_boot_lock);
    return OMPI_SUCCESS;
}
