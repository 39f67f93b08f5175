/* Shared set-up of the evt/ring component tests: the engine, the ring
 * component opened and installed as the engine's delivery exactly as the
 * evt base does it (register, open, init, evtm_init, delivery_set), but
 * without loading the DSO, so the tests reach the component's test seams.
 * Used by test/unit (Criterion) and test/stress (plain C). */
#ifndef TEST_RING_COMMON_H
#define TEST_RING_COMMON_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/runtime/opal.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/ring/evt_ring.h"

/* evt_ring_drain_interval for the next ring_test_start() (0: no timer) */
static int ring_test_drain_interval = 0;

/* Returns 0 on success. Parameters <= 0 keep the defaults (overflow < 0). */
static inline int ring_test_start(int ring_size, int pool_size, int overflow)
{
    ompi_evt_base_module_t *m;
    int prio = -1;

    if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()) {
        return 1;
    }
    if (OMPI_SUCCESS != mca_evt_ring_component.super.evtc_version.mca_register_component_params()) {
        return 2;
    }
    if (0 < ring_size) {
        mca_evt_ring_component.ring_size = ring_size;
    }
    if (0 < pool_size) {
        mca_evt_ring_component.pool_size = pool_size;
    }
    if (0 <= overflow) {
        mca_evt_ring_component.overflow = overflow;
    }
    mca_evt_ring_component.drain_interval = ring_test_drain_interval;
    /* a test that starts with its own parameters after the suite's start */
    ompi_evt_base_uninstall();
    m = mca_evt_ring_component.super.evtc_init(&prio);
    if (NULL == m) {
        return 3;
    }
    if (OMPI_SUCCESS != ompi_evt_base_install("ring", m, prio)) {
        return 4;
    }
    return 0;
}

static inline void ring_test_stop(void)
{
    (void) mca_base_event_flush();
    ompi_evt_base_uninstall();
    (void) mca_base_event_finalize();
}

/* One bounded drain in context NONE (as at the return of an MPI call; the
 * tests' callbacks are mostly registered at MPI_T_CB_REQUIRE_NONE, which an
 * opal_progress drain, MPI_RESTRICTED, leaves for later). */
static inline int ring_test_progress(void)
{
    return ompi_evt_base_kit_drain_once(MCA_BASE_EVENT_CB_REQUIRE_NONE,
                                        mca_evt_ring_component.drain_budget);
}

/* Drain until a progress call finds nothing. */
static inline void ring_test_drain(void)
{
    while (0 < ring_test_progress()) {
    }
}

/* A source on the default clock and an event {seq:u64@0, who:u64@8}. */
static inline mca_base_event_t *ring_test_event(const char *name,
                                                mca_base_event_source_order_t order,
                                                mca_base_event_timestamp_fn_t clock)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    mca_base_event_source_t *src = NULL;
    mca_base_event_t *ev = NULL;
    char sname[64];
    int si, ei;

    snprintf(sname, sizeof(sname), "ompi.test.%s", name);
    si = mca_base_event_source_register(sname, "ring test source", order, 1000000000,
                                        OPAL_COUNT_MAX, clock, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        return NULL;
    }
    ei = mca_base_event_register("ompi", "ringtest", NULL, name, "ring test event",
                                 OPAL_INFO_LVL_4, 2, types, offsets, NULL,
                                 MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL);
    if (0 > ei || OPAL_SUCCESS != mca_base_event_get_by_index(ei, &ev)) {
        return NULL;
    }
    return ev;
}

typedef struct {
    uint64_t seq;
    uint64_t who;
} ring_test_payload_t;

#endif
