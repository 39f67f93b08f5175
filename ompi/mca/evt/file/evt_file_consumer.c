/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Progress calls that wait for a consumer copying the rings
 * (evt_file_consumer_wait; ompi-evt-record's shared-memory transport).
 *
 * The rings overwrite their oldest records: a raise never waits, so a
 * process that raises faster than the consumer copies loses what was not
 * copied (counted). With a consumer that says how far it copied
 * (common_evt_flight_format.h: CTL_CONSUMED, HDR_CONSUMER_BEAT), the
 * process can slow down instead, at the one place where waiting is
 * allowed: a progress call, which is outside any raise, lock or callback
 * of ours. A low-priority progress callback (every eighth opal_progress)
 * looks at the rings; one more than five eighths behind the consumer makes
 * the call sleep until it is three eighths behind or less (the consumer
 * leaves the newest eighth for a later look, and copies when a quarter
 * waits); meanwhile the header says a thread waits, and the consumer
 * looks again without its usual pause. A consumer silent for a second
 * (dead, stopped), or one whose position in the ring waited for has not
 * moved for a second (a ring it cannot read), is not waited for: the rings
 * overwrite as they would without one.
 *
 * Asking for the wait says that a consumer will come: until its first look
 * it counts as heard from when the file was published. A rank that fills
 * a ring before the consumer has found its file (a few milliseconds of
 * messages; the consumer shares two busy cores with the ranks) waits for
 * it instead of overwriting its first records; one that never comes is
 * not waited for after that second.
 */

#include "ompi_config.h"

#include <stdatomic.h>
#include <time.h>

#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/base/evt_base_report.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "ompi/mca/evt/file/evt_file_internal.h"

/* A consumer whose last look is older than this is not waited for. */
#define CONSUMER_SILENT_NS (1000 * 1000 * 1000LL)
/* The sleep between two looks at a ring being waited for: short against
 * the consumer's pause between its looks (2 ms). */
#define WAIT_NAP_NS (50 * 1000)

/* The progress callback is registered (INIT only). */
static bool registered = false;
/* When the file was published (CLOCK_MONOTONIC ns): what a consumer that
 * has not looked yet was last heard from. Written at INIT. */
static int64_t published_ns = 0;
/* Waiting allowed: cleared before the callback is unregistered and in a
 * forked child (its file is the parent's). */
static atomic_bool active = false;

static int64_t monotonic_ns(void)
{
    struct timespec ts;
    (void) clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The consumer's position in ring @p ctl. */
static uint32_t ring_copied(const unsigned char *ctl)
{
    return __atomic_load_n((const uint32_t *) (ctl + MCA_COMMON_EVT_FLIGHT_CTL_CONSUMED),
                           __ATOMIC_ACQUIRE);
}

/* When the consumer was last heard from (CLOCK_MONOTONIC ns). */
static int64_t consumer_heard(const uint64_t *beat)
{
    uint64_t b = __atomic_load_n(beat, __ATOMIC_ACQUIRE);
    return 0 == b ? published_ns : (int64_t) b;
}

/* Bytes of ring @p ctl committed and not yet copied, at most the ring. */
static uint32_t ring_backlog(const unsigned char *ctl, uint32_t capacity)
{
    uint32_t tail = __atomic_load_n((const uint32_t *) (ctl + MCA_COMMON_EVT_FLIGHT_CTL_TAIL),
                                    __ATOMIC_RELAXED);
    uint32_t copied = ring_copied(ctl);
    uint32_t n = tail - copied;

    if ((int32_t) n < 0) {
        return 0; /* a consumer ahead of the writer: nothing to wait for */
    }
    return n > capacity ? capacity : n;
}

/* Context: PROGRESS. */
int ompi_evt_file_consumer_wait(void)
{
    const mca_common_evt_flight_header_t *h = ompi_evt_file_state.hdr;
    const unsigned char *base = ompi_evt_file_state.base;
    const uint64_t *beat;
    uint64_t *waited;
    uint32_t *waiting = NULL;
    uint32_t high, low;
    int64_t start = 0;

    if (!atomic_load_explicit(&active, memory_order_acquire) || NULL == h) {
        return 0;
    }
    beat = (const uint64_t *) ((const unsigned char *) h + MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_BEAT);
    high = h->ring_capacity / 8 * 5;
    low = h->ring_capacity / 8 * 3;
    for (uint32_t i = 0; i < h->ring_count; ++i) {
        const unsigned char *ctl = base + h->rings_offset + (size_t) i * h->ring_stride;

        if (ring_backlog(ctl, h->ring_capacity) <= high) {
            continue;
        }
        if (monotonic_ns() - consumer_heard(beat) > CONSUMER_SILENT_NS) {
            break; /* nobody copies: none of the rings is waited for */
        }
        if (0 == start) {
            start = monotonic_ns();
            waiting = (uint32_t *) ((unsigned char *) h
                                    + MCA_COMMON_EVT_FLIGHT_HDR_WRITERS_WAITING);
            __atomic_fetch_add(waiting, 1, __ATOMIC_RELEASE);
        }
        uint32_t copied = ring_copied(ctl);
        int64_t moved = monotonic_ns();
        while (ring_backlog(ctl, h->ring_capacity) > low) {
            struct timespec nap = {0, WAIT_NAP_NS};
            int64_t now = monotonic_ns();
            uint32_t now_copied = ring_copied(ctl);
            if (now_copied != copied) {
                copied = now_copied;
                moved = now;
            }
            /* stopped (finalize), silent, or alive but not copying this
             * ring (a ring it cannot read, no memory to copy it): the rings
             * overwrite, as without a consumer */
            if (!atomic_load_explicit(&active, memory_order_relaxed)
                || now - consumer_heard(beat) > CONSUMER_SILENT_NS
                || now - moved > CONSUMER_SILENT_NS) {
                i = h->ring_count;
                break;
            }
            (void) nanosleep(&nap, NULL);
        }
    }
    if (0 != start) {
        __atomic_fetch_sub(waiting, 1, __ATOMIC_RELEASE);
        waited = (uint64_t *) ((unsigned char *) h + MCA_COMMON_EVT_FLIGHT_HDR_CONSUMER_WAITED);
        __atomic_fetch_add(waited, (uint64_t) (monotonic_ns() - start), __ATOMIC_RELAXED);
    }
    return 0;
}

/* Context: INIT. */
void ompi_evt_file_consumer_wait_start(void)
{
    int rc;

    if (!mca_evt_file_component.consumer_wait || registered) {
        return;
    }
    published_ns = monotonic_ns();
    atomic_store_explicit(&active, true, memory_order_release);
    rc = ompi_evt_base_progress_register(ompi_evt_file_consumer_wait, true);
    if (OPAL_SUCCESS != rc) {
        atomic_store_explicit(&active, false, memory_order_release);
        ompi_evt_base_report_error(OMPI_EVT_REPORT_THIS_PROCESS,
                                   "evt:file: evt_file_consumer_wait: opal_progress_register_lp "
                                   "failed (%d): records the consumer cannot copy in time are "
                                   "overwritten (and counted)",
                                   rc);
        return;
    }
    registered = true;
}

/* Context: INIT. */
void ompi_evt_file_consumer_wait_stop(void)
{
    atomic_store_explicit(&active, false, memory_order_release);
    if (registered) {
        (void) ompi_evt_base_progress_unregister(ompi_evt_file_consumer_wait);
        registered = false;
    }
}

/* Context: the atfork child handler. */
void ompi_evt_file_consumer_wait_forget(void)
{
    atomic_store_explicit(&active, false, memory_order_relaxed);
}
