/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Test-only seams of the MPI_T events engine (test/unit, test/stress):
 * never called by the project, never installed.
 */

#ifndef OPAL_MCA_BASE_EVENT_TEST_H
#define OPAL_MCA_BASE_EVENT_TEST_H

#include "opal/mca/base/mca_base_event.h"

BEGIN_C_DECLS

/* ------------------------------------------------------------------------
 * Test-only seams (test/unit, test/stress; never called by the project)
 * ------------------------------------------------------------------------ */

/** Preload @p registration's drop counter (saturation tests).
 *  @retval OPAL_SUCCESS, OPAL_ERR_BAD_PARAM. Context: ANY. */
OPAL_DECLSPEC int mca_base_event_test_set_dropped(mca_base_event_registration_t *registration,
                                                  uint64_t value);
/** Number of retired snapshots and registrations still waiting for their
 *  grace period. Context: ANY. */
OPAL_DECLSPEC int mca_base_event_test_retired_count(void);
/** Asymmetric fences run by reclamations since the start: one per
 *  reclamation that found an object retired since the last fence.
 *  Context: ANY. */
OPAL_DECLSPEC uint64_t mca_base_event_test_reclaim_fences(void);
/** With the TSC clock in use and @p ppm or @p back_ns not 0: publish a
 *  new conversion, anchored on a fresh sample moved @p back_ns into the
 *  past (still exact, and live that much longer), with the current rate
 *  made wrong by @p ppm (a calibration that far off), kept until it runs
 *  out. *generation (may be NULL): the generation in use after.
 *  @retval OPAL_SUCCESS, OPAL_ERR_NOT_SUPPORTED (TSC clock not in use).
 *  Context: ANY (not SIGNAL). */
OPAL_DECLSPEC int mca_base_event_test_tsc_skew(double ppm, int64_t back_ns, uint64_t *generation);
/** Test-only: per-thread records allocated beyond the static pool (return
 *  value) and how many of them are free (*spare, may be NULL). */
OPAL_DECLSPEC int mca_base_event_test_thread_records(int *spare);
/** Test-only: read-side sections entered without a per-thread record
 *  (mca_base_event_anon_enter()) since the start. */
OPAL_DECLSPEC uint64_t mca_base_event_test_anon_sections(void);

END_C_DECLS

#endif /* OPAL_MCA_BASE_EVENT_TEST_H */
