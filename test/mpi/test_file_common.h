/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* The numbered event of the evt/file crash tests, shared by the writer
 * (test_file_crash.c, test/unit/test_file_recorder.c) and the checkers.
 * Payload: {u64 seq, i32 rank, u32 check}: check ties seq and rank
 * together, so a record that was invented or damaged does not pass. */
#ifndef TEST_FILE_COMMON_H
#define TEST_FILE_COMMON_H

#include <stddef.h>
#include <stdint.h>

typedef struct test_file_seq_t {
    uint64_t seq;
    int32_t rank;
    uint32_t check;
} test_file_seq_t;

/** The full name the engine gives it. */
#define TEST_FILE_SEQ_NAME "ompi.test_file_seq"

static inline uint32_t test_file_check(uint64_t seq, int32_t rank)
{
    uint64_t x = seq * 0x9e3779b97f4a7c15ull ^ ((uint64_t) (uint32_t) rank << 17);
    return (uint32_t) (x >> 32) ^ (uint32_t) x;
}

/** What a rank of test_file_crash has done so far, in a file it maps
 *  (PROGRESS_DIR/rank.R): it survives the rank's death. */
typedef struct test_file_progress_t {
    uint64_t raised; /**< raises of ompi.test_file_seq that returned */
} test_file_progress_t;

/** Events rank @p rank raises before it dies in job @p seed: between 500
 *  and ~40000, so some ranks wrap their ring many times and others not. */
static inline uint64_t test_file_crash_n(unsigned long seed, int rank)
{
    uint64_t x = (seed + 1) * 6364136223846793005ull + (uint64_t) rank * 1442695040888963407ull;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 32;
    return 500 + x % 40000;
}

#ifdef OPAL_MCA_BASE_EVENT_H /* writers only */
/* Register the event on the default source. @return its index or an error */
static inline int test_file_seq_register(mca_base_event_t **ev)
{
    const mca_base_var_type_t types[3] = {MCA_BASE_VAR_TYPE_UINT64_T, MCA_BASE_VAR_TYPE_INT32_T,
                                          MCA_BASE_VAR_TYPE_UINT32_T};
    const ptrdiff_t offsets[3] = {offsetof(test_file_seq_t, seq), offsetof(test_file_seq_t, rank),
                                  offsetof(test_file_seq_t, check)};
    int src = mca_base_event_source_register("test.file", "evt/file tests",
                                             MCA_BASE_EVENT_SOURCE_ORDERED, 1000000000, INT64_MAX,
                                             NULL, true, NULL);
    mca_base_event_source_t *source = NULL;

    if (0 > src || OPAL_SUCCESS != mca_base_event_source_get_by_index(src, &source)) {
        return 0 > src ? src : OPAL_ERROR;
    }
    return mca_base_event_register_ptr("ompi", "test", "file", "seq", "a numbered event",
                                       OPAL_INFO_LVL_9, 3, types, offsets, NULL,
                                       MCA_BASE_VAR_BIND_NO_OBJECT, 0, source, NULL, ev);
}

static inline void test_file_seq_raise(mca_base_event_t *ev, uint64_t seq, int32_t rank)
{
    test_file_seq_t p = {.seq = seq, .rank = rank, .check = test_file_check(seq, rank)};
    (void) mca_base_event_raise(ev, NULL, &p);
}
#endif

#endif /* TEST_FILE_COMMON_H */
