/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

#ifndef EVT_PMIX_FORGE_H
#define EVT_PMIX_FORGE_H

#include "opal/mca/base/mca_base_event.h"

/** Send three batches in other processes' names (evt_pmix_forge.c).
 *  @return 0, or -1 when one could not be sent. Context: after MPI_Init. */
int evt_pmix_forge(mca_base_event_t *numbered, unsigned tag);

#endif /* EVT_PMIX_FORGE_H */
