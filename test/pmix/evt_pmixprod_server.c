/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* A minimal single-node PMIx server, for the PMIx producer's tests only
 * (not a product). It hosts N Open MPI 4.1.4 ranks (run them with
 * OMPI_MCA_schizo=^orte) and does what mpirun 4.1.4 does not:
 *
 *   - serves PMIX_MONITOR_PROC_RESOURCE_USAGE (the `monitor` upcall): a
 *     request of rank r at rate R is answered every R s with a
 *     PMIX_MONITOR_RESUSAGE_UPDATE event to r alone, carrying r's
 *     PMIX_PROC_RESOURCE_USAGE container read from /proc/<pid of r>;
 *     PMIX_MONITOR_CANCEL with the request's PMIX_MONITOR_ID stops it.
 *     PMIx 4.2.2's server library never calls this upcall for that key (it
 *     answers the client PMIX_SUCCESS itself and drops the request), so
 *   - -u R: sends those updates to every rank every R s unasked, from R s
 *     after the start until the rank exits: what a host behind a library
 *     that forwards the request would send;
 *   - reports job events: a rank killed by a signal is announced to the
 *     job with PMIX_ERR_PROC_ABORTED_BY_SIG (PMIX_EVENT_AFFECTED_PROC,
 *     PMIX_EXIT_CODE 128 + signal; non-default, so Open MPI's default
 *     handler in the survivors leaves them running);
 *   - -x S: dies (SIGKILL on itself) S seconds after the ranks started, so
 *     the ranks lose their server (PMIX_ERR_LOST_CONNECTION).
 *
 * usage: evt_pmixprod_server [-n N] [-x S] [-u R] -- prog [args...]
 * Env EVT_PMIXPROD_TMPDIR: rendezvous folder (default: a new one in /tmp).
 * Prints "[server] ..." lines; exits 0 when every rank exited 0. */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evt_test_pmix_server_common.h"
#include "evt_test_resusage_info.h"
#include "ompi/runtime/ompi_evt_pmix_keys.h"
#include "ompi/runtime/ompi_evt_procstat.h"

/* The job's namespace names this server (Open MPI 4.1 derives the job
 * id, shared-memory segment and session folder names from it). */
#define NSPACE_PREFIX "evt-pmixprod-job"
static char job_nspace[sizeof(NSPACE_PREFIX) + 16];
#define MAX_REQS 64

static evt_tsrv_job_t job = {.nspace = job_nspace, .nprocs = 2};
static pmix_proc_t server_proc;

/* resource-usage requests (under reqs_lock) */
typedef struct {
    bool live;
    pmix_rank_t rank;
    unsigned rate;
    double next;
    char id[64];
} req_t;
static req_t reqs[MAX_REQS];
static pthread_mutex_t reqs_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int done;
static unsigned push_rate; /* -u */
static double push_next[EVT_TSRV_MAX_PROCS];
static int monitor_upcalls;
static unsigned long updates_sent;

/* ---------------- upcalls (the rest: evt_tsrv_module_defaults) ---------------- */

static pmix_status_t up_monitor(const pmix_proc_t *requestor, const pmix_info_t *monitor,
                                pmix_status_t error, const pmix_info_t directives[], size_t ndirs,
                                pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    const char *id = "";
    unsigned rate = 0;
    pmix_status_t rc = PMIX_SUCCESS;

    for (size_t i = 0; i < ndirs; ++i) {
        if (PMIX_CHECK_KEY(&directives[i], PMIX_MONITOR_RESOURCE_RATE)
            && PMIX_UINT32 == directives[i].value.type) {
            rate = directives[i].value.data.uint32;
        } else if (PMIX_CHECK_KEY(&directives[i], PMIX_MONITOR_ID)
                   && PMIX_STRING == directives[i].value.type) {
            id = directives[i].value.data.string;
        }
    }
    pthread_mutex_lock(&reqs_lock);
    ++monitor_upcalls;
    if (PMIX_CHECK_KEY(monitor, PMIX_MONITOR_PROC_RESOURCE_USAGE)) {
        int k;

        for (k = 0; k < MAX_REQS && reqs[k].live; ++k) {
        }
        if (0 == rate || MAX_REQS == k || requestor->rank >= (pmix_rank_t) job.nprocs) {
            rc = PMIX_ERR_BAD_PARAM;
        } else {
            reqs[k].live = true;
            reqs[k].rank = requestor->rank;
            reqs[k].rate = rate;
            reqs[k].next = evt_tsrv_now() + rate;
            snprintf(reqs[k].id, sizeof(reqs[k].id), "%s", id);
        }
        fprintf(stderr, "[server] monitor: resource usage of rank %u every %u s (id %s): %d\n",
                requestor->rank, rate, id, rc);
    } else if (PMIX_CHECK_KEY(monitor, PMIX_MONITOR_CANCEL)) {
        const char *cid = PMIX_STRING == monitor->value.type ? monitor->value.data.string : NULL;
        int n = 0;

        for (int k = 0; k < MAX_REQS; ++k) {
            if (reqs[k].live && reqs[k].rank == requestor->rank
                && (NULL == cid || 0 == strcmp(cid, reqs[k].id))) {
                reqs[k].live = false;
                ++n;
            }
        }
        fprintf(stderr, "[server] monitor: cancel %s of rank %u: %d request(s)\n",
                NULL == cid ? "(all)" : cid, requestor->rank, n);
    } else {
        fprintf(stderr, "[server] monitor: %s not supported\n", monitor->key);
        rc = PMIX_ERR_NOT_SUPPORTED;
    }
    pthread_mutex_unlock(&reqs_lock);
    if (PMIX_SUCCESS == rc && NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, cbdata, NULL, NULL);
    }
    return rc;
}

/* ---------------- events the server generates ---------------- */

/* A resource-usage update of @p rank (pid @p pid) to that rank alone. */
static void send_update(pmix_rank_t rank, pid_t pid)
{
    ompi_evt_procstat_t st;
    ompi_evt_pmix_resource_usage_payload_t p;
    evt_test_resusage_t v;
    pmix_data_array_t *target;
    pmix_info_t info[4];
    pmix_proc_t who;
    bool yes = true;
    char state[2];
    evt_tsrv_latch_t l = EVT_TSRV_LATCH_INIT;

    if (0 != ompi_evt_procstat_read(NULL, pid, &st)
        || 0
               != ompi_evt_procstat_to_payload(&st, NULL, sysconf(_SC_CLK_TCK),
                                               sysconf(_SC_PAGESIZE), &p)) {
        return;
    }
    PMIX_PROC_LOAD(&who, job_nspace, rank);
    state[0] = (char) p.state;
    state[1] = '\0';
    v = (evt_test_resusage_t){
        .state = state,
        .cpu_time = {.tv_sec = (time_t) (p.cpu_time_usec / 1000000),
                     .tv_usec = (suseconds_t) (p.cpu_time_usec % 1000000)},
        .percent_cpu = (float) p.percent_cpu,
        .pss = (float) p.pss_mb,
        .vsize = (float) p.vsize_mb,
        .rss = (float) p.rss_mb,
        .peak_vsize = (float) p.peak_vsize_mb,
        .priority = p.priority,
        .num_threads = (uint16_t) p.num_threads,
        .cpu = (uint16_t) p.cpu,
        .sample_time = (time_t) p.sample_time,
    };
    evt_test_resusage_info(&info[0], &who, &v);
    PMIX_DATA_ARRAY_CREATE(target, 1, PMIX_PROC);
    memcpy(target->array, &who, sizeof(who));
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIX_LOAD_KEY(info[1].key, PMIX_EVENT_CUSTOM_RANGE);
    info[1].value.type = PMIX_DATA_ARRAY;
    info[1].value.data.darray = target;
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_DO_NOT_CACHE, &yes, PMIX_BOOL);
    /* Not for default handlers: an update pushed (-u) while the rank's
     * producer has no handler for it (not yet registered in MPI_Init, or
     * deregistered at the start of MPI_Finalize) would reach Open MPI's
     * default handler, which aborts the rank (status -114); it is dropped
     * instead. */
    PMIX_INFO_LOAD(&info[3], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
    if (PMIX_SUCCESS
        == evt_tsrv_latch_wait(&l,
                               PMIx_Notify_event(PMIX_MONITOR_RESUSAGE_UPDATE, &server_proc,
                                                 PMIX_RANGE_CUSTOM, info, 4, evt_tsrv_op_cb, &l))) {
        ++updates_sent;
    }
    for (int i = 0; i < 4; ++i) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

static void *updater(void *arg)
{
    (void) arg;
    while (!done) {
        double t = evt_tsrv_now();

        for (int k = 0; k < MAX_REQS; ++k) {
            pmix_rank_t rank = 0;
            bool due = false;

            pthread_mutex_lock(&reqs_lock);
            if (reqs[k].live && reqs[k].next <= t) {
                due = true;
                rank = reqs[k].rank;
                reqs[k].next += reqs[k].rate;
            }
            pthread_mutex_unlock(&reqs_lock);
            if (due && 0 < job.pids[rank]) {
                send_update(rank, job.pids[rank]);
            }
        }
        for (int r = 0; 0 < push_rate && r < job.nprocs; ++r) {
            if (0 < job.pids[r] && push_next[r] <= t) {
                push_next[r] += push_rate;
                send_update((pmix_rank_t) r, job.pids[r]);
            }
        }
        usleep(20000);
    }
    return NULL;
}

/* Rank @p r ended with wait status @p status: when a signal killed it,
 * tell the job. */
static void announce_kill(int r, int status, void *arg)
{
    pmix_info_t info[3];
    pmix_proc_t who;
    int sig, code;
    bool yes = true;
    evt_tsrv_latch_t l = EVT_TSRV_LATCH_INIT;

    (void) arg;
    if (!WIFSIGNALED(status)) {
        return;
    }
    sig = WTERMSIG(status);
    code = 128 + sig;
    PMIX_PROC_LOAD(&who, job_nspace, (pmix_rank_t) r);
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &who, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_EXIT_CODE, &code, PMIX_INT);
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
    (void) evt_tsrv_latch_wait(&l, PMIx_Notify_event(PMIX_ERR_PROC_ABORTED_BY_SIG, &server_proc,
                                                     PMIX_RANGE_NAMESPACE, info, 3, evt_tsrv_op_cb,
                                                     &l));
    fprintf(stderr, "[server] announced: rank %d killed by signal %d\n", r, sig);
    for (int i = 0; i < 3; ++i) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

/* -x: die (SIGKILL on itself) once the ranks ran that long */
typedef struct {
    double start;
    int after;
} death_t;

static void maybe_die(void *arg)
{
    const death_t *d = arg;

    if (0 < d->after && evt_tsrv_now() - d->start >= d->after) {
        fprintf(stderr, "[server] dying now (-x %d)\n", d->after);
        fflush(stderr);
        raise(SIGKILL);
    }
}

int main(int argc, char **argv)
{
    char host[256], tmpl[] = "/tmp/evt_pmixprod.XXXXXX";
    const char *tmpdir = getenv("EVT_PMIXPROD_TMPDIR");
    pmix_server_module_t module = {
        .monitor = up_monitor,
    };
    death_t death = {0};
    evt_tsrv_reap_t how = {.tick = maybe_die,
                           .ended = announce_kill,
                           .arg = &death,
                           .tick_us = 20000};
    pthread_t upd;
    int opt, left = 0, failed;

    (void) snprintf(job_nspace, sizeof(job_nspace), "%s-%d", NSPACE_PREFIX, (int) getpid());

    while (-1 != (opt = getopt(argc, argv, "+n:x:u:"))) {
        switch (opt) {
        case 'n':
            job.nprocs = atoi(optarg);
            break;
        case 'x':
            death.after = atoi(optarg);
            break;
        case 'u':
            push_rate = (unsigned) atoi(optarg);
            break;
        default:
            return 2;
        }
    }
    if (optind >= argc || 1 > job.nprocs || EVT_TSRV_MAX_PROCS < job.nprocs) {
        fprintf(stderr, "usage: %s [-n N] [-x S] [-u R] -- prog [args...]\n", argv[0]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    if (NULL == tmpdir) {
        tmpdir = mkdtemp(tmpl);
    }
    if (NULL == tmpdir) {
        perror("mkdtemp");
        return 1;
    }
    if (0 != gethostname(host, sizeof(host))) {
        snprintf(host, sizeof(host), "localhost");
    }
    evt_tsrv_module_defaults(&module, &job);
    if (PMIX_SUCCESS != evt_tsrv_init(&module, tmpdir, "evt-pmixprod-srv", false)) {
        return 1;
    }
    PMIX_PROC_LOAD(&server_proc, "evt-pmixprod-srv", 0);
    if (PMIX_SUCCESS != evt_tsrv_register_job(&job, host)) {
        return 1;
    }
    for (int r = 0; r < job.nprocs; ++r) {
        push_next[r] = evt_tsrv_now() + push_rate;
    }
    pthread_create(&upd, NULL, updater, NULL);

    for (int r = 0; r < job.nprocs; ++r) {
        if (0 != evt_tsrv_spawn(&job, r, &argv[optind])) {
            evt_tsrv_kill_job(&job, SIGKILL);
            return 1;
        }
        ++left;
    }

    death.start = evt_tsrv_now();
    failed = evt_tsrv_reap(&job, left, &how);
    done = 1;
    pthread_join(upd, NULL);
    fprintf(stderr,
            "[server] done: %d of %d ranks failed, %lu resource updates sent, %d monitor "
            "upcalls\n",
            failed, job.nprocs, updates_sent, monitor_upcalls);
    (void) PMIx_server_finalize();
    if (NULL == getenv("EVT_PMIXPROD_TMPDIR")) {
        char cmd[512];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
        (void) system(cmd);
    }
    return 0 == failed ? 0 : 1;
}
