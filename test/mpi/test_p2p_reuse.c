/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Every point-to-point message yields its completion event or
 * a counted drop, whatever request object the PML hands back. Open MPI
 * 4.1.4's ob1 (and pml/ucx) return one shared, already completed request
 * for every small send that completes inside the I-call, so the
 * application holds many copies of the same MPI_Request value at once.
 *
 * Each rank posts N receives from its left neighbour, then N small (8 byte)
 * eager sends to its right one, and completes all 2N requests with one
 * member of the Wait/Test family: Wait per request, Waitall, a Waitany
 * loop, a Waitsome loop, a Test loop, a Testany loop, Testall, a Testsome
 * loop. Then persistent requests (Startall/Start, completed by Waitall,
 * Test, Waitany), a mix of sends to the right, to self and to
 * MPI_PROC_NULL (Isend, Ibsend, Irsend, Issend; receives from the left,
 * self and MPI_PROC_NULL), MPI_Request_free of pending sends (each a
 * counted drop) and of completed receives (each raised), cancelled
 * receives and truncated receives (neither raised nor dropped, as
 * documented), truncated persistent receives through each member of the
 * family and Sendrecv whose receive truncates (its send raised), and two
 * table overflows: more outstanding
 * synchronous sends, then more outstanding receives, than the request
 * table holds (8192). Each scenario uses SUBS tags (message i has tag
 * SUBS * scenario + i % SUBS), so an event carrying another message's
 * data shows up in the per-tag counts.
 *
 * Two registrations per event, each with its own dropped handler. Per
 * scenario, per rank and per registration, after a flush point: events
 * delivered + drops reported == messages; with no drop, the events per
 * (tag, peer) are exactly the messages per (tag, peer); every payload
 * field is checked (comm, bytes, peer, comm_peer, tag, mode,
 * 0 < start <= complete); no request is left in the table. Below the
 * table's size no drop is allowed; in the overflows (and for the freed
 * pending sends) the drops reported equal the table's own count and are
 * nonzero on the overflowing side.
 * Program argument "lossy" (evt/ring with its default, small ring): the
 * ring drops too, so only delivered + dropped == messages, the payloads
 * and the empty table are asserted.
 */

#include "evt_mpi_test.h"

#include <stdbool.h>
#include <stdint.h>

#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"

typedef ompi_evt_p2p_payload_t p2p_t;

enum {
    T_WAIT = 1,
    T_WAITALL,
    T_WAITANY,
    T_WAITSOME,
    T_TEST,
    T_TESTANY,
    T_TESTALL,
    T_TESTSOME,
    T_PERSIST,
    T_MIX,
    T_FREE,
    T_CANCEL,
    T_ERROR,
    T_ERROR_PERSIST,
    T_OVER_SEND,
    T_OVER_RECV,
    T_LAST
};

#define SUBS      4 /* tags per scenario */
#define TAG(s, i) (SUBS * (s) + (i) % SUBS)
#define MAX_TAG   (SUBS * T_LAST)
#define MAX_PEER  8
#define N         500  /* messages per way per scenario, well below the table */
#define N_OVER    9000 /* outstanding requests: more than the table's 8192 */
#define PERSIST_K 64   /* persistent requests per way */
#define PERSIST_R 3    /* rounds (each: Startall+Waitall, Start+Test, Startall+Waitany) */
#define MSG_BYTES 8

static const char *const scenario_name[T_LAST] = {"",
                                                  "Wait",
                                                  "Waitall",
                                                  "Waitany",
                                                  "Waitsome",
                                                  "Test",
                                                  "Testany",
                                                  "Testall",
                                                  "Testsome",
                                                  "persistent",
                                                  "mix (right, self, PROC_NULL)",
                                                  "Request_free",
                                                  "Cancel",
                                                  "completed with an error",
                                                  "persistent and Sendrecv, with an error",
                                                  "overflow: outstanding Issend",
                                                  "overflow: outstanding Irecv"};

typedef struct {
    int is_send;
    long count[MAX_TAG][MAX_PEER]; /**< [tag][peer world rank] */
    long bad;
    long unknown;
    long dropped;
} reg_t;

/** Messages of one scenario: [send, recv][tag % SUBS][peer world rank]. */
typedef struct {
    long n[2][SUBS][MAX_PEER];
} want_t;

/* [send, recv][registration A, B] */
static reg_t regs[2][2];
static int world_rank, world_size, right, left;
static int mode_of[MAX_TAG];
static bool lossy;

static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                     void *user)
{
    reg_t *r = user;
    p2p_t p;

    if (MPI_SUCCESS != MPI_T_event_copy(ev, &p)) {
        ++r->bad;
        return;
    }
    if (p.tag < 0 || p.tag >= MAX_TAG || p.peer < 0 || p.peer >= MAX_PEER) {
        ++r->unknown;
        fprintf(stderr, "[rank %d] %s event: tag %d peer %d\n", world_rank,
                r->is_send ? "send" : "recv", p.tag, p.peer);
        return;
    }
    ++r->count[p.tag][p.peer];
    /* comm_peer == peer: every scenario runs on MPI_COMM_WORLD */
    if (p.comm != (uint64_t) (uintptr_t) MPI_COMM_WORLD || MSG_BYTES != p.bytes
        || p.comm_peer != p.peer || p.mode != mode_of[p.tag] || p.start_time <= 0
        || p.start_time > p.complete_time) {
        ++r->bad;
        if (r->bad <= 5) {
            fprintf(stderr,
                    "[rank %d] %s tag %d: comm %s bytes %llu peer %d comm_peer %d mode %d "
                    "(want %d) start %lld complete %lld\n",
                    world_rank, r->is_send ? "send" : "recv", p.tag,
                    p.comm == (uint64_t) (uintptr_t) MPI_COMM_WORLD ? "world" : "other",
                    (unsigned long long) p.bytes, p.peer, p.comm_peer, p.mode, mode_of[p.tag],
                    (long long) p.start_time, (long long) p.complete_time);
        }
    }
}

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source_index,
                       MPI_T_cb_safety s, void *user)
{
    ((reg_t *) user)->dropped += (long) count;
}

static MPI_T_event_registration subscribe(const char *name, reg_t *r)
{
    MPI_T_event_registration reg = evt_test_subscribe(name, NULL, on_event, r);

    EVT_CHECK(NULL != reg && MPI_SUCCESS == MPI_T_event_set_dropped_handler(reg, on_dropped),
              "dropped handler on %s", name);
    return reg;
}

/** Drops reported so far, per registration, and the table's counters. */
typedef struct {
    long dropped[2][2];
    ompi_evt_p2p_stats_t table;
} mark_t;

static void mark(mark_t *m)
{
    evt_test_flush(); /* delivers what the ring holds and pending drop counts */
    for (int k = 0; k < 2; ++k) {
        for (int j = 0; j < 2; ++j) {
            m->dropped[k][j] = regs[k][j].dropped;
        }
    }
    ompi_evt_p2p_test_stats(&m->table);
}

static const char *kind_name(int k)
{
    return 0 == k ? "send" : "recv";
}

/**
 * Check scenario @p sc against @p want (see the file comment).
 * @p over_kind: -1 below the table's size (no drop allowed); else the
 * side (0 send, 1 recv) that overflows the table: its drops must be
 * nonzero, and the drops of both sides must equal the table's count.
 */
static void expect(int sc, const want_t *want, const mark_t *before, int over_kind)
{
    const char *what = scenario_name[sc];
    long got[2][2] = {{0}}, dropped[2][2], total[2] = {0, 0};
    mark_t after;

    mark(&after);
    for (int k = 0; k < 2; ++k) {
        for (int u = 0; u < SUBS; ++u) {
            for (int p = 0; p < MAX_PEER; ++p) {
                total[k] += want->n[k][u][p];
                for (int j = 0; j < 2; ++j) {
                    got[k][j] += regs[k][j].count[TAG(sc, u)][p];
                }
            }
        }
        for (int j = 0; j < 2; ++j) {
            dropped[k][j] = after.dropped[k][j] - before->dropped[k][j];
        }
    }
    if (0 == world_rank) {
        /* rank 0, registration A: the figures of the issue */
        printf("%-30s send %5ld + %4ld dropped / %5ld   recv %5ld + %4ld dropped / %5ld\n", what,
               got[0][0], dropped[0][0], total[0], got[1][0], dropped[1][0], total[1]);
        fflush(stdout);
    }
    for (int k = 0; k < 2; ++k) {
        for (int j = 0; j < 2; ++j) {
            reg_t *r = &regs[k][j];
            EVT_CHECK(got[k][j] + dropped[k][j] == total[k],
                      "%s, %s registration %c: %ld events + %ld dropped, want %ld messages", what,
                      kind_name(k), 'A' + j, got[k][j], dropped[k][j], total[k]);
            EVT_CHECK(0 == r->bad && 0 == r->unknown,
                      "%s, %s registration %c: %ld events with wrong fields, %ld odd", what,
                      kind_name(k), 'A' + j, r->bad, r->unknown);
            if (lossy) {
                continue;
            }
            if (0 > over_kind) {
                EVT_CHECK(0 == dropped[k][j], "%s, %s registration %c: %ld dropped", what,
                          kind_name(k), 'A' + j, dropped[k][j]);
            }
            if (0 != dropped[k][j]) {
                continue;
            }
            for (int u = 0; u < SUBS; ++u) {
                for (int p = 0; p < MAX_PEER; ++p) {
                    long n = r->count[TAG(sc, u)][p];
                    EVT_CHECK(n == want->n[k][u][p],
                              "%s, %s registration %c: %ld events with tag %d peer %d, want %ld",
                              what, kind_name(k), 'A' + j, n, TAG(sc, u), p, want->n[k][u][p]);
                }
            }
        }
    }
    if (!lossy && 0 <= over_kind) {
        /* a table drop counts once for every registration */
        long table = (long) (after.table.dropped - before->table.dropped);
        EVT_CHECK(0 < dropped[over_kind][0], "%s: no %s drop", what, kind_name(over_kind));
        EVT_CHECK(dropped[0][0] + dropped[1][0] == table,
                  "%s: %ld send + %ld recv drops reported, the table dropped %ld", what,
                  dropped[0][0], dropped[1][0], table);
        EVT_CHECK(dropped[0][0] == dropped[0][1] && dropped[1][0] == dropped[1][1],
                  "%s: the registrations saw different drop counts", what);
    }
    EVT_CHECK(0 == after.table.in_use, "%s: %lld requests still tracked", what,
              (long long) after.table.in_use);
}

static double sbuf = 1.5;
static double *rbufs;

static int cmp_req(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (const MPI_Request *) a, y = (uintptr_t) * (const MPI_Request *) b;

    return x < y ? -1 : x > y;
}

/** N receives from the left, N eager sends to the right. @return how many
 *  send handles repeat one held already (the PML's shared request). */
static int post(int sc, MPI_Request *rq, want_t *want)
{
    MPI_Request sorted[N];
    int repeats = 0;

    memset(want, 0, sizeof(*want));
    for (int i = 0; i < N; ++i) {
        MPI_Irecv(&rbufs[i], 1, MPI_DOUBLE, left, TAG(sc, i), MPI_COMM_WORLD, &rq[i]);
        ++want->n[1][i % SUBS][left];
    }
    for (int i = 0; i < N; ++i) {
        MPI_Isend(&sbuf, 1, MPI_DOUBLE, right, TAG(sc, i), MPI_COMM_WORLD, &rq[N + i]);
        ++want->n[0][i % SUBS][right];
    }
    memcpy(sorted, &rq[N], sizeof(sorted));
    qsort(sorted, N, sizeof(MPI_Request), cmp_req);
    for (int i = 1; i < N; ++i) {
        repeats += sorted[i] == sorted[i - 1];
    }
    return repeats;
}

/** The eight completion patterns over 2N requests. */
static void family(int sc, MPI_Request *rq, MPI_Status *st, int *idx)
{
    const int n = 2 * N;
    int flag, out, done, k;

    switch (sc) {
    case T_WAIT:
        for (k = 0; k < n; ++k) {
            MPI_Wait(&rq[k], 0 == k % 2 ? MPI_STATUS_IGNORE : &st[0]);
        }
        break;
    case T_WAITALL:
        MPI_Waitall(n, rq, st);
        break;
    case T_WAITANY:
        for (k = 0; k < n; ++k) {
            MPI_Waitany(n, rq, &idx[0], 0 == k % 2 ? MPI_STATUS_IGNORE : &st[0]);
        }
        break;
    case T_WAITSOME:
        for (done = 0; done < n; done += out) {
            MPI_Waitsome(n, rq, &out, idx, MPI_STATUSES_IGNORE);
        }
        break;
    case T_TEST:
        for (k = 0; k < n; ++k) {
            do {
                MPI_Test(&rq[k], &flag, MPI_STATUS_IGNORE);
            } while (!flag);
        }
        break;
    case T_TESTANY:
        for (done = 0; done < n;) {
            MPI_Testany(n, rq, &idx[0], &flag, &st[0]);
            done += flag && MPI_UNDEFINED != idx[0];
        }
        break;
    case T_TESTALL:
        do {
            MPI_Testall(n, rq, &flag, MPI_STATUSES_IGNORE);
        } while (!flag);
        break;
    case T_TESTSOME:
        for (done = 0; done < n;) {
            MPI_Testsome(n, rq, &out, idx, st);
            done += MPI_UNDEFINED != out ? out : 0;
        }
        break;
    }
    for (k = 0; k < n && MPI_REQUEST_NULL == rq[k]; ++k) {
    }
    EVT_CHECK(n == k, "%s: request %d not freed", scenario_name[sc], k);
}

static void persistent(MPI_Request *rq, MPI_Status *st, want_t *want)
{
    const int sc = T_PERSIST, n = 2 * PERSIST_K;
    int flag, idx;

    memset(want, 0, sizeof(*want));
    for (int i = 0; i < PERSIST_K; ++i) {
        MPI_Recv_init(&rbufs[i], 1, MPI_DOUBLE, left, TAG(sc, i), MPI_COMM_WORLD, &rq[i]);
        MPI_Send_init(&sbuf, 1, MPI_DOUBLE, right, TAG(sc, i), MPI_COMM_WORLD, &rq[PERSIST_K + i]);
        want->n[1][i % SUBS][left] += 3 * PERSIST_R;
        want->n[0][i % SUBS][right] += 3 * PERSIST_R;
    }
    for (int r = 0; r < PERSIST_R; ++r) {
        MPI_Startall(n, rq);
        MPI_Waitall(n, rq, st);
        for (int i = 0; i < n; ++i) {
            MPI_Start(&rq[i]);
        }
        for (int i = 0; i < n; ++i) {
            do {
                MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE);
            } while (!flag);
        }
        MPI_Startall(n, rq);
        for (int i = 0; i < n; ++i) {
            MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE);
        }
        /* all inactive: MPI_UNDEFINED, no event */
        MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE);
        EVT_CHECK(MPI_UNDEFINED == idx, "persistent: Waitany on inactive requests gave %d", idx);
    }
    for (int i = 0; i < n; ++i) {
        MPI_Request_free(&rq[i]);
    }
}

/**
 * MPI_Request_free. Sends: N synchronous sends freed at once, before the
 * peer posts its receives: still pending, each is a counted drop. Receives:
 * N pending receives, completed (seen with MPI_Request_get_status, which
 * frees nothing) and then freed: each is raised. @return the sends freed.
 */
static long request_free(MPI_Request *rq, want_t *want)
{
    const int sc = T_FREE;
    int flag;

    memset(want, 0, sizeof(*want));
    for (int i = 0; i < N; ++i) {
        MPI_Issend(&sbuf, 1, MPI_DOUBLE, right, TAG(sc, i), MPI_COMM_WORLD, &rq[0]);
        MPI_Request_free(&rq[0]);
        ++want->n[0][i % SUBS][right];
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) {
        MPI_Irecv(&rbufs[i], 1, MPI_DOUBLE, left, TAG(sc, i), MPI_COMM_WORLD, &rq[i]);
        ++want->n[1][i % SUBS][left];
    }
    MPI_Waitall(N, rq, MPI_STATUSES_IGNORE);

    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) {
        MPI_Irecv(&rbufs[i], 1, MPI_DOUBLE, left, TAG(sc, i), MPI_COMM_WORLD, &rq[i]);
        ++want->n[1][i % SUBS][left];
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) {
        MPI_Isend(&sbuf, 1, MPI_DOUBLE, right, TAG(sc, i), MPI_COMM_WORLD, &rq[N + i]);
        ++want->n[0][i % SUBS][right];
    }
    MPI_Waitall(N, &rq[N], MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; ++i) {
        do {
            MPI_Request_get_status(rq[i], &flag, MPI_STATUS_IGNORE);
        } while (!flag);
        MPI_Request_free(&rq[i]);
    }
    /* the freed synchronous sends complete in the background */
    MPI_Barrier(MPI_COMM_WORLD);
    return N;
}

/** N receives nobody sends to, cancelled, completed by Wait and by Test:
 *  neither raised nor dropped. */
static void cancel(MPI_Request *rq, want_t *want)
{
    MPI_Status st;
    int flag, cancelled = 0;

    memset(want, 0, sizeof(*want));
    for (int i = 0; i < N; ++i) {
        MPI_Irecv(&rbufs[i], 1, MPI_DOUBLE, left, TAG(T_CANCEL, i), MPI_COMM_WORLD, &rq[i]);
        MPI_Cancel(&rq[i]);
    }
    for (int i = 0; i < N; ++i) {
        if (0 == i % 2) {
            MPI_Wait(&rq[i], &st);
        } else {
            do {
                MPI_Test(&rq[i], &flag, &st);
            } while (!flag);
        }
        MPI_Test_cancelled(&st, &flag);
        cancelled += flag;
    }
    EVT_CHECK(N == cancelled, "Cancel: %d of %d receives cancelled", cancelled, N);
}

/**
 * Truncated receives (a 0-element buffer for 8 bytes) complete with
 * MPI_ERR_TRUNCATE: not raised, not dropped, not left in the table. N
 * pending when the message arrives (tracked), N matched inside the Irecv
 * (complete at once). The sends are raised.
 */
static void errors(MPI_Request *rq, want_t *want)
{
    const int sc = T_ERROR;
    int failed = 0;

    memset(want, 0, sizeof(*want));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < N; ++i) {
        MPI_Irecv(&rbufs[i], 0, MPI_DOUBLE, left, TAG(sc, i), MPI_COMM_WORLD, &rq[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) {
        MPI_Isend(&sbuf, 1, MPI_DOUBLE, right, TAG(sc, i), MPI_COMM_WORLD, &rq[N + i]);
        ++want->n[0][i % SUBS][right];
    }
    MPI_Waitall(N, &rq[N], MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; ++i) {
        failed += MPI_SUCCESS != MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) {
        MPI_Isend(&sbuf, 1, MPI_DOUBLE, right, TAG(sc, i), MPI_COMM_WORLD, &rq[N + i]);
        ++want->n[0][i % SUBS][right];
    }
    MPI_Waitall(N, &rq[N], MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD); /* the messages have arrived: matched inside the Irecv */
    for (int i = 0; i < N; ++i) {
        MPI_Irecv(&rbufs[i], 0, MPI_DOUBLE, left, TAG(sc, i), MPI_COMM_WORLD, &rq[i]);
    }
    for (int i = 0; i < N; ++i) {
        failed += MPI_SUCCESS != MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    EVT_CHECK(2 * N == failed, "errors: %d of %d truncated receives failed", failed, 2 * N);
}

/** Complete @p r, a started persistent receive, with member @p call of
 *  the Wait/Test family (0 Wait ... 7 Testsome). @return its return code. */
static int complete_with(int call, MPI_Request *r)
{
    MPI_Status s;
    int rc, flag = 0, idx, out = 0;

    switch (call) {
    case 0:
        return MPI_Wait(r, &s);
    case 1:
        do {
            rc = MPI_Test(r, &flag, &s);
        } while (MPI_SUCCESS == rc && !flag);
        return rc;
    case 2:
        return MPI_Waitall(1, r, &s);
    case 3:
        do {
            rc = MPI_Testall(1, r, &flag, &s);
        } while (MPI_SUCCESS == rc && !flag);
        return rc;
    case 4:
        return MPI_Waitany(1, r, &idx, &s);
    case 5:
        do {
            rc = MPI_Testany(1, r, &idx, &flag, &s);
        } while (MPI_SUCCESS == rc && !flag);
        return rc;
    case 6:
        return MPI_Waitsome(1, r, &out, &idx, &s);
    default:
        do {
            rc = MPI_Testsome(1, r, &out, &idx, &s);
        } while (MPI_SUCCESS == rc && 0 == out);
        return rc;
    }
}

/**
 * Persistent receives that fail (truncated), ROUNDS times through each
 * member of the Wait/Test family (tags 0..2 of the scenario): not raised,
 * not dropped, and not left in the table, although Open MPI 4.1 frees a
 * failed persistent request in its error path (the handle comes back
 * MPI_REQUEST_NULL) and Testany/Testall say success for it (the error is
 * in the request only). Their sends are raised. Then Sendrecv whose
 * receive truncates (tag 3): its send completed and is raised, its
 * receive is not.
 */
static void errors_persistent(MPI_Request *rq, want_t *want)
{
    const int sc = T_ERROR_PERSIST, calls = 8, rounds = 20;
    int failed = 0;

    memset(want, 0, sizeof(*want));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int round = 0; round < rounds; ++round) {
        for (int c = 0; c < calls; ++c) {
            MPI_Recv_init(&rbufs[c], 0, MPI_DOUBLE, left, TAG(sc, c % 3), MPI_COMM_WORLD, &rq[c]);
            MPI_Start(&rq[c]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        for (int c = 0; c < calls; ++c) {
            MPI_Isend(&sbuf, 1, MPI_DOUBLE, right, TAG(sc, c % 3), MPI_COMM_WORLD, &rq[calls + c]);
            ++want->n[0][c % 3][right];
        }
        MPI_Waitall(calls, &rq[calls], MPI_STATUSES_IGNORE);
        for (int c = 0; c < calls; ++c) {
            failed += MPI_SUCCESS != complete_with(c, &rq[c]);
            if (MPI_REQUEST_NULL != rq[c]) {
                MPI_Request_free(&rq[c]);
            }
        }
    }
    for (int i = 0; i < rounds; ++i) {
        failed += MPI_SUCCESS
                  != MPI_Sendrecv(&sbuf, 1, MPI_DOUBLE, right, TAG(sc, 3), &rbufs[0], 0, MPI_DOUBLE,
                                  left, TAG(sc, 3), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++want->n[0][3][right];
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* which members of the family say so varies (Testany and Testall
     * never do); MPI_Wait and Sendrecv always do */
    EVT_CHECK(2 * rounds <= failed, "errors: %d failed calls, want at least %d", failed,
              2 * rounds);
}

/** Right, self and MPI_PROC_NULL; Isend, Ibsend, Irsend, Issend by tag. */
static void mix(MPI_Request *rq, MPI_Status *st, want_t *want)
{
    const int sc = T_MIX, per = N / 5;
    int k = 0, bsize;
    char *bbuf;

    memset(want, 0, sizeof(*want));
    MPI_Pack_size(1, MPI_DOUBLE, MPI_COMM_WORLD, &bsize);
    bsize = (bsize + MPI_BSEND_OVERHEAD) * 2 * per;
    bbuf = malloc(bsize);
    MPI_Buffer_attach(bbuf, bsize);
    for (int i = 0; i < per; ++i) {
        MPI_Irecv(&rbufs[k], 1, MPI_DOUBLE, left, TAG(sc, i), MPI_COMM_WORLD, &rq[k]);
        ++k;
        MPI_Irecv(&rbufs[k], 1, MPI_DOUBLE, world_rank, TAG(sc, i), MPI_COMM_WORLD, &rq[k]);
        ++k;
        MPI_Irecv(&rbufs[k], 1, MPI_DOUBLE, MPI_PROC_NULL, TAG(sc, i), MPI_COMM_WORLD, &rq[k]);
        ++k;
        ++want->n[1][i % SUBS][left];
        ++want->n[1][i % SUBS][world_rank];
    }
    MPI_Barrier(MPI_COMM_WORLD); /* Irsend needs the receive posted */
    for (int i = 0; i < per; ++i) {
        int t = TAG(sc, i);
        MPI_Isend(&sbuf, 1, MPI_DOUBLE, MPI_PROC_NULL, t, MPI_COMM_WORLD, &rq[k++]);
        switch (i % SUBS) {
        case 0:
            MPI_Isend(&sbuf, 1, MPI_DOUBLE, right, t, MPI_COMM_WORLD, &rq[k++]);
            MPI_Isend(&sbuf, 1, MPI_DOUBLE, world_rank, t, MPI_COMM_WORLD, &rq[k++]);
            break;
        case 1:
            MPI_Ibsend(&sbuf, 1, MPI_DOUBLE, right, t, MPI_COMM_WORLD, &rq[k++]);
            MPI_Ibsend(&sbuf, 1, MPI_DOUBLE, world_rank, t, MPI_COMM_WORLD, &rq[k++]);
            break;
        case 2:
            MPI_Irsend(&sbuf, 1, MPI_DOUBLE, right, t, MPI_COMM_WORLD, &rq[k++]);
            MPI_Irsend(&sbuf, 1, MPI_DOUBLE, world_rank, t, MPI_COMM_WORLD, &rq[k++]);
            break;
        default:
            MPI_Issend(&sbuf, 1, MPI_DOUBLE, right, t, MPI_COMM_WORLD, &rq[k++]);
            MPI_Issend(&sbuf, 1, MPI_DOUBLE, world_rank, t, MPI_COMM_WORLD, &rq[k++]);
            break;
        }
        ++want->n[0][i % SUBS][right];
        ++want->n[0][i % SUBS][world_rank];
    }
    MPI_Waitall(k, rq, st);
    MPI_Buffer_detach(&bbuf, &bsize);
    free(bbuf);
}

int main(int argc, char **argv)
{
    static const char *const names[2] = {"ompi.mpi.p2p_send_complete",
                                         "ompi.mpi.p2p_recv_complete"};
    MPI_T_event_registration reg[2][2];
    MPI_Request *rq;
    MPI_Status *st;
    int *idx;
    want_t want;
    mark_t m;

    evt_test_init(&argc, &argv);
    lossy = 1 < argc && 0 == strcmp(argv[1], "lossy");
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (world_size > MAX_PEER) {
        fprintf(stderr, "at most %d ranks\n", MAX_PEER);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    right = (world_rank + 1) % world_size;
    left = (world_rank + world_size - 1) % world_size;
    rq = malloc(2 * N_OVER * sizeof(*rq));
    st = malloc(2 * N_OVER * sizeof(*st));
    idx = malloc(2 * N_OVER * sizeof(*idx));
    rbufs = calloc(N_OVER, sizeof(*rbufs));
    for (int t = 0; t < MAX_TAG; ++t) {
        mode_of[t] = T_PERSIST == t / SUBS ? 2 : 1;
    }
    mode_of[TAG(T_ERROR_PERSIST, 3)] = 0; /* Sendrecv */
    for (int k = 0; k < 2; ++k) {
        for (int j = 0; j < 2; ++j) {
            regs[k][j].is_send = 0 == k;
            reg[k][j] = subscribe(names[k], &regs[k][j]);
        }
    }

    /* The Wait/Test family over N receives + N eager sends. */
    for (int sc = T_WAIT; sc <= T_TESTSOME; ++sc) {
        int repeats;
        MPI_Barrier(MPI_COMM_WORLD);
        mark(&m);
        repeats = post(sc, rq, &want);
        /* what the issue is about: the PML hands back one request object
         * for many small sends at once */
        EVT_CHECK(0 < repeats, "%s: no send request value repeats", scenario_name[sc]);
        if (0 == world_rank && T_WAIT == sc) {
            printf("%d of %d send handles repeat an outstanding one\n", repeats, N);
        }
        family(sc, rq, st, idx);
        {
            /* the shared object is complete: reported at the I-call */
            ompi_evt_p2p_stats_t now;
            ompi_evt_p2p_test_stats(&now);
            EVT_CHECK(now.at_start - m.table.at_start >= (uint64_t) repeats,
                      "%s: %llu requests reported at their I-call, %d repeated handles",
                      scenario_name[sc], (unsigned long long) (now.at_start - m.table.at_start),
                      repeats);
        }
        expect(sc, &want, &m, -1);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    mark(&m);
    persistent(rq, st, &want);
    expect(T_PERSIST, &want, &m, -1);

    MPI_Barrier(MPI_COMM_WORLD);
    mark(&m);
    mix(rq, st, &want);
    expect(T_MIX, &want, &m, -1);

    MPI_Barrier(MPI_COMM_WORLD);
    mark(&m);
    {
        long freed = request_free(rq, &want);
        mark_t after;
        mark(&after);
        EVT_CHECK(lossy || freed == after.dropped[0][0] - m.dropped[0][0],
                  "Request_free: %ld pending sends freed, %ld send drops", freed,
                  after.dropped[0][0] - m.dropped[0][0]);
    }
    expect(T_FREE, &want, &m, 0);

    MPI_Barrier(MPI_COMM_WORLD);
    mark(&m);
    cancel(rq, &want);
    expect(T_CANCEL, &want, &m, -1);

    MPI_Barrier(MPI_COMM_WORLD);
    mark(&m);
    errors(rq, &want);
    expect(T_ERROR, &want, &m, -1);

    MPI_Barrier(MPI_COMM_WORLD);
    mark(&m);
    errors_persistent(rq, &want);
    expect(T_ERROR_PERSIST, &want, &m, -1);

    /* More outstanding synchronous sends than the table holds: none can
     * complete before the peer posts its receives, after the barrier. */
    MPI_Barrier(MPI_COMM_WORLD);
    mark(&m);
    memset(&want, 0, sizeof(want));
    for (int i = 0; i < N_OVER; ++i) {
        MPI_Issend(&sbuf, 1, MPI_DOUBLE, right, TAG(T_OVER_SEND, i), MPI_COMM_WORLD,
                   &rq[N_OVER + i]);
        ++want.n[0][i % SUBS][right];
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N_OVER; ++i) {
        MPI_Irecv(&rbufs[i], 1, MPI_DOUBLE, left, TAG(T_OVER_SEND, i), MPI_COMM_WORLD, &rq[i]);
        ++want.n[1][i % SUBS][left];
    }
    MPI_Waitall(2 * N_OVER, rq, MPI_STATUSES_IGNORE);
    expect(T_OVER_SEND, &want, &m, 0);

    /* More outstanding receives than the table holds: none can complete
     * before the peer sends, after the barrier. */
    MPI_Barrier(MPI_COMM_WORLD);
    mark(&m);
    memset(&want, 0, sizeof(want));
    for (int i = 0; i < N_OVER; ++i) {
        MPI_Irecv(&rbufs[i], 1, MPI_DOUBLE, left, TAG(T_OVER_RECV, i), MPI_COMM_WORLD, &rq[i]);
        ++want.n[1][i % SUBS][left];
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N_OVER; ++i) {
        MPI_Isend(&sbuf, 1, MPI_DOUBLE, right, TAG(T_OVER_RECV, i), MPI_COMM_WORLD,
                  &rq[N_OVER + i]);
        ++want.n[0][i % SUBS][right];
    }
    MPI_Waitall(2 * N_OVER, rq, MPI_STATUSES_IGNORE);
    expect(T_OVER_RECV, &want, &m, 1);

    for (int k = 0; k < 2; ++k) {
        for (int j = 0; j < 2; ++j) {
            evt_test_unsubscribe(reg[k][j]);
        }
    }
    free(rq);
    free(st);
    free(idx);
    free(rbufs);
    return evt_test_finish("test_p2p_reuse");
}
