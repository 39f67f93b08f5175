/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Shared by the producer tools in test/mpi/: they are ordinary MPI-4
 * tools (MPI_T_event_* through the mpi.h shim) linked with libompi_evt.
 * Each prints "N passed, M failed" (summed over the ranks, on rank 0) and
 * exits non-zero when anything failed on any rank.
 */

#ifndef EVT_MPI_TEST_H
#define EVT_MPI_TEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/evt_test_check.h"

/* The counts, CHECK() and evt_test_rank (set by evt_test_init) */
#define EVT_CHECK(cond, ...) CHECK(cond, __VA_ARGS__)

/** MPI_Init + MPI_T_init_thread; aborts if either fails. */
static inline void evt_test_init(int *argc, char ***argv)
{
    int provided;

    if (MPI_SUCCESS != MPI_Init(argc, argv)
        || MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)) {
        fprintf(stderr, "init failed\n");
        exit(2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &evt_test_rank);
}

/** Subscribe @p cb to event @p name (bound to *obj_handle when not NULL)
 *  with the callback safety @p safety. */
static inline MPI_T_event_registration evt_test_subscribe_safe(const char *name, void *obj_handle,
                                                               MPI_T_event_cb_function *cb,
                                                               void *user_data,
                                                               MPI_T_cb_safety safety)
{
    MPI_T_event_registration reg = NULL;
    int index = -1, rc;

    rc = MPI_T_event_get_index(name, &index);
    EVT_CHECK(MPI_SUCCESS == rc, "MPI_T_event_get_index(%s) = %d", name, rc);
    if (MPI_SUCCESS != rc) {
        return NULL;
    }
    rc = MPI_T_event_handle_alloc(index, obj_handle, MPI_INFO_NULL, &reg);
    EVT_CHECK(MPI_SUCCESS == rc, "MPI_T_event_handle_alloc(%s) = %d", name, rc);
    if (MPI_SUCCESS != rc) {
        return NULL;
    }
    rc = MPI_T_event_register_callback(reg, safety, MPI_INFO_NULL, user_data, cb);
    EVT_CHECK(MPI_SUCCESS == rc, "MPI_T_event_register_callback(%s) = %d", name, rc);
    return reg;
}

/** evt_test_subscribe_safe() with MPI_T_CB_REQUIRE_NONE. */
static inline MPI_T_event_registration
evt_test_subscribe(const char *name, void *obj_handle, MPI_T_event_cb_function *cb, void *user_data)
{
    return evt_test_subscribe_safe(name, obj_handle, cb, user_data, MPI_T_CB_REQUIRE_NONE);
}

static inline void evt_test_unsubscribe(MPI_T_event_registration reg)
{
    if (NULL != reg) {
        EVT_CHECK(MPI_SUCCESS == MPI_T_event_handle_free(reg, NULL, NULL), "handle_free");
    }
}

/** A flush point (MPI_T_source_get_timestamp on every source): with a
 *  deferring component (evt/ring) everything raised so far is delivered
 *  before it returns. */
static inline void evt_test_flush(void)
{
    int n = 0;
    MPI_Count ts;

    MPI_T_source_get_num(&n);
    for (int s = 0; s < n; ++s) {
        (void) MPI_T_source_get_timestamp(s, &ts);
    }
}

/** Sum the counts over the ranks, print them, finalize; the exit code. */
static inline int evt_test_finish(const char *name)
{
    long local[2] = {atomic_load(&evt_test_passed), atomic_load(&evt_test_failed)};
    long total[2] = {0, 0};

    MPI_Allreduce(local, total, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (0 == evt_test_rank) {
        printf("%s: %ld passed, %ld failed\n", name, total[0], total[1]);
        fflush(stdout);
    }
    MPI_T_finalize();
    MPI_Finalize();
    return 0 == total[1] ? 0 : 1;
}

#endif /* EVT_MPI_TEST_H */
