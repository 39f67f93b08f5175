/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* A communicator_created callback registered at MPI_T_CB_REQUIRE_NONE
 * that calls MPI_Comm_dup, under MPI_THREAD_MULTIPLE. Run by evt/ring
 * inside opal_progress, inside the application's MPI_Barrier, such a
 * callback would hang both ranks; so it runs only where the
 * tool may call MPI: here at the return of the application's MPI_Comm_dup
 * (libompi_evt's PMPI layer), or at an MPI_T call; never inside an MPI call.
 * Both ranks' callbacks dup once (collective, so they must line up). */

#include <stdatomic.h>

#include "evt_mpi_test.h"

static atomic_int calls, inside_mpi, dup_done;
static MPI_Comm tool_comm = MPI_COMM_NULL;
static atomic_int app_in_barrier;

static void on_created(MPI_T_event_instance inst, MPI_T_event_registration reg,
                       MPI_T_cb_safety safety, void *ud)
{
    atomic_fetch_add(&calls, 1);
    if (atomic_load(&app_in_barrier)) {
        atomic_fetch_add(&inside_mpi, 1);
    }
    if (0 == atomic_fetch_add(&dup_done, 1)) {
        /* a tool's own communicator, made the first time it hears of one */
        EVT_CHECK(MPI_SUCCESS == MPI_Comm_dup(MPI_COMM_WORLD, &tool_comm), "dup in callback");
    }
}

int main(int argc, char **argv)
{
    MPI_T_event_registration reg;
    MPI_Comm app;
    MPI_Count ts;
    int provided = 0, tprov;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &evt_test_rank);
    MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tprov);
    reg = evt_test_subscribe("ompi.mpi.communicator_created", NULL, on_created, NULL);
    EVT_CHECK(NULL != reg, "subscribe");

    EVT_CHECK(MPI_SUCCESS == MPI_Comm_dup(MPI_COMM_WORLD, &app), "app dup");
    atomic_store(&app_in_barrier, 1);
    for (int i = 0; i < 20; ++i) {
        MPI_Barrier(MPI_COMM_WORLD); /* progress runs here: no NONE callback */
    }
    atomic_store(&app_in_barrier, 0);
    (void) MPI_T_source_get_timestamp(0, &ts); /* a drain point, if anything waits */

    EVT_CHECK(0 == atomic_load(&inside_mpi), "%d callbacks ran inside MPI_Barrier",
              atomic_load(&inside_mpi));
    EVT_CHECK(MPI_COMM_NULL != tool_comm, "the callback's dup happened");
    /* the app's dup and the tool's own dup (raised inside the callback,
     * depth 1) are both seen */
    EVT_CHECK(2 == atomic_load(&calls), "callbacks: %d", atomic_load(&calls));
    MPI_Barrier(tool_comm);
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_handle_free(reg, NULL, NULL), "free");
    MPI_Comm_free(&tool_comm);
    MPI_Comm_free(&app);
    return evt_test_finish("test_callback_calls_mpi");
}
