/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Ordering: MPI_T_init_thread, then MPI_Init; MPI_T_finalize before
 * MPI_Finalize. A tool linked with libompi_evt subscribes before MPI_Init
 * and must receive ompi.mpi.initialization once, with this rank's payload,
 * plus the events the job raises (the producer of evt_example_producer.h)
 * with their values. */

#include "evt_mpi_common.h"
#include "evt_example_producer.h"

#define NRAISE 5

int main(int argc, char **argv)
{
    evt_recorder_t init_rec, fini_rec, my_rec;
    int provided = -1, tprov = -1, size = 0, rc;
    int mine, total = 0;

    rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    CHECK(MPI_SUCCESS == rc, "MPI_T_init_thread -> %d", rc);
    rc = evt_recorder_start(&init_rec, "ompi.mpi.initialization");
    CHECK(MPI_SUCCESS == rc, "subscribe initialization -> %d", rc);
    rc = evt_recorder_start(&fini_rec, "ompi.mpi.finalization");
    CHECK(MPI_SUCCESS == rc, "subscribe finalization -> %d", rc);
    CHECK(0 == init_rec.count, "nothing before MPI_Init, got %d", init_rec.count);

    rc = MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    CHECK(MPI_SUCCESS == rc, "MPI_Init_thread -> %d", rc);
    MPI_Comm_rank(MPI_COMM_WORLD, &evt_test_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Exactly one initialization, whether the hook, the wrapper or both saw it. */
    CHECK(1 == init_rec.count, "initialization count %d", init_rec.count);
    CHECK(0 == init_rec.bad_calls, "instance accessors failed %d times", init_rec.bad_calls);
    if (1 <= init_rec.count) {
        CHECK(0 == evt_i32(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, model)),
              "model %d",
              evt_i32(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, model)));
        CHECK(provided
                  == evt_i32(&init_rec, 0,
                             offsetof(ompi_evt_initialization_payload_t, thread_level)),
              "thread_level %d, provided %d",
              evt_i32(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, thread_level)),
              provided);
        CHECK(evt_test_rank
                  == evt_i32(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, world_rank)),
              "world_rank %d",
              evt_i32(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, world_rank)));
        CHECK(size
                  == evt_i32(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, world_size)),
              "world_size %d",
              evt_i32(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, world_size)));
        CHECK(1 == evt_u64(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, instance_id)),
              "instance_id %llu",
              (unsigned long long)
                  evt_u64(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, instance_id)));
        CHECK(evt_source_index("ompi") == init_rec.source_index, "source %d",
              init_rec.source_index);
        CHECK(0 < init_rec.last_timestamp, "timestamp %lld", (long long) init_rec.last_timestamp);
    }
    CHECK(2 == size, "run with -np 2 (size %d)", size);
    CHECK(0 == fini_rec.count, "no finalization yet, got %d", fini_rec.count);

    /* Events raised inside the job reach the tool, each with its value. */
    my_producer_register();
    CHECK(NULL != my_event, "custom producer registered");
    rc = evt_recorder_start(&my_rec, "ompi.mything_base_happened");
    CHECK(MPI_SUCCESS == rc, "subscribe custom -> %d", rc);
    for (int i = 0; i < NRAISE; ++i) {
        my_producer_raise(evt_test_rank * 100 + i);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK(NRAISE == my_rec.count, "custom count %d", my_rec.count);
    for (int i = 0; i < NRAISE && i < my_rec.count; ++i) {
        CHECK(evt_test_rank * 100 + i == evt_i32(&my_rec, i, 0), "value[%d] = %d", i,
              evt_i32(&my_rec, i, 0));
    }
    CHECK(evt_source_index("ompi.mything") == my_rec.source_index, "custom source %d",
          my_rec.source_index);
    mine = my_rec.count;
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(size * NRAISE == total, "job total %d", total);

    CHECK(MPI_SUCCESS == evt_recorder_stop(&my_rec), "free custom");
    CHECK(MPI_SUCCESS == evt_recorder_stop(&init_rec), "free initialization");
    CHECK(MPI_SUCCESS == evt_recorder_stop(&fini_rec), "free finalization");
    /* After the free nothing more arrives. */
    my_producer_raise(-1);
    CHECK(NRAISE == my_rec.count, "no delivery after free, count %d", my_rec.count);

    rc = MPI_T_finalize();
    CHECK(MPI_SUCCESS == rc, "MPI_T_finalize -> %d", rc);
    rc = MPI_Finalize();
    CHECK(MPI_SUCCESS == rc, "MPI_Finalize -> %d", rc);
    CHECK(0 == fini_rec.count, "finalization after the free: %d", fini_rec.count);
    return evt_report();
}
