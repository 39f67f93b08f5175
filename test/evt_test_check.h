/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Counting checks for the plain-C test programs (no Criterion: the stress
 * tests run under ThreadSanitizer, the MPI ones under mpirun). Each such
 * program counts its checks with CHECK() and ends with a line
 * "N passed, M failed" (evt_test_report()) and a non-zero exit status
 * when anything failed. Included by one source file of a program.
 */

#ifndef EVT_TEST_CHECK_H
#define EVT_TEST_CHECK_H

#include <stdatomic.h>
#include <stdio.h>

/** Whether this is a ThreadSanitizer build (stress tests run less there). */
#if defined(__SANITIZE_THREAD__)
#    define EVT_TEST_UNDER_TSAN 1
#elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#        define EVT_TEST_UNDER_TSAN 1
#    endif
#endif
#ifndef EVT_TEST_UNDER_TSAN
#    define EVT_TEST_UNDER_TSAN 0
#endif

/** The counts (atomic: some programs check on several threads). */
static atomic_long evt_test_passed, evt_test_failed;
/** Named in each failure line when >= 0 (the MPI rank, or the rank whose
 *  data is checked). */
static int evt_test_rank = -1;

/** The start of a failure line on stderr: where and what failed. ANY. */
static inline void evt_test_fail_at(const char *file, int line, const char *cond)
{
    if (0 <= evt_test_rank) {
        fprintf(stderr, "[rank %d] ", evt_test_rank);
    }
    fprintf(stderr, "FAIL %s:%d (%s): ", file, line, cond);
}

/** Count @p cond; when false, print where, the condition and the printf
 *  message that follows it. */
#define CHECK(cond, ...)                                 \
    do {                                                 \
        if (cond) {                                      \
            ++evt_test_passed;                           \
        } else {                                         \
            ++evt_test_failed;                           \
            evt_test_fail_at(__FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                \
            fputc('\n', stderr);                         \
        }                                                \
    } while (0)

/** Print "NAME: N passed, M failed" (without "NAME: " when @p name is
 *  NULL) on stdout; the exit status: 0 when nothing failed, else 1. */
static inline int evt_test_report(const char *name)
{
    long passed = atomic_load(&evt_test_passed), failed = atomic_load(&evt_test_failed);

    if (NULL != name) {
        printf("%s: ", name);
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    fflush(stdout);
    return 0 == failed ? 0 : 1;
}

#endif /* EVT_TEST_CHECK_H */
