/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * evt/file benchmark (make bench-file; never in make check): the raise cost
 * of evt/file next to evt/ring in one run, and the read-back rate.
 *
 * ns per raise, medians over batches of 16384 raises (16-byte payload, one
 * registration with a no-op callback, one thread), in rounds that
 * alternate the components in the same process, so that both see the same
 * machine load:
 *   ring  (drop-new, the default; drained between batches, so never full)
 *   ring  (overwrite-oldest, full: every raise evicts, the steady state of
 *          a flight recorder)
 *   file  (full, every raise evicts: the steady state)
 * Both rings are 4 MiB. Goal: file within 10% of ring.
 * Read-back: mca_common_evt_flight_open() of the file left by the file phase (a full
 * 4 MiB ring), records per second and MB/s, median of 9.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "ompi/constants.h"
#include "ompi/mca/common/evt/common_evt_flight_read.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_kit.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "ompi/mca/evt/ring/evt_ring.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "opal/runtime/opal.h"

#define BATCH      16384
#define BATCHES    5 /* per component per round */
#define ROUNDS     20
#define RING_BYTES (4 * 1024 * 1024)

typedef struct {
    uint64_t seq;
    uint64_t who;
} payload_t;

static mca_base_event_t *ev;
static char dir[64];

static double batch_raise(uint64_t base)
{
    payload_t p = {0, 2};

    return bench_raise_batch(ev, &p, base, BATCH);
}

static void drain(void)
{
    while (0 < ompi_evt_base_kit_drain_once(MCA_BASE_EVENT_CB_REQUIRE_NONE, -1)) {
    }
}

enum { RING_DROP, RING_OVERWRITE, FILE_REC, NKINDS };
static const char *kind_name[NKINDS] = {"ring (drop-new, drained)", "ring (overwrite, full)",
                                        "file (overwrite, full)"};

static int install(int kind)
{
    ompi_evt_base_module_t *m;
    int prio;

    if (FILE_REC == kind) {
        mca_evt_file_component.dir = dir;
        mca_evt_file_component.rings = 1;
        mca_evt_file_component.size = 2 * RING_BYTES; /* one 4 MiB ring fits */
        m = mca_evt_file_component.super.evtc_init(&prio);
        return NULL == m ? 1 : ompi_evt_base_install("file", m, prio);
    }
    mca_evt_ring_component.ring_size = RING_BYTES;
    mca_evt_ring_component.pool_size = 8;
    mca_evt_ring_component.overflow = RING_DROP == kind ? OMPI_EVT_OVERFLOW_DROP_NEW
                                                        : OMPI_EVT_OVERFLOW_OVERWRITE;
    m = mca_evt_ring_component.super.evtc_init(&prio);
    return NULL == m ? 1 : ompi_evt_base_install("ring", m, prio);
}

/* One phase: install, fill (untimed) to the steady state, time batches. */
static int phase(int kind, double *v, char *keep_path, size_t keep_len)
{
    uint64_t seq = 0;

    if (0 != install(kind)) {
        fprintf(stderr, "bench_file: cannot install %s\n", kind_name[kind]);
        return 1;
    }
    if (RING_DROP != kind) {
        for (int i = 0; i < 2 * RING_BYTES / (56 * BATCH) + 1; ++i) {
            (void) batch_raise(seq);
            seq += BATCH;
        }
        drain();
    }
    {
        struct rusage ru0, ru1;
        (void) getrusage(RUSAGE_SELF, &ru0);
        for (int b = 0; b < BATCHES; ++b) {
            v[b] = batch_raise(seq);
            seq += BATCH;
            drain(); /* untimed: dispatch to the no-op callback */
        }
        (void) getrusage(RUSAGE_SELF, &ru1);
        if (getenv("BENCH_FAULTS")) {
            printf("%s: %ld minor faults, %ld major\n", kind_name[kind],
                   ru1.ru_minflt - ru0.ru_minflt, ru1.ru_majflt - ru0.ru_majflt);
        }
    }
    if (FILE_REC == kind) {
        const char *path = ompi_evt_file_test_path();
        (void) snprintf(keep_path, keep_len, "%s", NULL == path ? "" : path);
    }
    (void) mca_base_event_flush();
    ompi_evt_base_uninstall();
    return 0;
}

int main(void)
{
    const mca_base_var_type_t types[2] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_UINT64_T};
    const ptrdiff_t offsets[2] = {0, 8};
    static double all[NKINDS][ROUNDS * BATCHES];
    double v[BATCHES], med[NKINDS], rd[9];
    mca_base_event_registration_t *h = NULL;
    char path[4096] = "", host[256] = "";
    mca_common_evt_flight_file_t *f = NULL;
    size_t nrec = 0;

    (void) snprintf(dir, sizeof(dir), "/tmp/evt_bench_file.XXXXXX");
    if (NULL == mkdtemp(dir) || OPAL_SUCCESS != opal_init_util(NULL, NULL)
        || OPAL_SUCCESS != mca_base_event_init()
        || OMPI_SUCCESS != mca_evt_ring_component.super.evtc_version.mca_register_component_params()
        || OMPI_SUCCESS
               != mca_evt_file_component.super.evtc_version.mca_register_component_params()) {
        fprintf(stderr, "bench_file: set-up failed\n");
        return 1;
    }
    {
        mca_base_event_source_t *src = NULL;
        int si = mca_base_event_source_register("ompi.bench.file", "bench",
                                                MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000,
                                                OPAL_COUNT_MAX, NULL, true, NULL);
        if (0 > si || OPAL_SUCCESS != mca_base_event_source_get_by_index(si, &src)
            || 0 > mca_base_event_register_ptr("ompi", "bench", "file", "ev", "bench",
                                               OPAL_INFO_LVL_4, 2, types, offsets, NULL,
                                               MCA_BASE_VAR_BIND_NO_OBJECT, 0, src, NULL, &ev)) {
            fprintf(stderr, "bench_file: cannot register the event\n");
            return 1;
        }
    }
    if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &h)
        || OPAL_SUCCESS
               != mca_base_event_register_callback(h, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                   bench_noop_cb)) {
        fprintf(stderr, "bench_file: cannot register a callback\n");
        return 1;
    }
    for (int r = 0; r < ROUNDS; ++r) {
        for (int k = 0; k < NKINDS; ++k) {
            if (0 != phase(k, v, path, sizeof(path))) {
                return 1;
            }
            memcpy(&all[k][r * BATCHES], v, sizeof(v));
            if (FILE_REC == k && r + 1 < ROUNDS) {
                (void) unlink(path); /* the next round creates it again */
            }
        }
    }
    for (int k = 0; k < NKINDS; ++k) {
        med[k] = bench_median(all[k], ROUNDS * BATCHES);
    }
    for (int i = 0; i < 9; ++i) {
        double t0 = bench_now_ns();
        if (0 != mca_common_evt_flight_open(path, &f)) {
            fprintf(stderr, "bench_file: cannot read %s\n", path);
            return 1;
        }
        rd[i] = bench_now_ns() - t0;
        nrec = f->nrecords;
        if (0 != f->nproblems) {
            fprintf(stderr, "bench_file: %s: %s\n", path, f->problems[0]);
            return 1;
        }
        if (i < 8) {
            mca_common_evt_flight_free(f);
        }
    }
    (void) gethostname(host, sizeof(host) - 1);
    printf("evt/file vs evt/ring, ns per raise (16-byte payload, one no-op callback, 1 thread,\n"
           "4 MiB ring; median of %d batches of %d over %d alternating rounds; host %s, %ld "
           "cpus):\n",
           ROUNDS * BATCHES, BATCH, ROUNDS, host, sysconf(_SC_NPROCESSORS_ONLN));
    for (int k = 0; k < NKINDS; ++k) {
        printf("  %-28s %7.2f ns\n", kind_name[k], med[k]);
    }
    printf("  file / ring (drop-new)       %7.1f %%  (goal <= 110 %%)\n",
           100.0 * med[FILE_REC] / med[RING_DROP]);
    printf("  file / ring (overwrite)      %7.1f %%\n",
           100.0 * med[FILE_REC] / med[RING_OVERWRITE]);
    printf(
        "read-back (mca_common_evt_flight_open of %zu records, %zu bytes): %.1f ms = %.2f million "
        "records/s, %.0f MB/s\n",
        nrec, f->len, bench_median(rd, 9) / 1e6, nrec / (bench_median(rd, 9) / 1e9) / 1e6,
        f->len / (bench_median(rd, 9) / 1e9) / 1e6);
    mca_common_evt_flight_free(f);
    (void) unlink(path);
    (void) rmdir(dir);
    (void) mca_base_event_handle_free(h, NULL, NULL);
    (void) mca_base_event_finalize();
    return 0;
}
