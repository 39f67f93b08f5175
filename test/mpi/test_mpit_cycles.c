/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Ordering: several MPI_T_init_thread / MPI_T_finalize cycles before
 * MPI_Init, then MPI_Init, then more cycles inside MPI, then MPI_Finalize.
 * Each cycle subscribes, raises and must receive exactly what it raised;
 * event and source indexes stay the same across cycles. */

#include "evt_mpi_common.h"
#include "evt_example_producer.h"

static void cycle(int c, int *first_index, int *first_init_index)
{
    evt_recorder_t my_rec;
    int tprov = -1, rc, idx = -1, num = 0;
    int nraise = 2 + c;

    rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    CHECK(MPI_SUCCESS == rc, "cycle %d: MPI_T_init_thread -> %d", c, rc);
    rc = MPI_T_event_get_num(&num);
    CHECK(MPI_SUCCESS == rc && 2 <= num, "cycle %d: event_get_num -> %d (%d)", c, rc, num);
    rc = MPI_T_event_get_index("ompi.mpi.initialization", &idx);
    CHECK(MPI_SUCCESS == rc, "cycle %d: initialization known -> %d", c, rc);
    if (*first_init_index < 0) {
        *first_init_index = idx;
    }
    CHECK(*first_init_index == idx, "cycle %d: initialization index %d, first %d", c, idx,
          *first_init_index);

    my_producer_register(); /* idempotent by name */
    rc = evt_recorder_start(&my_rec, "ompi.mything_base_happened");
    CHECK(MPI_SUCCESS == rc, "cycle %d: subscribe -> %d", c, rc);
    if (*first_index < 0) {
        *first_index = my_rec.index;
    }
    CHECK(*first_index == my_rec.index, "cycle %d: custom index %d, first %d", c, my_rec.index,
          *first_index);
    for (int i = 0; i < nraise; ++i) {
        my_producer_raise(c * 10 + i);
    }
    CHECK(nraise == my_rec.count, "cycle %d: count %d, raised %d", c, my_rec.count, nraise);
    for (int i = 0; i < nraise && i < my_rec.count; ++i) {
        CHECK(c * 10 + i == evt_i32(&my_rec, i, 0), "cycle %d: value[%d] %d", c, i,
              evt_i32(&my_rec, i, 0));
    }
    CHECK(MPI_SUCCESS == evt_recorder_stop(&my_rec), "cycle %d: free", c);
    rc = MPI_T_finalize();
    CHECK(MPI_SUCCESS == rc, "cycle %d: MPI_T_finalize -> %d", c, rc);
    rc = MPI_T_event_get_num(&num);
    CHECK(MPI_T_ERR_NOT_INITIALIZED == rc, "cycle %d: after finalize -> %d", c, rc);
}

int main(int argc, char **argv)
{
    int first_index = -1, first_init_index = -1, rc, size = 0;
    int c = 0;

    for (; c < 3; ++c) {
        cycle(c, &first_index, &first_init_index);
    }
    rc = MPI_Init(&argc, &argv);
    CHECK(MPI_SUCCESS == rc, "MPI_Init -> %d", rc);
    MPI_Comm_rank(MPI_COMM_WORLD, &evt_test_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (; c < 5; ++c) {
        cycle(c, &first_index, &first_init_index);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    rc = MPI_Finalize();
    CHECK(MPI_SUCCESS == rc, "MPI_Finalize -> %d", rc);
    CHECK(2 == size, "size %d", size);
    return evt_report();
}
