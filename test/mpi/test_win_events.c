/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi.mpi.win_created / win_freed for every window flavor: one created
 * event {size, disp_unit, flavor, handle} per constructor and one freed
 * {flavor, handle} per MPI_Win_free, with pairing handles.
 */

#include "evt_mpi_test.h"

#include <stdint.h>

#define MAX_EVENTS 16

typedef struct {
    int n;
    int64_t size[MAX_EVENTS];
    int32_t disp_unit[MAX_EVENTS];
    int32_t flavor[MAX_EVENTS];
    uint64_t handle[MAX_EVENTS];
} log_t;

static log_t created, freed;

static void on_created(MPI_T_event_instance ev, MPI_T_event_registration reg,
                       MPI_T_cb_safety safety, void *user)
{
    int i = created.n++;

    if (i < MAX_EVENTS) {
        MPI_T_event_read(ev, 0, &created.size[i]);
        MPI_T_event_read(ev, 1, &created.disp_unit[i]);
        MPI_T_event_read(ev, 2, &created.flavor[i]);
        MPI_T_event_read(ev, 3, &created.handle[i]);
    }
}

static void on_freed(MPI_T_event_instance ev, MPI_T_event_registration reg,
                     MPI_T_cb_safety safety, void *user)
{
    int i = freed.n++;

    if (i < MAX_EVENTS) {
        MPI_T_event_read(ev, 0, &freed.flavor[i]);
        MPI_T_event_read(ev, 1, &freed.handle[i]);
    }
}

static void check_win(const char *what, MPI_Win *win, int64_t size, int disp_unit, int flavor)
{
    int c = created.n - 1, f = freed.n;
    uint64_t handle = (uint64_t) (uintptr_t) *win;

    EVT_CHECK(c >= 0 && c < MAX_EVENTS, "%s: no created event", what);
    if (c < 0 || c >= MAX_EVENTS) {
        return;
    }
    EVT_CHECK(created.handle[c] == handle, "%s: handle", what);
    EVT_CHECK(created.size[c] == size, "%s: size %lld want %lld", what,
              (long long) created.size[c], (long long) size);
    EVT_CHECK(created.disp_unit[c] == disp_unit, "%s: disp_unit %d", what, created.disp_unit[c]);
    EVT_CHECK(created.flavor[c] == flavor, "%s: flavor %d want %d", what, created.flavor[c],
              flavor);
    EVT_CHECK(MPI_SUCCESS == MPI_Win_free(win), "%s: free", what);
    EVT_CHECK(freed.n == f + 1, "%s: %d freed events", what, freed.n - f);
    if (freed.n == f + 1) {
        EVT_CHECK(freed.handle[f] == handle, "%s: freed handle does not pair", what);
        EVT_CHECK(freed.flavor[f] == flavor, "%s: freed flavor %d", what, freed.flavor[f]);
    }
}

int main(int argc, char **argv)
{
    MPI_T_event_registration r1, r2;
    static double buf[128];
    void *base = NULL;
    MPI_Comm shm;
    MPI_Win win;
    int n;

    evt_test_init(&argc, &argv);
    r1 = evt_test_subscribe("ompi.mpi.win_created", NULL, on_created, NULL);
    r2 = evt_test_subscribe("ompi.mpi.win_freed", NULL, on_freed, NULL);

    n = created.n;
    EVT_CHECK(MPI_SUCCESS == MPI_Win_create(buf, sizeof(buf), sizeof(double), MPI_INFO_NULL,
                                            MPI_COMM_WORLD, &win), "win_create");
    EVT_CHECK(created.n == n + 1, "win_create: %d events", created.n - n);
    check_win("win_create", &win, sizeof(buf), sizeof(double), MPI_WIN_FLAVOR_CREATE);

    n = created.n;
    EVT_CHECK(MPI_SUCCESS == MPI_Win_allocate(4096, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
              "win_allocate");
    EVT_CHECK(created.n == n + 1, "win_allocate: %d events", created.n - n);
    check_win("win_allocate", &win, 4096, 4, MPI_WIN_FLAVOR_ALLOCATE);

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    n = created.n;
    EVT_CHECK(MPI_SUCCESS == MPI_Win_allocate_shared(1024, 8, MPI_INFO_NULL, shm, &base, &win),
              "win_allocate_shared");
    EVT_CHECK(created.n == n + 1, "win_allocate_shared: %d events", created.n - n);
    check_win("win_allocate_shared", &win, 1024, 8, MPI_WIN_FLAVOR_SHARED);
    MPI_Comm_free(&shm);

    n = created.n;
    EVT_CHECK(MPI_SUCCESS == MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win),
              "win_create_dynamic");
    EVT_CHECK(created.n == n + 1, "win_create_dynamic: %d events", created.n - n);
    check_win("win_create_dynamic", &win, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);

    EVT_CHECK(4 == created.n && 4 == freed.n, "totals %d created %d freed", created.n, freed.n);
    evt_test_unsubscribe(r1);
    evt_test_unsubscribe(r2);
    return evt_test_finish("test_win_events");
}
