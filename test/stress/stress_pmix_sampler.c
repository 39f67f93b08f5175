/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 * The PMIx producer's /proc sampler thread under concurrency (also under
 * TSan): the sampler is started and stopped 3 times (rate 1 s, about two
 * samples per run) while the main thread allocates and frees registrations
 * on the same event as fast as it can (8 alive at any time, so the sampler
 * dispatches to registrations being freed). A registration alive the whole time
 * (THREAD_SAFE callback) sees consecutive seq numbers, delivered + dropped
 * == the samples raised (first to last seq); every sample's pid and rank
 * are right. No delivery component: the engine dispatches at the raise, on
 * the sampler thread.
 */

#include "opal_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_pmix.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/runtime/opal.h"
#include "test/evt_test_check.h"

#define RUNS   3
#define NCHURN 8

/* written by the sampler thread's raises, read by main after the runs */
static atomic_uint delivered, bad_fields, first_seq, last_seq, out_of_order;
static atomic_long dropped;
static atomic_bool seen_any;
static atomic_ulong churn_delivered;
static int keep_tag;

static void on_sample(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                      mca_base_event_cb_safety_t safety, void *user)
{
    ompi_evt_pmix_resource_usage_payload_t p;

    if (&keep_tag != user) {
        atomic_fetch_add(&churn_delivered, 1); /* a short-lived registration */
        return;
    }
    if (OPAL_SUCCESS != mca_base_event_copy(rec, &p)) {
        atomic_fetch_add(&bad_fields, 1);
        return;
    }
    if (p.pid != (int32_t) getpid() || 7 != p.rank || OMPI_EVT_PMIX_ORIGIN_PROC != p.origin
        || 0 == p.num_threads || 0.0 >= p.rss_mb) {
        atomic_fetch_add(&bad_fields, 1);
    }
    if (!atomic_exchange(&seen_any, true)) {
        atomic_store(&first_seq, p.seq);
    } else if (p.seq != atomic_load(&last_seq) + 1) {
        atomic_fetch_add(&out_of_order, 1);
    }
    atomic_store(&last_seq, p.seq);
    atomic_fetch_add(&delivered, 1);
}

static void on_dropped(opal_count_t count, mca_base_event_registration_t *reg, int source,
                       mca_base_event_cb_safety_t safety, void *user)
{
    atomic_fetch_add(&dropped, (long) count);
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    mca_base_event_registration_t *keep = NULL, *live[NCHURN] = {NULL};
    mca_base_event_t *ev = NULL;
    unsigned long churn = 0;
    char what[256];

    CHECK(OPAL_SUCCESS == opal_init_util(NULL, NULL), "opal_init_util");
    CHECK(OPAL_SUCCESS == mca_base_event_init(), "engine init");
    CHECK(OPAL_SUCCESS == ompi_evt_producers_register(), "producers registered");
    CHECK(OPAL_SUCCESS == mca_base_event_get_by_name("ompi.pmix.proc_resource_usage", &ev),
          "the resource-usage event exists");
    if (0 < evt_test_failed) {
        return 1;
    }
    CHECK(OPAL_SUCCESS == mca_base_event_handle_alloc(ev, NULL, NULL, &keep), "handle_alloc");
    CHECK(OPAL_SUCCESS
              == mca_base_event_register_callback(keep, MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, NULL,
                                                  &keep_tag, on_sample),
          "register_callback");
    CHECK(OPAL_SUCCESS == mca_base_event_set_dropped_handler(keep, on_dropped),
          "set_dropped_handler");

    for (int run = 0; run < RUNS; ++run) {
        double end = now_s() + 1.3;

        CHECK(OPAL_SUCCESS == ompi_evt_pmix_sampler_start(1, 7, NULL), "sampler start");
        /* registrations come and go while the sampler raises: 8 live at
         * any time, the oldest freed for a new one */
        while (now_s() < end) {
            int k = (int) (churn % NCHURN);

            if (NULL != live[k]) {
                (void) mca_base_event_handle_free(live[k], NULL, NULL);
                live[k] = NULL;
            }
            if (OPAL_SUCCESS == mca_base_event_handle_alloc(ev, NULL, NULL, &live[k])) {
                (void) mca_base_event_register_callback(live[k],
                                                        MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE, NULL,
                                                        NULL, on_sample);
            }
            ++churn;
        }
        ompi_evt_pmix_sampler_stop();
    }
    /* the one sample a stop may find in progress, raised after it */
    usleep(300000);
    (void) mca_base_event_flush();

    /* the long-lived registration: every sample raised, in order, or dropped */
    {
        unsigned d = atomic_load(&delivered), first = atomic_load(&first_seq);
        unsigned last = atomic_load(&last_seq);
        long drop = atomic_load(&dropped);

        snprintf(what, sizeof(what), "%u delivered + %ld dropped == %u raised (seq %u..%u)", d,
                 drop, last - first + 1, first, last);
        CHECK(atomic_load(&seen_any) && (long) d + drop == (long) (last - first + 1), what);
        snprintf(what, sizeof(what), "at least 2 samples per run: %u raised", last - first + 1);
        CHECK(last - first + 1 >= 2 * RUNS, what);
        CHECK(0 == atomic_load(&out_of_order), "consecutive seq numbers");
    }
    CHECK(0 == atomic_load(&bad_fields), "every sample's pid, rank, origin, threads, RSS");
    CHECK(0 < atomic_load(&churn_delivered), "samples reached the short-lived registrations too");
    for (int k = 0; k < NCHURN; ++k) {
        if (NULL != live[k]) {
            (void) mca_base_event_handle_free(live[k], NULL, NULL);
        }
    }
    (void) mca_base_event_handle_free(keep, NULL, NULL);
    (void) mca_base_event_finalize();
    printf("stress_pmix_sampler: %lu registrations churned (%lu samples to them)\n", churn,
           atomic_load(&churn_delivered));
    return evt_test_report("stress_pmix_sampler");
}
