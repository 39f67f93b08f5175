/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * evt_demo_app: an ordinary MPI program (a ring of sends and a few barriers)
 * that also produces an MPI_T event of its own through the producer API of
 * "Writing an MPI_T event producer" (opal/mca/base/mca_base_event.h):
 *   source "ompi.evt_demo", event "ompi.evt_demo_app_iteration"
 *   {i32 iteration@0, i32 rank@4, u64 bytes@8}, raised once per iteration.
 * After registering it, the program calls MPI_Pcontrol(1): the standard way
 * to talk to an attached profiling tool, here telling it that new event
 * types exist (evt_demo_tool subscribes to them).
 *
 *   make demo   runs: mpirun -np 2 -x LD_PRELOAD=libevt_demo_tool.so ./evt_demo_app
 */

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opal/mca/base/mca_base_event.h"

#define ITERATIONS 3

typedef struct demo_payload_t {
    int32_t iteration;
    int32_t rank;
    uint64_t bytes;
} demo_payload_t;

static mca_base_event_t *demo_event = NULL;

static void demo_producer_register(void)
{
    mca_base_event_source_t *source;
    const mca_base_var_type_t types[3] = {MCA_BASE_VAR_TYPE_INT32_T, MCA_BASE_VAR_TYPE_INT32_T,
                                          MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[3] = {offsetof(demo_payload_t, iteration),
                                  offsetof(demo_payload_t, rank),
                                  offsetof(demo_payload_t, bytes)};
    int si, ei;

    si = mca_base_event_source_register("ompi.evt_demo", "evt_demo_app's own events",
                                        MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000,
                                        OPAL_COUNT_MAX, NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &source)) {
        return;
    }
    ei = mca_base_event_register("ompi", "evt_demo", "app", "iteration",
                                 "One iteration of evt_demo_app's ring finished",
                                 OPAL_INFO_LVL_4, 3, types, offsets, NULL,
                                 MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL);
    if (0 <= ei) {
        (void) mca_base_event_get_by_index(ei, &demo_event);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    char buf[1024] = {0};
    uint64_t bytes = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    demo_producer_register();
    MPI_Pcontrol(1); /* tell an attached tool: new event types */
    MPI_Barrier(MPI_COMM_WORLD);

    for (int it = 0; it < ITERATIONS; ++it) {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        int len = (int) sizeof(buf) >> (ITERATIONS - 1 - it);

        MPI_Sendrecv_replace(buf, len, MPI_CHAR, next, it, prev, it, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
        bytes += (uint64_t) len;
        if (NULL != demo_event) {
            demo_payload_t p = {.iteration = it, .rank = rank, .bytes = bytes};
            (void) mca_base_event_raise(demo_event, demo_event->source, &p);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (0 == rank) {
        printf("evt_demo_app: %d ranks, %d iterations done\n", size, ITERATIONS);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
