/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/ring module: deferred delivery through the kit and nothing else. It
 * exports nothing, so it needs no consume, progress or flush of its own:
 * the kit's drains dispatch every record to the local registrations.
 */

#include "ompi_config.h"

#include "ompi/mca/evt/ring/evt_ring.h"

/* evtm_kit is filled by ring_init() (evt_ring_component.c). */
ompi_evt_base_module_t ompi_evt_ring_module = {
    .evtm_flags = MCA_BASE_EVENT_DELIVERY_DEFERRED,
};
