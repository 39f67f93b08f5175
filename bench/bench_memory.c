/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Cost of the memory-release producer on munmap of 1 MiB regions (an MPI
 * singleton: MPI_Init brings evt up through mca_hook_evt.so):
 *   none       nobody listens: the hook is not installed
 *   aggregated a registration on ompi.mca.memory.patcher.released: the hook
 *              adds to the sink, drained between rounds
 *   per-release a registration on ompi.mca.memory.patcher.release (only with
 *              an async-signal delivery, `OMPI_MCA_evt=ring`): one raise per
 *              munmap from inside the hook, drained between rounds
 * Modes alternate round by round (drift hits all alike); the figure is the
 * median over rounds of the mean ns per munmap. Regions are mapped (and
 * touched, with BENCH_TOUCH=1) outside the timed part.
 * Prints ns per munmap and ratios to "none"; goal: aggregated <= 1.05.
 */

#define _GNU_SOURCE
#include "opal_config.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"

#include "bench_common.h"
#include "opal/mca/memory/patcher/memory_patcher_event.h"

#define REGION    (1024 * 1024)
#define PER_ROUND 256
#define ROUNDS    41

enum { MODE_NONE, MODE_AGG, MODE_PER, NMODES };
static const char *mode_name[NMODES] = {"none", "aggregated", "per-release"};

static atomic_ullong delivered_count, delivered_bytes, per_release_events;

static void on_released(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                        mca_base_event_cb_safety_t safety, void *user)
{
    uint64_t c = 0, b = 0;
    (void) mca_base_event_read(rec, 0, &c);
    (void) mca_base_event_read(rec, 1, &b);
    atomic_fetch_add(&delivered_count, c);
    atomic_fetch_add(&delivered_bytes, b);
}

static void on_release(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                       mca_base_event_cb_safety_t safety, void *user)
{
    atomic_fetch_add(&per_release_events, 1);
}

/* One round: map PER_ROUND regions, time their munmaps. ns per munmap. */
static double round_ns(int touch)
{
    static void *regions[PER_ROUND];
    double t0, t1;

    for (int i = 0; i < PER_ROUND; ++i) {
        regions[i] = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (MAP_FAILED == regions[i]) {
            perror("mmap");
            exit(2);
        }
        if (touch) {
            for (size_t o = 0; o < REGION; o += 4096) {
                ((volatile char *) regions[i])[o] = 1;
            }
        }
    }
    t0 = bench_now_ns();
    for (int i = 0; i < PER_ROUND; ++i) {
        munmap(regions[i], REGION);
    }
    t1 = bench_now_ns();
    return (t1 - t0) / PER_ROUND;
}

static mca_base_event_registration_t *
listen_on(mca_base_event_t *ev, mca_base_event_cb_safety_t safety, mca_base_event_cb_fn_t fn)
{
    mca_base_event_registration_t *reg = NULL;

    if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &reg)
        || OPAL_SUCCESS != mca_base_event_register_callback(reg, safety, NULL, NULL, fn)) {
        fprintf(stderr, "cannot listen on %s\n", ev->name);
        exit(2);
    }
    return reg;
}

int main(int argc, char **argv)
{
    mca_base_event_t *released = NULL, *release = NULL;
    double samples[NMODES][ROUNDS], median[NMODES];
    int nmodes, touch = NULL != getenv("BENCH_TOUCH") && '1' == getenv("BENCH_TOUCH")[0];
    uint64_t expected_agg = 0;

    MPI_Init(&argc, &argv);
    if (OPAL_SUCCESS != mca_base_event_get_by_name("ompi.mca.memory.patcher.released", &released)) {
        printf("bench_memory: ompi.mca.memory.patcher.released is not registered here "
               "(memory hooks unavailable?)\n");
        MPI_Finalize();
        return 1;
    }
    nmodes = OPAL_SUCCESS == mca_base_event_get_by_name("ompi.mca.memory.patcher.release", &release)
                 ? NMODES
                 : MODE_PER;

    (void) round_ns(touch); /* warm up */
    for (int r = 0; r < ROUNDS; ++r) {
        for (int m = 0; m < nmodes; ++m) {
            mca_base_event_registration_t *reg = NULL;

            if (MODE_AGG == m) {
                reg = listen_on(released, MCA_BASE_EVENT_CB_REQUIRE_NONE, on_released);
                expected_agg += PER_ROUND;
            } else if (MODE_PER == m) {
                reg = listen_on(release, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE, on_release);
            }
            samples[m][r] = round_ns(touch);
            (void) mca_base_event_flush(); /* drain outside the timed part */
            if (NULL != reg) {
                (void) mca_base_event_handle_free(reg, NULL, NULL);
            }
        }
    }

    printf("bench_memory: munmap of 1 MiB regions (%s), %d rounds x %d, median of round means\n",
           touch ? "touched" : "untouched", ROUNDS, PER_ROUND);
    for (int m = 0; m < nmodes; ++m) {
        qsort(samples[m], ROUNDS, sizeof(double), bench_cmp_double);
        median[m] = samples[m][ROUNDS / 2];
    }
    for (int m = 0; m < nmodes; ++m) {
        printf("  %-12s %9.1f ns/munmap   ratio %.3f\n", mode_name[m], median[m],
               median[m] / median[MODE_NONE]);
    }
    if (nmodes < NMODES) {
        printf("  %-12s (not registered: the delivery takes no async-signal raises; run with "
               "OMPI_MCA_evt=ring)\n",
               mode_name[MODE_PER]);
    }
    printf("  aggregated events carried %llu releases (%llu munmaps timed), %llu MiB\n",
           (unsigned long long) atomic_load(&delivered_count), (unsigned long long) expected_agg,
           (unsigned long long) (atomic_load(&delivered_bytes) / REGION));
    if (nmodes == NMODES) {
        printf("  per-release events delivered: %llu (%d munmaps timed)\n",
               (unsigned long long) atomic_load(&per_release_events), ROUNDS * PER_ROUND);
    }
    printf("  goal: aggregated ratio <= 1.05: %s\n",
           median[MODE_AGG] <= 1.05 * median[MODE_NONE] ? "met" : "NOT met");
    MPI_Finalize();
    return 0;
}
