/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Receives through matched probes (MPI_Mprobe/MPI_Improbe with
 * MPI_Mrecv/MPI_Imrecv), probe-then-receive, MPI_Sendrecv and
 * MPI_Sendrecv_replace, with MPI_PROC_NULL peers, raise
 * ompi.mpi.p2p_recv_complete / p2p_send_complete like every other receive
 * and send. Each rank sends to its right neighbour (MPI_Isend, or the
 * send half of a Sendrecv) and receives from its left one, one tag per
 * pattern; the program counts what it did and every event is checked
 * against it exactly, per rank: events per kind and tag, bytes, peer
 * (world rank), tag, mode, comm, start <= complete, the instance's
 * timestamp == complete_time (one clock read per completion). A matched
 * receive starts when its probe matched: its start_time lies inside the
 * probe call (MPI_T_source_get_timestamp before and after). Two messages
 * of 256 KiB (beyond the eager limits) keep Imrecv requests pending when
 * the call returns, so both the at-once and the tracked completions run.
 * Run on MPI_COMM_WORLD and on a reversed communicator (peer is the world
 * rank, comm_peer the comm rank), under -np 2 and 4. Last, over
 * MPI_COMM_SELF: 9000 messages probed at once, more than the request
 * table holds, are all raised and none dropped; a probe seen with a listener whose listener is gone
 * at the Mrecv raises nothing and leaves nothing tracked; a probe made while nobody listened,
 * received with a listener, starts at the Mrecv.
 */

#include "evt_mpi_common.h"
#include "evt_mpi_test.h"

#include <stdbool.h>
#include <stdint.h>

#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"

#define MAX_TAG       64
#define REVERSED_BASE 32
#define SELF_GONE_TAG 60        /* probed with a listener, received without */
#define SELF_MANY_TAG 62        /* more probed messages than the table holds */
#define SELF_LATE_TAG 61        /* probed without a listener, received with */
#define BIG_ELEMS     (1 << 16) /* ints: 256 KiB, past ob1's and UCX's eager limits */

enum { SEND = 0, RECV = 1 };

/** Patterns, one tag each (base + pattern). */
enum {
    PAT_MPROBE,        /* Mprobe(left, tag) + Mrecv */
    PAT_MPROBE_ANY,    /* Mprobe(ANY_SOURCE, ANY_TAG) + Mrecv */
    PAT_IMPROBE_POLL,  /* Improbe(left, tag) polling loop + Mrecv */
    PAT_IMPROBE_ANY,   /* Improbe(ANY, ANY) polling + Imrecv + Wait */
    PAT_WAITANY_SMALL, /* Mprobe + Imrecv, two messages, Waitany: small */
    PAT_WAITANY_BIG,   /* ... and big (pending when Imrecv returns) */
    PAT_TESTALL_SMALL, /* Improbe + Imrecv, two messages, Testall loop */
    PAT_TESTALL_BIG,   /* ... big */
    PAT_PROBE_RECV,    /* Probe(left, ANY_TAG) + Recv of what it found */
    PAT_IPROBE_IRECV,  /* Iprobe loop + Irecv + Test loop */
    PAT_SENDRECV,      /* Sendrecv(right, left as ANY_SOURCE/ANY_TAG) */
    PAT_REPLACE,       /* Sendrecv_replace(right, left) */
    PAT_REPLACE_HALF,  /* Sendrecv_replace(right, PROC_NULL), then
                          Sendrecv_replace(PROC_NULL, left): one each */
    PAT_PROC_NULL,     /* PROC_NULL everywhere: nothing raised */
    NUM_PATTERNS
};

typedef struct {
    long want[2][MAX_TAG]; /* events the program caused */
    long got[2][MAX_TAG];  /* events delivered */
    uint64_t bytes[2][MAX_TAG];
    int32_t peer[2][MAX_TAG];      /* world rank */
    int32_t comm_peer[2][MAX_TAG]; /* rank in comm */
    int32_t mode[2][MAX_TAG];
    MPI_Comm comm[2][MAX_TAG];
    int64_t start_lo[MAX_TAG], start_hi[MAX_TAG]; /* recv: 0 = unchecked */
    long bad;
    long stray;
} expect_t;

static expect_t ex;
static long dropped_total = 0;
static int world_rank, world_size, ompi_source = -1;
static int sbuf[BIG_ELEMS], rbuf[2][BIG_ELEMS];

/** Now on the "ompi" source's clock (the producer's). */
static int64_t now(void)
{
    MPI_Count ts = 0;

    EVT_CHECK(MPI_SUCCESS == MPI_T_source_get_timestamp(ompi_source, &ts), "source timestamp");
    return (int64_t) ts;
}

static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                     void *user_data)
{
    int kind = (int) (intptr_t) user_data;
    ompi_evt_p2p_payload_t p;
    MPI_Count ts = -1;
    int t;

    if (MPI_SUCCESS != MPI_T_event_copy(ev, &p) || p.tag < 0 || p.tag >= MAX_TAG) {
        ++ex.stray;
        fprintf(stderr, "[rank %d] %s event with tag %d\n", world_rank, kind ? "recv" : "send",
                p.tag);
        return;
    }
    t = p.tag;
    ++ex.got[kind][t];
    if (MPI_SUCCESS != MPI_T_event_get_timestamp(ev, &ts) || ts != p.complete_time
        || p.start_time <= 0 || p.start_time > p.complete_time || p.bytes != ex.bytes[kind][t]
        || p.peer != ex.peer[kind][t] || p.comm_peer != ex.comm_peer[kind][t]
        || p.mode != ex.mode[kind][t] || p.comm != (uint64_t) (uintptr_t) ex.comm[kind][t]
        || (RECV == kind && 0 != ex.start_lo[t]
            && (p.start_time < ex.start_lo[t] || p.start_time > ex.start_hi[t]))) {
        ++ex.bad;
        fprintf(stderr,
                "[rank %d] %s tag %d: bytes %llu (want %llu) peer %d (want %d) comm_peer %d "
                "(want %d) mode %d (want %d) comm %s; start %lld complete %lld timestamp %lld, "
                "start window [%lld, %lld]\n",
                world_rank, kind ? "recv" : "send", t, (unsigned long long) p.bytes,
                (unsigned long long) ex.bytes[kind][t], p.peer, ex.peer[kind][t], p.comm_peer,
                ex.comm_peer[kind][t], p.mode, ex.mode[kind][t],
                p.comm == (uint64_t) (uintptr_t) ex.comm[kind][t] ? "ok" : "WRONG",
                (long long) p.start_time, (long long) p.complete_time, (long long) ts,
                (long long) ex.start_lo[t], (long long) ex.start_hi[t]);
    }
}

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source_index,
                       MPI_T_cb_safety s, void *u)
{
    dropped_total += (long) count;
}

/** One more event of @p kind with tag @p tag is due, with these fields
 *  (before the call: evt/sync delivers inside it). */
static void expect(int kind, int tag, int elems, MPI_Comm comm, int comm_peer, int world_peer,
                   int mode)
{
    ++ex.want[kind][tag];
    ex.bytes[kind][tag] = (uint64_t) elems * sizeof(int);
    ex.peer[kind][tag] = world_peer;
    ex.comm_peer[kind][tag] = comm_peer;
    ex.mode[kind][tag] = mode;
    ex.comm[kind][tag] = comm;
}

static int elems_of(int pattern)
{
    return PAT_WAITANY_BIG == pattern || PAT_TESTALL_BIG == pattern ? BIG_ELEMS : 4 * pattern + 3;
}

static void wait_sends(MPI_Request *sreq, int n)
{
    MPI_Waitall(n, sreq, MPI_STATUSES_IGNORE);
}

/** Every pattern once on @p comm, tags from @p base; right_world and
 *  left_world are the neighbours' world ranks. */
static void exchange(MPI_Comm comm, int base, int right_world, int left_world)
{
    const int NB = OMPI_EVT_P2P_MODE_NONBLOCKING, BL = OMPI_EVT_P2P_MODE_BLOCKING;
    int rank, size, right, left, flag, idx;
    MPI_Request sreq[2], rq[2];
    MPI_Message msg[2];
    MPI_Status st;
    int64_t lo, hi;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;

/* tag of pattern p; the send of pattern p to the right, expected */
#define TAG(p) (base + (p))
#define ISEND(p, i)                                                           \
    do {                                                                      \
        expect(SEND, TAG(p), elems_of(p), comm, right, right_world, NB);      \
        MPI_Isend(sbuf, elems_of(p), MPI_INT, right, TAG(p), comm, &sreq[i]); \
    } while (0)
#define RECV_DUE(p, mode) expect(RECV, TAG(p), elems_of(p), comm, left, left_world, mode)

    /* Mprobe + Mrecv: the receive starts inside the probe */
    ISEND(PAT_MPROBE, 0);
    RECV_DUE(PAT_MPROBE, BL);
    lo = now();
    MPI_Mprobe(left, TAG(PAT_MPROBE), comm, &msg[0], &st);
    hi = now();
    ex.start_lo[TAG(PAT_MPROBE)] = lo;
    ex.start_hi[TAG(PAT_MPROBE)] = hi;
    MPI_Mrecv(rbuf[0], elems_of(PAT_MPROBE), MPI_INT, &msg[0], MPI_STATUS_IGNORE);
    EVT_CHECK(MPI_MESSAGE_NULL == msg[0], "Mrecv left its message");
    wait_sends(sreq, 1);

    /* Mprobe(ANY_SOURCE, ANY_TAG): only the left neighbour sends to us, and
     * its messages match in order (non-overtaking): this pattern's first */
    ISEND(PAT_MPROBE_ANY, 0);
    RECV_DUE(PAT_MPROBE_ANY, BL);
    lo = now();
    MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &msg[0], &st);
    hi = now();
    EVT_CHECK(TAG(PAT_MPROBE_ANY) == st.MPI_TAG && left == st.MPI_SOURCE,
              "Mprobe(ANY) matched tag %d from %d", st.MPI_TAG, st.MPI_SOURCE);
    ex.start_lo[TAG(PAT_MPROBE_ANY)] = lo;
    ex.start_hi[TAG(PAT_MPROBE_ANY)] = hi;
    MPI_Mrecv(rbuf[0], elems_of(PAT_MPROBE_ANY), MPI_INT, &msg[0], &st);
    wait_sends(sreq, 1);

    /* Improbe polling: the first poll cannot match (the message is sent
     * after the barrier); failed polls raise nothing */
    MPI_Improbe(left, TAG(PAT_IMPROBE_POLL), comm, &flag, &msg[0], MPI_STATUS_IGNORE);
    EVT_CHECK(!flag, "Improbe matched a message not sent yet");
    MPI_Barrier(comm);
    ISEND(PAT_IMPROBE_POLL, 0);
    RECV_DUE(PAT_IMPROBE_POLL, BL);
    do {
        lo = now();
        MPI_Improbe(left, TAG(PAT_IMPROBE_POLL), comm, &flag, &msg[0], MPI_STATUS_IGNORE);
        hi = now();
    } while (!flag);
    ex.start_lo[TAG(PAT_IMPROBE_POLL)] = lo;
    ex.start_hi[TAG(PAT_IMPROBE_POLL)] = hi;
    MPI_Mrecv(rbuf[0], elems_of(PAT_IMPROBE_POLL), MPI_INT, &msg[0], MPI_STATUS_IGNORE);
    wait_sends(sreq, 1);

    /* Improbe(ANY, ANY) + Imrecv + Wait */
    ISEND(PAT_IMPROBE_ANY, 0);
    RECV_DUE(PAT_IMPROBE_ANY, NB);
    do {
        lo = now();
        MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &msg[0], &st);
        hi = now();
    } while (!flag);
    EVT_CHECK(TAG(PAT_IMPROBE_ANY) == st.MPI_TAG, "Improbe(ANY) matched tag %d", st.MPI_TAG);
    ex.start_lo[TAG(PAT_IMPROBE_ANY)] = lo;
    ex.start_hi[TAG(PAT_IMPROBE_ANY)] = hi;
    MPI_Imrecv(rbuf[0], elems_of(PAT_IMPROBE_ANY), MPI_INT, &msg[0], &rq[0]);
    EVT_CHECK(MPI_MESSAGE_NULL == msg[0], "Imrecv left its message");
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    wait_sends(sreq, 1);

    /* Mprobe + Imrecv of two messages, one small, one big, by Waitany */
    ISEND(PAT_WAITANY_SMALL, 0);
    ISEND(PAT_WAITANY_BIG, 1);
    RECV_DUE(PAT_WAITANY_SMALL, NB);
    RECV_DUE(PAT_WAITANY_BIG, NB);
    for (int i = 0; i < 2; ++i) {
        int p = i ? PAT_WAITANY_BIG : PAT_WAITANY_SMALL;
        lo = now();
        MPI_Mprobe(left, TAG(p), comm, &msg[i], MPI_STATUS_IGNORE);
        ex.start_lo[TAG(p)] = lo;
        ex.start_hi[TAG(p)] = now();
    }
    for (int i = 0; i < 2; ++i) {
        int p = i ? PAT_WAITANY_BIG : PAT_WAITANY_SMALL;
        MPI_Imrecv(rbuf[i], elems_of(p), MPI_INT, &msg[i], &rq[i]);
    }
    for (int k = 0; k < 2; ++k) {
        MPI_Waitany(2, rq, &idx, &st);
    }
    EVT_CHECK(MPI_REQUEST_NULL == rq[0] && MPI_REQUEST_NULL == rq[1], "Waitany left requests");
    wait_sends(sreq, 2);

    /* Improbe + Imrecv of two messages by a Testall loop */
    ISEND(PAT_TESTALL_SMALL, 0);
    ISEND(PAT_TESTALL_BIG, 1);
    RECV_DUE(PAT_TESTALL_SMALL, NB);
    RECV_DUE(PAT_TESTALL_BIG, NB);
    for (int i = 0; i < 2; ++i) {
        int p = i ? PAT_TESTALL_BIG : PAT_TESTALL_SMALL;
        do {
            lo = now();
            MPI_Improbe(left, TAG(p), comm, &flag, &msg[i], MPI_STATUS_IGNORE);
            hi = now();
        } while (!flag);
        ex.start_lo[TAG(p)] = lo;
        ex.start_hi[TAG(p)] = hi;
        MPI_Imrecv(rbuf[i], elems_of(p), MPI_INT, &msg[i], &rq[i]);
    }
    do {
        MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
    } while (!flag);
    wait_sends(sreq, 2);

    /* Probe, then a Recv of exactly what it found (raises like any Recv) */
    ISEND(PAT_PROBE_RECV, 0);
    RECV_DUE(PAT_PROBE_RECV, BL);
    MPI_Probe(left, MPI_ANY_TAG, comm, &st);
    MPI_Get_count(&st, MPI_INT, &idx);
    EVT_CHECK(elems_of(PAT_PROBE_RECV) == idx && TAG(PAT_PROBE_RECV) == st.MPI_TAG,
              "Probe found %d ints with tag %d", idx, st.MPI_TAG);
    MPI_Recv(rbuf[0], idx, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
    wait_sends(sreq, 1);

    /* Iprobe loop, Irecv, Test loop */
    ISEND(PAT_IPROBE_IRECV, 0);
    RECV_DUE(PAT_IPROBE_IRECV, NB);
    do {
        MPI_Iprobe(left, TAG(PAT_IPROBE_IRECV), comm, &flag, MPI_STATUS_IGNORE);
    } while (!flag);
    MPI_Irecv(rbuf[0], elems_of(PAT_IPROBE_IRECV), MPI_INT, left, TAG(PAT_IPROBE_IRECV), comm,
              &rq[0]);
    do {
        MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    } while (!flag);
    wait_sends(sreq, 1);

    /* Sendrecv: one send and one receive, both blocking */
    expect(SEND, TAG(PAT_SENDRECV), elems_of(PAT_SENDRECV), comm, right, right_world, BL);
    RECV_DUE(PAT_SENDRECV, BL);
    MPI_Sendrecv(sbuf, elems_of(PAT_SENDRECV), MPI_INT, right, TAG(PAT_SENDRECV), rbuf[0],
                 elems_of(PAT_SENDRECV), MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);

    /* Sendrecv_replace */
    expect(SEND, TAG(PAT_REPLACE), elems_of(PAT_REPLACE), comm, right, right_world, BL);
    RECV_DUE(PAT_REPLACE, BL);
    memcpy(rbuf[0], sbuf, sizeof(int) * elems_of(PAT_REPLACE));
    MPI_Sendrecv_replace(rbuf[0], elems_of(PAT_REPLACE), MPI_INT, right, TAG(PAT_REPLACE), left,
                         TAG(PAT_REPLACE), comm, MPI_STATUS_IGNORE);

    /* Sendrecv_replace with one half to MPI_PROC_NULL: the other half only
     * (a small message: the send completes eagerly before its receive) */
    expect(SEND, TAG(PAT_REPLACE_HALF), elems_of(PAT_REPLACE_HALF), comm, right, right_world, BL);
    RECV_DUE(PAT_REPLACE_HALF, BL);
    memcpy(rbuf[0], sbuf, sizeof(int) * elems_of(PAT_REPLACE_HALF));
    MPI_Sendrecv_replace(rbuf[0], elems_of(PAT_REPLACE_HALF), MPI_INT, right, TAG(PAT_REPLACE_HALF),
                         MPI_PROC_NULL, 0, comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(rbuf[0], elems_of(PAT_REPLACE_HALF), MPI_INT, MPI_PROC_NULL, 0, left,
                         TAG(PAT_REPLACE_HALF), comm, MPI_STATUS_IGNORE);

    /* MPI_PROC_NULL: matched probes give MPI_MESSAGE_NO_PROC; nothing is
     * raised anywhere (as for every MPI_PROC_NULL peer) */
    MPI_Mprobe(MPI_PROC_NULL, TAG(PAT_PROC_NULL), comm, &msg[0], &st);
    EVT_CHECK(MPI_MESSAGE_NO_PROC == msg[0] && MPI_PROC_NULL == st.MPI_SOURCE,
              "Mprobe(PROC_NULL): not MPI_MESSAGE_NO_PROC");
    MPI_Mrecv(rbuf[0], 1, MPI_INT, &msg[0], &st);
    MPI_Improbe(MPI_PROC_NULL, TAG(PAT_PROC_NULL), comm, &flag, &msg[0], MPI_STATUS_IGNORE);
    EVT_CHECK(flag && MPI_MESSAGE_NO_PROC == msg[0], "Improbe(PROC_NULL): flag %d", flag);
    MPI_Imrecv(rbuf[0], 1, MPI_INT, &msg[0], &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Sendrecv(sbuf, 1, MPI_INT, MPI_PROC_NULL, TAG(PAT_PROC_NULL), rbuf[0], 1, MPI_INT,
                 MPI_PROC_NULL, TAG(PAT_PROC_NULL), comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(rbuf[0], 1, MPI_INT, MPI_PROC_NULL, TAG(PAT_PROC_NULL), MPI_PROC_NULL,
                         TAG(PAT_PROC_NULL), comm, MPI_STATUS_IGNORE);
#undef TAG
#undef ISEND
#undef RECV_DUE
    MPI_Barrier(comm);
}

static MPI_T_event_registration listen_to(int kind)
{
    return evt_test_subscribe(SEND == kind ? "ompi.mpi.p2p_send_complete"
                                           : "ompi.mpi.p2p_recv_complete",
                              NULL, on_event, (void *) (intptr_t) kind);
}

static void check_counts(const char *what)
{
    long total[2] = {0, 0}, want[2] = {0, 0};

    evt_test_flush(); /* evt/ring: deliver what is still in the rings */
    for (int k = 0; k < 2; ++k) {
        for (int t = 0; t < MAX_TAG; ++t) {
            EVT_CHECK(ex.got[k][t] == ex.want[k][t], "%s: tag %d: %ld %s events, want %ld", what, t,
                      ex.got[k][t], k ? "recv" : "send", ex.want[k][t]);
            total[k] += ex.got[k][t];
            want[k] += ex.want[k][t];
        }
    }
    EVT_CHECK(0 == ex.bad && 0 == ex.stray, "%s: %ld events with wrong fields, %ld stray", what,
              ex.bad, ex.stray);
    printf("rank %d: %s: %ld/%ld send and %ld/%ld recv events\n", world_rank, what, total[SEND],
           want[SEND], total[RECV], want[RECV]);
}

int main(int argc, char **argv)
{
    MPI_T_event_registration reg[2];
    ompi_evt_p2p_stats_t stats;
    MPI_Comm reversed;
    MPI_Message msg;
    MPI_Request rq;
    int64_t lo;

    evt_test_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    ompi_source = evt_source_index("ompi");
    EVT_CHECK(0 <= ompi_source, "no source named ompi");
    for (int i = 0; i < BIG_ELEMS; ++i) {
        sbuf[i] = i;
    }
    reg[SEND] = listen_to(SEND);
    reg[RECV] = listen_to(RECV);

    /* MPI_COMM_WORLD: comm rank == world rank */
    exchange(MPI_COMM_WORLD, 0, (world_rank + 1) % world_size,
             (world_rank + world_size - 1) % world_size);
    check_counts("world");

    /* reversed: comm rank r is world rank n-1-r, so the right neighbour in
     * comm is world rank w-1 and the left one w+1 */
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &reversed);
    exchange(reversed, REVERSED_BASE, (world_rank + world_size - 1) % world_size,
             (world_rank + 1) % world_size);
    check_counts("reversed");
    MPI_Comm_free(&reversed);
    ompi_evt_p2p_test_stats(&stats);
    EVT_CHECK(0 == stats.in_use, "%llu entries left in the table",
              (unsigned long long) stats.in_use);

    /* More probed messages than the request table holds: those without a
     * slot are received from their Mrecv's entry; nothing is dropped. */
    {
        enum { N = 9000 };
        MPI_Message *msgs = malloc(N * sizeof(MPI_Message));
        ompi_evt_p2p_stats_t st0;

        MPI_T_event_set_dropped_handler(reg[RECV], on_dropped);
        ompi_evt_p2p_test_stats(&st0);
        for (int i = 0; i < N; ++i) {
            expect(SEND, SELF_MANY_TAG, 1, MPI_COMM_SELF, 0, world_rank,
                   OMPI_EVT_P2P_MODE_BLOCKING);
            MPI_Send(&sbuf[i], 1, MPI_INT, 0, SELF_MANY_TAG, MPI_COMM_SELF);
        }
        for (int i = 0; i < N; ++i) {
            MPI_Mprobe(0, SELF_MANY_TAG, MPI_COMM_SELF, &msgs[i], MPI_STATUS_IGNORE);
        }
        ompi_evt_p2p_test_stats(&stats);
        EVT_CHECK(0 < stats.in_use && stats.in_use < N, "%d probed messages: %llu tracked", N,
                  (unsigned long long) stats.in_use);
        for (int i = 0; i < N; ++i) {
            expect(RECV, SELF_MANY_TAG, 1, MPI_COMM_SELF, 0, world_rank,
                   OMPI_EVT_P2P_MODE_BLOCKING);
            MPI_Mrecv(&rbuf[0][i], 1, MPI_INT, &msgs[i], MPI_STATUS_IGNORE);
        }
        evt_test_flush();
        ompi_evt_p2p_test_stats(&stats);
        EVT_CHECK(0 == dropped_total && st0.dropped == stats.dropped,
                  "probed messages beyond the table: %ld dropped (table %llu)", dropped_total,
                  (unsigned long long) (stats.dropped - st0.dropped));
        EVT_CHECK(0 == stats.in_use, "after the Mrecvs: %llu entries in the table",
                  (unsigned long long) stats.in_use);
        for (int i = 0; i < N; ++i) {
            EVT_CHECK(rbuf[0][i] == i, "message %d holds %d", i, rbuf[0][i]);
        }
        free(msgs);
    }

    /* Probed with a listener, which is gone at the Mrecv: nothing raised,
     * the probe's entry leaves the table. */
    expect(SEND, SELF_GONE_TAG, 3, MPI_COMM_SELF, 0, world_rank, OMPI_EVT_P2P_MODE_NONBLOCKING);
    MPI_Isend(sbuf, 3, MPI_INT, 0, SELF_GONE_TAG, MPI_COMM_SELF, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Mprobe(0, SELF_GONE_TAG, MPI_COMM_SELF, &msg, MPI_STATUS_IGNORE);
    ompi_evt_p2p_test_stats(&stats);
    EVT_CHECK(1 == stats.in_use, "a probed message: %llu entries in the table, want 1",
              (unsigned long long) stats.in_use);
    evt_test_flush();
    evt_test_unsubscribe(reg[SEND]);
    evt_test_unsubscribe(reg[RECV]);
    MPI_Mrecv(rbuf[0], 3, MPI_INT, &msg, MPI_STATUS_IGNORE);
    ompi_evt_p2p_test_stats(&stats);
    EVT_CHECK(0 == stats.in_use, "after the Mrecv without a listener: %llu entries in the table",
              (unsigned long long) stats.in_use);

    /* Probed while nobody listens, received with a listener: raised, from
     * the Mrecv's entry (the probe was not seen). */
    MPI_Isend(sbuf, 5, MPI_INT, 0, SELF_LATE_TAG, MPI_COMM_SELF, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Mprobe(0, SELF_LATE_TAG, MPI_COMM_SELF, &msg, MPI_STATUS_IGNORE);
    reg[SEND] = listen_to(SEND);
    reg[RECV] = listen_to(RECV);
    expect(RECV, SELF_LATE_TAG, 5, MPI_COMM_SELF, 0, world_rank, OMPI_EVT_P2P_MODE_BLOCKING);
    lo = now();
    ex.start_lo[SELF_LATE_TAG] = lo;
    ex.start_hi[SELF_LATE_TAG] = INT64_MAX;
    MPI_Mrecv(rbuf[0], 5, MPI_INT, &msg, MPI_STATUS_IGNORE);
    check_counts("self");
    ompi_evt_p2p_test_stats(&stats);
    EVT_CHECK(0 == stats.in_use, "%llu entries left in the table",
              (unsigned long long) stats.in_use);

    evt_test_unsubscribe(reg[SEND]);
    evt_test_unsubscribe(reg[RECV]);
    return evt_test_finish("test_p2p_matched");
}
