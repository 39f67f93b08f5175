/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi.mpi.communicator_created / _freed: every constructor yields exactly
 * one created event (right handle and size) and its free or disconnect
 * exactly one freed event with the same handle; constructors returning
 * MPI_COMM_NULL yield none. Run with -np 2 and -np 4.
 */

#include "evt_mpi_test.h"

#include <stdint.h>

#define MAX_EVENTS 64

typedef struct {
    int n;
    uint64_t handle[MAX_EVENTS];
    int32_t size[MAX_EVENTS];
} log_t;

static log_t created, freed;

static void on_created(MPI_T_event_instance ev, MPI_T_event_registration reg,
                       MPI_T_cb_safety safety, void *user)
{
    log_t *log = user;
    int32_t size = -1;
    uint64_t handle = 0;

    EVT_CHECK(MPI_SUCCESS == MPI_T_event_read(ev, 0, &size), "read size");
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_read(ev, 1, &handle), "read handle");
    if (log->n < MAX_EVENTS) {
        log->size[log->n] = size;
        log->handle[log->n] = handle;
    }
    ++log->n;
}

static void on_freed(MPI_T_event_instance ev, MPI_T_event_registration reg,
                     MPI_T_cb_safety safety, void *user)
{
    log_t *log = user;
    uint64_t handle = 0;

    EVT_CHECK(MPI_SUCCESS == MPI_T_event_read(ev, 0, &handle), "read handle");
    if (log->n < MAX_EVENTS) {
        log->handle[log->n] = handle;
    }
    ++log->n;
}

/** One created event for @p comm since @p before, of size @p size (or
 *  none if comm is MPI_COMM_NULL). */
static void expect_created(const char *what, int before, MPI_Comm comm)
{
    int size = 0;

    if (MPI_COMM_NULL == comm) {
        EVT_CHECK(created.n == before, "%s: MPI_COMM_NULL raised %d events", what,
                  created.n - before);
        return;
    }
    MPI_Comm_size(comm, &size);
    EVT_CHECK(created.n == before + 1, "%s: %d created events, want 1", what,
              created.n - before);
    if (created.n == before + 1) {
        EVT_CHECK(created.handle[before] == (uint64_t) (uintptr_t) comm, "%s: handle", what);
        EVT_CHECK(created.size[before] == size, "%s: size %d, want %d", what,
                  created.size[before], size);
    }
}

/** Free @p comm (or disconnect it) and expect one freed event with its handle. */
static void free_and_expect(const char *what, MPI_Comm *comm, int disconnect)
{
    uint64_t handle = (uint64_t) (uintptr_t) *comm;
    int before = freed.n;

    if (MPI_COMM_NULL == *comm) {
        return;
    }
    if (disconnect) {
        EVT_CHECK(MPI_SUCCESS == MPI_Comm_disconnect(comm), "%s: disconnect", what);
    } else {
        EVT_CHECK(MPI_SUCCESS == MPI_Comm_free(comm), "%s: free", what);
    }
    EVT_CHECK(freed.n == before + 1, "%s: %d freed events, want 1", what, freed.n - before);
    if (freed.n == before + 1) {
        EVT_CHECK(freed.handle[before] == handle, "%s: freed handle does not pair", what);
    }
}

#define CONSTRUCT(what, call, comm)                                                                \
    do {                                                                                           \
        int before_ = created.n;                                                                   \
        EVT_CHECK(MPI_SUCCESS == (call), "%s returned an error", what);                            \
        expect_created(what, before_, comm);                                                       \
    } while (0)

int main(int argc, char **argv)
{
    MPI_T_event_registration rc_reg, rf_reg;
    MPI_Comm c, cart2, sub, inter, merged, half;
    MPI_Group world_group, even_group;
    MPI_Request req;
    int rank, size, before;

    evt_test_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rc_reg = evt_test_subscribe("ompi.mpi.communicator_created", NULL, on_created, &created);
    rf_reg = evt_test_subscribe("ompi.mpi.communicator_freed", NULL, on_freed, &freed);

    CONSTRUCT("dup", MPI_Comm_dup(MPI_COMM_WORLD, &c), c);
    free_and_expect("dup", &c, 0);
    CONSTRUCT("dup_with_info", MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &c), c);
    free_and_expect("dup_with_info", &c, 0);

    /* idup: raised at the call (before the request completes). */
    CONSTRUCT("idup", MPI_Comm_idup(MPI_COMM_WORLD, &c, &req), c);
    before = created.n;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    EVT_CHECK(created.n == before, "idup: completion raised again");
    free_and_expect("idup", &c, 0);

    CONSTRUCT("split", MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c), c);
    free_and_expect("split", &c, 0);
    CONSTRUCT("split undefined",
              MPI_Comm_split(MPI_COMM_WORLD, 0 == rank ? MPI_UNDEFINED : 1, rank, &c), c);
    free_and_expect("split undefined", &c, 0);
    CONSTRUCT("split_type",
              MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &c),
              c);
    free_and_expect("split_type", &c, 0);

    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    {
        int ranks[64], n = 0;
        for (int r = 0; r < size; r += 2) {
            ranks[n++] = r;
        }
        MPI_Group_incl(world_group, n, ranks, &even_group);
    }
    CONSTRUCT("create", MPI_Comm_create(MPI_COMM_WORLD, even_group, &c), c);
    EVT_CHECK((0 == rank % 2) == (MPI_COMM_NULL != c), "create: membership");
    free_and_expect("create", &c, 0);
    if (0 == rank % 2) {
        CONSTRUCT("create_group", MPI_Comm_create_group(MPI_COMM_WORLD, even_group, 7, &c), c);
        free_and_expect("create_group", &c, 0);
    }
    MPI_Group_free(&even_group);
    MPI_Group_free(&world_group);

    {
        int dims1[1] = {size}, periods1[1] = {1};
        int dims2[2] = {0, 0}, periods2[2] = {0, 0}, remain[2] = {1, 0};
        CONSTRUCT("cart_create", MPI_Cart_create(MPI_COMM_WORLD, 1, dims1, periods1, 0, &c), c);
        free_and_expect("cart_create", &c, 0);
        MPI_Dims_create(size, 2, dims2);
        CONSTRUCT("cart_create 2d", MPI_Cart_create(MPI_COMM_WORLD, 2, dims2, periods2, 0, &cart2),
                  cart2);
        CONSTRUCT("cart_sub", MPI_Cart_sub(cart2, remain, &sub), sub);
        free_and_expect("cart_sub", &sub, 0);
        free_and_expect("cart_create 2d", &cart2, 0);
    }
    {
        /* A ring: node i is linked to i-1 and i+1. */
        int index[64], edges[128], e = 0;
        for (int i = 0; i < size; ++i) {
            edges[e++] = (i + size - 1) % size;
            edges[e++] = (i + 1) % size;
            index[i] = e;
        }
        CONSTRUCT("graph_create", MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &c), c);
        free_and_expect("graph_create", &c, 0);
    }
    {
        int src[1] = {(rank + size - 1) % size}, dst[1] = {(rank + 1) % size};
        int nodes[1] = {rank}, degrees[1] = {1}, w1[1] = {1}, w2[1] = {1};
        CONSTRUCT("dist_graph_create_adjacent",
                  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, w1, 1, dst, w2,
                                                 MPI_INFO_NULL, 0, &c),
                  c);
        free_and_expect("dist_graph_create_adjacent", &c, 0);
        CONSTRUCT("dist_graph_create",
                  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, nodes, degrees, dst, w1,
                                        MPI_INFO_NULL, 0, &c),
                  c);
        free_and_expect("dist_graph_create", &c, 0);
    }

    /* Two halves joined by an intercommunicator, then merged. */
    CONSTRUCT("split halves", MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &half), half);
    CONSTRUCT("intercomm_create",
              MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < size / 2 ? size / 2 : 0, 11,
                                   &inter),
              inter);
    {
        int remote = 0;
        MPI_Comm_remote_size(inter, &remote);
        EVT_CHECK(remote == size / 2, "intercomm remote size %d", remote);
    }
    CONSTRUCT("intercomm_merge", MPI_Intercomm_merge(inter, rank < size / 2, &merged), merged);
    free_and_expect("intercomm_merge", &merged, 0);
    free_and_expect("intercomm_create (disconnect)", &inter, 1);
    free_and_expect("split halves", &half, 0);

    CONSTRUCT("dup for disconnect", MPI_Comm_dup(MPI_COMM_WORLD, &c), c);
    free_and_expect("disconnect", &c, 1);

    /* Once unsubscribed, nothing more arrives. */
    evt_test_unsubscribe(rc_reg);
    evt_test_unsubscribe(rf_reg);
    before = created.n;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_free(&c);
    EVT_CHECK(created.n == before, "events after handle_free");

    return evt_test_finish("test_comm_events");
}
