/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The kit's drain timer (kit parameter drain_interval): a thread that
 * drains every interval, in context THREAD_SAFE (another thread than the
 * application's: only callbacks registered at MPI_T_CB_REQUIRE_THREAD_SAFE
 * or stricter run there; records that need a weaker level wait for a
 * normal drain), and lets the module progress (an exporter sends its
 * batches even while the application computes for minutes).
 *
 * Why a thread of our own rather than a timer event on OPAL's progress
 * thread (opal_progress_thread_init): stopping that thread joins it, and the
 * join waits for the timer callback, which may be running a tool callback
 * that waits for a lock the stopping thread holds (MPI_T_finalize under the
 * tool's lock). Our thread is told to stop and detached: it leaves when its
 * current drain returns, and nobody waits for it. Its code lives in
 * libompi_evt, which is never unloaded; what it drains is released by the
 * drain token's orphan hand-off (evt_base_drain.c).
 */

#include "ompi_config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "opal/constants.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/evt_base_kit_internal.h"

/** One timer run: its own stop flag and clock, so a new timer started
 *  while an old one finishes its last drain never confuses the two. */
typedef struct kit_timer_t {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop;           /**< under lock */
    int interval_us;
} kit_timer_t;

/* The running timer (INIT context only). */
static kit_timer_t *kit_timer;

static void timer_free(kit_timer_t *t)
{
    (void) pthread_cond_destroy(&t->cond);
    (void) pthread_mutex_destroy(&t->lock);
    free(t);
}

/* Context: the timer thread. */
static void *timer_main(void *arg)
{
    kit_timer_t *t = arg;
    struct timespec next;

    (void) clock_gettime(CLOCK_MONOTONIC, &next);
    (void) pthread_mutex_lock(&t->lock);
    while (!t->stop) {
        next.tv_nsec += (long) (t->interval_us % 1000000) * 1000;
        next.tv_sec += t->interval_us / 1000000 + next.tv_nsec / 1000000000;
        next.tv_nsec %= 1000000000;
        while (!t->stop && ETIMEDOUT != pthread_cond_timedwait(&t->cond, &t->lock, &next)) {
        }
        if (t->stop) {
            break;
        }
        /* never under our lock: the drain runs tool callbacks */
        (void) pthread_mutex_unlock(&t->lock);
        (void) ompi_evt_base_kit_drain_once(MCA_BASE_EVENT_CB_REQUIRE_THREAD_SAFE,
                                            ompi_evt_kit.params.drain_budget);
        (void) pthread_mutex_lock(&t->lock);
    }
    (void) pthread_mutex_unlock(&t->lock);
    /* the stopper detached us and forgot t: it is ours to free */
    timer_free(t);
    return NULL;
}

/* Context: INIT. */
int ompi_evt_base_kit_timer_start(int interval_us)
{
    pthread_condattr_t attr;
    pthread_t thread;
    kit_timer_t *t;

    if (NULL != kit_timer) {
        return OMPI_SUCCESS;
    }
    t = calloc(1, sizeof(*t));
    if (NULL == t) {
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    t->interval_us = interval_us;
    (void) pthread_mutex_init(&t->lock, NULL);
    (void) pthread_condattr_init(&attr);
    (void) pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    (void) pthread_cond_init(&t->cond, &attr);
    (void) pthread_condattr_destroy(&attr);
    if (0 != pthread_create(&thread, NULL, timer_main, t)) {
        timer_free(t);
        return OPAL_ERR_OUT_OF_RESOURCE;
    }
    (void) pthread_detach(thread);
    kit_timer = t;
    return OMPI_SUCCESS;
}

/* Context: INIT. Never waits for the timer thread's drain. */
void ompi_evt_base_kit_timer_stop(void)
{
    kit_timer_t *t = kit_timer;

    if (NULL == t) {
        return;
    }
    kit_timer = NULL;
    (void) pthread_mutex_lock(&t->lock); /* held only around the wait */
    t->stop = true;
    (void) pthread_cond_signal(&t->cond);
    (void) pthread_mutex_unlock(&t->lock);
}

/* Context: the atfork child handler. */
void ompi_evt_base_kit_timer_atfork_child(void)
{
    /* the thread is the parent's; its memory stays with the child's copy
     * (a few bytes, never freed here) */
    kit_timer = NULL;
}
