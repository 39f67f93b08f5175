/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The OS memory-release producer's entry in the producer table: tells it
 * whether the selected delivery takes async-signal raises (evt/ring), which
 * decides whether ompi.mca.memory.patcher.release is registered. The table
 * runs again after selection and at MPI_Init (ompi_evt_init.c), so the
 * first call (before selection, or after MPI_T_init_thread alone, where the
 * memory hooks cannot work yet) is completed by a later one.
 */

#include "ompi_config.h"

#include <stdint.h>

#include "opal/constants.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/memory/patcher/memory_patcher_event.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/runtime/ompi_evt_init.h"

/* Context: INIT. */
int ompi_evt_memory_register(void)
{
    uint32_t flags = 0;
    int rc;

    if (NULL != ompi_evt_base.module
        && (OMPI_EVT_MODULE_FLAG_ASYNC_SIGNAL_RAISE & ompi_evt_base.module->evtm_flags)) {
        flags |= MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE;
    }
    rc = opal_memory_patcher_event_register(flags);
    /* No memory hooks here: a smaller event set, not an error. */
    return OPAL_ERR_NOT_AVAILABLE == rc ? OMPI_SUCCESS : rc;
}
