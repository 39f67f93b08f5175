/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * PMIx attribute strings and status codes of the resource-usage monitor
 * (PMIx_Process_monitor(3) with PMIX_MONITOR_PROC_RESOURCE_USAGE),
 * defined here when the PMIx headers lack them: PMIx 4.2.2 (Debian 12) has
 * the heartbeat and file monitors but not these; OpenPMIx master uses the
 * values below. Shared by the producer (ompi_evt_pmix_client.c) and the
 * test PMIx server (test/pmix/), so both speak the same strings.
 *
 * Context: declarations only.
 */

#ifndef OMPI_EVT_PMIX_KEYS_H
#define OMPI_EVT_PMIX_KEYS_H

#include <pmix_common.h>

/* the monitor request and its directives */
#ifndef PMIX_MONITOR_PROC_RESOURCE_USAGE
#    define PMIX_MONITOR_PROC_RESOURCE_USAGE "pmix.monitor.presuse" /* (pmix_data_array_t*) */
#    define OMPI_EVT_PMIX_KEYS_DEFINED       1
#else
#    define OMPI_EVT_PMIX_KEYS_DEFINED 0
#endif
#ifndef PMIX_MONITOR_RESOURCE_RATE
#    define PMIX_MONITOR_RESOURCE_RATE "pmix.monitor.resrate" /* (uint32_t) seconds */
#endif
#ifndef PMIX_MONITOR_TARGET_PROCS
#    define PMIX_MONITOR_TARGET_PROCS \
        "pmix.monitor.tgtproc" /* (pmix_data_array_t*) of pmix_proc_t */
#endif
#ifndef PMIX_MONITOR_LOCAL_ONLY
#    define PMIX_MONITOR_LOCAL_ONLY "pmix.monitor.local" /* (bool) */
#endif

/* the per-process container of an update and its fields */
#ifndef PMIX_PROC_RESOURCE_USAGE
#    define PMIX_PROC_RESOURCE_USAGE "pmix.proc.res" /* (pmix_data_array_t*) of pmix_info_t */
#endif
#ifndef PMIX_PROC_OS_STATE
#    define PMIX_PROC_OS_STATE "pmix.proc.osstate" /* (char*) */
#endif
#ifndef PMIX_PROC_TIME
#    define PMIX_PROC_TIME "pmix.proc.time" /* (struct timeval) */
#endif
#ifndef PMIX_PROC_PERCENT_CPU
#    define PMIX_PROC_PERCENT_CPU "pmix.proc.pcpu" /* (float) */
#endif
#ifndef PMIX_PROC_PRIORITY
#    define PMIX_PROC_PRIORITY "pmix.proc.pri" /* (int32_t) */
#endif
#ifndef PMIX_PROC_NUM_THREADS
#    define PMIX_PROC_NUM_THREADS "pmix.proc.nthr" /* (uint16_t) */
#endif
#ifndef PMIX_PROC_PSS
#    define PMIX_PROC_PSS "pmix.proc.pss" /* (float) MBytes */
#endif
#ifndef PMIX_PROC_VSIZE
#    define PMIX_PROC_VSIZE "pmix.proc.vsize" /* (float) MBytes */
#endif
#ifndef PMIX_PROC_RSS
#    define PMIX_PROC_RSS "pmix.proc.rss" /* (float) MBytes */
#endif
#ifndef PMIX_PROC_PEAK_VSIZE
#    define PMIX_PROC_PEAK_VSIZE "pmix.proc.pkvsize" /* (float) MBytes */
#endif
#ifndef PMIX_PROC_CPU
#    define PMIX_PROC_CPU "pmix.proc.cpu" /* (uint16_t) */
#endif
#ifndef PMIX_PROC_SAMPLE_TIME
#    define PMIX_PROC_SAMPLE_TIME "pmix.proc.samptime" /* (time_t) */
#endif

/* status of the periodic update events */
#ifndef PMIX_MONITOR_RESUSAGE_UPDATE
#    define PMIX_MONITOR_RESUSAGE_UPDATE -114
#endif

#endif /* OMPI_EVT_PMIX_KEYS_H */
