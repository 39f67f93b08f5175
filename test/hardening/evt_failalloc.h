/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file Allocation-failure injection for tests (no production code changes).
 *
 * evt_failalloc.c, linked into a test executable, interposes malloc, calloc,
 * realloc, strdup, strndup, posix_memalign, aligned_alloc and memalign. Each
 * call made while this thread is "armed" (evt_failalloc_arm()) and whose
 * caller lies inside ompi-evt's own objects (libompi_evt.so, mca_evt_*.so,
 * mca_hook_evt.so: found with dladdr on the return address) is counted; the
 * Nth counted call fails (returns NULL / ENOMEM). Everything else (the test,
 * Open MPI's own libraries, libc) allocates normally, so a failure can only
 * come back through an ompi-evt call site.
 *
 * Under ASan the real allocators are ASan's (__interceptor_*), otherwise
 * glibc's (__libc_*): memory is freed by the ordinary free() either way.
 */
#ifndef EVT_FAILALLOC_H
#define EVT_FAILALLOC_H

#include <stdbool.h>
#include <stdint.h>

/** Count allocations of this thread from now on; fail the @p fail_at-th
 *  (1-based; 0: count only, fail nothing). Applies to this thread only. */
void evt_failalloc_arm(uint64_t fail_at);
/** Stop counting on this thread. Returns the number of calls counted since
 *  evt_failalloc_arm(). */
uint64_t evt_failalloc_disarm(void);
/** Did the armed section inject its failure? */
bool evt_failalloc_injected(void);
/** Count calls from any caller (not only ompi-evt's objects): for tests of
 *  the interposer itself. */
void evt_failalloc_any_caller(bool any);

#endif
