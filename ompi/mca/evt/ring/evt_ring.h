/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/ring: events copied into per-thread lock-free rings at the raise and
 * delivered at the next drain (opal_progress, a drain point, a timer).
 *
 * Everything it does is the kit's (ompi/mca/evt/base/evt_base_kit.h): the
 * per-thread rings, the pool, the timestamp-merged drain, withdraw, the
 * timer. The component is its parameters: evt_ring_ring_size, _pool_size,
 * _drain_budget, _overflow_policy, _drain_interval, handed to the kit as
 * the module's kit parameters. It is the smallest deferred component, and
 * the reference for its delivery semantics: sync's (registration epochs,
 * drain points, the ORDERED clamp are the engine's), with the raise taking
 * no lock, allocating nothing and making no system call.
 *
 * Why per-thread rings and not one multi-producer ring: a multi-producer
 * ring shares its tail line between every raising thread (~118 ns per
 * bounce here) and its commit waits for earlier reservations, which
 * deadlocks when a signal handler interrupts a reservation (STYLE.md).
 */

#ifndef MCA_EVT_RING_H
#define MCA_EVT_RING_H

#include "ompi_config.h"

#include "ompi/mca/evt/evt.h"

BEGIN_C_DECLS

/** Default of evt_ring_priority: below sync (20), so sync stays the
 *  default and --mca evt ring selects ring. */
#define OMPI_EVT_RING_DEFAULT_PRIORITY 10
/** Default of evt_ring_ring_size (bytes per thread). 64 KiB hold ~1100
 *  records with a 16-byte payload. */
#define OMPI_EVT_RING_DEFAULT_RING_SIZE (64 * 1024)
/** Default of evt_ring_pool_size (rings, i.e. raising threads). */
#define OMPI_EVT_RING_DEFAULT_POOL_SIZE 64
/** Default of evt_ring_drain_budget (records per progress call). */
#define OMPI_EVT_RING_DEFAULT_DRAIN_BUDGET 1024

/** The ring component: the base component plus its parameter values. */
typedef struct ompi_evt_ring_component_t {
    ompi_evt_base_component_t super;
    int priority;       /**< evt_ring_priority */
    int ring_size;      /**< evt_ring_ring_size, bytes, power of two */
    int pool_size;      /**< evt_ring_pool_size */
    int drain_budget;   /**< evt_ring_drain_budget, records per progress call */
    int overflow;       /**< evt_ring_overflow_policy (ompi_evt_overflow_t) */
    int drain_interval; /**< evt_ring_drain_interval, microseconds; 0 = no timer */
} ompi_evt_ring_component_t;

OMPI_DECLSPEC extern ompi_evt_ring_component_t mca_evt_ring_component;

/** The module (evt_ring_module.c); its kit parameters are set by the
 *  component's init from the parameters above. */
extern ompi_evt_base_module_t ompi_evt_ring_module;

END_C_DECLS

#endif /* MCA_EVT_RING_H */
