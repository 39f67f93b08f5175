/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Ordering: MPI_Init, then MPI_T_init_thread (a tool attaching late);
 * MPI_T_finalize before MPI_Finalize. The initialization event happened
 * before the subscription, so it is not received; later events are. */

#include "evt_mpi_common.h"
#include "evt_example_producer.h"

#define NRAISE 3

int main(int argc, char **argv)
{
    evt_recorder_t init_rec, my_rec;
    int tprov = -1, size = 0, rc, num = 0;

    rc = MPI_Init(&argc, &argv);
    CHECK(MPI_SUCCESS == rc, "MPI_Init -> %d", rc);
    MPI_Comm_rank(MPI_COMM_WORLD, &evt_test_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    CHECK(MPI_SUCCESS == rc, "MPI_T_init_thread -> %d", rc);
    rc = MPI_T_event_get_num(&num);
    CHECK(MPI_SUCCESS == rc && 2 <= num, "event_get_num -> %d, %d events", rc, num);
    rc = evt_recorder_start(&init_rec, "ompi.mpi.initialization");
    CHECK(MPI_SUCCESS == rc, "subscribe initialization -> %d", rc);

    my_producer_register();
    rc = evt_recorder_start(&my_rec, "ompi.mything_base_happened");
    CHECK(MPI_SUCCESS == rc, "subscribe custom -> %d", rc);
    for (int i = 0; i < NRAISE; ++i) {
        my_producer_raise(1000 + evt_test_rank * 10 + i);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(NRAISE == my_rec.count, "custom count %d", my_rec.count);
    for (int i = 0; i < NRAISE && i < my_rec.count; ++i) {
        CHECK(1000 + evt_test_rank * 10 + i == evt_i32(&my_rec, i, 0), "value[%d] %d", i,
              evt_i32(&my_rec, i, 0));
    }
    CHECK(0 == init_rec.count, "initialization was raised before the subscription: %d",
          init_rec.count);

    CHECK(MPI_SUCCESS == evt_recorder_stop(&my_rec), "free custom");
    CHECK(MPI_SUCCESS == evt_recorder_stop(&init_rec), "free initialization");
    rc = MPI_T_finalize();
    CHECK(MPI_SUCCESS == rc, "MPI_T_finalize -> %d", rc);
    rc = MPI_T_event_get_num(&num);
    CHECK(MPI_T_ERR_NOT_INITIALIZED == rc, "event_get_num after MPI_T_finalize -> %d", rc);
    rc = MPI_Finalize();
    CHECK(MPI_SUCCESS == rc, "MPI_Finalize -> %d", rc);
    CHECK(2 == size, "size %d", size);
    return evt_report();
}
