/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * The evt/pmix tests' listener: attaches to a PMIx server as a tool with
 * tools/evt_listen_attach (the library behind ompi-evt-listen --attach) and
 * writes every batch it receives to OUTDIR/listener.evt (a node file), for
 * evt_pmix_check to account for.
 *
 * usage: evt_pmix_listener -a TARGET -o OUTDIR [-d TMPDIR] [-r READYFILE] [-N FINALS]
 *                          [-t SECONDS] [-x BATCHES]
 *   -a  pid:N, uri:URI, uri-file:PATH (the URI is the file's first line), system,
 *       nspace:NS
 *   -d  the server's rendezvous folder
 *   -r  create READYFILE once the handler is registered (the server starts the job then)
 *   -N  stop after FINALS batches flagged FINAL (one per rank)
 *   -t  give up after SECONDS (default 60): exit status 1
 *   -x  vanish (_exit, no detach) after BATCHES batches
 * It stops when the server goes (exit status 3 unless -N was met first).
 */

#include "ompi_config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "opal/constants.h"
#include "tools/evt_listen_attach.h"

static mca_common_evt_nodefile_t out;
static atomic_long finals, batches, write_errors;
static atomic_bool lost;
static long vanish_after = -1;

static void on_batch(const void *buf, size_t len, const mca_common_evt_wire_batch_t *batch,
                     void *ctx)
{
    long n = atomic_fetch_add(&batches, 1) + 1;

    if (OPAL_SUCCESS != mca_common_evt_nodefile_append(&out, buf, len)) {
        atomic_fetch_add(&write_errors, 1);
    }
    if (batch->flags & MCA_COMMON_EVT_WIRE_FLAG_FINAL) {
        atomic_fetch_add(&finals, 1);
    }
    if (0 < vanish_after && n >= vanish_after) {
        fprintf(stdout, "listener: vanishing after %ld batches\n", n);
        fflush(stdout);
        _exit(0);
    }
}

static void on_lost(int status, void *ctx)
{
    atomic_store(&lost, true);
}

int main(int argc, char **argv)
{
    const char *spec = NULL, *outdir = NULL, *tmpdir = NULL, *ready = NULL, *why = NULL;
    ompi_evt_listen_attach_target_t target;
    ompi_evt_listen_attach_t *attach = NULL;
    ompi_evt_listen_attach_stats_t st;
    long want_finals = -1;
    int opt, seconds = 60, rc = 0;
    char error[512] = "", self_ns[256];
    uint32_t self_rank;
    time_t t0;

    while (-1 != (opt = getopt(argc, argv, "a:o:d:r:N:t:x:"))) {
        switch (opt) {
        case 'a':
            spec = optarg;
            break;
        case 'o':
            outdir = optarg;
            break;
        case 'd':
            tmpdir = optarg;
            break;
        case 'r':
            ready = optarg;
            break;
        case 'N':
            want_finals = atol(optarg);
            break;
        case 't':
            seconds = atoi(optarg);
            break;
        case 'x':
            vanish_after = atol(optarg);
            break;
        default:
            return 2;
        }
    }
    if (NULL == spec || NULL == outdir) {
        fprintf(stderr,
                "usage: %s -a TARGET -o OUTDIR [-d TMPDIR] [-r READYFILE] [-N FINALS] "
                "[-t SECONDS] [-x BATCHES]\n",
                argv[0]);
        return 2;
    }
    if (0 == strncmp(spec, "uri-file:", 9)) {
        /* the tests' convenience: the URI from the server's rendezvous file */
        static char uri[4200];
        FILE *f = fopen(spec + 9, "r");
        if (NULL == f || NULL == fgets(uri + 4, sizeof(uri) - 4, f)) {
            fprintf(stderr, "listener: cannot read %s\n", spec + 9);
            return 2;
        }
        fclose(f);
        memcpy(uri, "uri:", 4);
        uri[strcspn(uri, "\n")] = '\0';
        spec = uri;
    }
    if (OPAL_SUCCESS != ompi_evt_listen_attach_parse(spec, &target, &why)) {
        fprintf(stderr, "listener: bad target \"%s\": %s\n", spec, why);
        return 2;
    }
    if (OPAL_SUCCESS != mca_common_evt_nodefile_open(&out, outdir, "listener")) {
        fprintf(stderr, "listener: cannot create the output in %s: %s\n", outdir, out.error);
        return 2;
    }
    if (OPAL_SUCCESS
        != ompi_evt_listen_attach_open(&target, tmpdir, 10000, on_batch, on_lost, NULL, &attach,
                                       error, sizeof(error))) {
        fprintf(stderr, "listener: %s\n", error);
        mca_common_evt_nodefile_close(&out);
        return 1;
    }
    ompi_evt_listen_attach_self(attach, self_ns, sizeof(self_ns), &self_rank);
    fprintf(stdout, "listener: attached by %s as %s:%u\n", spec, self_ns, self_rank);
    fflush(stdout);
    if (NULL != ready) {
        int fd = open(ready, O_CREAT | O_WRONLY | O_TRUNC, 0600);
        if (0 <= fd) {
            dprintf(fd, "%s:%u\n", self_ns, self_rank);
            close(fd);
        }
    }
    t0 = time(NULL);
    for (;;) {
        if (0 <= want_finals && atomic_load(&finals) >= want_finals) {
            break;
        }
        if (atomic_load(&lost)) {
            rc = 3;
            break;
        }
        if (time(NULL) - t0 > seconds) {
            rc = 1;
            break;
        }
        usleep(10000);
    }
    ompi_evt_listen_attach_stats(attach, &st);
    fprintf(stdout,
            "listener: %llu batches (%llu bytes), %ld FINAL, %llu invalid, %ld write errors%s%s\n",
            (unsigned long long) st.batches, (unsigned long long) st.bytes, atomic_load(&finals),
            (unsigned long long) st.invalid, atomic_load(&write_errors),
            st.lost ? ", server gone" : "", 1 == rc ? ", TIMED OUT" : "");
    fflush(stdout);
    ompi_evt_listen_attach_close(attach);
    mca_common_evt_nodefile_close(&out);
    return rc;
}
