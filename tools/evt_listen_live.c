/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi-evt-listen --attach: batches arrive on PMIx's threads and are
 * appended to the node file there (one at a time: the attach library
 * serialises its callbacks); the main thread only waits for the end.
 */

#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "opal/constants.h"
#include "tools/evt_listen_attach.h"
#include "tools/evt_listen_live.h"

/* the file name of what arrives: OUTDIR/attached.evt */
#define LISTEN_LIVE_NAME "attached"
/* room kept for the batches restated as drops when the rest is full (a
 * few hundred bytes each), as a node sink keeps */
#define LISTEN_LIVE_RESERVE (128 * 1024)

typedef struct listen_live_t {
    mca_common_evt_nodefile_t out;
    atomic_uint_fast64_t batches, bytes, records, finals, write_errors, not_stored;
    atomic_bool lost, full_said;
} listen_live_t;

/* Context: a PMIx thread, one call at a time. */
static void on_batch(const void *buf, size_t len, const mca_common_evt_wire_batch_t *batch,
                     void *ctx)
{
    listen_live_t *live = ctx;

    if (OPAL_SUCCESS != mca_common_evt_nodefile_append_decoded(&live->out, buf, len, batch)) {
        /* no room: keep the batch as counts of drops (its number, FINAL and
         * per-type counts), in the reserve if need be */
        mca_common_evt_wire_batch_t restated = *batch;
        void *drops = NULL;
        size_t dlen = 0;
        int rc;

        if (!atomic_exchange(&live->full_said, true)) {
            fprintf(stderr,
                    "ompi-evt-listen: no room for what arrives (%s): batches that do not fit are "
                    "kept only as counts of dropped events; the recording is incomplete\n",
                    live->out.error);
        }
        rc = mca_common_evt_wire_batch_as_drops(buf, len, batch,
                                                MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED, &drops, &dlen);
        if (OPAL_SUCCESS == rc) {
            restated.flags |= MCA_COMMON_EVT_WIRE_FLAG_NOT_STORED;
            rc = mca_common_evt_nodefile_append_decoded(&live->out, drops, dlen, &restated);
            if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
                rc = mca_common_evt_nodefile_append_reserved(&live->out, drops, dlen, &restated);
            }
            free(drops);
        }
        if (OPAL_SUCCESS != rc) {
            atomic_fetch_add(&live->write_errors, 1);
            return;
        }
        atomic_fetch_add(&live->not_stored, 1);
    }
    atomic_fetch_add(&live->batches, 1);
    atomic_fetch_add(&live->bytes, len);
    atomic_fetch_add(&live->records, batch->num_records);
    if (batch->flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL) {
        atomic_fetch_add(&live->finals, 1);
    }
}

/* Context: PMIx's progress thread. */
static void on_lost(int status, void *ctx)
{
    listen_live_t *live = ctx;
    (void) status;
    atomic_store(&live->lost, true);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait for the end; SIGINT and SIGTERM are blocked in every thread, so
 * they are taken here, between two looks at the counters. */
static listen_live_end_t wait_for_end(listen_live_t *live, const listen_live_opts_t *opts,
                                      const sigset_t *stop)
{
    const struct timespec tick = {0, 100 * 1000 * 1000};
    const double start = now_s();
    const bool progress = !opts->quiet && isatty(STDERR_FILENO);
    listen_live_end_t end;

    for (;;) {
        int sig;

        if (0 < opts->ranks && atomic_load(&live->finals) >= opts->ranks) {
            end = LISTEN_LIVE_ALL_FINAL;
            break;
        }
        if (atomic_load(&live->lost)) {
            end = LISTEN_LIVE_SERVER_GONE;
            break;
        }
        if (0 < opts->seconds && now_s() - start >= opts->seconds) {
            end = LISTEN_LIVE_TIMED_OUT;
            break;
        }
        sig = sigtimedwait(stop, NULL, &tick);
        if (SIGINT == sig || SIGTERM == sig) {
            end = LISTEN_LIVE_INTERRUPTED;
            break;
        }
        if (progress) {
            fprintf(stderr, "\rompi-evt-listen: %llu events in %llu batches, %llu ranks done",
                    (unsigned long long) atomic_load(&live->records),
                    (unsigned long long) atomic_load(&live->batches),
                    (unsigned long long) atomic_load(&live->finals));
        }
    }
    if (progress) {
        fputc('\n', stderr);
    }
    return end;
}

int listen_live_receive(const listen_live_opts_t *opts, const char *outdir,
                        listen_live_result_t *res, char *err, size_t errlen)
{
    static listen_live_t live; /* the callbacks may outlive a frame of ours only until close */
    ompi_evt_listen_attach_target_t target;
    ompi_evt_listen_attach_stats_t st;
    ompi_evt_listen_attach_t *attach = NULL;
    const char *why = NULL;
    char idx[sizeof(res->path) + 8];
    sigset_t stop, old;
    int rc;

    memset(res, 0, sizeof(*res));
    if (OPAL_SUCCESS != ompi_evt_listen_attach_parse(opts->target, &target, &why)) {
        snprintf(err, errlen, "--attach %s: %s", opts->target, why);
        return -1;
    }
    memset(&live, 0, sizeof(live));
    rc = mca_common_evt_nodefile_open(&live.out, outdir, LISTEN_LIVE_NAME);
    if (OPAL_SUCCESS != rc) {
        snprintf(err, errlen, "cannot create %s/%s%s: %s", outdir, LISTEN_LIVE_NAME,
                 MCA_COMMON_EVT_NODEFILE_SUFFIX,
                 OPAL_EXISTS == rc ? "it exists already (choose another -o folder)"
                                   : live.out.error);
        return -1;
    }
    snprintf(res->path, sizeof(res->path), "%s", live.out.path);
    if (OPAL_SUCCESS != mca_common_evt_nodefile_set_reserve(&live.out, LISTEN_LIVE_RESERVE)) {
        fprintf(stderr,
                "ompi-evt-listen: less than %d KiB of room for %s (%s): batches that do not fit "
                "may be lost without being counted\n",
                LISTEN_LIVE_RESERVE / 1024, live.out.path, live.out.error);
    }
    /* blocked before PMIx starts its threads: they inherit the mask, and
     * Ctrl-C reaches sigtimedwait below, not a PMIx thread */
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    if (OPAL_SUCCESS
        != ompi_evt_listen_attach_open(&target, opts->tmpdir, 10000, on_batch, on_lost, &live,
                                       &attach, err, errlen)) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        mca_common_evt_nodefile_close(&live.out);
        /* nothing was received: leave no empty reception behind */
        (void) unlink(res->path);
        (void) snprintf(idx, sizeof(idx), "%s.idx", res->path);
        (void) unlink(idx);
        return -1;
    }
    if (NULL != opts->ready) {
        int fd = open(opts->ready, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
        if (0 <= fd) {
            char ns[256];
            uint32_t rank;
            ompi_evt_listen_attach_self(attach, ns, sizeof(ns), &rank);
            dprintf(fd, "%s:%u\n", ns, rank);
            close(fd);
        } else {
            fprintf(stderr, "ompi-evt-listen: --ready %s: %s\n", opts->ready, strerror(errno));
        }
    }
    res->end = wait_for_end(&live, opts, &stop);
    ompi_evt_listen_attach_stats(attach, &st);
    ompi_evt_listen_attach_close(attach);
    /* one Ctrl-C may arrive twice (e.g. from timeout(1), which passes it on
     * and also sends it to its process group): what is pending belongs to
     * the stop just taken; a later one may interrupt the writing */
    {
        const struct timespec none = {0, 0};
        while (0 < sigtimedwait(&stop, NULL, &none)) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    res->batches = atomic_load(&live.batches);
    res->bytes = atomic_load(&live.bytes);
    res->finals = atomic_load(&live.finals);
    res->write_errors = atomic_load(&live.write_errors);
    res->not_stored = atomic_load(&live.not_stored);
    res->invalid = st.invalid;
    res->forged = st.forged;
    mca_common_evt_nodefile_close(&live.out);
    return 0;
}
