/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/sync: the reference delivery. deliver() dispatches the record at once,
 * in the raising thread, so a callback sees the state the raise describes;
 * nothing is ever pending, so flush() has nothing to do and there is no
 * progress function. It cannot serve an ASYNC_SIGNAL_SAFE raise (the
 * dispatch walks registrations and runs user callbacks): such raises are
 * refused and counted as dropped.
 */

#ifndef MCA_EVT_SYNC_H
#define MCA_EVT_SYNC_H

#include "ompi_config.h"

#include "ompi/mca/evt/evt.h"

BEGIN_C_DECLS

/** Default of evt_sync_priority. */
#define OMPI_EVT_SYNC_DEFAULT_PRIORITY 20

/** The sync component: the base component plus its parameter values. */
typedef struct ompi_evt_sync_component_t {
    ompi_evt_base_component_t super;
    int priority; /**< evt_sync_priority */
} ompi_evt_sync_component_t;

OMPI_DECLSPEC extern ompi_evt_sync_component_t mca_evt_sync_component;

/** The module instance (evt_sync_module.c). */
extern const ompi_evt_base_module_t ompi_evt_sync_module;

END_C_DECLS

#endif /* MCA_EVT_SYNC_H */
