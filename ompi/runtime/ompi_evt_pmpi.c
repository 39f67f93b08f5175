/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * PMPI wrappers of libompi_evt: MPI_Init, MPI_Init_thread, MPI_Finalize
 * (as MPI_X and PMPI_X: Open MPI's Fortran bindings call PMPI_X),
 * MPI_T_init_thread, MPI_T_finalize (C only: MPI_T has no Fortran binding).
 *
 * Why wrappers when the hook exists? A tool that calls MPI_T_init_thread
 * before MPI_Init (or never calls MPI_Init) is not seen by the hook
 * framework; and an application linked with (or preloading) libompi_evt
 * gets the same bring-up even where mca_hook_evt.so is not in the
 * component path. The MPI_Init path is shared with the hook
 * (ompi_evt_mpi_init_bottom/_finalize_top act once per MPI_Init).
 *
 * The host bug (reproduced with Debian 12's build): Open MPI 4.1.4 segfaults in
 * mca_base_components_close when the last MPI_T_finalize comes after
 * MPI_Finalize (its MPI_T teardown closes frameworks MPI_Finalize already
 * tore down). Our MPI_T_finalize therefore ends MPI_T there itself: it
 * drops Open MPI's MPI_T reference count under the MPI_T lock, so every
 * MPI_T call afterwards answers MPI_T_ERR_NOT_INITIALIZED, and skips the
 * crashing teardown; what that teardown would free is reclaimed at exit.
 */

#include "ompi_config.h"

#include <pthread.h>

#include <mpi.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/runtime/ompi_evt_init.h"
#include "ompi/runtime/ompi_evt_pmpi_next.h"
#include "opal/class/opal_hash_table.h"
#include "opal/class/opal_list.h"
#include "opal/class/opal_object.h"
#include "opal/util/info.h"

/* Open MPI's MPI_T state, exported by libmpi; its header
 * (ompi/mpi/tool/mpit-internal.h) includes a file the installed tree lacks,
 * so the three declarations are repeated here, as in Open MPI 4.1.4. */
OMPI_DECLSPEC extern volatile uint32_t ompi_mpit_init_count;
OMPI_DECLSPEC void ompi_mpit_lock(void);
OMPI_DECLSPEC void ompi_mpit_unlock(void);

/* MPI_T_init_thread calls that went through us and hold an evt reference;
 * under evt_mpit_lock. */
static int evt_mpit_count = 0;
static pthread_mutex_t evt_mpit_lock = PTHREAD_MUTEX_INITIALIZER;

/* Context: INIT. */
static int evt_Init(int *argc, char ***argv)
{
    int provided = MPI_THREAD_SINGLE;
    int rc = EVT_CALL_NEXT(Init, (argc, argv));

    if (MPI_SUCCESS == rc) {
        (void) PMPI_Query_thread(&provided);
        (void) ompi_evt_mpi_init_bottom(MPI_THREAD_SINGLE, provided);
    }
    return rc;
}

/* Context: INIT. */
static int evt_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = EVT_CALL_NEXT(Init_thread, (argc, argv, required, provided));

    if (MPI_SUCCESS == rc) {
        (void) ompi_evt_mpi_init_bottom(required, NULL == provided ? required : *provided);
    }
    return rc;
}

/* MPI_Finalize ends with opal_class_finalize(), which frees every OPAL
 * class's constructor/destructor arrays. Objects of the engine that a tool
 * keeps past MPI_Finalize (info objects of its handles, the engine's hash
 * tables) are released later, through those freed arrays (ASan: heap use
 * after free in opal_obj_run_destructors). OBJ_NEW re-initializes a class
 * whose epoch is stale, OBJ_RELEASE does not: do it here for the classes
 * the engine's live objects use. Context: INIT (end of MPI_Finalize). */
static void evt_revive_classes(void)
{
    opal_class_t *classes[] = {&opal_object_t_class,  &opal_list_item_t_class,
                               &opal_list_t_class,    &opal_info_entry_t_class,
                               &opal_info_t_class,    &opal_hash_table_t_class};

    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); ++i) {
        if (opal_class_init_epoch != classes[i]->cls_initialized) {
            opal_class_initialize(classes[i]);
        }
    }
}

/* Context: INIT. */
static int evt_Finalize(void)
{
    int rc;

    (void) ompi_evt_mpi_finalize_top();
    rc = EVT_CALL_NEXT(Finalize, ());
    if (0 < ompi_evt_refcount()) {
        /* A tool still holds MPI_T (and evt) open. */
        evt_revive_classes();
    }
    return rc;
}

int MPI_Init(int *argc, char ***argv)
{
    return EVT_PMPI_ENTRY(Init, (argc, argv));
}
int PMPI_Init(int *argc, char ***argv)
{
    return EVT_PMPI_ENTRY(Init, (argc, argv));
}
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return EVT_PMPI_ENTRY(Init_thread, (argc, argv, required, provided));
}
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return EVT_PMPI_ENTRY(Init_thread, (argc, argv, required, provided));
}
int MPI_Finalize(void)
{
    return EVT_PMPI_ENTRY(Finalize, ());
}
int PMPI_Finalize(void)
{
    return EVT_PMPI_ENTRY(Finalize, ());
}

/* Context: TOOL. */
int MPI_T_init_thread(int required, int *provided)
{
    int rc = PMPI_T_init_thread(required, provided);

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    if (OMPI_SUCCESS != ompi_evt_init()) {
        /* The engine could not start: undo, as if MPI_T_init_thread failed. */
        (void) PMPI_T_finalize();
        return MPI_T_ERR_MEMORY;
    }
    (void) pthread_mutex_lock(&evt_mpit_lock);
    ++evt_mpit_count;
    (void) pthread_mutex_unlock(&evt_mpit_lock);
    return MPI_SUCCESS;
}

/* Context: TOOL. */
int MPI_T_finalize(void)
{
    int finalized = 0, rc;
    bool ours = false, last = false;

    (void) pthread_mutex_lock(&evt_mpit_lock);
    if (0 < evt_mpit_count) {
        last = 1 == evt_mpit_count--;
        ours = true;
    }
    (void) pthread_mutex_unlock(&evt_mpit_lock);
    if (!ours) {
        /* Not initialized through us: Open MPI answers (usually
         * MPI_T_ERR_NOT_INITIALIZED). */
        return PMPI_T_finalize();
    }

    /* A drain point; the last MPI_T_finalize also ends the session's
     * registrations (the same whether MPI is initialized or not); then our
     * reference. */
    if (last) {
        ompi_evt_mpit_session_end();
    } else {
        (void) ompi_evt_base_flush();
    }
    (void) ompi_evt_finalize();

    (void) PMPI_Finalized(&finalized);
    if (finalized) {
        bool last_mpit;

        /* The host bug workaround (see the file comment). */
        ompi_mpit_lock();
        last_mpit = 1 == ompi_mpit_init_count;
        if (last_mpit) {
            ompi_mpit_init_count = 0;
        }
        ompi_mpit_unlock();
        if (last_mpit) {
            return MPI_SUCCESS;
        }
    }
    rc = PMPI_T_finalize();
    /* The last MPI_T_finalize of an MPI_T-only process ends with
     * opal_finalize_util(), which frees the OPAL classes' arrays; a
     * registration this session freed from inside a running callback is
     * reclaimed after that (its info objects released through them). */
    evt_revive_classes();
    return rc;
}
