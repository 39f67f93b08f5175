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

#include "opal/constants.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/evt.h"
#include "ompi/mca/evt/sync/evt_sync.h"

/* Context: INIT. */
static int sync_module_init(void)
{
    return OMPI_SUCCESS;
}

/* Context: INIT. */
static int sync_module_finalize(void)
{
    return OMPI_SUCCESS;
}

/* Dispatch now, in the raising thread. An ASYNC_SIGNAL_SAFE context cannot
 * be served (dispatch runs user callbacks and reads the registration set):
 * the record is counted as dropped for every registration it would have
 * reached, as the deliver contract in evt.h asks, and refused.
 * Context: RAISE. Locks: none. */
static int sync_module_deliver(const mca_base_event_record_t *record,
                               mca_base_event_cb_safety_t context)
{
    if (MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE <= context) {
        mca_base_event_count_dropped(record);
        return OPAL_ERR_NOT_SUPPORTED;
    }
    (void) mca_base_event_dispatch(record, context);
    return OMPI_SUCCESS;
}

/* Nothing is ever pending. Context: ANY, TOOL. */
static int sync_module_flush(void)
{
    return OMPI_SUCCESS;
}

const ompi_evt_base_module_t ompi_evt_sync_module = {
    .evtm_init = sync_module_init,
    .evtm_finalize = sync_module_finalize,
    .evtm_deliver = sync_module_deliver,
    .evtm_flush = sync_module_flush,
    .evtm_progress = NULL,
    .evtm_flags = 0,
};
