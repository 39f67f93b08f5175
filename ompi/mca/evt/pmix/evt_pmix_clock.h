/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * evt/pmix: one timeline for the job. Each node's clocks are its own, so
 * every batch carries a pair (source clock, CLOCK_REALTIME) sampled
 * together, and every rank measures the offset of its CLOCK_REALTIME to
 * the reference (rank 0 of MPI_COMM_WORLD) at the end of MPI_Init and at
 * the start of MPI_Finalize, by ping-pong as Score-P does: of several
 * round trips the shortest is kept, the reference time is assumed to be
 * read at its middle, and half of it is the uncertainty. The samples
 * travel in the OFFSETS section of the wire format; readers interpolate
 * between them (drift).
 */

#ifndef MCA_EVT_PMIX_CLOCK_H
#define MCA_EVT_PMIX_CLOCK_H

#include "ompi_config.h"

#include <stdint.h>

#include "ompi/mca/evt/base/evt_base_wire.h"

BEGIN_C_DECLS

/** Round trips per rank and measurement. */
#define OMPI_EVT_PMIX_CLOCK_ROUNDS 16

/** This node's CLOCK_REALTIME in ns as the export reports it: the clock
 *  plus the test-only skew (evt_pmix_test_clock_skew). Context: ANY,
 *  async-signal-safe. */
int64_t ompi_evt_pmix_clock_realtime_ns(void);

/** Set the test-only skew (ns) added to every reading above. Context: INIT. */
void ompi_evt_pmix_clock_set_skew(int64_t skew_ns);

/**
 * Measure this rank's offset to rank 0 of MPI_COMM_WORLD. Collective over
 * MPI_COMM_WORLD: every rank calls it at the same point (the end of
 * MPI_Init, the start of MPI_Finalize). Uses the PMPI entry points on a
 * communicator of its own, so no producer sees these messages and no
 * application message can match them.
 * @param[out] sample  local time, offset (reference = local + offset) and
 *                     uncertainty (half the shortest round trip); rank 0's
 *                     offset is 0 by definition
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERROR  an MPI call failed (nothing is written to sample)
 * Context: INIT (MPI is usable; no other thread of the process in MPI).
 */
int ompi_evt_pmix_clock_align(ompi_evt_wire_offset_t *sample);

END_C_DECLS

#endif /* MCA_EVT_PMIX_CLOCK_H */
