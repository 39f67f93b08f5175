/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The /proc sampler of ompi.pmix.proc_resource_usage: a detached thread
 * that samples /proc/self every mpi_events_pmix_resource_rate seconds and raises
 * the event (context THREAD_SAFE, see ompi_evt_pmix.h), so the sampling
 * never runs on the application's thread and never waits for it.
 *
 * Like the kit's drain timer (evt_base_timer.c), the thread is told to stop
 * and never joined: a raise it is making may run a tool callback that waits
 * for a lock the stopping thread holds. Each run has its own state, which
 * the thread frees when it leaves (only after the stop: the stopper reads
 * it until then); its code is in libompi_evt, which is never unloaded. The
 * one sample being taken when the stop comes may still be raised after the
 * stop returned; no other.
 *
 * In auto mode (ompi_evt_pmix.h) the sampler stops sampling, but keeps its
 * thread waiting for the stop, once the PMIx server has reported: the
 * events then come from PMIx.
 */

#include "ompi_config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ompi/constants.h"
#include "ompi/runtime/ompi_evt_pmix.h"
#include "ompi/runtime/ompi_evt_procstat.h"
#include "opal/constants.h"

/** One sampler run. */
typedef struct pmix_sampler_t {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop; /**< under lock */
    unsigned int rate_s;
    int32_t rank;
    bool (*stop_if)(void); /**< stop once it says so (PMIx took over) */
    long clk_tck, page_size;
} pmix_sampler_t;

/* The running sampler (INIT context only). */
static pmix_sampler_t *sampler;

static void sampler_free(pmix_sampler_t *s)
{
    (void) pthread_cond_destroy(&s->cond);
    (void) pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Take one sample and raise it. @p prev holds the previous sample (or
 * none: *have_prev false) and receives this one. Context: the sampler
 * thread, not under s->lock. */
static void sample_once(pmix_sampler_t *s, ompi_evt_procstat_t *prev, bool *have_prev)
{
    ompi_evt_pmix_resource_usage_payload_t p;
    ompi_evt_procstat_t cur;

    if (OPAL_SUCCESS != ompi_evt_procstat_read(NULL, 0, &cur)) {
        ompi_evt_pmix_resource_lost(); /* a gap in seq */
        return;
    }
    memset(&p, 0, sizeof(p));
    (void) ompi_evt_procstat_to_payload(&cur, *have_prev ? prev : NULL, s->clk_tck, s->page_size,
                                        &p);
    p.rank = s->rank;
    p.origin = OMPI_EVT_PMIX_ORIGIN_PROC;
    ompi_evt_pmix_raise_resource(&p);
    *prev = cur;
    *have_prev = true;
}

/* Context: the sampler thread. */
static void *sampler_main(void *arg)
{
    pmix_sampler_t *s = arg;
    ompi_evt_procstat_t prev;
    bool have_prev = false;
    struct timespec next;

    (void) clock_gettime(CLOCK_MONOTONIC, &next);
    (void) pthread_mutex_lock(&s->lock);
    while (!s->stop) {
        if (NULL != s->stop_if && s->stop_if()) {
            /* PMIx reports now: idle until the stop */
            while (!s->stop) {
                (void) pthread_cond_wait(&s->cond, &s->lock);
            }
            break;
        }
        /* never under our lock: the raise may run tool callbacks */
        (void) pthread_mutex_unlock(&s->lock);
        sample_once(s, &prev, &have_prev);
        (void) pthread_mutex_lock(&s->lock);
        /* a fixed schedule: a late sample does not shift the next ones */
        next.tv_sec += s->rate_s;
        while (!s->stop && ETIMEDOUT != pthread_cond_timedwait(&s->cond, &s->lock, &next)) {
        }
    }
    (void) pthread_mutex_unlock(&s->lock);
    /* The stopper set stop under the lock and never touches s again after
     * its unlock, which our last lock came after: ours to free. */
    sampler_free(s);
    return NULL;
}

/* Context: INIT. */
int ompi_evt_pmix_sampler_start(unsigned int rate_s, int32_t rank, bool (*stop_if)(void))
{
    pthread_condattr_t attr;
    ompi_evt_procstat_t probe;
    pthread_t thread;
    pmix_sampler_t *s;
    int rc;

    if (NULL != sampler) {
        return OMPI_SUCCESS;
    }
    if (0 == rate_s) {
        return OPAL_ERR_BAD_PARAM;
    }
    rc = ompi_evt_procstat_read(NULL, 0, &probe);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    s = calloc(1, sizeof(*s));
    if (NULL == s) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    s->rate_s = rate_s;
    s->rank = rank;
    s->stop_if = stop_if;
    s->clk_tck = sysconf(_SC_CLK_TCK);
    s->page_size = sysconf(_SC_PAGESIZE);
    if (0 >= s->clk_tck || 0 >= s->page_size) {
        free(s);
        return OPAL_ERR_NOT_SUPPORTED;
    }
    (void) pthread_mutex_init(&s->lock, NULL);
    (void) pthread_condattr_init(&attr);
    (void) pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    (void) pthread_cond_init(&s->cond, &attr);
    (void) pthread_condattr_destroy(&attr);
    /* the stopper never touches s after telling it to stop: the thread owns
     * it from then on (see sampler_main) */
    if (0 != pthread_create(&thread, NULL, sampler_main, s)) {
        sampler_free(s);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    (void) pthread_detach(thread);
    sampler = s;
    return OMPI_SUCCESS;
}

/* Context: INIT. Never waits for the sampler thread's raise. */
void ompi_evt_pmix_sampler_stop(void)
{
    pmix_sampler_t *s = sampler;

    if (NULL == s) {
        return;
    }
    sampler = NULL;
    (void) pthread_mutex_lock(&s->lock);
    s->stop = true;
    (void) pthread_cond_signal(&s->cond);
    (void) pthread_mutex_unlock(&s->lock);
}
