/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Reference-counted bring-up and tear-down of the event machinery (see
 * ompi_evt_init.h for who calls it and when), the MPI_Init / MPI_Finalize
 * notices, and the end of an MPI_T session.
 *
 * The bring-up lock serialises the state changes only. User code (tool
 * callbacks, dropped handlers, free callbacks) runs at the last finalize's
 * drain and frees, which happen between two holds of the lock (state
 * CLOSING): an init arriving then takes its reference at once and the
 * closing thread, finding the machinery wanted again, leaves it up. So no
 * thread ever waits for the lock while another runs user code under it.
 */

#include "ompi_config.h"

#include <pthread.h>
#include <stdbool.h>

#include "opal/constants.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/runtime/ompi_evt_init.h"
#include "ompi/runtime/ompi_evt_producers.h"

/* Exported by libopen-pal but not declared in its installed headers: the
 * opal_init_util reference count (0: mca_base_var and friends are down). */
OPAL_DECLSPEC extern int opal_util_initialized;

typedef enum {
    EVT_DOWN = 0,
    EVT_UP = 1,
    /** The last reference went; the closing thread drains and frees
     *  outside the lock, then closes unless an init came meanwhile. */
    EVT_CLOSING = 2,
} evt_state_t;

/* Serialises the state. Plain (not recursive): nothing under it calls
 * back into init/finalize. */
static pthread_mutex_t evt_boot_lock = PTHREAD_MUTEX_INITIALIZER;
/* Under evt_boot_lock. */
static int evt_refcount = 0;
static evt_state_t evt_state = EVT_DOWN;
/* The reference taken for MPI_Init (hook or wrapper), under evt_boot_lock. */
static bool evt_mpi_ref = false;

/* Bring everything up. Runs no user code (producers register, components
 * open and select). Context: INIT. Locks: evt_boot_lock held. */
static int evt_bring_up(void)
{
    int rc;

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
    /* Neither is the framework: without it the engine dispatches at the
     * raise, and the base has said why (evt_base_verbose, help messages). */
    (void) ompi_evt_base_open();
    /* Again, now that the delivery is selected: producers whose event set
     * depends on it (the memory producer's per-release event) complete
     * their registration (registration is idempotent). */
    (void) ompi_evt_producers_register();
    return OMPI_SUCCESS;
}

/* Take a reference. Context: INIT. Locks: evt_boot_lock held. */
static int evt_ref_locked(void)
{
    int rc;

    if (0 < evt_refcount) {
        ++evt_refcount;
        return OMPI_SUCCESS;
    }
    if (EVT_CLOSING == evt_state) {
        /* a last finalize is draining on another thread (or up the stack):
         * keep everything up instead; it sees the state and stops */
        evt_state = EVT_UP;
        evt_refcount = 1;
        return OMPI_SUCCESS;
    }
    rc = evt_bring_up();
    if (OMPI_SUCCESS == rc) {
        evt_state = EVT_UP;
        evt_refcount = 1;
    }
    return rc;
}

/* Drop a reference; the last one closes (see the file comment).
 * Context: INIT. Locks: takes evt_boot_lock; releases it around user code. */
static int evt_unref(void)
{
    (void) pthread_mutex_lock(&evt_boot_lock);
    if (0 == evt_refcount) {
        (void) pthread_mutex_unlock(&evt_boot_lock);
        return OMPI_SUCCESS;
    }
    if (1 < evt_refcount) {
        --evt_refcount;
        (void) pthread_mutex_unlock(&evt_boot_lock);
        return OMPI_SUCCESS;
    }
    evt_refcount = 0;
    evt_state = EVT_CLOSING;
    (void) pthread_mutex_unlock(&evt_boot_lock);

    /* Outside the lock: what is pending reaches the tools, every
     * registration ends (its last drops and free callback run). */
    (void) mca_base_event_flush();
    mca_base_event_handles_free_all();

    (void) pthread_mutex_lock(&evt_boot_lock);
    if (EVT_CLOSING != evt_state) {
        /* an init came meanwhile: it uses what is up */
        (void) pthread_mutex_unlock(&evt_boot_lock);
        return OMPI_SUCCESS;
    }
    /* No user code from here: the module and the kit go (records left are
     * counted dropped with the registrations, already gone). */
    (void) ompi_evt_base_close();
    evt_state = EVT_DOWN;
    (void) pthread_mutex_unlock(&evt_boot_lock);
    /* The engine's own reference; outside the lock: free callbacks still in
     * their grace period may run here. */
    (void) mca_base_event_finalize();
    return OMPI_SUCCESS;
}

/* Context: INIT. */
int ompi_evt_init(void)
{
    int rc;

    (void) pthread_mutex_lock(&evt_boot_lock);
    rc = evt_ref_locked();
    (void) pthread_mutex_unlock(&evt_boot_lock);
    return rc;
}

/* Context: INIT. */
int ompi_evt_finalize(void)
{
    return evt_unref();
}

/* Context: ANY. */
int ompi_evt_refcount(void)
{
    int n;

    (void) pthread_mutex_lock(&evt_boot_lock);
    n = evt_refcount;
    (void) pthread_mutex_unlock(&evt_boot_lock);
    return n;
}

/* Tell the installed module. Context: INIT. */
static void evt_notice(ompi_evt_base_notice_t notice)
{
    const ompi_evt_base_module_t *m = ompi_evt_base.module;

    if (NULL != m && NULL != m->evtm_notice) {
        m->evtm_notice(notice);
    }
}

/* Context: INIT (end of MPI_Init). */
int ompi_evt_mpi_init_bottom(int required, int provided)
{
    int rc = OMPI_SUCCESS;
    bool first = false;

    (void) required;
    (void) pthread_mutex_lock(&evt_boot_lock);
    if (!evt_mpi_ref) {
        rc = evt_ref_locked();
        evt_mpi_ref = OMPI_SUCCESS == rc;
        first = evt_mpi_ref;
        if (evt_mpi_ref) {
            /* MPI_Init has run opal_init: producers that need it (the memory
             * hooks) can register now even if MPI_T_init_thread came first. */
            (void) ompi_evt_producers_register();
            ompi_evt_base_progress_renew();
            evt_notice(OMPI_EVT_NOTICE_MPI_INIT_COMPLETE);
        }
    }
    (void) pthread_mutex_unlock(&evt_boot_lock);

    if (first) {
        /* Outside the lock: the raise may run tool callbacks. */
        opal_output_verbose(10, ompi_evt_base_framework.framework_output,
                            "evt:init: MPI_Init seen (thread level %d): raising "
                            "ompi.mpi.initialization",
                            provided);
        ompi_evt_producers_mpi_init_complete(provided);
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

    (void) pthread_mutex_lock(&evt_boot_lock);
    evt_notice(OMPI_EVT_NOTICE_MPI_FINALIZE_CALLED);
    (void) pthread_mutex_unlock(&evt_boot_lock);
    /* Outside the lock: the raise and the drain run tool callbacks. */
    opal_output_verbose(10, ompi_evt_base_framework.framework_output,
                        "evt:init: MPI_Finalize seen: raising ompi.mpi.finalization");
    ompi_evt_producers_mpi_finalize_start();
    (void) mca_base_event_flush();

    (void) pthread_mutex_lock(&evt_boot_lock);
    /* the module's last word while MPI (and PMIx) still work */
    evt_notice(OMPI_EVT_NOTICE_MPI_FINALIZE_START);
    /* opal_progress goes away inside MPI_Finalize even when a tool keeps
     * MPI_T (and so evt) open past it. */
    ompi_evt_base_progress_detach();
    (void) pthread_mutex_unlock(&evt_boot_lock);
    return evt_unref();
}

/* Context: TOOL. */
void ompi_evt_mpit_session_end(void)
{
    /* What the session's registrations are owed reaches them, then they
     * end: handles from this session are invalid in the next one, whether
     * MPI is initialized or not. */
    (void) mca_base_event_flush();
    mca_base_event_handles_free_all();
}
