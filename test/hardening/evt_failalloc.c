/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/** @file Allocation-failure injection (see evt_failalloc.h). */

#define _GNU_SOURCE
#include "evt_failalloc.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

/* The real allocators: ASan's interceptors when ASan is linked in (weak
 * references, NULL otherwise), else glibc's internal entry points. */
extern void *__interceptor_malloc(size_t) __attribute__((weak));
extern void *__interceptor_calloc(size_t, size_t) __attribute__((weak));
extern void *__interceptor_realloc(void *, size_t) __attribute__((weak));
extern int __interceptor_posix_memalign(void **, size_t, size_t) __attribute__((weak));
extern void *__interceptor_memalign(size_t, size_t) __attribute__((weak));
extern char *__interceptor_strdup(const char *) __attribute__((weak));
extern char *__interceptor_strndup(const char *, size_t) __attribute__((weak));
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

/* The sanitizer runtimes call malloc before they are initialised (no
 * shadow memory yet): nothing here may be instrumented. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#    define NO_SAN __attribute__((no_sanitize("address", "undefined"), noinline))
#else
#    define NO_SAN
#endif

static __thread int armed = 0;
static __thread int in_hook = 0;
static __thread uint64_t counted = 0;
static __thread uint64_t fail_at = 0;
static __thread bool injected = false;
static bool any_caller = false;

void evt_failalloc_arm(uint64_t n)
{
    counted = 0;
    fail_at = n;
    injected = false;
    armed = 1;
}

uint64_t evt_failalloc_disarm(void)
{
    armed = 0;
    return counted;
}

bool evt_failalloc_injected(void)
{
    return injected;
}

void evt_failalloc_any_caller(bool any)
{
    any_caller = any;
}

/* Is @p ret inside one of ompi-evt's objects? */
NO_SAN static bool ours(const void *ret)
{
    Dl_info dli;
    const char *base;

    if (any_caller) {
        return true;
    }
    if (0 == dladdr(ret, &dli) || NULL == dli.dli_fname) {
        return false;
    }
    base = strrchr(dli.dli_fname, '/');
    base = NULL == base ? dli.dli_fname : base + 1;
    return 0 == strncmp(base, "libompi_evt", 11) || 0 == strncmp(base, "mca_evt_", 8)
           || 0 == strncmp(base, "mca_hook_evt", 12);
}

/* Should this call fail? Never recurses (dladdr may allocate). */
NO_SAN static bool should_fail(const void *ret)
{
    bool fail = false;

    if (!armed || in_hook) {
        return false;
    }
    in_hook = 1;
    if (ours(ret)) {
        ++counted;
        if (counted == fail_at) {
            injected = true;
            fail = true;
        }
    }
    in_hook = 0;
    return fail;
}

#define RET_ADDR __builtin_extract_return_addr(__builtin_return_address(0))

NO_SAN static void *real_malloc(size_t n)
{
    return NULL != __interceptor_malloc ? __interceptor_malloc(n) : __libc_malloc(n);
}

NO_SAN void *malloc(size_t n)
{
    if (should_fail(RET_ADDR)) {
        errno = ENOMEM;
        return NULL;
    }
    return real_malloc(n);
}

NO_SAN void *calloc(size_t n, size_t m)
{
    if (should_fail(RET_ADDR)) {
        errno = ENOMEM;
        return NULL;
    }
    return NULL != __interceptor_calloc ? __interceptor_calloc(n, m) : __libc_calloc(n, m);
}

NO_SAN void *realloc(void *p, size_t n)
{
    if (should_fail(RET_ADDR)) {
        errno = ENOMEM;
        return NULL;
    }
    return NULL != __interceptor_realloc ? __interceptor_realloc(p, n) : __libc_realloc(p, n);
}

NO_SAN static void *real_memalign(size_t a, size_t n)
{
    return NULL != __interceptor_memalign ? __interceptor_memalign(a, n) : __libc_memalign(a, n);
}

NO_SAN int posix_memalign(void **out, size_t a, size_t n)
{
    void *p;

    if (should_fail(RET_ADDR)) {
        return ENOMEM;
    }
    if (NULL != __interceptor_posix_memalign) {
        return __interceptor_posix_memalign(out, a, n);
    }
    p = __libc_memalign(a, n);
    if (NULL == p) {
        return ENOMEM;
    }
    *out = p;
    return 0;
}

NO_SAN void *memalign(size_t a, size_t n)
{
    if (should_fail(RET_ADDR)) {
        errno = ENOMEM;
        return NULL;
    }
    return real_memalign(a, n);
}

NO_SAN void *aligned_alloc(size_t a, size_t n)
{
    if (should_fail(RET_ADDR)) {
        errno = ENOMEM;
        return NULL;
    }
    return real_memalign(a, n);
}

NO_SAN static char *dup_n(const char *s, size_t n)
{
    char *d = real_malloc(n + 1);
    if (NULL != d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

NO_SAN char *strdup(const char *s)
{
    if (should_fail(RET_ADDR)) {
        errno = ENOMEM;
        return NULL;
    }
    /* ASan's own strdup when present: leak reports (and their
     * suppressions) then see the same stacks as without this file */
    if (NULL != __interceptor_strdup) {
        return __interceptor_strdup(s);
    }
    return dup_n(s, strlen(s));
}

NO_SAN char *strndup(const char *s, size_t n)
{
    if (should_fail(RET_ADDR)) {
        errno = ENOMEM;
        return NULL;
    }
    if (NULL != __interceptor_strndup) {
        return __interceptor_strndup(s, n);
    }
    return dup_n(s, strnlen(s, n));
}
