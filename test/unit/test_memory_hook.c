/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 * The memory producer's release hook against Open MPI's real memory
 * framework (opal_init, memory/patcher): what free, munmap, madvise and brk
 * shrinks add to the sink, exact totals from 4 threads, install/remove.
 * Each Criterion test runs in its own process, so each has its own opal_init.
 */

#define _GNU_SOURCE
#include "opal_config.h"

#include <criterion/criterion.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "opal/constants.h"
#include "opal/runtime/opal.h"

#include "opal/mca/memory/patcher/memory_patcher_event.h"
#include "test_memory_common.h"

#define MiB (1024 * 1024)

/* Under ASan malloc/free are ASan's own allocator (quarantine, no brk): what
 * glibc's free does to the OS is then not what these tests observe. */
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
#define SKIP_UNDER_ASAN()                                                     \
    do {                                                                      \
        if (EVT_ASAN) {                                                       \
            cr_skip_test("ASan replaces glibc's allocator: free() is not glibc's here"); \
        }                                                                     \
    } while (0)

static void up(void)
{
    int argc = 1;
    char *args[] = {"test_memory_hook", NULL}, **argv = args;

    cr_assert_eq(opal_init(&argc, &argv), OPAL_SUCCESS);
    cr_assert_eq(opal_memory_patcher_event_hooks_open(), OPAL_SUCCESS,
                 "memory hooks work on this host after opal_init");
    cr_assert_geq(test_memory_keep_patcher_mapped(), 1, "mca_patcher_*.so pinned (see why)");
    cr_assert_eq(opal_memory_patcher_event_hook_set(true, NULL), OPAL_SUCCESS);
    cr_assert(opal_memory_patcher_event_test_hook_installed());
    opal_memory_patcher_event_sink_reset();
}

static void down(void)
{
    (void) opal_memory_patcher_event_hook_set(false, NULL);
    (void) opal_finalize();
}

static void *map(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(p, MAP_FAILED);
    memset(p, 1, len);
    return p;
}

static opal_memory_patcher_event_batch_t take(void)
{
    opal_memory_patcher_event_batch_t b;
    (void) opal_memory_patcher_event_sink_take(&b);
    return b;
}

TestSuite(memory_hook, .init = up, .fini = down);

Test(memory_hook, free_of_64mib_malloc_block)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p;
    opal_memory_patcher_event_batch_t b;

    SKIP_UNDER_ASAN();
    p = malloc(64 * MiB);

    cr_assert_not_null(p);
    memset(p, 1, 64 * MiB);
    /* keep the compiler from eliding the malloc/free pair */
    __asm__ volatile("" : : "r"(p) : "memory");
    opal_memory_patcher_event_sink_reset();
    free(p);
    b = take();
    /* glibc serves it by mmap: one munmap of the block plus its header page */
    cr_assert_eq(b.count, 1);
    cr_assert(b.bytes >= 64 * MiB && b.bytes <= 64 * MiB + 2 * (uint64_t) page,
              "bytes %llu", (unsigned long long) b.bytes);
}

Test(memory_hook, munmap)
{
    void *q = map(64 * MiB);
    opal_memory_patcher_event_batch_t b;

    opal_memory_patcher_event_sink_reset();
    munmap(q, 64 * MiB);
    b = take();
    cr_assert_eq(b.count, 1);
    cr_assert_eq(b.bytes, 64 * MiB);
}

Test(memory_hook, madvise_dontneed)
{
    void *q = map(16 * MiB);
    opal_memory_patcher_event_batch_t b;

    opal_memory_patcher_event_sink_reset();
    cr_assert_eq(madvise(q, 16 * MiB, MADV_DONTNEED), 0);
    b = take();
    cr_assert_eq(b.count, 1);
    cr_assert_eq(b.bytes, 16 * MiB);
    munmap(q, 16 * MiB);
}

Test(memory_hook, sbrk_negative)
{
    opal_memory_patcher_event_batch_t b;

    cr_assert_neq(sbrk(MiB), (void *) -1);
    opal_memory_patcher_event_sink_reset();
    cr_assert_neq(sbrk(-MiB), (void *) -1);
    b = take();
    cr_assert_eq(b.count, 1);
    cr_assert_eq(b.bytes, MiB);
}

Test(memory_hook, free_with_low_trim_threshold_shrinks_brk)
{
    char *r;
    opal_memory_patcher_event_batch_t b;

    SKIP_UNDER_ASAN();
    /* Served from the brk heap (below the mmap threshold), trimmed at free. */
    cr_assert(mallopt(M_MMAP_THRESHOLD, 32 * MiB));
    cr_assert(mallopt(M_TRIM_THRESHOLD, 4096));
    cr_assert(mallopt(M_TOP_PAD, 0));
    r = malloc(8 * MiB);
    cr_assert_not_null(r);
    memset(r, 1, 8 * MiB);
    __asm__ volatile("" : : "r"(r) : "memory");
    opal_memory_patcher_event_sink_reset();
    free(r);
    b = take();
    cr_assert_eq(b.count, 1);
    cr_assert(b.bytes >= 8 * MiB - 64 * 1024 && b.bytes <= 8 * MiB + 64 * 1024, "bytes %llu",
              (unsigned long long) b.bytes);
}

#define NTHREADS 4
#define ROUNDS 50
static pthread_barrier_t start, done, leave;

static void *unmapper(void *arg)
{
    size_t len = (size_t) (uintptr_t) arg;
    void *regions[ROUNDS];

    for (int i = 0; i < ROUNDS; ++i) {
        regions[i] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    pthread_barrier_wait(&start);
    for (int i = 0; i < ROUNDS; ++i) {
        if (MAP_FAILED != regions[i]) {
            munmap(regions[i], len);
        }
    }
    /* glibc releases part of a thread's stack (madvise) when it exits:
     * the main thread takes the sink before that. */
    pthread_barrier_wait(&done);
    pthread_barrier_wait(&leave);
    return NULL;
}

Test(memory_hook, four_threads_totals_exact)
{
    pthread_t t[NTHREADS];
    uint64_t want = 0;
    opal_memory_patcher_event_batch_t b;

    pthread_barrier_init(&start, NULL, NTHREADS + 1);
    pthread_barrier_init(&done, NULL, NTHREADS + 1);
    pthread_barrier_init(&leave, NULL, NTHREADS + 1);
    for (int i = 0; i < NTHREADS; ++i) {
        size_t len = (size_t) (i + 1) * 256 * 1024;
        want += (uint64_t) len * ROUNDS;
        cr_assert_eq(pthread_create(&t[i], NULL, unmapper, (void *) (uintptr_t) len), 0);
    }
    /* the threads are created and have mapped their regions: count from here */
    opal_memory_patcher_event_sink_reset();
    pthread_barrier_wait(&start);
    pthread_barrier_wait(&done);
    b = take();
    pthread_barrier_wait(&leave);
    for (int i = 0; i < NTHREADS; ++i) {
        pthread_join(t[i], NULL);
    }
    cr_assert_eq(b.count, NTHREADS * ROUNDS, "count %llu", (unsigned long long) b.count);
    cr_assert_eq(b.bytes, want, "bytes %llu want %llu", (unsigned long long) b.bytes,
                 (unsigned long long) want);
}

Test(memory_hook, remove_stops_all_sink_activity)
{
    void *q = map(4 * MiB);
    opal_memory_patcher_event_batch_t b;

    cr_assert_eq(opal_memory_patcher_event_hook_set(false, NULL), OPAL_SUCCESS);
    cr_assert_not(opal_memory_patcher_event_test_hook_installed());
    munmap(q, 4 * MiB);
    cr_assert_not(opal_memory_patcher_event_sink_take(&b), "no sink activity after removal");
    /* and back on: counted again */
    cr_assert_eq(opal_memory_patcher_event_hook_set(true, NULL), OPAL_SUCCESS);
    cr_assert(opal_memory_patcher_event_test_hook_installed());
    q = map(4 * MiB);
    opal_memory_patcher_event_sink_reset();
    munmap(q, 4 * MiB);
    b = take();
    cr_assert_eq(b.count, 1);
    cr_assert_eq(b.bytes, 4 * MiB);
}

static atomic_ullong seen_bytes, seen_addr, seen_calls;

static void per_release(void *address, size_t bytes)
{
    atomic_fetch_add(&seen_calls, 1);
    atomic_store(&seen_bytes, bytes);
    atomic_store(&seen_addr, (uintptr_t) address);
}

Test(memory_hook, per_release_callback_alone_keeps_hook_and_sink_off)
{
    void *q = map(2 * MiB);
    opal_memory_patcher_event_batch_t b;

    cr_assert_eq(opal_memory_patcher_event_hook_set(false, per_release), OPAL_SUCCESS);
    cr_assert(opal_memory_patcher_event_test_hook_installed());
    atomic_store(&seen_calls, 0);
    munmap(q, 2 * MiB);
    cr_assert_eq(atomic_load(&seen_calls), 1);
    cr_assert_eq(atomic_load(&seen_bytes), 2 * MiB);
    cr_assert_eq(atomic_load(&seen_addr), (uintptr_t) q);
    cr_assert_not(opal_memory_patcher_event_sink_take(&b), "sink off");
    cr_assert_eq(opal_memory_patcher_event_hook_set(false, NULL), OPAL_SUCCESS);
    cr_assert_not(opal_memory_patcher_event_test_hook_installed());
    q = map(2 * MiB);
    munmap(q, 2 * MiB);
    cr_assert_eq(atomic_load(&seen_calls), 1, "no call after removal");
}

/* Where the hooks do not work: no memory/patcher, or no opal_init. */
Test(memory_hook_absent, without_patcher_not_available)
{
    int argc = 1;
    char *args[] = {"test_memory_hook", NULL}, **argv = args;

    setenv("OMPI_MCA_memory", "^patcher", 1);
    cr_assert_eq(opal_init(&argc, &argv), OPAL_SUCCESS);
    cr_assert_eq(opal_memory_patcher_event_hooks_open(), OPAL_ERR_NOT_AVAILABLE);
    (void) opal_finalize();
}

Test(memory_hook_absent, after_opal_init_util_only_not_available)
{
    int argc = 1;
    char *args[] = {"test_memory_hook", NULL}, **argv = args;

    cr_assert_eq(opal_init_util(&argc, &argv), OPAL_SUCCESS);
    cr_assert_eq(opal_memory_patcher_event_hooks_open(), OPAL_ERR_NOT_AVAILABLE);
    (void) opal_finalize_util();
}

Test(memory_hook_absent, before_any_init_not_available)
{
    cr_assert_eq(opal_memory_patcher_event_hooks_open(), OPAL_ERR_NOT_AVAILABLE);
}
