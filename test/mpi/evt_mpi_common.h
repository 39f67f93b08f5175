/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * Shared pieces of the mpirun tests: checks that count, a recorder that
 * subscribes to an event by name through the standard MPI_T_event_* API and
 * keeps every instance it receives, and the custom producer of
 * "Writing an MPI_T event producer" (evt_example_producer.h).
 * Each program prints "rank R: N passed, M failed" (rank -1 before
 * MPI_Init or after MPI_Finalize) and exits non-zero on a failure.
 */

#ifndef EVT_MPI_COMMON_H
#define EVT_MPI_COMMON_H

#include <mpi.h> /* the shim: Open MPI's mpi.h + the MPI-4 event API */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/runtime/ompi_evt_payloads.h" /* offsets of the built-in payloads */
#include "opal/mca/base/mca_base_event.h"   /* MCA_BASE_EVENT_MAX_PAYLOAD */

/* CHECK(), the counts and evt_test_rank (the rank named in failures) */
#include "test/evt_test_check.h"

#define EVT_MAX_SEEN 64

/* Every instance a recorder received (payload copied with MPI_T_event_copy). */
typedef struct evt_recorder_t {
    const char *name;
    int index;
    MPI_T_event_registration handle;
    int count;
    int bad_calls; /* MPI_T_event_* calls inside the callback that failed */
    int source_index;
    MPI_Count last_timestamp;
    unsigned char payload[EVT_MAX_SEEN][MCA_BASE_EVENT_MAX_PAYLOAD];
} evt_recorder_t;

static inline void evt_recorder_cb(MPI_T_event_instance instance, MPI_T_event_registration handle,
                                   MPI_T_cb_safety safety, void *user_data)
{
    evt_recorder_t *r = (evt_recorder_t *) user_data;
    MPI_Count ts = 0;
    int src = -1;

    if (MPI_SUCCESS != MPI_T_event_get_timestamp(instance, &ts)
        || MPI_SUCCESS != MPI_T_event_get_source(instance, &src)) {
        ++r->bad_calls;
    }
    r->source_index = src;
    r->last_timestamp = ts;
    if (r->count < EVT_MAX_SEEN
        && MPI_SUCCESS != MPI_T_event_copy(instance, r->payload[r->count])) {
        ++r->bad_calls;
    }
    ++r->count;
}

/* Subscribe @p r to the event named @p name. Returns MPI_SUCCESS or the
 * failing call's code. */
static inline int evt_recorder_start(evt_recorder_t *r, const char *name)
{
    int rc;

    memset(r, 0, sizeof(*r));
    r->name = name;
    r->source_index = -1;
    rc = MPI_T_event_get_index(name, &r->index);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = MPI_T_event_handle_alloc(r->index, NULL, MPI_INFO_NULL, &r->handle);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    return MPI_T_event_register_callback(r->handle, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, r,
                                         evt_recorder_cb);
}

static inline int evt_recorder_stop(evt_recorder_t *r)
{
    return MPI_T_event_handle_free(r->handle, NULL, NULL);
}

static inline int32_t evt_i32(const evt_recorder_t *r, int n, size_t off)
{
    int32_t v;
    memcpy(&v, r->payload[n] + off, sizeof(v));
    return v;
}

static inline uint64_t evt_u64(const evt_recorder_t *r, int n, size_t off)
{
    uint64_t v;
    memcpy(&v, r->payload[n] + off, sizeof(v));
    return v;
}

/* Index of the source named @p name, -1 if none. */
static inline int evt_source_index(const char *name)
{
    int num = 0;

    if (MPI_SUCCESS != MPI_T_source_get_num(&num)) {
        return -1;
    }
    for (int i = 0; i < num; ++i) {
        char sname[256], desc[256];
        int nlen = sizeof(sname), dlen = sizeof(desc);
        MPI_T_source_order order;
        MPI_Count tps, maxt;

        if (MPI_SUCCESS
                == MPI_T_source_get_info(i, sname, &nlen, desc, &dlen, &order, &tps, &maxt, NULL)
            && 0 == strcmp(sname, name)) {
            return i;
        }
    }
    return -1;
}

static inline int evt_report(void)
{
    printf("rank %d: ", evt_test_rank);
    return evt_test_report(NULL);
}

#endif /* EVT_MPI_COMMON_H */
