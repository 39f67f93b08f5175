/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi.mpi.rma_op and ompi.mpi.rma_sync match what the program did: every
 * communication call (Put, Get, Accumulate, Get_accumulate with an op and
 * with MPI_NO_OP, Fetch_and_op likewise, Compare_and_swap, Rput, Rget,
 * Raccumulate, Rget_accumulate) and every synchronisation call (fence,
 * post/start/complete/wait, Win_test until it says yes, lock/unlock
 * exclusive and shared, lock_all/unlock_all, flush, flush_all,
 * flush_local, flush_local_all, Win_sync), in the three epoch kinds.
 * Each event's kind, window, target, world rank of the target, bytes,
 * displacement, op, assert, lock type and group size are checked against
 * the call's arguments, in call order across both events, with times
 * that do not go back. A window on a communicator that reverses the
 * ranks shows a target's window rank and world rank apart. Calls to
 * MPI_PROC_NULL, Win_test calls that said no, and calls made before the
 * listener and after it went away raise nothing.
 * Run with -np 2 and 4, on one and two nodes, with evt/sync and evt/ring.
 */

#include "evt_mpi_test.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/runtime/ompi_evt_payloads.h"

#define C          6 /* elements per operation */
#define WIN_INTS   64
#define MAX_EVENTS 128
#define I4         ((uint64_t) sizeof(int))

/** One event as delivered: which of the two, and its payload. */
typedef struct {
    bool sync;
    ompi_evt_rma_op_payload_t op;
    ompi_evt_rma_sync_payload_t sy;
} got_t;

static got_t got[MAX_EVENTS];
static int ngot = 0;
static long overflow = 0;

/** What a call should have raised. */
typedef struct {
    bool sync;
    MPI_Win win;
    int32_t kind, target, peer, op, assert_flags, lock_type, group_size;
    uint64_t sent, recv;
    int64_t disp;
} expect_t;

static expect_t want[MAX_EVENTS];
static int nwant = 0;
static int me, n;

static void on_op(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s, void *u)
{
    if (ngot >= MAX_EVENTS) {
        ++overflow;
        return;
    }
    got[ngot].sync = false;
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_copy(ev, &got[ngot].op), "copy");
    ++ngot;
}

static void on_sync(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                    void *u)
{
    if (ngot >= MAX_EVENTS) {
        ++overflow;
        return;
    }
    got[ngot].sync = true;
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_copy(ev, &got[ngot].sy), "copy");
    ++ngot;
}

static void expect_op(MPI_Win win, int32_t kind, int target, int peer, uint64_t sent, uint64_t recv,
                      int64_t disp, int32_t op)
{
    want[nwant++] = (expect_t){.sync = false,
                               .win = win,
                               .kind = kind,
                               .target = target,
                               .peer = peer,
                               .sent = sent,
                               .recv = recv,
                               .disp = disp,
                               .op = op};
}

static void expect_sync(MPI_Win win, int32_t kind, int target, int peer, int assert_flags,
                        int32_t lock_type, int group_size)
{
    want[nwant++] = (expect_t){.sync = true,
                               .win = win,
                               .kind = kind,
                               .target = target,
                               .peer = peer,
                               .assert_flags = assert_flags,
                               .lock_type = lock_type,
                               .group_size = group_size};
}

#define OK(call)                                                \
    do {                                                        \
        int rc_ = (call);                                       \
        EVT_CHECK(MPI_SUCCESS == rc_, "%s: rc %d", #call, rc_); \
    } while (0)

/** Every communication call once, to @p to (its world rank @p to_world),
 *  inside an access epoch of @p win. */
static void every_op(MPI_Win win, int to, int to_world, bool with_requests)
{
    /* origin and result buffers live until the epoch's synchronisation
     * completes the operations, after this function returned */
    static int out[C], in[C], res[C], one = 1, cmp = 0, old = 0;
    static long long wide = 0;
    MPI_Request rq[4];

    for (int i = 0; i < C; ++i) {
        out[i] = me + i;
    }
    OK(MPI_Put(out, C, MPI_INT, to, 3, C, MPI_INT, win));
    expect_op(win, OMPI_EVT_RMA_PUT, to, to_world, C * I4, 0, 3, OMPI_EVT_COLL_OP_NONE);
    OK(MPI_Get(in, C - 1, MPI_INT, to, 20, C - 1, MPI_INT, win));
    expect_op(win, OMPI_EVT_RMA_GET, to, to_world, 0, (C - 1) * I4, 20, OMPI_EVT_COLL_OP_NONE);
    OK(MPI_Accumulate(out, 2, MPI_INT, to, 30, 2, MPI_INT, MPI_SUM, win));
    expect_op(win, OMPI_EVT_RMA_ACCUMULATE, to, to_world, 2 * I4, 0, 30, OMPI_EVT_COLL_OP_SUM);
    OK(MPI_Get_accumulate(out, 3, MPI_INT, res, 3, MPI_INT, to, 40, 3, MPI_INT, MPI_MAX, win));
    expect_op(win, OMPI_EVT_RMA_GET_ACCUMULATE, to, to_world, 3 * I4, 3 * I4, 40,
              OMPI_EVT_COLL_OP_MAX);
    OK(MPI_Get_accumulate(NULL, 0, MPI_INT, res, 4, MPI_INT, to, 40, 4, MPI_INT, MPI_NO_OP, win));
    expect_op(win, OMPI_EVT_RMA_GET_ACCUMULATE, to, to_world, 0, 4 * I4, 40,
              OMPI_EVT_COLL_OP_NO_OP);
    OK(MPI_Fetch_and_op(&one, &old, MPI_INT, to, 50, MPI_SUM, win));
    expect_op(win, OMPI_EVT_RMA_FETCH_AND_OP, to, to_world, I4, I4, 50, OMPI_EVT_COLL_OP_SUM);
    OK(MPI_Fetch_and_op(NULL, &wide, MPI_LONG_LONG, to, 56, MPI_NO_OP, win));
    expect_op(win, OMPI_EVT_RMA_FETCH_AND_OP, to, to_world, 0, sizeof(long long), 56,
              OMPI_EVT_COLL_OP_NO_OP);
    OK(MPI_Compare_and_swap(&one, &cmp, &old, MPI_INT, to, 51, win));
    expect_op(win, OMPI_EVT_RMA_COMPARE_AND_SWAP, to, to_world, 2 * I4, I4, 51,
              OMPI_EVT_COLL_OP_NONE);
    /* to nobody: nothing moves, nothing raised */
    OK(MPI_Put(out, C, MPI_INT, MPI_PROC_NULL, 0, C, MPI_INT, win));
    if (!with_requests) {
        return;
    }
    OK(MPI_Rput(out, C, MPI_INT, to, 10, C, MPI_INT, win, &rq[0]));
    expect_op(win, OMPI_EVT_RMA_RPUT, to, to_world, C * I4, 0, 10, OMPI_EVT_COLL_OP_NONE);
    OK(MPI_Rget(in, 2, MPI_INT, to, 21, 2, MPI_INT, win, &rq[1]));
    expect_op(win, OMPI_EVT_RMA_RGET, to, to_world, 0, 2 * I4, 21, OMPI_EVT_COLL_OP_NONE);
    OK(MPI_Raccumulate(out, 1, MPI_INT, to, 31, 1, MPI_INT, MPI_BXOR, win, &rq[2]));
    expect_op(win, OMPI_EVT_RMA_RACCUMULATE, to, to_world, I4, 0, 31, OMPI_EVT_COLL_OP_BXOR);
    OK(MPI_Rget_accumulate(out, 2, MPI_INT, res, 2, MPI_INT, to, 42, 2, MPI_INT, MPI_REPLACE, win,
                           &rq[3]));
    expect_op(win, OMPI_EVT_RMA_RGET_ACCUMULATE, to, to_world, 2 * I4, 2 * I4, 42,
              OMPI_EVT_COLL_OP_REPLACE);
    OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
}

/** The other ranks of @p comm. */
static MPI_Group others(MPI_Comm comm)
{
    MPI_Group all, rest;
    int mine;

    MPI_Comm_group(comm, &all);
    MPI_Comm_rank(comm, &mine);
    MPI_Group_excl(all, 1, &mine, &rest);
    MPI_Group_free(&all);
    return rest;
}

static void check_all(void)
{
    int64_t last_done = 0;

    for (int i = 0; i < ngot && i < nwant; ++i) {
        const expect_t *x = &want[i];
        const got_t *g = &got[i];
        int64_t start, done;

        EVT_CHECK(g->sync == x->sync, "event %d: %s, want %s (kind %d)", i,
                  g->sync ? "rma_sync" : "rma_op", x->sync ? "rma_sync" : "rma_op", x->kind);
        if (g->sync != x->sync) {
            continue;
        }
        if (x->sync) {
            const ompi_evt_rma_sync_payload_t *p = &g->sy;
            EVT_CHECK(p->win == (uint64_t) (uintptr_t) x->win && p->kind == x->kind
                          && p->target == x->target && p->peer == x->peer
                          && p->assert_flags == x->assert_flags && p->lock_type == x->lock_type
                          && p->group_size == x->group_size,
                      "sync %d: kind %d target %d peer %d assert %d lock %d group %d; want kind "
                      "%d target %d peer %d assert %d lock %d group %d (win %s)",
                      i, p->kind, p->target, p->peer, p->assert_flags, p->lock_type, p->group_size,
                      x->kind, x->target, x->peer, x->assert_flags, x->lock_type, x->group_size,
                      p->win == (uint64_t) (uintptr_t) x->win ? "ok" : "wrong");
            start = p->start_time;
            done = p->complete_time;
        } else {
            const ompi_evt_rma_op_payload_t *p = &g->op;
            EVT_CHECK(p->win == (uint64_t) (uintptr_t) x->win && p->kind == x->kind
                          && p->target == x->target && p->peer == x->peer
                          && p->bytes_sent == x->sent && p->bytes_recv == x->recv
                          && p->target_disp == x->disp && p->op == x->op,
                      "op %d: kind %d target %d peer %d sent %llu recv %llu disp %lld op %d; "
                      "want kind %d target %d peer %d sent %llu recv %llu disp %lld op %d (win "
                      "%s)",
                      i, p->kind, p->target, p->peer, (unsigned long long) p->bytes_sent,
                      (unsigned long long) p->bytes_recv, (long long) p->target_disp, p->op,
                      x->kind, x->target, x->peer, (unsigned long long) x->sent,
                      (unsigned long long) x->recv, (long long) x->disp, x->op,
                      p->win == (uint64_t) (uintptr_t) x->win ? "ok" : "wrong");
            start = p->start_time;
            done = p->complete_time;
        }
        EVT_CHECK(0 < start && start <= done && last_done <= start,
                  "event %d: start %lld complete %lld, the previous call returned at %lld", i,
                  (long long) start, (long long) done, (long long) last_done);
        last_done = done;
    }
}

int main(int argc, char **argv)
{
    MPI_T_event_registration reg_op, reg_sync;
    MPI_Win win, rwin;
    MPI_Comm reversed;
    MPI_Group rest;
    int *base, *rbase, flag = 0, to, from, tests = 0;

    evt_test_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    to = (me + 1) % n;
    from = (me + n - 1) % n;
    OK(MPI_Win_allocate(WIN_INTS * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                        &win));
    memset(base, 0, WIN_INTS * sizeof(int));
    /* window rank r is world rank n - 1 - r */
    OK(MPI_Comm_split(MPI_COMM_WORLD, 0, n - 1 - me, &reversed));
    OK(MPI_Win_allocate(WIN_INTS * sizeof(int), sizeof(int), MPI_INFO_NULL, reversed, &rbase,
                        &rwin));
    /* before the listener: nothing raised */
    OK(MPI_Win_fence(0, win));
    OK(MPI_Win_fence(0, win));

    reg_op = evt_test_subscribe("ompi.mpi.rma_op", NULL, on_op, NULL);
    reg_sync = evt_test_subscribe("ompi.mpi.rma_sync", NULL, on_sync, NULL);

    /* active target, fence */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_FENCE, -1, -1, MPI_MODE_NOPRECEDE, OMPI_EVT_RMA_LOCK_NONE,
                0);
    every_op(win, to, to, false);
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_FENCE, -1, -1, MPI_MODE_NOSUCCEED, OMPI_EVT_RMA_LOCK_NONE,
                0);

    /* active target, general: everybody exposes to and accesses everybody */
    rest = others(MPI_COMM_WORLD);
    OK(MPI_Win_post(rest, 0, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_POST, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, n - 1);
    OK(MPI_Win_start(rest, 0, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_START, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, n - 1);
    every_op(win, from, from, false);
    OK(MPI_Win_complete(win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_COMPLETE, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Win_wait(win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_WAIT, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    /* again, the exposure ended by Win_test: only its "yes" is raised */
    OK(MPI_Win_post(rest, MPI_MODE_NOPUT, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_POST, -1, -1, MPI_MODE_NOPUT, OMPI_EVT_RMA_LOCK_NONE, n - 1);
    OK(MPI_Win_start(rest, 0, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_START, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, n - 1);
    /* nobody completed an access to this rank yet (they wait in the
     * barrier): this test says no */
    OK(MPI_Win_test(win, &flag));
    EVT_CHECK(!flag, "MPI_Win_test said yes before any origin completed");
    OK(MPI_Barrier(MPI_COMM_WORLD));
    OK(MPI_Win_complete(win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_COMPLETE, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    do {
        int rc = MPI_Win_test(win, &flag);
        ++tests;
        if (MPI_SUCCESS != rc) {
            EVT_CHECK(false, "MPI_Win_test: rc %d", rc);
            break;
        }
    } while (!flag);
    expect_sync(win, OMPI_EVT_RMA_SYNC_TEST, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    MPI_Group_free(&rest);

    /* passive target: exclusive, then shared with the request forms */
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_LOCK, to, to, 0, OMPI_EVT_RMA_LOCK_EXCLUSIVE, 0);
    every_op(win, to, to, true);
    OK(MPI_Win_flush(to, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_FLUSH, to, to, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Win_flush_local(to, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_FLUSH_LOCAL, to, to, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Win_unlock(to, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_UNLOCK, to, to, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_LOCK_ALL, -1, -1, MPI_MODE_NOCHECK, OMPI_EVT_RMA_LOCK_SHARED,
                0);
    OK(MPI_Win_flush_all(win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_FLUSH_ALL, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Win_flush_local_all(win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_FLUSH_LOCAL_ALL, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Win_sync(win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_SYNC, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Win_unlock_all(win));
    expect_sync(win, OMPI_EVT_RMA_SYNC_UNLOCK_ALL, -1, -1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Barrier(MPI_COMM_WORLD));

    /* the reversed window: target 0 is world rank n - 1 */
    OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, rwin));
    expect_sync(rwin, OMPI_EVT_RMA_SYNC_LOCK, 0, n - 1, 0, OMPI_EVT_RMA_LOCK_SHARED, 0);
    every_op(rwin, 0, n - 1, false);
    OK(MPI_Win_unlock(0, rwin));
    expect_sync(rwin, OMPI_EVT_RMA_SYNC_UNLOCK, 0, n - 1, 0, OMPI_EVT_RMA_LOCK_NONE, 0);
    OK(MPI_Barrier(MPI_COMM_WORLD));
    evt_test_flush();
    evt_test_unsubscribe(reg_op);
    evt_test_unsubscribe(reg_sync);
    /* after the listener: nothing raised */
    OK(MPI_Win_fence(0, win));
    OK(MPI_Win_fence(0, win));
    evt_test_flush();

    EVT_CHECK(0 == overflow, "%ld events beyond the test's room", overflow);
    EVT_CHECK(ngot == nwant, "%d events, want %d (Win_test called %d times)", ngot, nwant, tests);
    EVT_CHECK(0 < tests, "the test loop ran");
    check_all();
    OK(MPI_Win_free(&rwin));
    OK(MPI_Win_free(&win));
    OK(MPI_Comm_free(&reversed));
    return evt_test_finish("test_rma_events");
}
