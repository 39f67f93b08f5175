/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Stress: evt/file with the engine. 3 threads x N raises
 * (default 100,000; divided by 20 in a TSan build; argv[1] overrides) into
 * small file rings (overwrite-oldest: the raisers evict while the main
 * thread drains to a counting registration). At the end:
 *   - the registration: delivered + dropped == raised, each thread's
 *     records in the order raised;
 *   - the file (read with ompi/mca/common/evt/common_evt_flight_read.c): valid, each ring holds
 *     one thread's newest records in order, and records + overwritten ==
 *     raised, exactly (nothing lost, nothing invented).
 * Plain C (TSan). */
#include "ompi_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ompi/constants.h"
#include "ompi/mca/common/evt/common_evt_flight_read.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/runtime/opal.h"
#include "test/evt_test_check.h"

#define EVT_TSAN_DIVISOR (EVT_TEST_UNDER_TSAN ? 20 : 1)

#define NTHREADS 3

typedef struct {
    uint64_t seq;
    uint64_t who;
} payload_t;

static atomic_long delivered, dropped, out_of_order;
static uint64_t next_seq[NTHREADS]; /* callbacks run in one drainer at a time */
static mca_base_event_t *ev;
static long per_thread;
static atomic_int producers_left;

static void cb(mca_base_event_record_t *inst, mca_base_event_registration_t *reg,
               mca_base_event_cb_safety_t safety, void *ud)
{
    const payload_t *p = inst->data;

    if (p->who < NTHREADS) {
        if (p->seq < next_seq[p->who]) {
            atomic_fetch_add(&out_of_order, 1);
        }
        next_seq[p->who] = p->seq + 1;
    }
    atomic_fetch_add(&delivered, 1);
}

static void dropped_cb(opal_count_t n, mca_base_event_registration_t *reg, int si,
                       mca_base_event_cb_safety_t s, void *ud)
{
    atomic_fetch_add(&dropped, (long) n);
}

static void *raiser(void *arg)
{
    payload_t p = {0, (uint64_t) (uintptr_t) arg};

    for (long i = 0; i < per_thread; ++i) {
        p.seq = (uint64_t) i;
        (void) mca_base_event_raise(ev, NULL, &p);
    }
    atomic_fetch_sub(&producers_left, 1);
    return NULL;
}

int main(int argc, char **argv)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    mca_base_event_registration_t *h = NULL;
    mca_base_event_source_t *src = NULL;
    ompi_evt_base_module_t *m;
    pthread_t t[NTHREADS];
    char dir[] = "/tmp/evt_stress_file.XXXXXX", path[4096];
    mca_common_evt_flight_file_t *f = NULL;
    uint64_t last[NTHREADS + 1];
    long total;
    int prio, si;

    per_thread = (argc > 1 ? atol(argv[1]) : 100000) / EVT_TSAN_DIVISOR;
    total = per_thread * NTHREADS;
    if (NULL == mkdtemp(dir) || OPAL_SUCCESS != opal_init_util(NULL, NULL)
        || OPAL_SUCCESS != mca_base_event_init()
        || OMPI_SUCCESS
               != mca_evt_file_component.super.evtc_version.mca_register_component_params()) {
        fprintf(stderr, "set-up failed\n");
        return 1;
    }
    mca_evt_file_component.dir = dir;
    mca_evt_file_component.rings = NTHREADS + 1;
    mca_evt_file_component.size = 128 * 1024;
    m = mca_evt_file_component.super.evtc_init(&prio);
    si = mca_base_event_source_register("ompi.stress.file", "stress", MCA_BASE_EVENT_SOURCE_ORDERED,
                                        1000000000, OPAL_COUNT_MAX, NULL, true, NULL);
    if (NULL == m || OMPI_SUCCESS != ompi_evt_base_install("file", m, prio) || 0 > si
        || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)
        || 0 > mca_base_event_register_ptr("ompi", "stress", "file", "ev", "stress",
                                           OPAL_INFO_LVL_4, 2, types, offsets, NULL,
                                           MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &ev)
        || OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &h)
        || OPAL_SUCCESS
               != mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                   cb)
        || OPAL_SUCCESS != mca_base_event_set_dropped_handler(h, dropped_cb)) {
        fprintf(stderr, "install failed\n");
        return 1;
    }
    (void) snprintf(path, sizeof(path), "%s", ompi_evt_file_test_path());
    atomic_store(&producers_left, NTHREADS);
    for (int i = 0; i < NTHREADS; ++i) {
        if (0 != pthread_create(&t[i], NULL, raiser, (void *) (uintptr_t) i)) {
            return 1;
        }
    }
    while (0 < atomic_load(&producers_left)) {
        (void) ompi_evt_base_kit_drain_once(MCA_BASE_EVENT_CB_REQUIRE_NONE, 256);
    }
    for (int i = 0; i < NTHREADS; ++i) {
        (void) pthread_join(t[i], NULL);
    }
    (void) mca_base_event_flush();
    (void) mca_base_event_handle_free(h, NULL, NULL);
    (void) mca_base_event_flush();
    CHECK(atomic_load(&delivered) + atomic_load(&dropped) == total,
          "registration: delivered + dropped == raised");
    CHECK(0 == atomic_load(&out_of_order), "registration: each thread's records in order");
    CHECK(0 < atomic_load(&delivered), "registration: something delivered");
    printf("registration: %ld raised, %ld delivered, %ld dropped\n", total, atomic_load(&delivered),
           atomic_load(&dropped));

    /* the file, still open (as after a crash) */
    CHECK(0 == mca_common_evt_flight_open(path, &f), "file read");
    if (NULL != f) {
        int bad = 0;
        CHECK(0 == f->nproblems, "file valid");
        CHECK((long) f->nrecords + (long) f->overwritten == total,
              "file: records + overwritten == raised");
        for (int i = 0; i <= NTHREADS; ++i) {
            last[i] = UINT64_MAX;
        }
        for (size_t i = 0; i < f->nrecords; ++i) {
            payload_t p;
            uint32_t r = f->records[i].ring;
            memcpy(&p, f->records[i].payload, sizeof(p));
            if (r > NTHREADS || p.who >= NTHREADS
                || (UINT64_MAX != last[r] && p.seq != last[r] + 1)) {
                ++bad;
            }
            last[r] = p.seq;
        }
        CHECK(0 == bad, "file: each ring one thread's records, consecutive");
        printf("file: %zu records, %llu overwritten\n", f->nrecords,
               (unsigned long long) f->overwritten);
        mca_common_evt_flight_free(f);
    }
    ompi_evt_base_uninstall();
    (void) mca_base_event_finalize();
    (void) unlink(path);
    (void) rmdir(dir);
    return evt_test_report(NULL);
}
