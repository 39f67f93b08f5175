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
 * whether the installed delivery takes async-signal raises (a deferred one), which
 * decides whether ompi.mca.memory.patcher.release is registered. The table
 * runs again after selection and at MPI_Init (evt_base_init.c), so the
 * first call (before selection, or after MPI_T_init_thread alone, where the
 * memory hooks cannot work yet) is completed by a later one.
 */

#include "ompi_config.h"

#include <stdint.h>

#include "opal/constants.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/memory/patcher/memory_patcher_event.h"
#include "ompi/constants.h"
#include "ompi/runtime/ompi_evt_producers.h"

/* Context: INIT. */
int ompi_evt_memory_register(void)
{
    int rc;

    /* what the installed delivery can carry: the engine knows */
    rc = opal_memory_patcher_event_register(mca_base_event_delivery_flags());
    /* No memory hooks here: a smaller event set, not an error. */
    return OPAL_ERR_NOT_AVAILABLE == rc ? OMPI_SUCCESS : rc;
}
