/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * A communicator freed while operations on it are pending: MPI lets a
 * program do it (ScaLAPACK's BLACS does), the operations complete
 * normally, and libmpi destroys the communicator when the last of them is
 * freed, inside the call that completes it. Their events are raised after
 * that call, from what was kept when they started: the communicator must
 * still be there (a recorded BLACS test crashed in the peer lookup of a
 * receive's event). Run with MALLOC_PERTURB_ (evt_mpi_run.sh's caller), so
 * that a freed communicator is garbage, and under ASan in
 * check-sanitize.
 *
 * Each scenario dups MPI_COMM_WORLD, starts operations on the dup (a
 * receive from MPI_ANY_SOURCE and a send to the right neighbour, a
 * matched probe, persistent requests, a nonblocking barrier), frees the
 * dup, then completes them: Waitall, Wait, Test loop, Mrecv, Imrecv +
 * Wait, Start + Wait + Request_free, Ibarrier + Wait. Per scenario the
 * p2p events carry the right peers (world ranks) and tags, and the
 * collective event the dup's size and this rank's rank.
 */

#include "evt_mpi_test.h"

#include <stdbool.h>
#include <stdint.h>

#include "ompi/runtime/ompi_evt_payloads.h"

enum { N = 16 };

static int sends, recvs, colls, bad_peer, bad_coll;
static int right, left, size, rank;

static void on_p2p(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                   void *is_send)
{
    ompi_evt_p2p_payload_t p;
    (void) reg;
    (void) s;
    if (MPI_SUCCESS != MPI_T_event_copy(ev, &p)) {
        ++bad_peer;
        return;
    }
    if (NULL != is_send) {
        ++sends;
        bad_peer += right != p.peer;
    } else {
        ++recvs;
        bad_peer += left != p.peer;
    }
}

static void on_coll(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                    void *u)
{
    ompi_evt_coll_payload_t p;
    (void) reg;
    (void) s;
    (void) u;
    if (MPI_SUCCESS != MPI_T_event_copy(ev, &p)) {
        ++bad_coll;
        return;
    }
    ++colls;
    bad_coll += size != p.comm_size || rank != p.comm_rank;
}

static void expect(const char *what, int want_sends, int want_recvs, int want_colls)
{
    evt_test_flush();
    EVT_CHECK(want_sends == sends && want_recvs == recvs && want_colls == colls,
              "%s: %d sends, %d receives, %d collectives raised, want %d, %d, %d", what, sends,
              recvs, colls, want_sends, want_recvs, want_colls);
    EVT_CHECK(0 == bad_peer && 0 == bad_coll, "%s: %d wrong peers, %d wrong collectives", what,
              bad_peer, bad_coll);
    sends = recvs = colls = bad_peer = bad_coll = 0;
}

/* N receives from anyone and N sends to the right, on a dup freed before
 * they complete; @p how completes them. */
static void pending(const char *what, int how)
{
    static char rbuf[N][8], sbuf[N][8];
    MPI_Request req[2 * N];
    MPI_Comm c;
    int flag = 0;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    for (int i = 0; i < N; ++i) {
        MPI_Irecv(rbuf[i], 8, MPI_CHAR, MPI_ANY_SOURCE, i, c, &req[i]);
    }
    /* the sends after a barrier: every receive is posted, none complete
     * at its start */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) {
        MPI_Isend(sbuf[i], 8, MPI_CHAR, right, i, c, &req[N + i]);
    }
    MPI_Comm_free(&c);
    if (0 == how) {
        MPI_Waitall(2 * N, req, MPI_STATUSES_IGNORE);
    } else if (1 == how) {
        for (int i = 0; i < 2 * N; ++i) {
            MPI_Wait(&req[i], MPI_STATUS_IGNORE);
        }
    } else {
        while (!flag) {
            MPI_Testall(2 * N, req, &flag, MPI_STATUSES_IGNORE);
        }
    }
    expect(what, N, N, 1); /* and the barrier */
}

/* A matched probe on a dup freed before the receive. */
static void probed(const char *what, bool nonblocking)
{
    char rbuf[8], sbuf[8] = {0};
    MPI_Message msg;
    MPI_Request r, sr;
    MPI_Comm c;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Isend(sbuf, 8, MPI_CHAR, right, 7, c, &sr);
    MPI_Mprobe(left, 7, c, &msg, MPI_STATUS_IGNORE);
    MPI_Comm_free(&c);
    if (nonblocking) {
        MPI_Imrecv(rbuf, 8, MPI_CHAR, &msg, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Mrecv(rbuf, 8, MPI_CHAR, &msg, MPI_STATUS_IGNORE);
    }
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    expect(what, 1, 1, 0);
}

/* Persistent requests on a dup freed while they exist: started twice. */
static void persistent(void)
{
    char rbuf[8], sbuf[8] = {0};
    MPI_Request req[2];
    MPI_Comm c;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Recv_init(rbuf, 8, MPI_CHAR, MPI_ANY_SOURCE, 9, c, &req[0]);
    MPI_Send_init(sbuf, 8, MPI_CHAR, right, 9, c, &req[1]);
    MPI_Comm_free(&c);
    for (int k = 0; k < 2; ++k) {
        MPI_Startall(2, req);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    expect("persistent requests, Startall + Waitall twice, then Request_free", 2, 2, 0);
}

/* A nonblocking collective on a dup freed before it completes. */
static void collective(void)
{
    MPI_Request r;
    MPI_Comm c;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Ibarrier(c, &r);
    MPI_Comm_free(&c);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    expect("Ibarrier, then Wait", 0, 0, 1);
}

int main(int argc, char **argv)
{
    MPI_T_event_registration regs[3];

    evt_test_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rank = evt_test_rank;
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    regs[0] = evt_test_subscribe("ompi.mpi.p2p_send_complete", NULL, on_p2p, &regs[0]);
    regs[1] = evt_test_subscribe("ompi.mpi.p2p_recv_complete", NULL, on_p2p, NULL);
    regs[2] = evt_test_subscribe("ompi.mpi.coll_complete", NULL, on_coll, NULL);
    pending("Irecv/Isend, Waitall", 0);
    pending("Irecv/Isend, Wait each", 1);
    pending("Irecv/Isend, Testall loop", 2);
    probed("Mprobe, Mrecv", false);
    probed("Mprobe, Imrecv + Wait", true);
    persistent();
    collective();
    for (int i = 0; i < 3; ++i) {
        evt_test_unsubscribe(regs[i]);
    }
    return evt_test_finish("test_p2p_comm_freed");
}
