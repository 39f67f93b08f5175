/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * A PMIX_PROC_RESOURCE_USAGE container as a PMIx host sends it in a
 * PMIX_MONITOR_RESUSAGE_UPDATE event: built by the PMIx producer's test
 * server (evt_pmixprod_server.c, from /proc) and by the unit test of its
 * decoding (test/unit/test_pmix_resusage.c, from fixed values).
 */

#ifndef EVT_TEST_RESUSAGE_INFO_H
#define EVT_TEST_RESUSAGE_INFO_H

#include <pmix.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "ompi/runtime/ompi_evt_pmix_keys.h" /* the keys PMIx 4.2.2 lacks */

/** The values of one container, in PMIx's types. */
typedef struct {
    const char *state; /**< PMIX_PROC_OS_STATE, e.g. "R" */
    struct timeval cpu_time;
    float percent_cpu, pss, vsize, rss, peak_vsize;
    int32_t priority;
    uint16_t num_threads, cpu;
    time_t sample_time;
} evt_test_resusage_t;

/** Indexes of the fields in the container (tests replace some). */
enum {
    EVT_TEST_RESUSAGE_PROCID,
    EVT_TEST_RESUSAGE_STATE,
    EVT_TEST_RESUSAGE_TIME,
    EVT_TEST_RESUSAGE_PERCENT_CPU,
    EVT_TEST_RESUSAGE_PRIORITY,
    EVT_TEST_RESUSAGE_NUM_THREADS,
    EVT_TEST_RESUSAGE_PSS,
    EVT_TEST_RESUSAGE_VSIZE,
    EVT_TEST_RESUSAGE_RSS,
    EVT_TEST_RESUSAGE_PEAK_VSIZE,
    EVT_TEST_RESUSAGE_CPU,
    EVT_TEST_RESUSAGE_SAMPLE_TIME,
    EVT_TEST_RESUSAGE_NFIELDS
};

/** Construct @p out as PMIX_PROC_RESOURCE_USAGE about @p who with every
 *  field of @p v (an array of infos, PMIX_PROCID first, the order of the
 *  enum above). PMIX_INFO_DESTRUCT(out) frees it. */
static inline void evt_test_resusage_info(pmix_info_t *out, const pmix_proc_t *who,
                                          const evt_test_resusage_t *v)
{
    pmix_data_array_t *da;
    pmix_info_t *f;

    PMIX_DATA_ARRAY_CREATE(da, EVT_TEST_RESUSAGE_NFIELDS, PMIX_INFO);
    f = (pmix_info_t *) da->array;
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_PROCID], PMIX_PROCID, who, PMIX_PROC);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_STATE], PMIX_PROC_OS_STATE, v->state, PMIX_STRING);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_TIME], PMIX_PROC_TIME, &v->cpu_time, PMIX_TIMEVAL);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_PERCENT_CPU], PMIX_PROC_PERCENT_CPU, &v->percent_cpu,
                   PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_PRIORITY], PMIX_PROC_PRIORITY, &v->priority, PMIX_INT32);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_NUM_THREADS], PMIX_PROC_NUM_THREADS, &v->num_threads,
                   PMIX_UINT16);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_PSS], PMIX_PROC_PSS, &v->pss, PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_VSIZE], PMIX_PROC_VSIZE, &v->vsize, PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_RSS], PMIX_PROC_RSS, &v->rss, PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_PEAK_VSIZE], PMIX_PROC_PEAK_VSIZE, &v->peak_vsize,
                   PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_CPU], PMIX_PROC_CPU, &v->cpu, PMIX_UINT16);
    PMIX_INFO_LOAD(&f[EVT_TEST_RESUSAGE_SAMPLE_TIME], PMIX_PROC_SAMPLE_TIME, &v->sample_time,
                   PMIX_TIME);
    PMIX_INFO_CONSTRUCT(out);
    PMIX_LOAD_KEY(out->key, PMIX_PROC_RESOURCE_USAGE);
    out->value.type = PMIX_DATA_ARRAY;
    out->value.data.darray = da;
}

#endif /* EVT_TEST_RESUSAGE_INFO_H */
