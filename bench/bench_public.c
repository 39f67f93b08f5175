/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The raise path as an MPI process sees it (never in make check):
 * MPI_Init (the hook and libompi_evt bring evt up, the component chosen by
 * --mca evt / OMPI_MCA_evt as for any job), a producer using the engine's
 * producer API (its own ORDERED source on the default clock, a 16-byte
 * payload), and a tool using the public MPI_T API only
 * (MPI_T_event_handle_alloc, MPI_T_event_register_callback at
 * MPI_T_CB_REQUIRE_NONE, a no-op callback).
 *
 * The machine is shared, so every figure is a ratio to the clock read
 * measured in the same process, in interleaved pairs of batches (a batch of
 * clock reads, then a batch of raises): per pair the ratio, then the
 * median over PAIRS pairs (and its quartiles); the ns figures are medians
 * too. Figures:
 *   clock      source clock read (the producer's source->get_timestamp)
 *   nolisten   raise with nobody listening (the empty call)
 *   deliver1   raise delivered to 1 registration (sync: the callback runs in
 *              the raise; a deferred component: the enqueue, the drain is
 *              done between batches, out of the timing)
 *   deliver8   the same with 8 registrations; "extra" = (deliver8 -
 *              deliver1) / 7 per extra registration, over the clock
 * Output: one "RESULT <figure> <value>" line per figure, then a summary.
 *
 * Goals: sync deliver1 <= 1.3 x clock, each extra registration
 * <= 0.25 x clock; ring deliver1 (enqueue) <= 1.2 x clock.
 */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"
#include "opal/mca/base/mca_base_event.h"

#define PAIRS 201
#define BATCH 1024

static mca_base_event_t *ev;
static mca_base_event_source_t *src;

typedef struct {
    uint64_t seq;
    uint64_t value;
} payload_t;

static void noop_cb(MPI_T_event_instance i, MPI_T_event_registration r, MPI_T_cb_safety s, void *u)
{
    BENCH_CLOBBER();
}

static double batch_clock(void)
{
    return bench_clock_batch(src, BATCH);
}

static double batch_raise(void)
{
    payload_t p = {0, 42};

    return bench_raise_batch(ev, &p, 0, BATCH);
}

/* a drain point outside the timing (deferred components deliver here) */
static void drain(void)
{
    MPI_Count ts;
    (void) MPI_T_source_get_timestamp(src->index, &ts);
}

/* PAIRS interleaved pairs (clock batch, raise batch). Out: medians of the
 * clock and raise ns and the ratio quartiles. */
static void pairs(double *clk, double *raise, double ratio[3])
{
    double c[PAIRS], r[PAIRS], q[PAIRS];

    drain();
    for (int p = 0; p < PAIRS; ++p) {
        c[p] = batch_clock();
        r[p] = batch_raise();
        drain();
        q[p] = r[p] / c[p];
    }
    *clk = bench_quantile(c, PAIRS, 0.5);
    *raise = bench_quantile(r, PAIRS, 0.5);
    ratio[0] = bench_quantile(q, PAIRS, 0.25);
    ratio[1] = bench_quantile(q, PAIRS, 0.5);
    ratio[2] = bench_quantile(q, PAIRS, 0.75);
}

/* 1 registration and 8 cannot be interleaved batch by batch (handles
 * change between them): pairs at 1, then at 8, each against its own clock
 * batches. */
int main(int argc, char **argv)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    MPI_T_event_registration h[8];
    double clk0, none, rnone[3], clk1, one, r1[3], clk8, eight, r8[3];
    const char *comp = getenv("OMPI_MCA_evt");
    const char *clock = getenv("OMPI_MCA_mca_base_event_clock");
    int provided, si, ei, index;

    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    si = mca_base_event_source_register("bench.public", "bench_public's source",
                                        MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, OPAL_COUNT_MAX,
                                        NULL, true, NULL);
    if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)) {
        fprintf(stderr, "bench_public: cannot register the source\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    ei = mca_base_event_register_ptr("ompi", "bench", "public", "raise", "bench_public's event",
                                     OPAL_INFO_LVL_4, 2, types, offsets, NULL,
                                     MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &ev);
    if (0 > ei || MPI_SUCCESS != MPI_T_event_get_index("ompi.bench_public_raise", &index)) {
        fprintf(stderr, "bench_public: cannot register the event\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    pairs(&clk0, &none, rnone);
    for (int n = 0; n < 8; ++n) {
        if (MPI_SUCCESS != MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &h[n])
            || MPI_SUCCESS
                   != MPI_T_event_register_callback(h[n], MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL,
                                                    NULL, noop_cb)) {
            fprintf(stderr, "bench_public: cannot listen\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (0 == n) {
            (void) batch_raise(); /* warm: thread record, ring claimed */
            pairs(&clk1, &one, r1);
        }
    }
    (void) batch_raise();
    pairs(&clk8, &eight, r8);
    for (int n = 0; n < 8; ++n) {
        (void) MPI_T_event_handle_free(h[n], NULL, NULL);
    }

    printf("bench_public: evt=%s clock=%s; %d interleaved pairs of %d clock reads / %d raises\n",
           NULL == comp ? "(default)" : comp, NULL == clock ? "(default)" : clock, PAIRS, BATCH,
           BATCH);
    printf("RESULT clock_ns %.2f\n", clk1);
    printf("RESULT nolisten_ns %.2f\nRESULT nolisten_ratio %.3f\n", none, rnone[1]);
    printf("RESULT deliver1_ns %.2f\nRESULT deliver1_ratio %.3f\n", one, r1[1]);
    printf("RESULT deliver1_ratio_q1 %.3f\nRESULT deliver1_ratio_q3 %.3f\n", r1[0], r1[2]);
    printf("RESULT deliver8_ns %.2f\nRESULT deliver8_ratio %.3f\n", eight, r8[1]);
    printf("RESULT extra_reg_ratio %.3f\n", (r8[1] - r1[1]) / 7.0);
    printf("  clock read              %8.2f ns\n", clk1);
    printf("  raise, nobody listening %8.2f ns  (%.3f x clock)\n", none, rnone[1]);
    printf("  delivery to 1 reg       %8.2f ns  (%.3f x clock [q1 %.3f, q3 %.3f])\n", one, r1[1],
           r1[0], r1[2]);
    printf("  delivery to 8 regs      %8.2f ns  (%.3f x clock; %.3f x clock per extra reg)\n",
           eight, r8[1], (r8[1] - r1[1]) / 7.0);
    MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
