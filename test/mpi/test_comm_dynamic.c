/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi.mpi.communicator_created / _freed for the dynamic-process
 * constructors, on both sides: every intercommunicator yields exactly one
 * created event (its handle, its local size) and its disconnect or free
 * exactly one freed event with the same handle.
 *
 *   spawn     MPI_Comm_spawn of 1 child (parent side: the intercomm the
 *             call returns; child side: the parent intercomm, reported at
 *             the first MPI_Comm_get_parent, once), then disconnect;
 *   multiple  MPI_Comm_spawn_multiple of 2 children (two commands), free;
 *   port      MPI_Open_port on rank 0, MPI_Comm_accept on rank 0 and
 *             MPI_Comm_connect on rank 1, both over MPI_COMM_SELF, disconnect;
 *   join      MPI_Comm_join over a loopback TCP connection between ranks 0
 *             and 1, free.
 *
 * argv[1] picks the mode (run with -np 2; spawn also with -np 1); the
 * spawned children get "child" as argv[2]. A child prints its own "test_comm_dynamic child: N
 * passed, M failed" line.
 */

#include "evt_mpi_test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_EVENTS 16

typedef struct {
    int n;
    uint64_t handle[MAX_EVENTS];
    int32_t size[MAX_EVENTS];
} log_t;

static log_t created, freed;

static void on_created(MPI_T_event_instance ev, MPI_T_event_registration reg,
                       MPI_T_cb_safety safety, void *user)
{
    int32_t size = -1;
    uint64_t handle = 0;

    EVT_CHECK(MPI_SUCCESS == MPI_T_event_read(ev, 0, &size), "read size");
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_read(ev, 1, &handle), "read handle");
    if (created.n < MAX_EVENTS) {
        created.size[created.n] = size;
        created.handle[created.n] = handle;
    }
    ++created.n;
}

static void on_freed(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety safety,
                     void *user)
{
    uint64_t handle = 0;

    EVT_CHECK(MPI_SUCCESS == MPI_T_event_read(ev, 0, &handle), "read handle");
    if (freed.n < MAX_EVENTS) {
        freed.handle[freed.n] = handle;
    }
    ++freed.n;
}

/** Exactly one created event since @p before, for @p comm with its local size. */
static void expect_created(const char *what, int before, MPI_Comm comm)
{
    int size = -1;

    evt_test_flush();
    EVT_CHECK(MPI_COMM_NULL != comm, "%s: MPI_COMM_NULL", what);
    if (MPI_COMM_NULL == comm) {
        return;
    }
    MPI_Comm_size(comm, &size);
    EVT_CHECK(created.n == before + 1, "%s: %d created events, want 1", what, created.n - before);
    if (created.n == before + 1) {
        EVT_CHECK(created.handle[before] == (uint64_t) (uintptr_t) comm, "%s: created handle",
                  what);
        EVT_CHECK(created.size[before] == size, "%s: size %d, want %d", what, created.size[before],
                  size);
    }
}

/** Disconnect (or free) @p comm: exactly one freed event with its handle. */
static void end_and_expect(const char *what, MPI_Comm *comm, int disconnect)
{
    uint64_t handle = (uint64_t) (uintptr_t) *comm;
    int before = freed.n, before_created = created.n;

    if (disconnect) {
        EVT_CHECK(MPI_SUCCESS == MPI_Comm_disconnect(comm), "%s: disconnect", what);
    } else {
        EVT_CHECK(MPI_SUCCESS == MPI_Comm_free(comm), "%s: free", what);
    }
    evt_test_flush();
    EVT_CHECK(freed.n == before + 1, "%s: %d freed events, want 1", what, freed.n - before);
    if (freed.n == before + 1) {
        EVT_CHECK(freed.handle[before] == handle, "%s: freed handle does not pair", what);
    }
    EVT_CHECK(created.n == before_created, "%s: created events while ending", what);
}

/** The child of spawn/multiple: its parent intercomm, once. */
static int child(MPI_Comm parent, int disconnect)
{
    MPI_Comm again;
    int before = created.n, remote = 0;

    /* The parent intercomm was made inside MPI_Init; the subscription came
     * after it: it is reported by this (second) MPI_Comm_get_parent. */
    EVT_CHECK(MPI_SUCCESS == MPI_Comm_get_parent(&parent), "get_parent");
    expect_created("child: get_parent", before, parent);
    EVT_CHECK(MPI_SUCCESS == MPI_Comm_get_parent(&again) && again == parent, "get_parent again");
    evt_test_flush();
    EVT_CHECK(created.n == before + 1, "child: get_parent reported %d times", created.n - before);
    MPI_Comm_remote_size(parent, &remote);
    EVT_CHECK(remote >= 1, "child: remote size %d", remote);
    MPI_Barrier(parent);
    end_and_expect("child: parent", &parent, disconnect);
    return evt_test_finish("test_comm_dynamic child");
}

/** A loopback TCP connection between ranks 0 and 1 of MPI_COMM_WORLD. */
static int loopback_fd(int rank)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    int fd = -1, lfd, port = 0;

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (0 == rank) {
        lfd = socket(AF_INET, SOCK_STREAM, 0);
        if (0 > lfd || 0 != bind(lfd, (struct sockaddr *) &a, sizeof(a)) || 0 != listen(lfd, 1)
            || 0 != getsockname(lfd, (struct sockaddr *) &a, &len)) {
            port = -1;
        } else {
            port = ntohs(a.sin_port);
        }
        MPI_Bcast(&port, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (0 < port) {
            fd = accept(lfd, NULL, NULL);
        }
        if (0 <= lfd) {
            close(lfd);
        }
    } else {
        MPI_Bcast(&port, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (1 == rank && 0 < port) {
            fd = socket(AF_INET, SOCK_STREAM, 0);
            a.sin_port = htons((uint16_t) port);
            if (0 <= fd && 0 != connect(fd, (struct sockaddr *) &a, sizeof(a))) {
                close(fd);
                fd = -1;
            }
        }
    }
    return fd;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "spawn";
    MPI_T_event_registration rc_reg, rf_reg;
    MPI_Comm parent = MPI_COMM_NULL, inter = MPI_COMM_NULL;
    int rank, size, before;

    evt_test_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rc_reg = evt_test_subscribe("ompi.mpi.communicator_created", NULL, on_created, NULL);
    rf_reg = evt_test_subscribe("ompi.mpi.communicator_freed", NULL, on_freed, NULL);

    /* A child is told so by its arguments (argv[2] "child"), not by a
     * call of MPI_Comm_get_parent: child() must make the first one, MPI_
     * and PMPI_ calls alike reaching libompi_evt. */
    parent = argc > 2 && 0 == strcmp(argv[2], "child") ? MPI_COMM_WORLD : MPI_COMM_NULL;
    if (MPI_COMM_NULL != parent) {
        return child(parent, 0 == strcmp(mode, "spawn"));
    }

    before = created.n;
    if (0 == strcmp(mode, "spawn")) {
        char *args[] = {"spawn", "child", NULL};
        int err = -1;
        EVT_CHECK(MPI_SUCCESS
                      == MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                                        &err),
                  "spawn");
        expect_created("parent: spawn", before, inter);
        MPI_Barrier(inter);
        end_and_expect("parent: spawn", &inter, 1);
    } else if (0 == strcmp(mode, "multiple")) {
        char *cmds[2] = {argv[0], argv[0]};
        char *args0[] = {"multiple", "child", NULL};
        char **args[2] = {args0, args0};
        int np[2] = {1, 1}, errs[2];
        MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
        int remote = 0;
        EVT_CHECK(MPI_SUCCESS
                      == MPI_Comm_spawn_multiple(2, cmds, args, np, infos, 0, MPI_COMM_WORLD,
                                                 &inter, errs),
                  "spawn_multiple");
        expect_created("parent: spawn_multiple", before, inter);
        MPI_Comm_remote_size(inter, &remote);
        EVT_CHECK(2 == remote, "spawn_multiple: remote size %d", remote);
        MPI_Barrier(inter);
        end_and_expect("parent: spawn_multiple", &inter, 0);
    } else if (0 == strcmp(mode, "port") && 2 <= size) {
        char port[MPI_MAX_PORT_NAME] = {0};
        if (0 == rank) {
            EVT_CHECK(MPI_SUCCESS == MPI_Open_port(MPI_INFO_NULL, port), "open_port");
        }
        MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
        if (0 == rank) {
            EVT_CHECK(MPI_SUCCESS == MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter),
                      "accept");
            expect_created("accept", before, inter);
        } else if (1 == rank) {
            EVT_CHECK(MPI_SUCCESS
                          == MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter),
                      "connect");
            expect_created("connect", before, inter);
        }
        if (MPI_COMM_NULL != inter) {
            MPI_Barrier(inter);
            end_and_expect(0 == rank ? "accept" : "connect", &inter, 1);
        }
        if (0 == rank) {
            MPI_Close_port(port);
        }
    } else if (0 == strcmp(mode, "join") && 2 <= size) {
        int fd = loopback_fd(rank);
        if (rank < 2) {
            EVT_CHECK(0 <= fd, "loopback connection");
            EVT_CHECK(MPI_SUCCESS == MPI_Comm_join(fd, &inter), "join");
            expect_created("join", before, inter);
            if (MPI_COMM_NULL != inter) {
                MPI_Barrier(inter);
                end_and_expect("join", &inter, 0);
            }
            close(fd);
        }
    } else {
        EVT_CHECK(0, "unknown mode %s for %d ranks", mode, size);
    }
    evt_test_unsubscribe(rc_reg);
    evt_test_unsubscribe(rf_reg);
    return evt_test_finish("test_comm_dynamic");
}
