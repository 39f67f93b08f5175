/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Ordering: MPI_T_init_thread, MPI_Init, MPI_Finalize, then MPI_T_finalize
 * (legal; Open MPI 4.1.4 alone segfaults there). The tool receives the
 * finalization event with this rank's payload and the initialization's
 * instance id; MPI_T_finalize succeeds and MPI_T is then down. */

#include "evt_mpi_common.h"

int main(int argc, char **argv)
{
    evt_recorder_t init_rec, fini_rec;
    int tprov = -1, rc, size = 0, num = 0, rank;

    rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &tprov);
    CHECK(MPI_SUCCESS == rc, "MPI_T_init_thread -> %d", rc);
    CHECK(MPI_SUCCESS == evt_recorder_start(&init_rec, "ompi.mpi.initialization"), "sub init");
    CHECK(MPI_SUCCESS == evt_recorder_start(&fini_rec, "ompi.mpi.finalization"), "sub fini");

    rc = MPI_Init(&argc, &argv);
    CHECK(MPI_SUCCESS == rc, "MPI_Init -> %d", rc);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    evt_test_rank = rank;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(0 == fini_rec.count, "no finalization before MPI_Finalize: %d", fini_rec.count);
    rc = MPI_Finalize();
    CHECK(MPI_SUCCESS == rc, "MPI_Finalize -> %d", rc);

    CHECK(1 == init_rec.count, "initialization count %d", init_rec.count);
    CHECK(1 == fini_rec.count, "finalization count %d", fini_rec.count);
    if (1 <= fini_rec.count && 1 <= init_rec.count) {
        CHECK(0 == evt_i32(&fini_rec, 0, offsetof(ompi_evt_finalization_payload_t, model)),
              "model %d", evt_i32(&fini_rec, 0, offsetof(ompi_evt_finalization_payload_t, model)));
        CHECK(rank == evt_i32(&fini_rec, 0, offsetof(ompi_evt_finalization_payload_t, world_rank)),
              "world_rank %d",
              evt_i32(&fini_rec, 0, offsetof(ompi_evt_finalization_payload_t, world_rank)));
        CHECK(evt_u64(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, instance_id))
                  == evt_u64(&fini_rec, 0, offsetof(ompi_evt_finalization_payload_t, instance_id)),
              "instance %llu vs %llu",
              (unsigned long long)
                  evt_u64(&init_rec, 0, offsetof(ompi_evt_initialization_payload_t, instance_id)),
              (unsigned long long) evt_u64(&fini_rec, 0,
                                           offsetof(ompi_evt_finalization_payload_t, instance_id)));
        CHECK(init_rec.last_timestamp <= fini_rec.last_timestamp, "ordered source timestamps");
    }

    /* Still usable between MPI_Finalize and MPI_T_finalize. */
    rc = MPI_T_event_get_num(&num);
    CHECK(MPI_SUCCESS == rc && 2 <= num, "event_get_num after MPI_Finalize -> %d", rc);
    CHECK(MPI_SUCCESS == evt_recorder_stop(&init_rec), "free init after MPI_Finalize");
    CHECK(MPI_SUCCESS == evt_recorder_stop(&fini_rec), "free fini after MPI_Finalize");

    rc = MPI_T_finalize();
    CHECK(MPI_SUCCESS == rc, "MPI_T_finalize after MPI_Finalize -> %d", rc);
    rc = MPI_T_cvar_get_num(&num);
    CHECK(MPI_T_ERR_NOT_INITIALIZED == rc, "Open MPI's MPI_T is down: cvar_get_num -> %d", rc);
    rc = MPI_T_event_get_num(&num);
    CHECK(MPI_T_ERR_NOT_INITIALIZED == rc, "event API is down -> %d", rc);
    rc = MPI_T_finalize();
    CHECK(MPI_T_ERR_NOT_INITIALIZED == rc, "second MPI_T_finalize -> %d", rc);
    CHECK(2 == size, "size %d", size);
    return evt_report();
}
