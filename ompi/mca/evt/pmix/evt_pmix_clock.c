/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

#include "ompi_config.h"

#include <time.h>

#include "mpi.h"
#include "opal/constants.h"

#include "ompi/mca/evt/pmix/evt_pmix_clock.h"

static int64_t clock_skew_ns;

int64_t ompi_evt_pmix_clock_realtime_ns(void)
{
    struct timespec ts;
    (void) clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec + clock_skew_ns;
}

void ompi_evt_pmix_clock_set_skew(int64_t skew_ns)
{
    clock_skew_ns = skew_ns;
}

/* Rank 0 answers each ping of each rank, in rank order, with its time. */
static int serve(MPI_Comm comm, int size)
{
    for (int peer = 1; peer < size; ++peer) {
        for (int round = 0; round < OMPI_EVT_PMIX_CLOCK_ROUNDS; ++round) {
            int64_t now;
            if (MPI_SUCCESS != PMPI_Recv(NULL, 0, MPI_BYTE, peer, round, comm, MPI_STATUS_IGNORE)) {
                return OPAL_ERROR;
            }
            now = ompi_evt_pmix_clock_realtime_ns();
            if (MPI_SUCCESS != PMPI_Send(&now, 1, MPI_INT64_T, peer, round, comm)) {
                return OPAL_ERROR;
            }
        }
    }
    return OPAL_SUCCESS;
}

static int measure(MPI_Comm comm, ompi_evt_wire_offset_t *sample)
{
    int64_t best_rtt = INT64_MAX;
    for (int round = 0; round < OMPI_EVT_PMIX_CLOCK_ROUNDS; ++round) {
        int64_t reference, t1, t2;
        t1 = ompi_evt_pmix_clock_realtime_ns();
        if (MPI_SUCCESS != PMPI_Send(NULL, 0, MPI_BYTE, 0, round, comm)
            || MPI_SUCCESS
                   != PMPI_Recv(&reference, 1, MPI_INT64_T, 0, round, comm, MPI_STATUS_IGNORE)) {
            return OPAL_ERROR;
        }
        t2 = ompi_evt_pmix_clock_realtime_ns();
        if (t2 - t1 < best_rtt) {
            int64_t middle = t1 + (t2 - t1) / 2;
            best_rtt = t2 - t1;
            sample->local_realtime_ns = middle;
            sample->offset_ns = reference - middle;
            sample->uncertainty_ns = (uint64_t) (best_rtt / 2);
        }
    }
    return OPAL_SUCCESS;
}

int ompi_evt_pmix_clock_align(ompi_evt_wire_offset_t *sample)
{
    MPI_Comm comm;
    int rank, size, rc;
    ompi_evt_wire_offset_t measured = {0};

    if (MPI_SUCCESS != PMPI_Comm_dup(MPI_COMM_WORLD, &comm)) {
        return OPAL_ERROR;
    }
    (void) PMPI_Comm_rank(comm, &rank);
    (void) PMPI_Comm_size(comm, &size);
    if (0 == rank) {
        rc = serve(comm, size);
        measured.local_realtime_ns = ompi_evt_pmix_clock_realtime_ns();
    } else {
        rc = measure(comm, &measured);
    }
    (void) PMPI_Comm_free(&comm);
    if (OPAL_SUCCESS == rc) {
        *sample = measured;
    }
    return rc;
}
