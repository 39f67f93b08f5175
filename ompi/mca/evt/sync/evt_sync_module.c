/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/sync module: dispatch at the raise.
 */

#include "ompi_config.h"

#include "ompi/mca/evt/sync/evt_sync.h"

/* Every slot NULL, flags 0: the engine dispatches each record at its raise,
 * in the raising thread; nothing is ever pending, so there is nothing to
 * start, drain or stop. A raise from a signal handler cannot be served
 * (dispatch runs tool callbacks): the engine counts it dropped. */
const ompi_evt_base_module_t ompi_evt_sync_module = {
    .evtm_flags = 0,
};
