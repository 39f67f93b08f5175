/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The /proc sampler of the PMIx producer's resource-usage event (used
 * where the PMIx library or its host does not serve
 * PMIX_MONITOR_PROC_RESOURCE_USAGE, e.g. PMIx 4.2.2): reads
 * /proc/<pid>/stat, /proc/<pid>/status and /proc/<pid>/smaps_rollup (or
 * smaps), and turns two samples into the fields of
 * ompi.pmix.proc_resource_usage (ompi_evt_payloads.h).
 *
 * The parsers take the file contents as a buffer and never trust it: a
 * missing or malformed field is an error (stat) or leaves the field
 * unknown (status, smaps), never a guess. Split from the reading so that
 * unit tests feed them hostile input (test/unit/test_procstat.c).
 *
 * Context: ANY (the sampler thread). Allocates nothing except
 * ompi_evt_procstat_read(), which opens files.
 */

#ifndef OMPI_EVT_PROCSTAT_H
#define OMPI_EVT_PROCSTAT_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ompi/runtime/ompi_evt_payloads.h"

BEGIN_C_DECLS

/** One raw sample of a process. Sizes in bytes; -1 (or false) when the
 *  field could not be read. */
typedef struct ompi_evt_procstat_t {
    int32_t pid;
    char state;            /**< stat field 3 */
    uint64_t utime_ticks;  /**< stat field 14, clock ticks */
    uint64_t stime_ticks;  /**< stat field 15 */
    int32_t priority;      /**< stat field 18 */
    uint32_t num_threads;  /**< stat field 20 */
    uint64_t start_ticks;  /**< stat field 22: start after boot, clock ticks */
    uint64_t vsize_bytes;  /**< stat field 23 */
    int64_t rss_pages;     /**< stat field 24 */
    int32_t cpu;           /**< stat field 39 */
    int64_t rss_kb;        /**< status VmRSS, -1 if absent */
    int64_t peak_vsize_kb; /**< status VmPeak, -1 if absent */
    int64_t pss_kb;        /**< smaps_rollup (or the sum of smaps) Pss, -1 if absent */
    /** When the sample was taken: CLOCK_BOOTTIME in ns (the clock of
     *  start_ticks) and CLOCK_REALTIME in s. */
    int64_t boottime_ns;
    int64_t realtime_s;
} ompi_evt_procstat_t;

/**
 * Parse the contents of /proc/<pid>/stat into @p st's stat fields.
 * "pid (comm) state ...": comm may hold spaces and parentheses, so the
 * fields are counted from the last ')'.
 * @param[in] buf  the file's bytes (need not be NUL-terminated)
 * @param[in] len  their count
 * @retval OPAL_SUCCESS  every field above was found and is a number
 * @retval OPAL_ERR_BAD_PARAM  NULL arguments, or malformed or truncated input
 * Context: ANY.
 */
OMPI_DECLSPEC int ompi_evt_procstat_parse_stat(const char *buf, size_t len,
                                               ompi_evt_procstat_t *st);

/**
 * Parse /proc/<pid>/status for VmRSS and VmPeak ("Name:\t<n> kB" lines).
 * A field that is absent or malformed is left at -1.
 * @retval OPAL_SUCCESS  (whatever was found)
 * @retval OPAL_ERR_BAD_PARAM  NULL arguments
 * Context: ANY.
 */
OMPI_DECLSPEC int ompi_evt_procstat_parse_status(const char *buf, size_t len,
                                                 ompi_evt_procstat_t *st);

/**
 * Add the "Pss:" lines of /proc/<pid>/smaps_rollup (one line) or of a
 * chunk of /proc/<pid>/smaps (one per mapping) to @p pss_kb (which starts
 * at 0). Lines such as "Pss_Anon:" are not "Pss:" and are skipped.
 * @return the number of Pss lines found (0: none), or OPAL_ERR_BAD_PARAM
 *         for NULL arguments or a malformed Pss line
 * Context: ANY.
 */
OMPI_DECLSPEC int ompi_evt_procstat_parse_pss(const char *buf, size_t len, int64_t *pss_kb);

/**
 * Take a sample of process @p pid (0: the calling process, /proc/self)
 * from @p procdir (NULL: "/proc"; tests point it at a fake tree).
 * @retval OPAL_SUCCESS  stat was read (status and Pss fields may be -1)
 * @retval OPAL_ERR_NOT_FOUND  no such process, or no /proc
 * @retval OPAL_ERR_BAD_PARAM  stat is malformed
 * Context: ANY (opens files: not RAISE, not SIGNAL).
 */
OMPI_DECLSPEC int ompi_evt_procstat_read(const char *procdir, pid_t pid, ompi_evt_procstat_t *st);

/**
 * Fill the payload of ompi.pmix.proc_resource_usage from sample @p cur and
 * the previous one, @p prev (NULL for the first: percent_cpu is then
 * counted from the process's start). Sets every field but rank, origin and
 * seq, which the caller owns.
 * @param[in] clk_tck    clock ticks per second (sysconf(_SC_CLK_TCK))
 * @param[in] page_size  bytes per page (for stat's rss when VmRSS is absent)
 * @retval OPAL_SUCCESS;  OPAL_ERR_BAD_PARAM  NULL arguments, clk_tck or
 *         page_size <= 0
 * Context: ANY.
 */
OMPI_DECLSPEC int ompi_evt_procstat_to_payload(const ompi_evt_procstat_t *cur,
                                               const ompi_evt_procstat_t *prev, long clk_tck,
                                               long page_size,
                                               ompi_evt_pmix_resource_usage_payload_t *p);

END_C_DECLS

#endif /* OMPI_EVT_PROCSTAT_H */
