/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi.mpi.communicator_name_set is bound to MPI_COMM: a registration bound
 * to communicator A sees names set on A only; it is delivered before
 * MPI_Comm_set_name returns and after the name is set, so the callback
 * reads the new name with MPI_Comm_get_name. Binding to something that is
 * not a live communicator (MPI_COMM_NULL, a freed communicator) is
 * MPI_T_ERR_INVALID.
 */

#include "evt_mpi_test.h"

#include <stdint.h>

typedef struct {
    MPI_Comm comm;        /**< the communicator the registration is bound to */
    int calls;
    int wrong_comm;
    char name[MPI_MAX_OBJECT_NAME];
} bound_t;

static void on_name_set(MPI_T_event_instance ev, MPI_T_event_registration reg,
                        MPI_T_cb_safety safety, void *user)
{
    bound_t *b = user;
    uint64_t handle = 0;
    int len = 0;

    EVT_CHECK(MPI_SUCCESS == MPI_T_event_read(ev, 0, &handle), "read handle");
    if (handle != (uint64_t) (uintptr_t) b->comm) {
        ++b->wrong_comm;
    }
    EVT_CHECK(MPI_SUCCESS == MPI_Comm_get_name(b->comm, b->name, &len), "get_name in callback");
    ++b->calls;
}

int main(int argc, char **argv)
{
    MPI_T_event_registration ra, rb;
    bound_t a = {0}, b = {0};
    MPI_Comm c;
    int index = -1, rc;

    evt_test_init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &a.comm);
    MPI_Comm_dup(MPI_COMM_WORLD, &b.comm);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);

    /* A bound event needs an object. */
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_get_index("ompi.mpi.communicator_name_set", &index),
              "get_index");
    {
        MPI_T_event_registration none = NULL;
        rc = MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &none);
        EVT_CHECK(MPI_SUCCESS != rc, "unbound alloc of a bound event accepted");
    }
    /* ... and a live communicator: not MPI_COMM_NULL, not a freed one. */
    {
        MPI_T_event_registration r = NULL;
        MPI_Comm null_comm = MPI_COMM_NULL, gone, stale;

        rc = MPI_T_event_handle_alloc(index, &null_comm, MPI_INFO_NULL, &r);
        EVT_CHECK(MPI_T_ERR_INVALID == rc, "bound to MPI_COMM_NULL: %d", rc);
        EVT_CHECK(NULL == r, "a handle was returned for MPI_COMM_NULL");
        if (NULL != r) {
            (void) MPI_T_event_handle_free(r, NULL, NULL);
            r = NULL;
        }

        MPI_Comm_dup(MPI_COMM_WORLD, &gone);
        stale = gone; /* a tool's copy of the handle: dangling after the free */
        MPI_Comm_free(&gone);
        rc = MPI_T_event_handle_alloc(index, &gone, MPI_INFO_NULL, &r);
        EVT_CHECK(MPI_T_ERR_INVALID == rc, "bound to the freed handle (MPI_COMM_NULL): %d", rc);
        if (NULL != r) {
            (void) MPI_T_event_handle_free(r, NULL, NULL);
            r = NULL;
        }
        rc = MPI_T_event_handle_alloc(index, &stale, MPI_INFO_NULL, &r);
        EVT_CHECK(MPI_T_ERR_INVALID == rc, "bound to a freed communicator: %d", rc);
        EVT_CHECK(NULL == r, "a handle was returned for a freed communicator");
        if (NULL != r) {
            (void) MPI_T_event_handle_free(r, NULL, NULL);
            r = NULL;
        }

        /* the predefined communicators are live objects */
        rc = MPI_T_event_handle_alloc(index, &(MPI_Comm){MPI_COMM_SELF}, MPI_INFO_NULL, &r);
        EVT_CHECK(MPI_SUCCESS == rc, "bound to MPI_COMM_SELF: %d", rc);
        if (NULL != r) {
            EVT_CHECK(MPI_SUCCESS == MPI_T_event_handle_free(r, NULL, NULL), "free");
        }
    }

    ra = evt_test_subscribe("ompi.mpi.communicator_name_set", &a.comm, on_name_set, &a);
    rb = evt_test_subscribe("ompi.mpi.communicator_name_set", &b.comm, on_name_set, &b);

    MPI_Comm_set_name(a.comm, "alpha");
    EVT_CHECK(1 == a.calls, "A: %d calls after naming A", a.calls);
    EVT_CHECK(0 == b.calls, "B: %d calls after naming A", b.calls);
    EVT_CHECK(0 == strcmp(a.name, "alpha"), "A read '%s' in its callback", a.name);

    MPI_Comm_set_name(b.comm, "beta");
    EVT_CHECK(1 == a.calls, "A: %d calls after naming B", a.calls);
    EVT_CHECK(1 == b.calls, "B: %d calls after naming B", b.calls);
    EVT_CHECK(0 == strcmp(b.name, "beta"), "B read '%s' in its callback", b.name);

    MPI_Comm_set_name(c, "gamma");
    EVT_CHECK(1 == a.calls && 1 == b.calls, "naming an unbound comm reached %d/%d", a.calls,
              b.calls);

    MPI_Comm_set_name(a.comm, "alpha2");
    EVT_CHECK(2 == a.calls, "A: %d calls after renaming A", a.calls);
    EVT_CHECK(0 == strcmp(a.name, "alpha2"), "A read '%s' after renaming", a.name);
    EVT_CHECK(0 == a.wrong_comm && 0 == b.wrong_comm, "payload handle differs from the bound comm");

    evt_test_unsubscribe(ra);
    evt_test_unsubscribe(rb);
    MPI_Comm_set_name(a.comm, "after");
    EVT_CHECK(2 == a.calls, "A called after handle_free");

    MPI_Comm_free(&a.comm);
    MPI_Comm_free(&b.comm);
    MPI_Comm_free(&c);
    return evt_test_finish("test_comm_name_set");
}
