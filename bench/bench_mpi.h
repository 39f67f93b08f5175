/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What the MPI-level benchmarks of a producer share (bench_coll,
 * bench_rma: programs built twice, with libompi_evt and plain with
 * -DEVT_PLAIN): the clock they time with and, in the linked build, a
 * tool's counting subscription through the MPI_T interface and the flush
 * point that delivers what a deferring component holds. Benchmarks only.
 */

#ifndef EVT_BENCH_MPI_H
#define EVT_BENCH_MPI_H

#include <mpi.h>
#include <stdio.h>
#include <time.h>

/** CLOCK_MONOTONIC in ns. */
static inline double bench_mpi_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double) ts.tv_sec + (double) ts.tv_nsec;
}

/** Events the subscriptions' callback counted (none in the plain build). */
static long bench_mpi_events = 0;

#ifndef EVT_PLAIN
static void bench_mpi_count(MPI_T_event_instance ev, MPI_T_event_registration reg,
                            MPI_T_cb_safety s, void *u)
{
    (void) ev;
    (void) reg;
    (void) s;
    (void) u;
    ++bench_mpi_events;
}

/** A counting callback on event @p name; the job aborts when that fails. */
static inline MPI_T_event_registration bench_mpi_subscribe(const char *prog, const char *name)
{
    MPI_T_event_registration reg = NULL;
    int index = -1;

    if (MPI_SUCCESS != MPI_T_event_get_index(name, &index)
        || MPI_SUCCESS != MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &reg)
        || MPI_SUCCESS
               != MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL,
                                                bench_mpi_count)) {
        fprintf(stderr, "%s: cannot subscribe to %s\n", prog, name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return reg;
}

/** A flush point: evt/ring delivers what its rings hold. */
static inline void bench_mpi_flush(void)
{
    int nsources = 0;
    MPI_Count ts;

    MPI_T_source_get_num(&nsources);
    for (int s = 0; s < nsources; ++s) {
        (void) MPI_T_source_get_timestamp(s, &ts);
    }
}
#endif

#endif /* EVT_BENCH_MPI_H */
