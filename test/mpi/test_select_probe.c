/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Selection probe (run by test_selection.sh with different --mca flags):
 * prints which delivery the evt base selected ("delivery: sync" or
 * "delivery: inline"), and checks that events are delivered either way
 * (inline delivery has sync semantics: received before the raise returns). */

#include "evt_mpi_common.h"
#include "evt_example_producer.h"

#include "ompi/mca/evt/base/base.h"

#define NRAISE 4

int main(int argc, char **argv)
{
    evt_recorder_t my_rec;
    int tprov = -1, rc;

    rc = MPI_Init(&argc, &argv);
    CHECK(MPI_SUCCESS == rc, "MPI_Init -> %d", rc);
    MPI_Comm_rank(MPI_COMM_WORLD, &evt_test_rank);
    rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    CHECK(MPI_SUCCESS == rc, "MPI_T_init_thread -> %d", rc);

    printf("rank %d: delivery: %s\n", evt_test_rank,
           NULL == ompi_evt_base.name ? "inline" : ompi_evt_base.name);
    if (NULL != ompi_evt_base.name) {
        printf("rank %d: priority: %d\n", evt_test_rank, ompi_evt_base.priority);
    }
    CHECK(ompi_evt_base_is_open() || NULL == ompi_evt_base.name, "open iff selected");

    my_producer_register();
    rc = evt_recorder_start(&my_rec, "ompi.mything_base_happened");
    CHECK(MPI_SUCCESS == rc, "subscribe -> %d", rc);
    for (int i = 0; i < NRAISE; ++i) {
        my_producer_raise(7 * i + evt_test_rank);
        /* sync or inline: delivered before the raise returns */
        CHECK(i + 1 == my_rec.count, "after raise %d: count %d", i, my_rec.count);
    }
    for (int i = 0; i < NRAISE && i < my_rec.count; ++i) {
        CHECK(7 * i + evt_test_rank == evt_i32(&my_rec, i, 0), "value[%d] %d", i,
              evt_i32(&my_rec, i, 0));
    }
    CHECK(MPI_SUCCESS == evt_recorder_stop(&my_rec), "free");
    CHECK(MPI_SUCCESS == MPI_T_finalize(), "MPI_T_finalize");
    CHECK(MPI_SUCCESS == MPI_Finalize(), "MPI_Finalize");
    return evt_report();
}
