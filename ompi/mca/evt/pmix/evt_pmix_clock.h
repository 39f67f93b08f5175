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
 * round trips (until the shortest has not improved for
 * OMPI_EVT_PMIX_CLOCK_ROUNDS) the shortest is kept, the reference time is
 * assumed to be read at its middle, and half of it is the uncertainty. The samples travel in the
 * OFFSETS section of the wire format; readers interpolate between them (drift).
 *
 * The messages: PMPI_ calls (no producer of libompi_evt sees them) on a
 * communicator of our own, duplicated from MPI_COMM_WORLD at the first
 * measurement (so no application message can match them). Rank 0 serves
 * the ranks one after the other (a "your turn" message, then the round
 * trips, ended by the rank; then a "done" to every rank, which sleeps
 * until then, so that none spins in the application meanwhile): usually 16 to 40 round trips per
 * rank, a few milliseconds for a hundred ranks, serially.
 *
 * One clock, one offset: ranks whose clock keys are equal (same node name,
 * same boot of the same kernel, same test-only skew) read the same
 * CLOCK_REALTIME, so only the lowest of them (the clock's leader) measures
 * and hands its sample to the others; the ranks reading rank 0's clock get
 * exactly 0 without measuring. Measuring them would give offsets of a
 * microsecond or so of noise, different per rank, and reorder messages
 * between ranks of one node. For the same reason an offset smaller than
 * its uncertainty is 0.
 *
 * Never a hang at MPI_Init: the duplication is nonblocking
 * (PMPI_Comm_idup), and so is the exchange of the clock keys; every wait
 * has a deadline. If some rank does not take part (it did not select
 * evt/pmix), the duplication never completes and every rank gives up at
 * the deadline: no alignment, said in verbose output.
 * A rank with evt_pmix_clock_align=0 takes part (the barrier) but says so
 * in its key: then no rank measures.
 */

#ifndef MCA_EVT_PMIX_CLOCK_H
#define MCA_EVT_PMIX_CLOCK_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stdint.h>

#include "mpi.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

BEGIN_C_DECLS

/** A rank's round trips go on until the shortest has not improved for
 *  this many (so at least this many)... */
#define OMPI_EVT_PMIX_CLOCK_ROUNDS 16
/** ...and, while it is longer than this, go on for this long at least
 *  (a loaded node stretches most round trips)... */
#define OMPI_EVT_PMIX_CLOCK_GOOD_RTT_NS 50000
#define OMPI_EVT_PMIX_CLOCK_MIN_NS      20000000
/** ...and at most this many per rank and measurement. */
#define OMPI_EVT_PMIX_CLOCK_MAX_ROUNDS 1024

/** What says which clock a rank reads: ranks with equal keys read the
 *  same CLOCK_REALTIME (same node name as PMIx gives it, same kernel boot,
 *  same test-only skew), so their offset to each other is exactly 0. */
typedef struct ompi_evt_pmix_clock_key_t {
    char host[MCA_COMMON_EVT_WIRE_HOST_MAX + 1];
    char boot_id[40]; /**< /proc/sys/kernel/random/boot_id, "" if unreadable */
    int64_t skew_ns;  /**< evt_pmix_test_clock_skew on this node */
    int32_t align;    /**< this rank runs with evt_pmix_clock_align */
    int32_t pad;
} ompi_evt_pmix_clock_key_t;

/** A rank's side of the alignment; all zero before the first call. */
typedef struct ompi_evt_pmix_clock_t {
    MPI_Comm comm; /**< private duplicate of MPI_COMM_WORLD when have_comm */
    bool have_comm;
    bool given_up;        /**< the duplication or a measurement failed: no more */
    bool all_align;       /**< every rank runs with evt_pmix_clock_align */
    bool reference_clock; /**< this rank reads rank 0's clock: offset 0, never measured */
    int leader;           /**< lowest rank reading this rank's clock: it measures for all of them */
    int *followers;       /**< (leader) the other ranks reading its clock */
    int nfollowers;
    int *leaders; /**< (rank 0) the leaders of the other clocks, ascending */
    int nleaders;
} ompi_evt_pmix_clock_t;

/**
 * Join the job's clock group: duplicate MPI_COMM_WORLD into a private
 * communicator and learn every rank's clock key. Collective over
 * MPI_COMM_WORLD, at the end of MPI_Init, whether or not this rank aligns
 * (so every rank knows whether all do).
 * @param[in] host   this node's name as PMIx gives it
 * @param[in] align  this rank runs with evt_pmix_clock_align
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_TIMEOUT  some rank did not take part by @p timeout_ms
 *                           (given up: no alignment)
 * @retval OPAL_ERROR        an MPI call failed (given up)
 * Context: INIT (MPI is usable; no other thread of the process in MPI).
 */
int ompi_evt_pmix_clock_join(ompi_evt_pmix_clock_t *clock, const char *host, bool align,
                             int timeout_ms);

/** Do two ranks read the same clock (equal node name, boot id and skew)?
 *  Context: ANY. */
bool ompi_evt_pmix_clock_same(const ompi_evt_pmix_clock_key_t *a,
                              const ompi_evt_pmix_clock_key_t *b);

/**
 * From every rank's key (@p keys, @p size of them): set @p clock's
 * all_align, reference_clock, leader, followers (when this rank leads a
 * clock other than rank 0's) and leaders (rank 0: the lowest rank of each
 * other clock, ascending). ompi_evt_pmix_clock_join() calls it; tests too.
 * @retval OPAL_SUCCESS, OPAL_ERR_OUT_OF_RESOURCE
 * Context: INIT.
 */
int ompi_evt_pmix_clock_groups(ompi_evt_pmix_clock_t *clock, const ompi_evt_pmix_clock_key_t *keys,
                               int rank, int size);

/** An offset smaller in magnitude than its uncertainty becomes 0: it
 *  cannot be told apart from 0, and applying it would reorder events that
 *  are correctly ordered. Context: ANY. */
void ompi_evt_pmix_clock_drop_noise(mca_common_evt_wire_offset_t *sample);

/** This node's CLOCK_REALTIME in ns as the export reports it: the clock
 *  plus the test-only skew (evt_pmix_test_clock_skew). Context: ANY,
 *  async-signal-safe. */
int64_t ompi_evt_pmix_clock_realtime_ns(void);

/** Set the test-only skew (ns) added to every reading above.
 *  Context: INIT, before any batch is built. */
void ompi_evt_pmix_clock_set_skew(int64_t skew_ns);

/**
 * Parse evt_pmix_test_clock_skew, "HOST:SECONDS" (SECONDS a decimal
 * number, may be fractional or negative, at most 1e6 in magnitude).
 * @param[in]  host     this node's name (as PMIx gives it)
 * @param[out] skew_ns  the skew for this node: SECONDS when HOST equals
 *                      @p host, else 0
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_BAD_PARAM  malformed (*error says why)
 * Context: ANY.
 */
int ompi_evt_pmix_clock_parse_skew(const char *spec, const char *host, int64_t *skew_ns,
                                   const char **error);

/**
 * Measure this rank's offset to rank 0 of MPI_COMM_WORLD. Collective over
 * MPI_COMM_WORLD, after ompi_evt_pmix_clock_join(): every rank calls it at
 * the same point (the end of MPI_Init, the start of MPI_Finalize); @p last
 * frees the communicator after measuring. Only one rank per clock (its
 * leader) measures, and gives its sample to the others reading that clock;
 * the ranks reading rank 0's clock are not measured at all.
 * @param[out] sample   local time, offset (reference = local + offset) and
 *                      uncertainty (half the shortest round trip); 0 for the
 *                      ranks reading rank 0's clock, and 0 when smaller than
 *                      its uncertainty (an offset that is only noise would
 *                      reorder events that are correctly ordered)
 * @param[in]  timeout_ms  bound of every wait
 * @retval OPAL_SUCCESS
 * @retval OPAL_ERR_TIMEOUT  some rank did not take part in time (given up:
 *                           later calls return OPAL_ERR_NOT_AVAILABLE)
 * @retval OPAL_ERROR        an MPI call failed (given up)
 * @retval OPAL_ERR_NOT_AVAILABLE  given up before, or MPI is not usable
 * @retval OPAL_ERR_NOT_SUPPORTED  some rank runs without evt_pmix_clock_align
 *                                 (given up)
 * Context: INIT (MPI is usable; no other thread of the process in MPI).
 */
int ompi_evt_pmix_clock_align(ompi_evt_pmix_clock_t *clock, bool last, int timeout_ms,
                              mca_common_evt_wire_offset_t *sample);

/** Release what is left (the communicator, if MPI is still usable).
 *  Context: INIT. */
void ompi_evt_pmix_clock_release(ompi_evt_pmix_clock_t *clock);

END_C_DECLS

#endif /* MCA_EVT_PMIX_CLOCK_H */
