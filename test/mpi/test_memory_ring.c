/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 * The memory-release producer's per-release event through evt/ring, in a
 * real MPI singleton (run with OMPI_MCA_evt=ring; evt comes up through
 * mca_hook_evt.so at MPI_Init). Four registrations live through every case:
 *   agg    ompi.mca.memory.patcher.released, NONE callback
 *   sig    ompi.mca.memory.patcher.release, ASYNC_SIGNAL_SAFE callback only
 *   none   ompi.mca.memory.patcher.release, NONE callback only: the record
 *          is raised in the hook (async-signal context) and dispatched by
 *          the ring's drain in a normal context, so it must reach it
 *   both   ompi.mca.memory.patcher.release, NONE and ASYNC_SIGNAL_SAFE
 *          callbacks: the drain's context (NONE) selects the NONE one
 * Each case runs in a window between two flushes and checks: the per-release
 * instances of the case's own releases (by address) carry the right bytes
 * and address, in all three per-release registrations; the aggregated and
 * per-release views of the window agree (same count, same bytes); nothing
 * is dropped. Cases: munmap of 64 MiB, madvise(MADV_DONTNEED) of 16 MiB,
 * free() of a 64 MiB malloc block, a brk shrink (sbrk), 4 threads unmapping
 * known sizes, and 100 short-lived threads one after another (more than
 * the ring pool holds) each unmapping once.
 * Prints "N passed, M failed".
 */

#define _GNU_SOURCE
#include "opal_config.h"

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_event.h"
#include "opal/mca/base/mca_base_event_delivery.h"
#include "test/evt_test_check.h"

#define MiB (1024 * 1024)

/* Under ASan malloc/free are ASan's allocator: free() does not reach
 * glibc's munmap/brk, so the free() case is skipped there. */
#if defined(__SANITIZE_ADDRESS__)
#    define EVT_ASAN 1
#elif defined(__has_feature)
#    if __has_feature(address_sanitizer)
#        define EVT_ASAN 1
#    endif
#endif
#ifndef EVT_ASAN
#    define EVT_ASAN 0
#endif

/* One per-release view: every instance it received, in static storage (the
 * ASYNC_SIGNAL_SAFE callback may take atomics and static memory only). */
#define MAX_SEEN 16384
typedef struct {
    atomic_int n;
    atomic_int wrong_safety; /* callbacks called with another context than expected */
    uint64_t bytes[MAX_SEEN];
    uint64_t addr[MAX_SEEN];
} view_t;

enum { V_SIG, V_NONE, V_BOTH, NVIEWS };
static const char *view_name[NVIEWS] = {"sig", "none", "both"};
static view_t views[NVIEWS];
static atomic_int both_sig_calls; /* the ASYNC_SIGNAL_SAFE slot of "both": must stay unused */
static atomic_ullong agg_count, agg_bytes;
static atomic_llong drops;

static void record_into(view_t *v, mca_base_event_record_t *rec)
{
    int i = atomic_fetch_add(&v->n, 1);

    if (i < MAX_SEEN) {
        (void) mca_base_event_read(rec, 0, &v->bytes[i]);
        (void) mca_base_event_read(rec, 1, &v->addr[i]);
    }
}

/* The drain runs in a normal context (progress, flush): every callback is
 * called with context NONE, whatever the raise's context was. */
static void on_sig(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                   mca_base_event_cb_safety_t safety, void *user)
{
    if (MCA_BASE_EVENT_CB_REQUIRE_NONE != safety) {
        atomic_fetch_add(&views[V_SIG].wrong_safety, 1);
    }
    record_into(&views[V_SIG], rec);
}

static void on_none(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                    mca_base_event_cb_safety_t safety, void *user)
{
    if (MCA_BASE_EVENT_CB_REQUIRE_NONE != safety) {
        atomic_fetch_add(&views[V_NONE].wrong_safety, 1);
    }
    record_into(&views[V_NONE], rec);
}

static void on_both_none(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                         mca_base_event_cb_safety_t safety, void *user)
{
    if (MCA_BASE_EVENT_CB_REQUIRE_NONE != safety) {
        atomic_fetch_add(&views[V_BOTH].wrong_safety, 1);
    }
    record_into(&views[V_BOTH], rec);
}

static void on_both_sig(mca_base_event_record_t *rec, mca_base_event_registration_t *reg,
                        mca_base_event_cb_safety_t safety, void *user)
{
    atomic_fetch_add(&both_sig_calls, 1);
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

static void on_dropped(opal_count_t count, mca_base_event_registration_t *reg, int source_index,
                       mca_base_event_cb_safety_t safety, void *user)
{
    atomic_fetch_add(&drops, count);
}

static mca_base_event_registration_t *listen_on(mca_base_event_t *ev)
{
    mca_base_event_registration_t *reg = NULL;

    if (OPAL_SUCCESS != mca_base_event_handle_alloc(ev, NULL, NULL, &reg)) {
        return NULL;
    }
    if (OPAL_SUCCESS != mca_base_event_set_dropped_handler(reg, on_dropped)) {
        (void) mca_base_event_handle_free(reg, NULL, NULL);
        return NULL;
    }
    return reg;
}

/* ------------------------------------------------------------------------
 * Windows
 * ------------------------------------------------------------------------ */

/* Start a window: deliver everything pending, then forget it. */
static void window_open(void)
{
    (void) mca_base_event_flush();
    for (int v = 0; v < NVIEWS; ++v) {
        atomic_store(&views[v].n, 0);
    }
    atomic_store(&agg_count, 0);
    atomic_store(&agg_bytes, 0);
}

/* Instances of view @p v in the window with address in [lo, hi]; their
 * bytes summed into *bytes (may be NULL). */
static int count_in(int v, uint64_t lo, uint64_t hi, uint64_t *bytes)
{
    int n = atomic_load(&views[v].n), found = 0;
    uint64_t sum = 0;

    for (int i = 0; i < n && i < MAX_SEEN; ++i) {
        if (views[v].addr[i] >= lo && views[v].addr[i] <= hi) {
            ++found;
            sum += views[v].bytes[i];
        }
    }
    if (NULL != bytes) {
        *bytes = sum;
    }
    return found;
}

/* Exactly one instance at @p addr with @p bytes, in every per-release view. */
static void expect_one(const char *what, void *addr, uint64_t bytes)
{
    uint64_t a = (uint64_t) (uintptr_t) addr, b;

    for (int v = 0; v < NVIEWS; ++v) {
        int n = count_in(v, a, a, &b);
        CHECK(1 == n && bytes == b, "%s, view %s: %d instance(s) at %p, %llu bytes (want 1, %llu)",
              what, view_name[v], n, addr, (unsigned long long) b, (unsigned long long) bytes);
    }
}

/* Close a window: deliver, then the aggregated and every per-release view
 * must agree on count and bytes, and nothing was dropped. */
static void window_close(const char *what)
{
    uint64_t c, b, per_bytes;
    int per_n;

    (void) mca_base_event_flush();
    c = atomic_load(&agg_count);
    b = atomic_load(&agg_bytes);
    for (int v = 0; v < NVIEWS; ++v) {
        per_n = count_in(v, 0, UINT64_MAX, &per_bytes);
        CHECK(atomic_load(&views[v].n) < MAX_SEEN, "%s: view %s overflowed", what, view_name[v]);
        CHECK(c == (uint64_t) per_n && b == per_bytes,
              "%s: aggregated {%llu, %llu} vs per-release view %s {%d, %llu}", what,
              (unsigned long long) c, (unsigned long long) b, view_name[v], per_n,
              (unsigned long long) per_bytes);
        CHECK(0 == atomic_load(&views[v].wrong_safety), "%s: view %s called in context != NONE",
              what, view_name[v]);
    }
    CHECK(0 == atomic_load(&both_sig_calls),
          "%s: the ASYNC_SIGNAL_SAFE callback of 'both' ran %d times (the drain's context is NONE)",
          what, atomic_load(&both_sig_calls));
    CHECK(0 == atomic_load(&drops), "%s: %lld dropped", what, (long long) atomic_load(&drops));
}

/* ------------------------------------------------------------------------
 * Threads
 * ------------------------------------------------------------------------ */

#define NTHREADS 4
#define ROUNDS   200
static pthread_barrier_t start, done, leave;
static void *thread_regions[NTHREADS][ROUNDS];

static size_t thread_len(int t)
{
    return (size_t) (t + 1) * 256 * 1024;
}

static void *unmapper(void *arg)
{
    int t = (int) (uintptr_t) arg;

    for (int i = 0; i < ROUNDS; ++i) {
        thread_regions[t][i] = mmap(NULL, thread_len(t), PROT_READ | PROT_WRITE,
                                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    pthread_barrier_wait(&start);
    for (int i = 0; i < ROUNDS; ++i) {
        if (MAP_FAILED != thread_regions[t][i]) {
            munmap(thread_regions[t][i], thread_len(t));
        }
    }
    /* glibc releases part of a thread's stack (madvise) when it exits: the
     * main thread closes the window before that. */
    pthread_barrier_wait(&done);
    pthread_barrier_wait(&leave);
    return NULL;
}

static void four_threads(void)
{
    pthread_t th[NTHREADS];
    uint64_t want_bytes = 0, got_bytes;
    int want_n = 0, got_n;

    pthread_barrier_init(&start, NULL, NTHREADS + 1);
    pthread_barrier_init(&done, NULL, NTHREADS + 1);
    pthread_barrier_init(&leave, NULL, NTHREADS + 1);
    for (int t = 0; t < NTHREADS; ++t) {
        if (0 != pthread_create(&th[t], NULL, unmapper, (void *) (uintptr_t) t)) {
            CHECK(0, "pthread_create");
            exit(2);
        }
    }
    /* wait until every thread has mapped its regions (the barrier), but
     * count from before any of them unmaps */
    window_open();
    pthread_barrier_wait(&start);
    pthread_barrier_wait(&done);
    for (int t = 0; t < NTHREADS; ++t) {
        for (int i = 0; i < ROUNDS; ++i) {
            if (MAP_FAILED != thread_regions[t][i]) {
                ++want_n;
                want_bytes += thread_len(t);
            }
        }
    }
    (void) mca_base_event_flush();
    for (int v = 0; v < NVIEWS; ++v) {
        got_n = 0;
        got_bytes = 0;
        for (int t = 0; t < NTHREADS; ++t) {
            for (int i = 0; i < ROUNDS; ++i) {
                uint64_t a = (uint64_t) (uintptr_t) thread_regions[t][i], b;
                int n = count_in(v, a, a, &b);
                got_n += n;
                got_bytes += b;
            }
        }
        CHECK(NTHREADS * ROUNDS == want_n && want_n == got_n && want_bytes == got_bytes,
              "4 threads, view %s: %d instances, %llu bytes (want %d, %llu)", view_name[v], got_n,
              (unsigned long long) got_bytes, want_n, (unsigned long long) want_bytes);
    }
    CHECK(atomic_load(&agg_count) >= (uint64_t) want_n && atomic_load(&agg_bytes) >= want_bytes,
          "4 threads aggregated: {%llu, %llu}, want at least {%d, %llu}",
          (unsigned long long) atomic_load(&agg_count),
          (unsigned long long) atomic_load(&agg_bytes), want_n, (unsigned long long) want_bytes);
    window_close("4 threads");
    pthread_barrier_wait(&leave);
    for (int t = 0; t < NTHREADS; ++t) {
        pthread_join(th[t], NULL);
    }
    pthread_barrier_destroy(&start);
    pthread_barrier_destroy(&done);
    pthread_barrier_destroy(&leave);
}

/* Many short-lived threads, one after another, more than the ring pool
 * holds (evt_ring_pool_size, 64 by default): each raises only from inside
 * the hook (async-signal context) and exits; its ring must come back to
 * the pool, or later threads' releases are dropped. */
#define SERIAL_THREADS 100
static void *serial_regions[SERIAL_THREADS];

static void *one_unmap(void *arg)
{
    int i = (int) (uintptr_t) arg;
    serial_regions[i] = mmap(NULL, MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (MAP_FAILED != serial_regions[i]) {
        munmap(serial_regions[i], MiB);
    }
    return NULL;
}

static void serial_threads(void)
{
    int got = 0;

    for (int i = 0; i < SERIAL_THREADS; ++i) {
        pthread_t th;
        uint64_t a, b;

        /* one window per thread: the next thread's mmap may reuse the address */
        window_open();
        if (0 != pthread_create(&th, NULL, one_unmap, (void *) (uintptr_t) i)) {
            CHECK(0, "pthread_create");
            exit(2);
        }
        pthread_join(th, NULL);
        /* delivers, and recycles the ring of the thread that exited */
        (void) mca_base_event_flush();
        a = (uint64_t) (uintptr_t) serial_regions[i];
        if (MAP_FAILED != serial_regions[i]) {
            got += 1 == count_in(V_NONE, a, a, &b) && MiB == b;
        }
    }
    CHECK(SERIAL_THREADS == got, "%d short-lived threads: %d unmaps arrived in view none",
          SERIAL_THREADS, got);
    /* No agreement check here: each thread's exit also releases (glibc's
     * madvise of its stack) after its key destructor gave the ring back;
     * the ring drops (and counts) that one raise rather than claim a ring
     * that nobody would give back: at most one drop per thread exit and
     * per-release registration (here: exactly that, 3 x 104). */
    CHECK(atomic_load(&drops) <= NVIEWS * (SERIAL_THREADS + NTHREADS),
          "short-lived threads: %lld dropped (at most one per thread exit and view)",
          (long long) atomic_load(&drops));
    atomic_store(&drops, 0);
}

int main(int argc, char **argv)
{
    mca_base_event_t *released = NULL, *release = NULL;
    mca_base_event_registration_t *agg, *sig, *none, *both;
    void *p;

    MPI_Init(&argc, &argv);
    if (OPAL_SUCCESS != mca_base_event_get_by_name("ompi.mca.memory.patcher.released", &released)
        || OPAL_SUCCESS
               != mca_base_event_get_by_name("ompi.mca.memory.patcher.release", &release)) {
        fprintf(stderr, "FAIL: both memory events must be registered with OMPI_MCA_evt=ring\n");
        MPI_Finalize();
        printf("test_memory_ring: 0 passed, 1 failed\n");
        return 1;
    }
    CHECK(0 == strcmp(release->source->name, "ompi.unordered"), "source %s", release->source->name);
    CHECK(2 == release->num_elements && MCA_BASE_VAR_TYPE_UINT64_T == release->types[0]
              && MCA_BASE_VAR_TYPE_UINT64_T == release->types[1] && 0 == release->offsets[0]
              && 8 == release->offsets[1],
          "layout {bytes:u64@0, address:u64@8}");

    agg = listen_on(released);
    sig = listen_on(release);
    none = listen_on(release);
    both = listen_on(release);
    CHECK(NULL != agg && NULL != sig && NULL != none && NULL != both, "handles");
    if (NULL == agg || NULL == sig || NULL == none || NULL == both) {
        MPI_Finalize();
        return 1;
    }
    CHECK(OPAL_SUCCESS
              == mca_base_event_register_callback(agg, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  on_released),
          "agg callback");
    CHECK(OPAL_SUCCESS
              == mca_base_event_register_callback(sig, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                                  NULL, NULL, on_sig),
          "sig callback");
    CHECK(OPAL_SUCCESS
              == mca_base_event_register_callback(none, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  on_none),
          "none callback");
    CHECK(OPAL_SUCCESS
              == mca_base_event_register_callback(both, MCA_BASE_EVENT_CB_REQUIRE_NONE, NULL, NULL,
                                                  on_both_none),
          "both: NONE callback");
    CHECK(OPAL_SUCCESS
              == mca_base_event_register_callback(both, MCA_BASE_EVENT_CB_REQUIRE_ASYNC_SIGNAL_SAFE,
                                                  NULL, NULL, on_both_sig),
          "both: ASYNC_SIGNAL_SAFE callback");

    /* munmap of 64 MiB */
    p = mmap(NULL, 64 * MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(MAP_FAILED != p, "mmap");
    memset(p, 1, 64 * MiB);
    window_open();
    munmap(p, 64 * MiB);
    (void) mca_base_event_flush();
    expect_one("munmap 64 MiB", p, 64 * MiB);
    window_close("munmap 64 MiB");

    /* madvise(MADV_DONTNEED) of 16 MiB */
    p = mmap(NULL, 16 * MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(MAP_FAILED != p, "mmap");
    memset(p, 1, 16 * MiB);
    window_open();
    CHECK(0 == madvise(p, 16 * MiB, MADV_DONTNEED), "madvise");
    (void) mca_base_event_flush();
    expect_one("madvise 16 MiB", p, 16 * MiB);
    window_close("madvise 16 MiB");
    munmap(p, 16 * MiB);

    /* free() of a 64 MiB malloc block: glibc serves it by mmap and unmaps
     * the chunk, header page included */
    if (!EVT_ASAN) {
        long page = sysconf(_SC_PAGESIZE);
        char *m = malloc(64 * MiB);
        uint64_t a = (uint64_t) (uintptr_t) m, b = 0; /* m is not used after free() */

        CHECK(NULL != m, "malloc");
        memset(m, 1, 64 * MiB);
        __asm__ volatile("" : : "r"(m) : "memory");
        window_open();
        free(m);
        (void) mca_base_event_flush();
        for (int v = 0; v < NVIEWS; ++v) {
            int n = count_in(v, a - (uint64_t) page, a, &b);
            CHECK(1 == n && b >= 64 * MiB && b <= 64 * MiB + 2 * (uint64_t) page,
                  "free 64 MiB, view %s: %d instance(s) in [0x%llx - page, 0x%llx], %llu bytes",
                  view_name[v], n, (unsigned long long) a, (unsigned long long) a,
                  (unsigned long long) b);
        }
        window_close("free 64 MiB");
    } else {
        printf("test_memory_ring: free() case skipped under ASan (not glibc's allocator)\n");
    }

    /* brk shrink: sbrk(-MiB) gives back [old break - MiB, old break) */
    {
        char *b0 = sbrk(MiB);
        CHECK((void *) -1 != b0, "sbrk grow");
        window_open();
        CHECK((void *) -1 != sbrk(-MiB), "sbrk shrink");
        (void) mca_base_event_flush();
        expect_one("brk shrink 1 MiB", b0, MiB);
        window_close("brk shrink 1 MiB");
    }

    four_threads();
    serial_threads();

    (void) mca_base_event_handle_free(both, NULL, NULL);
    (void) mca_base_event_handle_free(none, NULL, NULL);
    (void) mca_base_event_handle_free(sig, NULL, NULL);
    (void) mca_base_event_handle_free(agg, NULL, NULL);
    MPI_Finalize();
    return evt_test_report("test_memory_ring");
}
