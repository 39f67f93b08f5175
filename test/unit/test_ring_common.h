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
#include "opal/runtime/opal.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/ring/evt_ring.h"

static mca_base_event_delivery_t ring_test_delivery;
/* evt_ring_drain_interval for the next ring_test_start() (0: no timer) */
static int ring_test_drain_interval = 0;

/* Returns 0 on success. Parameters <= 0 keep the defaults. */
static inline int ring_test_start(int ring_size, int pool_size, int overflow)
{
    const ompi_evt_base_module_t *m;
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
    if (OMPI_SUCCESS != mca_evt_ring_component.super.evtc_version.mca_open_component()) {
        return 3;
    }
    m = mca_evt_ring_component.super.evtc_init(&prio);
    if (NULL == m || OMPI_SUCCESS != m->evtm_init()) {
        return 4;
    }
    ring_test_delivery.name = "ring";
    ring_test_delivery.deliver = m->evtm_deliver;
    ring_test_delivery.flush = m->evtm_flush;
    ring_test_delivery.progress = m->evtm_progress;
    ring_test_delivery.withdraw = m->evtm_withdraw;
    ring_test_delivery.flags = MCA_BASE_EVENT_DELIVERY_DEFERRED
                               | MCA_BASE_EVENT_DELIVERY_ASYNC_SIGNAL_SAFE;
    if (OPAL_SUCCESS != mca_base_event_delivery_set(&ring_test_delivery)) {
        return 5;
    }
    return 0;
}

static inline void ring_test_stop(void)
{
    (void) mca_base_event_delivery_set(NULL);
    (void) ompi_evt_ring_module.evtm_finalize();
    (void) mca_evt_ring_component.super.evtc_version.mca_close_component();
    (void) mca_base_event_finalize();
}

/* Drain until a progress call finds nothing. */
static inline void ring_test_drain(void)
{
    while (0 < ompi_evt_ring_module.evtm_progress()) {
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
