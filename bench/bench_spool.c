/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What a job's ranks pay when their events leave through a transport
 * (never in make check; bench/run_bench_spool.sh runs it plain, into
 * evt/file rings nobody reads, and under ompi-evt-record).
 *
 *   bench_spool EVENTS WORK
 *
 * Each rank raises EVENTS events of a 16-byte payload on its own ORDERED
 * source, WORK iterations of a compute kernel after every 64 raises
 * (WORK 0: a flood, the highest rate a rank raises at). It prints, on rank
 * 0, the job's aggregate rate (all ranks' events over the slowest rank's
 * time) and each rank's time. With nobody listening a raise is the empty
 * call, so that run times the compute alone; the difference between the
 * rings-only run and the recorded one is what the recorder's copying
 * costs the ranks' compute.
 */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"
#include "opal/mca/base/mca_base_event.h"

typedef struct {
    uint64_t seq;
    uint64_t value;
} payload_t;

/* a kernel the compiler cannot remove: a dependent multiply-add chain */
static volatile double work_sink;

static void work(long n)
{
    double x = 1.0;

    for (long i = 0; i < n; ++i) {
        x = x * 1.0000001 + 1e-9;
    }
    work_sink = x;
}

int main(int argc, char **argv)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    mca_base_event_source_t *src;
    mca_base_event_t *ev;
    payload_t p = {0, 42};
    long events = 0, units = 0; /* set before use: MPI_Abort does not return */
    int rank, size, si, ei;
    double t0, t, tmax, tmin;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3 || 0 >= (events = atol(argv[1])) || 0 > (units = atol(argv[2]))) {
        if (0 == rank) {
            fprintf(stderr, "usage: bench_spool EVENTS WORK\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    si = mca_base_event_source_register("bench.spool", "bench_spool's source",
                                        MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, OPAL_COUNT_MAX,
                                        NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        fprintf(stderr, "bench_spool: cannot register the source\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    ei = mca_base_event_register_ptr("ompi", "bench", "spool", "raise", "bench_spool's event",
                                     OPAL_INFO_LVL_4, 2, types, offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &ev);
    if (0 > ei) {
        fprintf(stderr, "bench_spool: cannot register the event\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (long i = 0; i < events; ++i) {
        p.seq = (uint64_t) i;
        (void) mca_base_event_raise(ev, NULL, &p);
        if (0 < units && 63 == (i & 63)) {
            work(units);
        }
    }
    t = MPI_Wtime() - t0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t, &tmin, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("RESULT events %ld ranks %d work %ld: %.3f s (fastest rank %.3f s), %.2f M events/s "
               "in all\n",
               events, size, units, tmax, tmin, (double) events * size / tmax / 1e6);
    }
    MPI_Finalize();
    return 0;
}
