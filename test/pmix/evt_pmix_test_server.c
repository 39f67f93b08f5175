/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/*
 * A PMIx server for tests (not a product): one node, one job, tools
 * welcome. Built on the PMIx library's server API, it hosts what Open MPI
 * 4.1.4's mpirun cannot: notifications with the namespace, session and
 * global ranges, and PMIx tools attaching to receive them.
 *
 * usage: evt_pmix_test_server [-n NPROCS] [-d TMPDIR] [-W WAITFILE] [-L LINGER_S]
 *                             [-T TIMEOUT_S] [-P PIDFILE] [-q] -- PROGRAM [ARGS...]
 *   -n  ranks of the job "evt-test-job-<server pid>" (default 2, at most 64)
 *   -d  folder of the rendezvous files (pmix.sys.<host>, pmix.<host>.tool.<pid>, ...);
 *       default $EVT_PMIX_TMPDIR, else ./pmixsrv (created mode 0700)
 *   -W  start the ranks only once WAITFILE exists (a tool creates it once it
 *       listens), at most 60 s
 *   -L  serve tools LINGER_S seconds after the ranks ended
 *   -T  kill the job (SIGKILL) after TIMEOUT_S seconds (default 120)
 *   -P  write "PID\n" to PIDFILE once the server accepts tools
 *   -q  no per-upcall lines
 * Exit status: 0 when every rank exited with 0, 1 otherwise, 2 for usage.
 * The last line on stderr says how many ranks failed, how many tools came
 * and how many non-local notifications passed through.
 *
 * What each upcall does (a single node has no one to forward to): fence
 * completes with the local contributions (they are the whole collective);
 * notify_event completes at once (the library has already delivered the
 * event to the local clients and tools; injecting it again would deliver
 * it twice); tool_connected gives the tool a namespace of its own.
 * Open MPI 4.1.4 ranks run MPI_Init under this server with
 * OMPI_MCA_schizo=^orte in their environment (else they believe they are
 * singletons).
 */

#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evt_test_pmix_server_common.h"

/* The job's namespace names this server: Open MPI 4.1 derives the job id
 * from it, and with it the shared-memory segment and session folder names,
 * so two servers' jobs running at once (make check -j) must differ. */
#define JOB_NSPACE_PREFIX "evt-test-job"
static char job_nspace[sizeof(JOB_NSPACE_PREFIX) + 16];

static evt_tsrv_job_t job = {.nspace = job_nspace, .nprocs = 2};
static atomic_int ntools, tool_seq;
static atomic_ulong nnotify[8];
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
    (void) sig;
    stop = 1;
    evt_tsrv_kill_job(&job, SIGTERM);
}

/* ---- upcalls (the rest: evt_tsrv_module_defaults) ---- */
/* notifications counted per range, for the last line */
static void count_notify(pmix_data_range_t range)
{
    atomic_fetch_add(&nnotify[range & 7], 1);
}

static void up_tool(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cb, void *cbd)
{
    pmix_proc_t p;
    char ns[PMIX_MAX_NSLEN + 1];

    PMIX_LOAD_PROCID(&p, "", 0);
    for (size_t n = 0; n < ninfo; ++n) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_NSPACE) && PMIX_STRING == info[n].value.type) {
            PMIX_LOAD_NSPACE(p.nspace, info[n].value.data.string);
        } else if (PMIX_CHECK_KEY(&info[n], PMIX_RANK)) {
            p.rank = info[n].value.data.rank;
        }
    }
    if ('\0' == p.nspace[0]) {
        snprintf(ns, sizeof(ns), "evt-test-tool-%d", atomic_fetch_add(&tool_seq, 1));
        PMIX_LOAD_PROCID(&p, ns, 0);
    }
    evt_tsrv_log("tool connected as %s:%u\n", p.nspace, p.rank);
    atomic_fetch_add(&ntools, 1);
    if (NULL != cb) {
        cb(PMIX_SUCCESS, &p, cbd);
    }
}

/* -T: kill the job once it ran longer than the timeout */
typedef struct {
    double t0;
    int timeout;
} deadline_t;

static void check_deadline(void *arg)
{
    deadline_t *d = arg;

    if (evt_tsrv_now() - d->t0 > d->timeout) {
        fprintf(stderr, "[server] the job ran longer than %d s: killed\n", d->timeout);
        evt_tsrv_kill_job(&job, SIGKILL);
        d->t0 = evt_tsrv_now() + 1e9;
    }
}

int main(int argc, char **argv)
{
    const char *tmpdir = getenv("EVT_PMIX_TMPDIR"), *waitfile = NULL, *pidfile = NULL;
    int opt, linger = 0, failed = 0, left = 0, rc = 0;
    pmix_server_module_t module = {
        .tool_connected = up_tool,
    };
    pmix_nspace_t job_ns;
    deadline_t deadline = {.timeout = 120};
    evt_tsrv_reap_t how = {.tick = check_deadline, .arg = &deadline, .tick_us = 10000};
    struct sigaction sa;
    char host[256];
    evt_tsrv_latch_t l = EVT_TSRV_LATCH_INIT;

    while (-1 != (opt = getopt(argc, argv, "+n:d:W:L:T:P:q"))) {
        switch (opt) {
        case 'n':
            job.nprocs = atoi(optarg);
            break;
        case 'd':
            tmpdir = optarg;
            break;
        case 'W':
            waitfile = optarg;
            break;
        case 'L':
            linger = atoi(optarg);
            break;
        case 'T':
            deadline.timeout = atoi(optarg);
            break;
        case 'P':
            pidfile = optarg;
            break;
        case 'q':
            evt_tsrv_quiet = 1;
            break;
        default:
            return 2;
        }
    }
    if (optind >= argc || 1 > job.nprocs || EVT_TSRV_MAX_PROCS < job.nprocs || 0 > linger
        || 1 > deadline.timeout) {
        fprintf(stderr,
                "usage: %s [-n N] [-d TMPDIR] [-W WAITFILE] [-L LINGER_S] [-T TIMEOUT_S] "
                "[-P PIDFILE] [-q] -- PROGRAM [ARGS...]\n",
                argv[0]);
        return 2;
    }
    if (NULL == tmpdir) {
        tmpdir = "./pmixsrv";
    }
    (void) mkdir(tmpdir, 0700);
    signal(SIGPIPE, SIG_IGN);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (0 != gethostname(host, sizeof(host))) {
        snprintf(host, sizeof(host), "localhost");
    }

    (void) snprintf(job_nspace, sizeof(job_nspace), "%s-%d", JOB_NSPACE_PREFIX, (int) getpid());

    evt_tsrv_module_defaults(&module, &job);
    evt_tsrv_notify_seen = count_notify;
    if (PMIX_SUCCESS != evt_tsrv_init(&module, tmpdir, "evt-test-srv", true)) {
        return 1;
    }
    fprintf(stderr, "[server] pid %d, PMIx %s, rendezvous files in %s\n", (int) getpid(),
            PMIx_Get_version(), tmpdir);
    if (PMIX_SUCCESS != evt_tsrv_register_job(&job, host)) {
        rc = 1;
        goto out;
    }
    if (NULL != pidfile) {
        FILE *f = fopen(pidfile, "w");
        if (NULL != f) {
            fprintf(f, "%d\n", (int) getpid());
            fclose(f);
        }
    }
    if (NULL != waitfile) {
        struct stat st;
        for (int i = 0; i < 600 && !stop && 0 != stat(waitfile, &st); ++i) {
            usleep(100000);
        }
        evt_tsrv_log("waitfile %s %s\n", waitfile,
                     0 == stat(waitfile, &st) ? "present" : "TIMED OUT");
    }
    for (int r = 0; r < job.nprocs && !stop; ++r) {
        if (0 != evt_tsrv_spawn(&job, r, &argv[optind])) {
            evt_tsrv_kill_job(&job, SIGKILL);
            rc = 1;
            break;
        }
        ++left;
    }

    deadline.t0 = evt_tsrv_now();
    failed = evt_tsrv_reap(&job, left, &how);
    for (int i = 0; i < 10 * linger && !stop; ++i) {
        usleep(100000);
    }
    fprintf(stderr,
            "[server] done: %d/%d ranks failed, %d finalized, %d tool(s) connected, "
            "notifications namespace=%lu session=%lu global=%lu custom=%lu\n",
            failed, job.nprocs, evt_tsrv_finalized(), atomic_load(&ntools),
            atomic_load(&nnotify[PMIX_RANGE_NAMESPACE]), atomic_load(&nnotify[PMIX_RANGE_SESSION]),
            atomic_load(&nnotify[PMIX_RANGE_GLOBAL]), atomic_load(&nnotify[PMIX_RANGE_CUSTOM]));
    PMIX_LOAD_NSPACE(job_ns, job_nspace);
    PMIx_server_deregister_nspace(job_ns, evt_tsrv_op_cb, &l);
    (void) evt_tsrv_latch_wait(&l, PMIX_SUCCESS);
out:
    (void) PMIx_server_finalize();
    return 0 != rc ? rc : 0 < failed ? 1 : 0;
}
