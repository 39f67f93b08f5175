/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The evt framework's base: open, select, flush, close.
 *
 * Who calls it: ompi_evt_init() / ompi_evt_finalize() (ompi/runtime/), which
 * are reference counted; this API is not, beyond what
 * mca_base_framework_open/close count. ompi-evt-info calls it to list what
 * it found.
 *
 * Selection (ompi_evt_base_select()): every opened component's evtc_init
 * gives a module and a priority, or NULL; the highest priority wins, the
 * other modules are finalized and their components closed; the winner's
 * evtm_init runs, it is installed as the engine's delivery
 * (mca_base_event_delivery_set()) and its evtm_progress is registered with
 * opal_progress once. With no usable component the engine keeps delivering
 * inline (sync semantics) and evt_base_verbose says why.
 */

#ifndef OMPI_EVT_BASE_H
#define OMPI_EVT_BASE_H

#include "ompi_config.h"

#include <stdbool.h>

#include "opal/mca/base/mca_base_framework.h"
#include "ompi/mca/evt/evt.h"

BEGIN_C_DECLS

/** The framework object (MCA_BASE_FRAMEWORK_DECLARE in evt_base_frame.c). */
OMPI_DECLSPEC extern mca_base_framework_t ompi_evt_base_framework;

/** What selection saw of one component (ompi-evt-info, verbose output). */
typedef struct ompi_evt_base_candidate_t {
    char name[MCA_BASE_MAX_COMPONENT_NAME_LEN + 1];
    int priority;   /**< from evtc_init; -1 when it returned NULL */
    bool available; /**< evtc_init returned a module */
    bool selected;  /**< won selection and its evtm_init succeeded */
} ompi_evt_base_candidate_t;

/** Most components selection records (more are selected among, not listed). */
#define OMPI_EVT_BASE_MAX_CANDIDATES 16

/** Global state of the base. Written only in INIT context. */
typedef struct ompi_evt_base_t {
    /** The selected module, NULL with inline delivery. */
    const ompi_evt_base_module_t *module;
    /** The selected component, NULL with inline delivery. */
    const ompi_evt_base_component_t *component;
    /** Priority the winner reported. */
    int priority;
    /** module->evtm_progress is registered with opal_progress. */
    bool progress_registered;
    /** Why delivery is inline (NULL when a module is selected). */
    const char *inline_reason;
    /** Candidates seen by the last selection. */
    int num_candidates;
    ompi_evt_base_candidate_t candidates[OMPI_EVT_BASE_MAX_CANDIDATES];
} ompi_evt_base_t;

/** Read-only outside evt_base_*.c. */
OMPI_DECLSPEC extern ompi_evt_base_t ompi_evt_base;

/**
 * Open the framework (register its variables, load and open the
 * components) and select a module. A selection that finds nothing usable is
 * not an error: delivery stays inline.
 *
 * @retval OMPI_SUCCESS  open (with a module or inline)
 * @retval other         the framework could not be opened (it stays closed)
 *
 * Context: INIT, after opal_init_util. Locks: none (callers serialise).
 */
OMPI_DECLSPEC int ompi_evt_base_open(void);

/**
 * Select among the opened components (see the file comment). Called by
 * ompi_evt_base_open(); a second call while a module is selected is a no-op.
 *
 * @retval OMPI_SUCCESS  a module is selected and installed
 * @retval OPAL_ERR_NOT_FOUND  nothing usable: inline delivery (not fatal)
 *
 * Context: INIT.
 */
OMPI_DECLSPEC int ompi_evt_base_select(void);

/**
 * Deliver everything pending now (producer sinks, then the module's flush).
 * Context: ANY, TOOL. Locks: none.
 */
OMPI_DECLSPEC int ompi_evt_base_flush(void);

/**
 * Stop draining from opal_progress (MPI_Finalize: the progress engine goes
 * away before the framework closes when a tool still holds MPI_T open).
 * flush() keeps working. Idempotent. Context: INIT.
 */
OMPI_DECLSPEC void ompi_evt_base_progress_detach(void);

/**
 * Flush, remove the module from the engine, unregister its progress,
 * finalize it and close the framework. Safe when not open.
 * Context: INIT.
 */
OMPI_DECLSPEC int ompi_evt_base_close(void);

/** True between a successful ompi_evt_base_open() and ompi_evt_base_close().
 *  Context: ANY. */
OMPI_DECLSPEC bool ompi_evt_base_is_open(void);

END_C_DECLS

#endif /* OMPI_EVT_BASE_H */
