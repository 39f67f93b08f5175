/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi.mpi.coll_complete matches what the program did: every blocking and
 * nonblocking collective kind on MPI_COMM_WORLD (rooted ones with roots
 * other than 0, MPI_IN_PLACE, a user-defined reduction, v-variants with
 * counts that differ per rank), the nonblocking ones all in flight at once
 * and completed by Waitall, Waitany and a Test loop; a bcast and an
 * allgather on an intercommunicator (MPI_ROOT, MPI_PROC_NULL); the five
 * neighbourhood kinds, blocking and nonblocking, on a Cartesian
 * communicator with MPI_PROC_NULL neighbours and on a distributed graph. Each
 * event's kind, bytes sent and received, root, op, mode, comm, cid and
 * comm_size is checked against what the call's arguments say (computed
 * here independently), its numbers (seq) must be consecutive in call
 * order, and every rank must have numbered the collectives alike (the
 * first number on the world and the cids agree across ranks: a reader can
 * group a collective's events). A duplicated communicator freed and
 * duplicated again numbers from 0 again. Collectives made before the
 * listener and after it went away raise nothing but are numbered.
 * Run with -np 2 and 4, on one and two nodes, with evt/sync and evt/ring.
 */

#include "evt_mpi_test.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/runtime/ompi_evt_payloads.h"

#define C          5 /* elements per block */
#define MAX_EVENTS 256
#define I4         ((uint64_t) sizeof(int))

static ompi_evt_coll_payload_t got[MAX_EVENTS];
static int ngot = 0;
static long overflow = 0;

typedef struct {
    MPI_Comm comm;
    int32_t kind, root, op, mode;
    uint64_t sent, recv;
} expect_t;

static expect_t want[MAX_EVENTS];
static int nwant = 0;
static int me, n;

static void on_coll(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                    void *u)
{
    if (ngot >= MAX_EVENTS) {
        ++overflow;
        return;
    }
    EVT_CHECK(MPI_SUCCESS == MPI_T_event_copy(ev, &got[ngot]), "copy");
    ++ngot;
}

static void expect(MPI_Comm comm, int32_t kind, uint64_t sent, uint64_t recv, int32_t root,
                   int32_t op, int32_t mode)
{
    want[nwant++] = (expect_t){.comm = comm,
                               .kind = kind,
                               .root = root,
                               .op = op,
                               .mode = mode,
                               .sent = sent,
                               .recv = recv};
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    for (int i = 0; i < *len; ++i) {
        ((int *) inout)[i] += ((int *) in)[i];
    }
}

/** Sum of i + a over the ranks. */
static uint64_t tri(int a)
{
    return (uint64_t) (n * (n - 1) / 2 + n * a);
}

/**
 * Every collective kind once on @p comm (MPI_COMM_WORLD's shape), blocking
 * (@p nonblocking false) or all started at once and then completed.
 */
static void every_kind(MPI_Comm comm, bool nonblocking, MPI_Op user_op)
{
    int mode = nonblocking ? OMPI_EVT_P2P_MODE_NONBLOCKING : OMPI_EVT_P2P_MODE_BLOCKING;
    int r1 = 1 % n, last = n - 1;
    int *counts_p1 = malloc(sizeof(int) * n), *counts_p2 = malloc(sizeof(int) * n);
    int *displs = malloc(sizeof(int) * n), *a2av_s = malloc(sizeof(int) * n);
    int *a2av_r = malloc(sizeof(int) * n), *a2av_sd = malloc(sizeof(int) * n);
    int *a2av_rd = malloc(sizeof(int) * n), *w_counts = malloc(sizeof(int) * n);
    int *w_displs = malloc(sizeof(int) * n);
    MPI_Datatype *w_types = malloc(sizeof(MPI_Datatype) * n);
    enum { NOPS = 20 };
    int *buf[NOPS][2];
    MPI_Request rq[NOPS];
    int k = 0, big = 4 * C * n * n + 64;

    for (int i = 0; i < NOPS; ++i) {
        buf[i][0] = calloc((size_t) big, sizeof(int));
        buf[i][1] = calloc((size_t) big, sizeof(int));
        rq[i] = MPI_REQUEST_NULL;
    }
    for (int i = 0, d = 0, ds = 0, dr = 0; i < n; ++i) {
        counts_p1[i] = i + 1;
        counts_p2[i] = i + 2;
        displs[i] = d;
        d += i + 2;
        a2av_s[i] = me + i + 1; /* to i */
        a2av_r[i] = i + me + 1; /* from i: what i sends to me */
        a2av_sd[i] = ds;
        a2av_rd[i] = dr;
        ds += a2av_s[i];
        dr += a2av_r[i];
        w_counts[i] = 2;
        w_displs[i] = (int) (2 * i * sizeof(int));
        w_types[i] = MPI_INT;
    }
#define GO(blocking_call, nonblocking_call)                            \
    do {                                                               \
        int rc_ = nonblocking ? (nonblocking_call) : (blocking_call);  \
        EVT_CHECK(MPI_SUCCESS == rc_, "collective %d: rc %d", k, rc_); \
        ++k;                                                           \
    } while (0)
#define B0 buf[k][0]
#define B1 buf[k][1]
#define RQ (&rq[k])

    GO(MPI_Barrier(comm), MPI_Ibarrier(comm, RQ));
    expect(comm, OMPI_EVT_COLL_BARRIER, 0, 0, -1, 0, mode);

    GO(MPI_Bcast(B0, C, MPI_INT, r1, comm), MPI_Ibcast(B0, C, MPI_INT, r1, comm, RQ));
    expect(comm, OMPI_EVT_COLL_BCAST, me == r1 ? C * I4 : 0, me == r1 ? 0 : C * I4, r1, 0, mode);

    GO(MPI_Gather(B0, C, MPI_INT, B1, C, MPI_INT, 0, comm),
       MPI_Igather(B0, C, MPI_INT, B1, C, MPI_INT, 0, comm, RQ));
    expect(comm, OMPI_EVT_COLL_GATHER, C * I4, 0 == me ? n * C * I4 : 0, 0, 0, mode);

    /* in place at the root */
    GO(MPI_Gather(me == last ? MPI_IN_PLACE : B0, C, MPI_INT, B1, C, MPI_INT, last, comm),
       MPI_Igather(me == last ? MPI_IN_PLACE : B0, C, MPI_INT, B1, C, MPI_INT, last, comm, RQ));
    expect(comm, OMPI_EVT_COLL_GATHER, C * I4, me == last ? n * C * I4 : 0, last, 0, mode);

    GO(MPI_Gatherv(B0, me + 1, MPI_INT, B1, counts_p1, displs, MPI_INT, 0, comm),
       MPI_Igatherv(B0, me + 1, MPI_INT, B1, counts_p1, displs, MPI_INT, 0, comm, RQ));
    expect(comm, OMPI_EVT_COLL_GATHERV, (me + 1) * I4, 0 == me ? tri(1) * I4 : 0, 0, 0, mode);

    GO(MPI_Scatter(B0, C, MPI_INT, B1, C, MPI_INT, 0, comm),
       MPI_Iscatter(B0, C, MPI_INT, B1, C, MPI_INT, 0, comm, RQ));
    expect(comm, OMPI_EVT_COLL_SCATTER, 0 == me ? n * C * I4 : 0, C * I4, 0, 0, mode);

    GO(MPI_Scatterv(B0, counts_p2, displs, MPI_INT, B1, me + 2, MPI_INT, r1, comm),
       MPI_Iscatterv(B0, counts_p2, displs, MPI_INT, B1, me + 2, MPI_INT, r1, comm, RQ));
    expect(comm, OMPI_EVT_COLL_SCATTERV, me == r1 ? tri(2) * I4 : 0, (me + 2) * I4, r1, 0, mode);

    GO(MPI_Allgather(B0, C, MPI_INT, B1, C, MPI_INT, comm),
       MPI_Iallgather(B0, C, MPI_INT, B1, C, MPI_INT, comm, RQ));
    expect(comm, OMPI_EVT_COLL_ALLGATHER, C * I4, n * C * I4, -1, 0, mode);

    GO(MPI_Allgatherv(B0, me + 1, MPI_INT, B1, counts_p1, displs, MPI_INT, comm),
       MPI_Iallgatherv(B0, me + 1, MPI_INT, B1, counts_p1, displs, MPI_INT, comm, RQ));
    expect(comm, OMPI_EVT_COLL_ALLGATHERV, (me + 1) * I4, tri(1) * I4, -1, 0, mode);

    GO(MPI_Alltoall(B0, C, MPI_INT, B1, C, MPI_INT, comm),
       MPI_Ialltoall(B0, C, MPI_INT, B1, C, MPI_INT, comm, RQ));
    expect(comm, OMPI_EVT_COLL_ALLTOALL, n * C * I4, n * C * I4, -1, 0, mode);

    GO(MPI_Alltoallv(B0, a2av_s, a2av_sd, MPI_INT, B1, a2av_r, a2av_rd, MPI_INT, comm),
       MPI_Ialltoallv(B0, a2av_s, a2av_sd, MPI_INT, B1, a2av_r, a2av_rd, MPI_INT, comm, RQ));
    expect(comm, OMPI_EVT_COLL_ALLTOALLV, tri(me + 1) * I4, tri(me + 1) * I4, -1, 0, mode);

    GO(MPI_Alltoallw(B0, w_counts, w_displs, w_types, B1, w_counts, w_displs, w_types, comm),
       MPI_Ialltoallw(B0, w_counts, w_displs, w_types, B1, w_counts, w_displs, w_types, comm, RQ));
    expect(comm, OMPI_EVT_COLL_ALLTOALLW, 2 * n * I4, 2 * n * I4, -1, 0, mode);

    GO(MPI_Reduce(B0, B1, C, MPI_INT, MPI_SUM, 0, comm),
       MPI_Ireduce(B0, B1, C, MPI_INT, MPI_SUM, 0, comm, RQ));
    expect(comm, OMPI_EVT_COLL_REDUCE, C * I4, 0 == me ? C * I4 : 0, 0, OMPI_EVT_COLL_OP_SUM, mode);

    GO(MPI_Allreduce(B0, B1, C, MPI_INT, MPI_MAX, comm),
       MPI_Iallreduce(B0, B1, C, MPI_INT, MPI_MAX, comm, RQ));
    expect(comm, OMPI_EVT_COLL_ALLREDUCE, C * I4, C * I4, -1, OMPI_EVT_COLL_OP_MAX, mode);

    GO(MPI_Allreduce(MPI_IN_PLACE, B1, C, MPI_INT, MPI_MIN, comm),
       MPI_Iallreduce(MPI_IN_PLACE, B1, C, MPI_INT, MPI_MIN, comm, RQ));
    expect(comm, OMPI_EVT_COLL_ALLREDUCE, C * I4, C * I4, -1, OMPI_EVT_COLL_OP_MIN, mode);

    GO(MPI_Allreduce(B0, B1, C, MPI_INT, user_op, comm),
       MPI_Iallreduce(B0, B1, C, MPI_INT, user_op, comm, RQ));
    expect(comm, OMPI_EVT_COLL_ALLREDUCE, C * I4, C * I4, -1, OMPI_EVT_COLL_OP_USER, mode);

    GO(MPI_Reduce_scatter(B0, B1, counts_p1, MPI_INT, MPI_SUM, comm),
       MPI_Ireduce_scatter(B0, B1, counts_p1, MPI_INT, MPI_SUM, comm, RQ));
    expect(comm, OMPI_EVT_COLL_REDUCE_SCATTER, tri(1) * I4, (me + 1) * I4, -1, OMPI_EVT_COLL_OP_SUM,
           mode);

    GO(MPI_Reduce_scatter_block(B0, B1, 2, MPI_INT, MPI_BXOR, comm),
       MPI_Ireduce_scatter_block(B0, B1, 2, MPI_INT, MPI_BXOR, comm, RQ));
    expect(comm, OMPI_EVT_COLL_REDUCE_SCATTER_BLOCK, 2 * n * I4, 2 * I4, -1, OMPI_EVT_COLL_OP_BXOR,
           mode);

    GO(MPI_Scan(B0, B1, C, MPI_INT, MPI_PROD, comm),
       MPI_Iscan(B0, B1, C, MPI_INT, MPI_PROD, comm, RQ));
    expect(comm, OMPI_EVT_COLL_SCAN, C * I4, C * I4, -1, OMPI_EVT_COLL_OP_PROD, mode);

    GO(MPI_Exscan(B0, B1, C, MPI_INT, MPI_SUM, comm),
       MPI_Iexscan(B0, B1, C, MPI_INT, MPI_SUM, comm, RQ));
    expect(comm, OMPI_EVT_COLL_EXSCAN, C * I4, 0 == me ? 0 : C * I4, -1, OMPI_EVT_COLL_OP_SUM,
           mode);
#undef GO
#undef B0
#undef B1
#undef RQ
    EVT_CHECK(k <= NOPS, "%d operations, room for %d", k, NOPS);
    if (nonblocking) {
        /* a third by Waitany, a third by a Test loop, the rest by Waitall */
        for (int i = 0; i < k / 3; ++i) {
            int idx = -1;
            EVT_CHECK(MPI_SUCCESS == MPI_Waitany(k, rq, &idx, MPI_STATUS_IGNORE), "waitany");
        }
        for (int i = k / 3; i < 2 * k / 3; ++i) {
            int flag = 0;
            while (!flag) {
                EVT_CHECK(MPI_SUCCESS == MPI_Test(&rq[i], &flag, MPI_STATUS_IGNORE), "test");
            }
        }
        EVT_CHECK(MPI_SUCCESS == MPI_Waitall(k, rq, MPI_STATUSES_IGNORE), "waitall");
    }
    for (int i = 0; i < NOPS; ++i) {
        free(buf[i][0]);
        free(buf[i][1]);
    }
    free(counts_p1);
    free(counts_p2);
    free(displs);
    free(a2av_s);
    free(a2av_r);
    free(a2av_sd);
    free(a2av_rd);
    free(w_counts);
    free(w_displs);
    free(w_types);
}

/** Bcast and allgather between the even and the odd world ranks. */
static void intercomm(MPI_Comm *inter)
{
    MPI_Comm half;
    int hrank, remote, buf[C * 8], rbuf[C * 8 * 4];

    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
    MPI_Comm_rank(half, &hrank);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 0 == me % 2 ? 1 : 0, 7, inter);
    MPI_Comm_remote_size(*inter, &remote);
    memset(buf, 0, sizeof(buf));
    if (0 == me % 2) { /* the root's group */
        int root = 0 == hrank ? MPI_ROOT : MPI_PROC_NULL;
        EVT_CHECK(MPI_SUCCESS == MPI_Bcast(buf, C, MPI_INT, root, *inter), "inter bcast");
        expect(*inter, OMPI_EVT_COLL_BCAST, 0 == hrank ? C * I4 : 0, 0,
               0 == hrank ? OMPI_EVT_COLL_ROOT_SELF : OMPI_EVT_COLL_ROOT_PROC_NULL, 0,
               OMPI_EVT_P2P_MODE_BLOCKING);
    } else {
        EVT_CHECK(MPI_SUCCESS == MPI_Bcast(buf, C, MPI_INT, 0, *inter), "inter bcast");
        expect(*inter, OMPI_EVT_COLL_BCAST, 0, C * I4, 0, 0, OMPI_EVT_P2P_MODE_BLOCKING);
    }
    EVT_CHECK(MPI_SUCCESS == MPI_Allgather(buf, C, MPI_INT, rbuf, C, MPI_INT, *inter),
              "inter allgather");
    expect(*inter, OMPI_EVT_COLL_ALLGATHER, C * I4, (uint64_t) remote * C * I4, -1, 0,
           OMPI_EVT_P2P_MODE_BLOCKING);
    MPI_Comm_free(&half);
}

/**
 * Every neighbourhood collective kind, blocking and then all five started
 * at once, on @p comm, whose in-neighbours (out-neighbours) are given by
 * @p in_real[i] (@p out_real[i]): whether block i is a process; @p deg
 * blocks on each side.
 */
static void neighbour_kinds(MPI_Comm comm, int deg, const bool in_real[], const bool out_real[])
{
    int *sb = calloc((size_t) (C * 2 * deg + 8), sizeof(int));
    int *rb = calloc((size_t) (C * 2 * deg + 8), sizeof(int));
    int *sc = malloc(sizeof(int) * deg), *rc = malloc(sizeof(int) * deg);
    int *gc = malloc(sizeof(int) * deg);
    int *sd = malloc(sizeof(int) * deg), *rd = malloc(sizeof(int) * deg);
    MPI_Aint *swd = malloc(sizeof(MPI_Aint) * deg), *rwd = malloc(sizeof(MPI_Aint) * deg);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * deg), *rt = malloc(sizeof(MPI_Datatype) * deg);
    uint64_t in_n = 0, out_n = 0, in_v = 0, out_v = 0, in_w = 0, out_w = 0;
    MPI_Request rq[5];

    /* block i goes to (comes from) the neighbour in direction i; a
     * Cartesian rank's block 2d is paired with its neighbour's block
     * 2d + 1 and the other way round: sizes and types go by dimension */
    for (int i = 0; i < deg; ++i) {
        int d = i / 2;
        uint64_t size = (uint64_t) (d + 1) * (0 == d % 2 ? I4 : sizeof(short));
        sc[i] = rc[i] = d + 1;
        gc[i] = 2;
        sd[i] = rd[i] = 2 * C * i;
        swd[i] = rwd[i] = (MPI_Aint) (2 * C * i * sizeof(int));
        st[i] = rt[i] = 0 == d % 2 ? MPI_INT : MPI_SHORT;
        in_n += in_real[i];
        out_n += out_real[i];
        in_v += in_real[i] ? (uint64_t) (d + 1) * I4 : 0;
        out_v += out_real[i] ? (uint64_t) (d + 1) * I4 : 0;
        in_w += in_real[i] ? size : 0;
        out_w += out_real[i] ? size : 0;
    }
    for (int pass = 0; pass < 2; ++pass) {
        bool nb = 1 == pass;
        int mode = nb ? OMPI_EVT_P2P_MODE_NONBLOCKING : OMPI_EVT_P2P_MODE_BLOCKING;
        int rc_;
        rc_ = nb ? MPI_Ineighbor_allgather(sb, C, MPI_INT, rb, C, MPI_INT, comm, &rq[0])
                 : MPI_Neighbor_allgather(sb, C, MPI_INT, rb, C, MPI_INT, comm);
        EVT_CHECK(MPI_SUCCESS == rc_, "neighbor_allgather: rc %d", rc_);
        expect(comm, OMPI_EVT_COLL_NEIGHBOR_ALLGATHER, C * I4, in_n * C * I4, -1, 0, mode);
        rc_ = nb ? MPI_Ineighbor_allgatherv(sb, 2, MPI_INT, rb, gc, rd, MPI_INT, comm, &rq[1])
                 : MPI_Neighbor_allgatherv(sb, 2, MPI_INT, rb, gc, rd, MPI_INT, comm);
        EVT_CHECK(MPI_SUCCESS == rc_, "neighbor_allgatherv: rc %d", rc_);
        expect(comm, OMPI_EVT_COLL_NEIGHBOR_ALLGATHERV, 2 * I4, in_n * 2 * I4, -1, 0, mode);
        rc_ = nb ? MPI_Ineighbor_alltoall(sb, 3, MPI_INT, rb, 3, MPI_INT, comm, &rq[2])
                 : MPI_Neighbor_alltoall(sb, 3, MPI_INT, rb, 3, MPI_INT, comm);
        EVT_CHECK(MPI_SUCCESS == rc_, "neighbor_alltoall: rc %d", rc_);
        expect(comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALL, out_n * 3 * I4, in_n * 3 * I4, -1, 0, mode);
        rc_ = nb ? MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, comm, &rq[3])
                 : MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, comm);
        EVT_CHECK(MPI_SUCCESS == rc_, "neighbor_alltoallv: rc %d", rc_);
        expect(comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALLV, out_v, in_v, -1, 0, mode);
        rc_ = nb ? MPI_Ineighbor_alltoallw(sb, sc, swd, st, rb, rc, rwd, rt, comm, &rq[4])
                 : MPI_Neighbor_alltoallw(sb, sc, swd, st, rb, rc, rwd, rt, comm);
        EVT_CHECK(MPI_SUCCESS == rc_, "neighbor_alltoallw: rc %d", rc_);
        expect(comm, OMPI_EVT_COLL_NEIGHBOR_ALLTOALLW, out_w, in_w, -1, 0, mode);
        if (nb) {
            EVT_CHECK(MPI_SUCCESS == MPI_Waitall(5, rq, MPI_STATUSES_IGNORE), "waitall");
        }
    }
    free(sb);
    free(rb);
    free(sc);
    free(rc);
    free(gc);
    free(sd);
    free(rd);
    free(swd);
    free(rwd);
    free(st);
    free(rt);
}

/** The neighbourhood collectives on a 2-d Cartesian communicator, periodic
 *  in its first dimension only (edge ranks have MPI_PROC_NULL neighbours
 *  in the second), and on a distributed graph (a ring: from me - 1, to
 *  me + 1). The neighbours are worked out here from the coordinates, not
 *  asked of MPI. */
static void neighbourhoods(MPI_Comm *cart, MPI_Comm *ring)
{
    int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2];
    bool in_real[4], out_real[4], one[1] = {true};
    int src = (me + n - 1) % n, dst = (me + 1) % n, weight = 1;

    MPI_Dims_create(n, 2, dims);
    EVT_CHECK(MPI_SUCCESS == MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, cart),
              "cart_create");
    MPI_Cart_coords(*cart, me, 2, coords);
    for (int d = 0; d < 2; ++d) {
        /* block 2d: the neighbour at coordinate - 1; block 2d + 1: at + 1 */
        in_real[2 * d] = out_real[2 * d] = periods[d] || coords[d] > 0;
        in_real[2 * d + 1] = out_real[2 * d + 1] = periods[d] || coords[d] < dims[d] - 1;
    }
    neighbour_kinds(*cart, 4, in_real, out_real);
    EVT_CHECK(MPI_SUCCESS
                  == MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, &weight, 1, &dst,
                                                    &weight, MPI_INFO_NULL, 0, ring),
              "dist_graph_create_adjacent");
    neighbour_kinds(*ring, 1, one, one);
}

static int by_seq(const void *a, const void *b)
{
    const ompi_evt_coll_payload_t *x = *(ompi_evt_coll_payload_t *const *) a;
    const ompi_evt_coll_payload_t *y = *(ompi_evt_coll_payload_t *const *) b;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/**
 * The events got[gfrom..gto) against want[wfrom..wto): per communicator,
 * as many events as calls, numbered consecutively in call order, each
 * with the fields its call's arguments give. @return the first number of
 * @p comm's events (UINT64_MAX: none), and its cid in *cid.
 */
static uint64_t check_phase(const char *phase, int wfrom, int wto, int gfrom, int gto,
                            MPI_Comm comm_of_interest, uint32_t *cid)
{
    uint64_t first_of_interest = UINT64_MAX;

    for (int w = wfrom; w < wto; ++w) {
        MPI_Comm comm = want[w].comm;
        const ompi_evt_coll_payload_t *mine[MAX_EVENTS];
        int nmine = 0, nexp = 0, size, crank, inter;
        bool done_before = false;

        for (int v = wfrom; v < w; ++v) {
            done_before = done_before || want[v].comm == comm;
        }
        if (done_before) {
            continue; /* this communicator was checked */
        }
        for (int g = gfrom; g < gto; ++g) {
            if (got[g].comm == (uint64_t) (uintptr_t) comm) {
                mine[nmine++] = &got[g];
            }
        }
        qsort(mine, (size_t) nmine, sizeof(mine[0]), by_seq);
        MPI_Comm_size(comm, &size);
        MPI_Comm_rank(comm, &crank);
        MPI_Comm_test_inter(comm, &inter);
        for (int v = w; v < wto; ++v) {
            const expect_t *x = &want[v];
            const ompi_evt_coll_payload_t *p;
            if (x->comm != comm) {
                continue;
            }
            if (nexp >= nmine) {
                EVT_CHECK(false, "%s: call %d (kind %d): no event", phase, v, x->kind);
                ++nexp;
                continue;
            }
            p = mine[nexp];
            EVT_CHECK(p->seq == mine[0]->seq + (uint64_t) nexp,
                      "%s: call %d: number %llu, want %llu", phase, v, (unsigned long long) p->seq,
                      (unsigned long long) (mine[0]->seq + (uint64_t) nexp));
            EVT_CHECK(p->kind == x->kind && p->bytes_sent == x->sent && p->bytes_recv == x->recv
                          && p->root == x->root && p->op == x->op && p->mode == x->mode
                          && p->comm_size == size && p->comm_rank == crank
                          && p->flags == (uint32_t) (inter ? OMPI_EVT_COLL_FLAG_INTER : 0)
                          && p->cid == mine[0]->cid,
                      "%s: call %d: kind %d sent %llu recv %llu root %d op %d mode %d size %d; "
                      "want kind %d sent %llu recv %llu root %d op %d mode %d size %d",
                      phase, v, p->kind, (unsigned long long) p->bytes_sent,
                      (unsigned long long) p->bytes_recv, p->root, p->op, p->mode, p->comm_size,
                      x->kind, (unsigned long long) x->sent, (unsigned long long) x->recv, x->root,
                      x->op, x->mode, size);
            EVT_CHECK(0 < p->start_time && p->start_time <= p->complete_time,
                      "%s: call %d: start %lld complete %lld", phase, v, (long long) p->start_time,
                      (long long) p->complete_time);
            ++nexp;
        }
        EVT_CHECK(nexp == nmine, "%s: %d events on a communicator, %d calls", phase, nmine, nexp);
        if (comm == comm_of_interest && nmine > 0) {
            first_of_interest = mine[0]->seq;
            *cid = mine[0]->cid;
        }
    }
    return first_of_interest;
}

/** Every rank has the same @p value. */
static void check_agree(const char *what, uint64_t value)
{
    uint64_t lo, hi;

    MPI_Allreduce(&value, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&value, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    EVT_CHECK(lo == hi && lo == value, "%s: %llu here, %llu..%llu over the ranks", what,
              (unsigned long long) value, (unsigned long long) lo, (unsigned long long) hi);
}

int main(int argc, char **argv)
{
    MPI_T_event_registration reg;
    MPI_Comm dup, inter = MPI_COMM_NULL, cart = MPI_COMM_NULL, ring = MPI_COMM_NULL;
    MPI_Op user_op;
    uint64_t world_first, dup_first, dup_again_first;
    uint32_t world_cid = 0, dup_cid = 0, dup_again_cid = 0;
    int phase_w, phase_g;

    evt_test_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Op_create(user_sum, 1, &user_op);
    /* before the listener: numbered, not raised */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);

    reg = evt_test_subscribe("ompi.mpi.coll_complete", NULL, on_coll, NULL);
    every_kind(MPI_COMM_WORLD, false, user_op);
    every_kind(MPI_COMM_WORLD, true, user_op);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Barrier(dup);
    expect(dup, OMPI_EVT_COLL_BARRIER, 0, 0, -1, 0, OMPI_EVT_P2P_MODE_BLOCKING);
    MPI_Barrier(dup);
    expect(dup, OMPI_EVT_COLL_BARRIER, 0, 0, -1, 0, OMPI_EVT_P2P_MODE_BLOCKING);
    evt_test_flush();
    /* phase 1 ends: the next dup may get the same handle and context id */
    world_first = check_phase("world", 0, nwant, 0, ngot, MPI_COMM_WORLD, &world_cid);
    dup_first = check_phase("dup", 0, nwant, 0, ngot, dup, &dup_cid);
    phase_w = nwant;
    phase_g = ngot;
    MPI_Comm_free(&dup);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Barrier(dup);
    expect(dup, OMPI_EVT_COLL_BARRIER, 0, 0, -1, 0, OMPI_EVT_P2P_MODE_BLOCKING);
    if (n >= 2) {
        intercomm(&inter);
    }
    neighbourhoods(&cart, &ring);
    evt_test_flush();
    evt_test_unsubscribe(reg);
    /* after the listener: nothing raised */
    MPI_Barrier(MPI_COMM_WORLD);
    evt_test_flush();

    EVT_CHECK(0 == overflow, "%ld events beyond the test's room", overflow);
    EVT_CHECK(ngot == nwant, "%d events, want %d", ngot, nwant);
    dup_again_first = check_phase("dup again", phase_w, nwant, phase_g, ngot, dup, &dup_again_cid);
    EVT_CHECK(2 == world_first, "the world's first listened collective is number %llu, want 2",
              (unsigned long long) world_first);
    EVT_CHECK(0 == dup_first && 0 == dup_again_first,
              "a new communicator's first collective: numbers %llu and %llu, want 0",
              (unsigned long long) dup_first, (unsigned long long) dup_again_first);
    check_agree("the world's first number", world_first);
    check_agree("the world's cid", world_cid);
    check_agree("the dup's cid", dup_cid);
    check_agree("the second dup's cid", dup_again_cid);
    if (MPI_COMM_NULL != inter) {
        MPI_Comm_free(&inter);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&ring);
    MPI_Op_free(&user_op);
    return evt_test_finish("test_coll_events");
}
