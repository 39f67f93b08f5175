/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/count: an out-of-tree evt component, built against an installed
 * ompi-evt (pkg-config ompi-evt-component). It counts the events of every
 * type that a process raises and prints the counts when the process ends
 * (MPI_Finalize, MPI_T_finalize). Local tools keep their callbacks.
 *
 * It is a deferred, exporting component on the kit
 * (docs/writing-an-evt-component.md): the kit's rings take the raise
 * (async-signal-safe, no lock); EXPORTS keeps every event's gate open, so
 * events are counted listened to or not; the kit's drains hand each record
 * to evtm_consume() (one thread at a time), which counts it. What the kit
 * could not keep is charged by the engine as export drops, which the
 * component takes and prints beside the counts: nothing is lost silently.
 *
 *   mpirun --mca evt count --mca mca_base_component_path DIR:<Open MPI's> ./app
 */

#include "ompi_config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_var.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/evt.h"
#include "opal/mca/base/mca_base_event_delivery.h"

/* Counts per event index; grown in DRAIN context (one thread at a time). */
static uint64_t *counts, *drops;
static size_t ncounts;
static int count_priority = 1;

static int count_grow(size_t index)
{
    size_t n = ncounts ? ncounts : 64;
    uint64_t *c, *d;

    while (n <= index) {
        n *= 2;
    }
    c = realloc(counts, n * sizeof(*c));
    if (NULL == c) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    counts = c;
    d = realloc(drops, n * sizeof(*d));
    if (NULL == d) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    drops = d;
    for (size_t i = ncounts; i < n; ++i) {
        counts[i] = drops[i] = 0;
    }
    ncounts = n;
    return OMPI_SUCCESS;
}

/* Every event is counted. Context: ANY, under the engine mutex. */
static bool count_exports(const mca_base_event_t *event)
{
    return true;
}

/* One record, in the drain's order. Context: DRAIN. */
static int count_consume(const mca_base_event_record_t *record)
{
    size_t i = (size_t) record->event->index;

    if (i >= ncounts && OMPI_SUCCESS != count_grow(i)) {
        /* not taken: counted, as the contract of evtm_consume asks */
        mca_base_event_count_export_dropped(record->event, 1);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    ++counts[i];
    return OMPI_SUCCESS;
}

/* Take the engine's export drop counts (records the kit could not keep).
 * Context: DRAIN, INIT. */
static int count_flush(void)
{
    int n = mca_base_event_get_count();

    for (int i = 0; i < n; ++i) {
        mca_base_event_t *ev = mca_base_event_lookup((uint32_t) i);
        uint64_t d = NULL == ev ? 0 : mca_base_event_take_export_dropped(ev);

        if (0 != d && ((size_t) i < ncounts || OMPI_SUCCESS == count_grow((size_t) i))) {
            drops[i] += d;
        }
    }
    return 0;
}

/* The kit has drained and detached us: print. Context: INIT. */
static int count_finalize(void)
{
    (void) count_flush();
    for (size_t i = 0; i < ncounts; ++i) {
        mca_base_event_t *ev = mca_base_event_lookup((uint32_t) i);
        if (NULL != ev && (0 != counts[i] || 0 != drops[i])) {
            printf("evt/count [%d]: %s %llu (dropped %llu)\n", (int) getpid(), ev->name,
                   (unsigned long long) counts[i], (unsigned long long) drops[i]);
        }
    }
    fflush(stdout);
    free(counts);
    free(drops);
    counts = drops = NULL;
    ncounts = 0;
    return OMPI_SUCCESS;
}

static ompi_evt_base_module_t count_module = {
    .evtm_flags = MCA_BASE_EVENT_DELIVERY_DEFERRED | MCA_BASE_EVENT_DELIVERY_EXPORTS,
    .evtm_kit = {
        .ring_size = 64 * 1024,
        .pool_size = 16,
        .drain_budget = 1024,
        .overflow = OMPI_EVT_OVERFLOW_DROP_NEW,
        .drain_interval = 0,
        .storage = NULL,
    },
    .evtm_finalize = count_finalize,
    .evtm_exports = count_exports,
    .evtm_consume = count_consume,
    .evtm_flush = count_flush,
};

/* Context: INIT. */
static ompi_evt_base_module_t *count_init(int *priority)
{
    if (NULL != ompi_evt_base_kit_check_params(&count_module.evtm_kit)) {
        return NULL;
    }
    *priority = count_priority;
    return &count_module;
}

static int count_register(void);

ompi_evt_base_component_t mca_evt_count_component = {
    .evtc_version = {
        OMPI_EVT_BASE_VERSION_2_0_0,
        .mca_component_name = "count",
        MCA_BASE_MAKE_VERSION(component, 1, 0, 0),
        .mca_register_component_params = count_register,
    },
    .evtc_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .evtc_init = count_init,
};
MCA_BASE_COMPONENT_INIT(ompi, evt, count)

/* Context: INIT. */
static int count_register(void)
{
    count_priority = 1;
    int rc = mca_base_component_var_register(&mca_evt_count_component.evtc_version, "priority",
                                             "Priority of evt/count (select it with --mca evt "
                                             "count)",
                                             MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_4,
                                             MCA_BASE_VAR_SCOPE_READONLY, &count_priority);
    return 0 > rc ? rc : OMPI_SUCCESS;
}
