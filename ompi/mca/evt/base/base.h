/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The evt framework's base: open, selection, close, and the drain points
 * the MPI layer calls. The kit that deferred components are built from is in
 * evt_base_kit.h.
 *
 * Bring-up and tear-down of the whole event machinery (the engine, the
 * producers, this framework) belong to the runtime that owns MPI_Init and
 * MPI_Finalize: ompi/runtime/ompi_evt_init.h. The base opens, selects and
 * closes the framework when it is told to.
 *
 * Selection (evt_base_select.c): every opened component's evtc_init gives a
 * module and a priority, or NULL; the highest priority wins, the other
 * modules are finalized and their components closed; the winner is
 * installed: started, its kit built (deferred modules), made the engine's
 * delivery, and the kit's drain registered with opal_progress once. With no
 * usable component the engine delivers at the raise (sync semantics) and
 * evt_base_verbose says why.
 */

#ifndef OMPI_EVT_BASE_H
#define OMPI_EVT_BASE_H

#include "ompi_config.h"

#include <stdbool.h>

#include "ompi/mca/evt/evt.h"
#include "opal/mca/base/mca_base_framework.h"
#include "opal/runtime/opal_progress.h"

BEGIN_C_DECLS

/** The framework object (MCA_BASE_FRAMEWORK_DECLARE in evt_base_frame.c). */
OMPI_DECLSPEC extern mca_base_framework_t ompi_evt_base_framework;

/** What selection saw of one component (ompi-evt-info, verbose output). */
typedef struct ompi_evt_base_candidate_t {
    char name[MCA_BASE_MAX_COMPONENT_NAME_LEN + 1];
    int priority;   /**< from evtc_init; -1 when it returned NULL */
    bool available; /**< evtc_init returned a module */
    bool selected;  /**< won selection and was installed */
} ompi_evt_base_candidate_t;

/** Most components selection records (more are selected among, not listed). */
#define OMPI_EVT_BASE_MAX_CANDIDATES 16

/** Global state of the base. Written only in INIT context. */
typedef struct ompi_evt_base_t {
    /** The installed module, NULL with dispatch at the raise by default. */
    const ompi_evt_base_module_t *module;
    /** Its component's name, NULL when none is installed. */
    const char *name;
    /** Priority the winner reported. */
    int priority;
    /** The kit's drain is registered with opal_progress. */
    bool progress_registered;
    /** Why no module is installed (NULL when one is). */
    const char *inline_reason;
    /** Candidates seen by the last selection. */
    int num_candidates;
    ompi_evt_base_candidate_t candidates[OMPI_EVT_BASE_MAX_CANDIDATES];
} ompi_evt_base_t;

/** Read-only outside evt_base_*.c (and the bring-up, ompi/runtime/ompi_evt_init.c). */
OMPI_DECLSPEC extern ompi_evt_base_t ompi_evt_base;

/* ------------------------------------------------------------------------
 * The framework (evt_base_frame.c, evt_base_select.c)
 * ------------------------------------------------------------------------ */

/**
 * Open the framework (register its variables, load and open the
 * components) and select a module. A selection that finds nothing usable is
 * not an error: delivery stays at the raise.
 * @retval OMPI_SUCCESS  open (with a module or without)
 * @retval other         the framework could not be opened (it stays closed)
 * Context: INIT, after opal_init_util. Locks: none (callers serialise).
 */
OMPI_DECLSPEC int ompi_evt_base_open(void);

/**
 * Select among the opened components (see the file comment). Called by
 * ompi_evt_base_open(); a second call while a module is installed is a
 * no-op.
 * @retval OMPI_SUCCESS  a module is installed
 * @retval OPAL_ERR_NOT_FOUND  nothing usable: dispatch at the raise
 * Context: INIT.
 */
OMPI_DECLSPEC int ompi_evt_base_select(void);

/**
 * Install @p module (start it, build its kit, make it the engine's
 * delivery, register the kit's drain with opal_progress). Selection uses
 * it; tests use it to run a component without loading its DSO.
 * @retval OMPI_SUCCESS; OPAL_ERR_BAD_PARAM (flags: EXPORTS needs
 *         DEFERRED; kit parameters); the module's or the kit's error
 * Context: INIT.
 */
OMPI_DECLSPEC int ompi_evt_base_install(const char *name, const ompi_evt_base_module_t *module,
                                        int priority);

/**
 * Remove the installed module: it stops receiving records and drains (a
 * drain running on another thread finishes without it), then it is
 * finalized. Does not drain: the caller drains first when it wants the
 * pending records delivered (what is left is counted as dropped when the
 * registrations go). Context: INIT.
 */
OMPI_DECLSPEC void ompi_evt_base_uninstall(void);

/** A drain point in context NONE (producer sinks, pending records, drop
 *  reports). Context: ANY, TOOL. Locks: none. */
OMPI_DECLSPEC int ompi_evt_base_flush(void);

/** Drain from opal_progress when the installed module defers delivery.
 *  Failure leaves drain points only, said at verbosity 1. Context: INIT. */
OMPI_DECLSPEC void ompi_evt_base_progress_attach(void);

/** Register @p cb with opal_progress (its low-priority list if
 *  @p low_priority) until ompi_evt_base_progress_unregister(): the
 *  framework registers it again at the end of MPI_Init, where Open MPI's
 *  progress engine starts and forgets the callbacks registered before
 *  (MPI_T_init_thread before MPI_Init). A component registers its own
 *  progress callbacks here.
 *  @retval OPAL_SUCCESS, OPAL_EXISTS (already), OPAL_ERR_OUT_OF_RESOURCE,
 *  or opal_progress_register()'s error. Context: INIT. */
OMPI_DECLSPEC int ompi_evt_base_progress_register(opal_progress_callback_t cb, bool low_priority);
/** @retval OPAL_SUCCESS, OPAL_ERR_NOT_FOUND (not registered here).
 *  Context: INIT. */
OMPI_DECLSPEC int ompi_evt_base_progress_unregister(opal_progress_callback_t cb);
/** Register every callback again (the end of MPI_Init); one that fails is
 *  dropped, said at verbosity 1. Context: INIT. */
OMPI_DECLSPEC void ompi_evt_base_progress_renew(void);

/** Stop draining from opal_progress (MPI_Finalize: the progress engine goes
 *  away before the framework closes when a tool still holds MPI_T open).
 *  Drain points keep working. Idempotent. Context: INIT. */
OMPI_DECLSPEC void ompi_evt_base_progress_detach(void);

/** Close the framework (uninstall, close the components). Safe when not
 *  open. Context: INIT. */
OMPI_DECLSPEC int ompi_evt_base_close(void);

/** True between a successful ompi_evt_base_open() and ompi_evt_base_close().
 *  Context: ANY. */
OMPI_DECLSPEC bool ompi_evt_base_is_open(void);

/**
 * Does the evt parameter name @p name in an include list ("--mca evt
 * file", "--mca evt pmix,sync")? An exclude list ("^sync") names none. A
 * component that cannot run says why to the user (ompi_evt_base_report_error())
 * only when it was asked for by name.
 * Context: INIT.
 */
OMPI_DECLSPEC bool ompi_evt_base_named(const char *name);

/** Add the base's help-file folders to opal_show_help's search path (the
 *  installed copy first, then the source tree's): done by open; a tool
 *  that selects components itself (ompi-evt-info) calls it before.
 *  Context: INIT. */
OMPI_DECLSPEC void ompi_evt_base_help_init(void);

/** Test-only: the delivery the base installs for a deferred module (tests
 *  that switch to dispatch at the raise and back). */
OMPI_DECLSPEC const mca_base_event_delivery_t *ompi_evt_base_test_delivery(void);

END_C_DECLS

#endif /* OMPI_EVT_BASE_H */
