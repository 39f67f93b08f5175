/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Cost of the p2p producers on the message path, 2 ranks (mpirun -np 2):
 *   pingpong  8-byte ping-pong, one-way latency in ns
 *   msgrate   windows of 64 8-byte Isend (rank 0) / Irecv (rank 1) + Waitall,
 *             an ack per window; messages per second
 * Built twice: bench_p2p (linked with libompi_evt) and bench_p2p_plain (not
 * linked at all, -DEVT_PLAIN). Argument "listen" subscribes a counting
 * callback to both p2p events (through whatever evt component is selected:
 * --mca evt sync / ring). Prints one line per figure:
 *   RESULT <test> <value>
 * run_bench_p2p.sh runs the configurations interleaved, repeatedly, and
 * prints medians and spreads.
 *
 * Argument "self" (bench_p2p only; one process, mpirun -np 1 or a
 * singleton): the same loops with the rank talking to itself, so that a
 * loaded machine cannot desynchronise two busy-polling ranks (which makes
 * two-rank figures there mostly scheduling noise). Per block the best of
 * SELF_REPS short runs (the least disturbed). Three kinds of block, their
 * order rotating from one set to the next: without a listener (plain);
 * with one (both p2p events, the callback at the level given by
 * BENCH_CB_LEVEL: none (default) or restricted); and without a listener
 * but reading the producer's clock where the producer would, as often
 * (clock: the floor of any recording whose events carry a start and a
 * completion time, before anything is stored). Per set the ratios to
 * plain, then their median and quartiles over SELF_PAIRS sets:
 *   RESULT self_<test>_ratio_{median,q1,q3} <value>        listen / plain
 *   RESULT self_<test>_clock_ratio_{median,q1,q3} <value>  clock / plain
 *   RESULT self_<test>_{plain,listen,clock}_ns <median ns per message>
 *   self pingpong: MPI_Send to itself + MPI_Recv (one message per
 *   iteration, the latency path); self msgrate: windows of 64 MPI_Irecv +
 *   64 MPI_Isend to itself completed by one MPI_Waitall; self matched:
 *   MPI_Send to itself + MPI_Mprobe + MPI_Mrecv (mpi4py's receive path).
 *
 * Argument "abab" (bench_p2p only) measures the listener's cost inside one
 * process, which a shared machine disturbs far less than separate runs:
 * ABAB_BLOCKS pairs of blocks, each pair one block without a listener and
 * one with it (both ranks subscribe / free their handles between blocks;
 * the order inside a pair alternates). Prints, per figure, the median and
 * the quartiles of the per-pair ratios (listening / not listening):
 *   RESULT abab_<test>_ratio_{median,q1,q3} <value>
 */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PP_ITERS    20000
#define MR_WINDOW   64
#define MR_WINDOWS  4000
#define ABAB_BLOCKS 40

static long events = 0;
static int rank;
static char buf[8], bufs[MR_WINDOW][8];

/** One-way ping-pong latency over @p iters round trips, ns. */
static double pingpong(int iters)
{
    double t0, t1;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
        if (0 == rank) {
            MPI_Send(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (1 == rank) {
            MPI_Recv(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
    }
    t1 = MPI_Wtime();
    return (t1 - t0) * 1e9 / (2.0 * iters);
}

/** Message rate over @p windows windows, messages per second. */
static double msgrate(int windows)
{
    MPI_Request rq[MR_WINDOW];
    double t0, t1;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int w = 0; w < windows; ++w) {
        if (0 == rank) {
            for (int i = 0; i < MR_WINDOW; ++i) {
                MPI_Isend(bufs[i], 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &rq[i]);
            }
            MPI_Waitall(MR_WINDOW, rq, MPI_STATUSES_IGNORE);
            MPI_Recv(buf, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (1 == rank) {
            for (int i = 0; i < MR_WINDOW; ++i) {
                MPI_Irecv(bufs[i], 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &rq[i]);
            }
            MPI_Waitall(MR_WINDOW, rq, MPI_STATUSES_IGNORE);
            MPI_Send(buf, 0, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
        }
    }
    t1 = MPI_Wtime();
    return (double) windows * MR_WINDOW / (t1 - t0);
}

#ifndef EVT_PLAIN
#    include <stdbool.h>

#    include "bench_common.h" /* the quantiles */
#    include "opal/mca/base/mca_base_event.h"

/* The clock block: the producer's clock (a source on the default clock,
 * read through its source as the producer reads its own) where the p2p
 * producer reads it, nobody listening. */
static mca_base_event_source_t *clock_src;
static bool clock_on;
static volatile opal_count_t clock_sink;

/** One read of the producer's clock, in the clock block only. */
static inline void producer_clock(void)
{
    if (clock_on) {
        clock_sink = mca_base_event_source_now(clock_src);
    }
}

/** One-process loops (the "self" mode): ns per message. In the clock
 *  block each reads the clock where the producer does: a blocking call's
 *  start and completion; MPI_Mprobe's start (the receive's) and MPI_Mrecv's
 *  completion; each MPI_Irecv's start; each MPI_Isend's start, which is
 *  its completion too (a send to a posted receive completes at once); one
 *  read for all the completions of a MPI_Waitall. */
static double self_pingpong(int iters)
{
    double t0 = MPI_Wtime();

    for (int i = 0; i < iters; ++i) {
        producer_clock();
        MPI_Send(buf, 8, MPI_CHAR, rank, 3, MPI_COMM_WORLD);
        producer_clock();
        producer_clock();
        MPI_Recv(buf, 8, MPI_CHAR, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        producer_clock();
    }
    return (MPI_Wtime() - t0) * 1e9 / iters;
}

static double self_matched(int iters)
{
    double t0 = MPI_Wtime();
    MPI_Message msg;

    for (int i = 0; i < iters; ++i) {
        producer_clock();
        MPI_Send(buf, 8, MPI_CHAR, rank, 5, MPI_COMM_WORLD);
        producer_clock();
        producer_clock();
        MPI_Mprobe(rank, 5, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(buf, 8, MPI_CHAR, &msg, MPI_STATUS_IGNORE);
        producer_clock();
    }
    return (MPI_Wtime() - t0) * 1e9 / iters;
}

static double self_msgrate(int windows)
{
    static char rbufs[MR_WINDOW][8];
    MPI_Request rq[2 * MR_WINDOW];
    double t0 = MPI_Wtime();

    for (int w = 0; w < windows; ++w) {
        for (int i = 0; i < MR_WINDOW; ++i) {
            producer_clock();
            MPI_Irecv(rbufs[i], 8, MPI_CHAR, rank, 4, MPI_COMM_WORLD, &rq[i]);
        }
        for (int i = 0; i < MR_WINDOW; ++i) {
            producer_clock();
            MPI_Isend(bufs[i], 8, MPI_CHAR, rank, 4, MPI_COMM_WORLD, &rq[MR_WINDOW + i]);
        }
        MPI_Waitall(2 * MR_WINDOW, rq, MPI_STATUSES_IGNORE);
        producer_clock();
    }
    return (MPI_Wtime() - t0) * 1e9 / ((double) windows * MR_WINDOW);
}

static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety s,
                     void *u)
{
    ++events;
}

/** BENCH_CB_LEVEL=restricted registers the callbacks at
 *  MPI_T_CB_REQUIRE_MPI_RESTRICTED (drained inside progress too). */
static MPI_T_cb_safety cb_level(void)
{
    const char *l = getenv("BENCH_CB_LEVEL");

    return NULL != l && 0 == strcmp(l, "restricted") ? MPI_T_CB_REQUIRE_MPI_RESTRICTED
                                                     : MPI_T_CB_REQUIRE_NONE;
}

static MPI_T_event_registration subscribe(const char *name)
{
    MPI_T_event_registration reg = NULL;
    int index;

    if (MPI_SUCCESS != MPI_T_event_get_index(name, &index)
        || MPI_SUCCESS != MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &reg)
        || MPI_SUCCESS
               != MPI_T_event_register_callback(reg, cb_level(), MPI_INFO_NULL, NULL, on_event)) {
        fprintf(stderr, "cannot subscribe to %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return reg;
}

static MPI_T_event_registration regs[2];

static void listen_on(int on)
{
    if (on) {
        regs[0] = subscribe("ompi.mpi.p2p_send_complete");
        regs[1] = subscribe("ompi.mpi.p2p_recv_complete");
    } else {
        MPI_T_event_handle_free(regs[0], NULL, NULL);
        MPI_T_event_handle_free(regs[1], NULL, NULL);
        regs[0] = regs[1] = NULL;
    }
    /* a drain point: what the block left is delivered outside the timing */
    if (!on) {
        MPI_Count ts;
        (void) MPI_T_source_get_timestamp(0, &ts);
    }
}

/** "RESULT NAME_ratio_median", "..._q1" and "..._q3" lines of the @p n
 *  ratios @p v (sorted in place). */
static void print_ratio_quartiles(const char *name, double *v, int n)
{
    double median = bench_quantile(v, n, 0.5), q1 = bench_quantile(v, n, 0.25),
           q3 = bench_quantile(v, n, 0.75);

    printf("RESULT %s_ratio_median %.4f\nRESULT %s_ratio_q1 %.4f\nRESULT %s_ratio_q3 %.4f\n", name,
           median, name, q1, name, q3);
}

/** The "abab" mode: see the file comment. */
static void abab(void)
{
    static double pp[ABAB_BLOCKS], mr[ABAB_BLOCKS];

    pingpong(1000);
    msgrate(200);
    for (int b = 0; b < ABAB_BLOCKS; ++b) {
        double pp_t[2], mr_t[2];
        for (int half = 0; half < 2; ++half) {
            int on = (b % 2) ^ half;
            if (on) {
                listen_on(1);
            }
            pp_t[on] = pingpong(PP_ITERS / 4);
            mr_t[on] = msgrate(MR_WINDOWS / 4);
            if (on) {
                listen_on(0);
            }
        }
        pp[b] = pp_t[1] / pp_t[0]; /* latency: > 1 is slower */
        mr[b] = mr_t[0] / mr_t[1]; /* rate, inverted: > 1 is slower */
    }
    if (0 == rank) {
        print_ratio_quartiles("abab_pingpong", pp, ABAB_BLOCKS);
        print_ratio_quartiles("abab_msgrate", mr, ABAB_BLOCKS);
    }
}
#endif

#ifndef EVT_PLAIN
#    define SELF_PAIRS      41
#    define SELF_REPS       5
#    define SELF_PP_ITERS   2000
#    define SELF_MR_WINDOWS 40

/** Best of SELF_REPS runs of @p fn(@p arg): ns per message. */
static double best_of(double (*fn)(int), int arg)
{
    double best = fn(arg);

    for (int r = 1; r < SELF_REPS; ++r) {
        double t = fn(arg);
        best = t < best ? t : best;
    }
    return best;
}

/** The clock block's source: the default clock, as the producer's. */
static void clock_setup(void)
{
    int si = mca_base_event_source_register("bench.p2p_clock", "bench_p2p's clock block",
                                            MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000,
                                            OPAL_COUNT_MAX, NULL, false, NULL);

    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &clock_src)) {
        fprintf(stderr, "bench_p2p: cannot register the clock block's source\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

enum { SELF_PLAIN, SELF_LISTEN, SELF_CLOCK, SELF_KINDS };

/** The "self" mode: see the file comment. */
static void self_mode(void)
{
    static const char *const kind_name[SELF_KINDS] = {"plain", "listen", "clock"};
    static double pp[SELF_KINDS][SELF_PAIRS], mr[SELF_KINDS][SELF_PAIRS],
        mp[SELF_KINDS][SELF_PAIRS];
    static double ratio[SELF_KINDS][SELF_PAIRS];

    clock_setup();
    (void) self_pingpong(SELF_PP_ITERS);
    (void) self_msgrate(SELF_MR_WINDOWS);
    (void) self_matched(SELF_PP_ITERS);
    for (int b = 0; b < SELF_PAIRS; ++b) {
        for (int k = 0; k < SELF_KINDS; ++k) {
            int kind = (b + k) % SELF_KINDS;
            if (SELF_LISTEN == kind) {
                listen_on(1);
            }
            clock_on = SELF_CLOCK == kind;
            pp[kind][b] = best_of(self_pingpong, SELF_PP_ITERS);
            mr[kind][b] = best_of(self_msgrate, SELF_MR_WINDOWS);
            mp[kind][b] = best_of(self_matched, SELF_PP_ITERS);
            clock_on = false;
            if (SELF_LISTEN == kind) {
                listen_on(0);
            }
        }
    }
    for (int t = 0; t < 3; ++t) {
        double(*v)[SELF_PAIRS] = 0 == t ? pp : 1 == t ? mr : mp;
        const char *test = 0 == t ? "self_pingpong" : 1 == t ? "self_msgrate" : "self_matched";
        char name[64];
        for (int kind = SELF_LISTEN; kind < SELF_KINDS; ++kind) {
            for (int b = 0; b < SELF_PAIRS; ++b) {
                ratio[kind][b] = v[kind][b] / v[SELF_PLAIN][b];
            }
            (void) snprintf(name, sizeof(name), "%s%s", test, SELF_CLOCK == kind ? "_clock" : "");
            print_ratio_quartiles(name, ratio[kind], SELF_PAIRS);
        }
        for (int kind = 0; kind < SELF_KINDS; ++kind) {
            printf("RESULT %s_%s_ns %.1f\n", test, kind_name[kind],
                   bench_quantile(v[kind], SELF_PAIRS, 0.5));
        }
    }
}
#endif

int main(int argc, char **argv)
{
    int listen = argc > 1 && 0 == strcmp(argv[1], "listen");
    double pp = 0.0, mr = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifndef EVT_PLAIN
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    if (argc > 1 && 0 == strcmp(argv[1], "self")) {
        self_mode();
        MPI_T_finalize();
        MPI_Finalize();
        return 0;
    }
    if (argc > 1 && 0 == strcmp(argv[1], "abab")) {
        abab();
        MPI_T_finalize();
        MPI_Finalize();
        return 0;
    }
    if (listen) {
        listen_on(1);
    }
#else
    if (listen) {
        fprintf(stderr, "the plain binary cannot listen\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#endif

    /* warm up, then measure */
    pingpong(1000);
    pp = pingpong(PP_ITERS);
    msgrate(200);
    mr = msgrate(MR_WINDOWS);
    if (0 == rank) {
        printf("RESULT pingpong_ns %.1f\n", pp);
        printf("RESULT msgrate_per_s %.0f\n", mr);
        if (listen) {
            /* events seen by rank 0 (sends + acks received), a sanity figure */
            printf("RESULT events %ld\n", events);
        }
    }
#ifndef EVT_PLAIN
    if (listen) {
        listen_on(0);
    }
    MPI_T_finalize();
#endif
    MPI_Finalize();
    return 0;
}
