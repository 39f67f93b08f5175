/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 * The memory-release producer in a real MPI process (singleton; evt comes
 * up through mca_hook_evt.so at MPI_Init). Argument:
 *   sync    released present, release absent; a munmap arrives aggregated
 *   absent  (run with OMPI_MCA_memory=^patcher) neither event registered
 *   ring    (run with OMPI_MCA_evt=ring) release present too: a munmap of a
 *           known region arrives as one event with its bytes and address
 * Prints "N passed, M failed".
 */

#define _GNU_SOURCE
#include "opal_config.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "test/evt_test_check.h"

#define MAX_SEEN 4096
static atomic_int nseen;
static uint64_t seen_bytes[MAX_SEEN], seen_addr[MAX_SEEN];
static atomic_ullong agg_count, agg_bytes;

/* Context: ASYNC_SIGNAL_SAFE callback: atomics and static storage only. */
static void on_release(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                       mca_base_event_cb_safety_t safety, void *user)
{
    int i = atomic_fetch_add(&nseen, 1);
    if (i < MAX_SEEN) {
        (void) mca_base_event_read(rec, 0, &seen_bytes[i]);
        (void) mca_base_event_read(rec, 1, &seen_addr[i]);
    }
}

static void on_released(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                        mca_base_event_cb_safety_t safety, void *user)
{
    uint64_t c = 0, b = 0;
    (void) mca_base_event_read(rec, 0, &c);
    (void) mca_base_event_read(rec, 1, &b);
    atomic_fetch_add(&agg_count, c);
    atomic_fetch_add(&agg_bytes, b);
}

static mca_base_event_registration_t *
listen_on(mca_base_event_t *ev, mca_base_event_cb_safety_t safety, mca_base_event_cb_fn_t fn)
{
    mca_base_event_registration_t *reg = NULL;
    if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &reg)
        || OPAL_SUCCESS != mca_base_event_register_callback(reg, safety, NULL, NULL, fn)) {
        return NULL;
    }
    return reg;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "sync";
    mca_base_event_t *released = NULL, *release = NULL;
    int have_released, have_release;
    const size_t len = 3 * 1024 * 1024 + 4096;

    MPI_Init(&argc, &argv);
    have_released = OPAL_SUCCESS
                    == mca_base_event_get_by_name("ompi.mca.memory.patcher.released", &released);
    have_release = OPAL_SUCCESS
                   == mca_base_event_get_by_name("ompi.mca.memory.patcher.release", &release);

    if (0 == strcmp(mode, "absent")) {
        CHECK(!have_released, "released absent without memory/patcher");
        CHECK(!have_release, "release absent without memory/patcher");
    } else {
        mca_base_event_registration_t *ra, *rr = NULL;
        void *p;

        CHECK(have_released, "released registered after MPI_Init");
        CHECK(0 == strcmp(mode, "ring") ? have_release : !have_release,
              "release registered exactly when the delivery takes async-signal raises");
        ra = have_released ? listen_on(released, MCA_BASE_EVENT_CB_REQUIRE_NONE, on_released)
                           : NULL;
        if (have_release) {
            rr = listen_on(release, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE, on_release);
            CHECK(NULL != rr, "listen on release");
        }
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        munmap(p, len);
        (void) mca_base_event_flush();
        CHECK(atomic_load(&agg_count) >= 1 && atomic_load(&agg_bytes) >= len,
              "the munmap arrives aggregated");
        if (NULL != rr) {
            int found = 0, n = atomic_load(&nseen);
            for (int i = 0; i < n && i < MAX_SEEN; ++i) {
                found += seen_bytes[i] == len && seen_addr[i] == (uint64_t) (uintptr_t) p;
            }
            CHECK(1 == found, "one per-release event with the munmap's bytes and address");
            (void) mca_base_event_handle_free(rr, NULL, NULL);
        }
        if (NULL != ra) {
            (void) mca_base_event_handle_free(ra, NULL, NULL);
        }
    }
    MPI_Finalize();
    printf("test_memory_mpi %s: ", mode);
    return evt_test_report(NULL);
}
