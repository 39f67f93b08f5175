/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* A minimal single-node PMIx server, for the PMIx producer's tests only
 * (not a product; see ../shared/proto/pmix-harness for where it comes
 * from). It hosts N Open MPI 4.1.4 ranks (run them with
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

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>
#include <pmix_server.h>

#include "ompi/runtime/ompi_evt_pmix_keys.h"
#include "ompi/runtime/ompi_evt_procstat.h"

#define NSPACE    "evt-pmixprod-job"
#define MAX_PROCS 16
#define MAX_REQS  64

static int nprocs = 2;
static pid_t pids[MAX_PROCS];
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
static double push_next[MAX_PROCS];
static int monitor_upcalls;
static unsigned long updates_sent;

/* a one-shot latch for the library's callbacks */
typedef struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    int done;
    pmix_status_t st;
} latch_t;
#define LATCH_INIT                                                           \
    {                                                                        \
        PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, PMIX_SUCCESS \
    }
static void op_cb(pmix_status_t st, void *cbdata)
{
    latch_t *l = cbdata;

    pthread_mutex_lock(&l->m);
    l->st = st;
    l->done = 1;
    pthread_cond_broadcast(&l->c);
    pthread_mutex_unlock(&l->m);
}
static pmix_status_t latch_wait(latch_t *l)
{
    pthread_mutex_lock(&l->m);
    while (!l->done) {
        pthread_cond_wait(&l->c, &l->m);
    }
    pthread_mutex_unlock(&l->m);
    return l->st;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---------------- upcalls ---------------- */

static pmix_status_t up_ok(const pmix_proc_t *p, void *obj, pmix_op_cbfunc_t cb, void *cbd)
{
    if (NULL != cb) {
        cb(PMIX_SUCCESS, cbd);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t up_abort(const pmix_proc_t *p, void *obj, int status, const char msg[],
                              pmix_proc_t procs[], size_t np, pmix_op_cbfunc_t cb, void *cbd)
{
    fprintf(stderr, "[server] abort from rank %u, status %d: %s\n", p->rank, status,
            NULL == msg ? "" : msg);
    for (int i = 0; i < nprocs; ++i) {
        if (0 < pids[i]) {
            kill(pids[i], SIGTERM);
        }
    }
    if (NULL != cb) {
        cb(PMIX_SUCCESS, cbd);
    }
    return PMIX_SUCCESS;
}

/* one node: the local contribution is the whole result */
static pmix_status_t up_fence(const pmix_proc_t procs[], size_t np, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cb,
                              void *cbd)
{
    if (NULL != cb) {
        cb(PMIX_SUCCESS, data, ndata, cbd, NULL, NULL);
    }
    return PMIX_SUCCESS;
}

/* the library has delivered to every local client already */
static pmix_status_t up_notify(pmix_status_t code, const pmix_proc_t *src, pmix_data_range_t range,
                               pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cb, void *cbd)
{
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t up_regev(pmix_status_t *codes, size_t ncodes, const pmix_info_t info[],
                              size_t ninfo, pmix_op_cbfunc_t cb, void *cbd)
{
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t up_deregev(pmix_status_t *codes, size_t ncodes, pmix_op_cbfunc_t cb, void *cbd)
{
    return PMIX_OPERATION_SUCCEEDED;
}

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
        if (0 == rate || MAX_REQS == k || requestor->rank >= (pmix_rank_t) nprocs) {
            rc = PMIX_ERR_BAD_PARAM;
        } else {
            reqs[k].live = true;
            reqs[k].rank = requestor->rank;
            reqs[k].rate = rate;
            reqs[k].next = now_s() + rate;
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

static pmix_server_module_t module = {
    .client_connected = up_ok,
    .client_finalized = up_ok,
    .abort = up_abort,
    .fence_nb = up_fence,
    .register_events = up_regev,
    .deregister_events = up_deregev,
    .notify_event = up_notify,
    .monitor = up_monitor,
};

/* ---------------- events the server generates ---------------- */

/* A resource-usage update of @p rank (pid @p pid) to that rank alone. */
static void send_update(pmix_rank_t rank, pid_t pid)
{
    ompi_evt_procstat_t st;
    ompi_evt_pmix_resource_usage_payload_t p;
    pmix_data_array_t *da, *target;
    pmix_info_t *f, info[3];
    pmix_proc_t who;
    struct timeval tv;
    float pcpu, pss, vsize, rss, peak;
    uint16_t nthr, cpu;
    int32_t pri;
    time_t when;
    bool yes = true;
    char state[2];

    if (0 != ompi_evt_procstat_read(NULL, pid, &st)
        || 0
               != ompi_evt_procstat_to_payload(&st, NULL, sysconf(_SC_CLK_TCK),
                                               sysconf(_SC_PAGESIZE), &p)) {
        return;
    }
    PMIX_PROC_LOAD(&who, NSPACE, rank);
    tv.tv_sec = (time_t) (p.cpu_time_usec / 1000000);
    tv.tv_usec = (suseconds_t) (p.cpu_time_usec % 1000000);
    pcpu = (float) p.percent_cpu;
    pss = (float) p.pss_mb;
    vsize = (float) p.vsize_mb;
    rss = (float) p.rss_mb;
    peak = (float) p.peak_vsize_mb;
    nthr = (uint16_t) p.num_threads;
    cpu = (uint16_t) p.cpu;
    pri = p.priority;
    when = (time_t) p.sample_time;
    state[0] = (char) p.state;
    state[1] = '\0';

    PMIX_DATA_ARRAY_CREATE(da, 12, PMIX_INFO);
    f = (pmix_info_t *) da->array;
    PMIX_INFO_LOAD(&f[0], PMIX_PROCID, &who, PMIX_PROC);
    PMIX_INFO_LOAD(&f[1], PMIX_PROC_OS_STATE, state, PMIX_STRING);
    PMIX_INFO_LOAD(&f[2], PMIX_PROC_TIME, &tv, PMIX_TIMEVAL);
    PMIX_INFO_LOAD(&f[3], PMIX_PROC_PERCENT_CPU, &pcpu, PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[4], PMIX_PROC_PRIORITY, &pri, PMIX_INT32);
    PMIX_INFO_LOAD(&f[5], PMIX_PROC_NUM_THREADS, &nthr, PMIX_UINT16);
    PMIX_INFO_LOAD(&f[6], PMIX_PROC_PSS, &pss, PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[7], PMIX_PROC_VSIZE, &vsize, PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[8], PMIX_PROC_RSS, &rss, PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[9], PMIX_PROC_PEAK_VSIZE, &peak, PMIX_FLOAT);
    PMIX_INFO_LOAD(&f[10], PMIX_PROC_CPU, &cpu, PMIX_UINT16);
    PMIX_INFO_LOAD(&f[11], PMIX_PROC_SAMPLE_TIME, &when, PMIX_TIME);
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIX_LOAD_KEY(info[0].key, PMIX_PROC_RESOURCE_USAGE);
    info[0].value.type = PMIX_DATA_ARRAY;
    info[0].value.data.darray = da;
    PMIX_DATA_ARRAY_CREATE(target, 1, PMIX_PROC);
    memcpy(target->array, &who, sizeof(who));
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIX_LOAD_KEY(info[1].key, PMIX_EVENT_CUSTOM_RANGE);
    info[1].value.type = PMIX_DATA_ARRAY;
    info[1].value.data.darray = target;
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_DO_NOT_CACHE, &yes, PMIX_BOOL);
    latch_t l = LATCH_INIT;
    if (PMIX_SUCCESS
        == PMIx_Notify_event(PMIX_MONITOR_RESUSAGE_UPDATE, &server_proc, PMIX_RANGE_CUSTOM, info, 3,
                             op_cb, &l)) {
        (void) latch_wait(&l);
        ++updates_sent;
    }
    for (int i = 0; i < 3; ++i) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

static void *updater(void *arg)
{
    while (!done) {
        double t = now_s();

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
            if (due && 0 < pids[rank]) {
                send_update(rank, pids[rank]);
            }
        }
        for (int r = 0; 0 < push_rate && r < nprocs; ++r) {
            if (0 < pids[r] && push_next[r] <= t) {
                push_next[r] += push_rate;
                send_update((pmix_rank_t) r, pids[r]);
            }
        }
        usleep(20000);
    }
    return NULL;
}

/* Rank @p rank was killed by @p sig: tell the job. */
static void announce_kill(int rank, int sig)
{
    pmix_info_t info[3];
    pmix_proc_t who;
    int code = 128 + sig;
    bool yes = true;
    latch_t l = LATCH_INIT;

    PMIX_PROC_LOAD(&who, NSPACE, (pmix_rank_t) rank);
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &who, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_EXIT_CODE, &code, PMIX_INT);
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
    if (PMIX_SUCCESS
        == PMIx_Notify_event(PMIX_ERR_PROC_ABORTED_BY_SIG, &server_proc, PMIX_RANGE_NAMESPACE, info,
                             3, op_cb, &l)) {
        (void) latch_wait(&l);
    }
    fprintf(stderr, "[server] announced: rank %d killed by signal %d\n", rank, sig);
    for (int i = 0; i < 3; ++i) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

/* ---------------- the job ---------------- */

static int register_job(const char *host)
{
    char ranks[4 * MAX_PROCS + 1] = "", *regex = NULL, *ppn = NULL;
    uint32_t n = (uint32_t) nprocs, zero = 0, one = 1;
    pmix_rank_t leader = 0;
    pmix_info_t *info;
    size_t ninfo = 12 + (size_t) nprocs, i = 0;
    pmix_nspace_t ns;
    latch_t l = LATCH_INIT;
    pmix_status_t rc;

    for (int r = 0; r < nprocs; ++r) {
        sprintf(ranks + strlen(ranks), "%s%d", r ? "," : "", r);
    }
    PMIx_generate_regex(host, &regex);
    PMIx_generate_ppn(ranks, &ppn);
    PMIX_INFO_CREATE(info, ninfo);
    PMIX_INFO_LOAD(&info[i++], PMIX_UNIV_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_JOB_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_MAX_PROCS, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCAL_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_NODE_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCAL_PEERS, ranks, PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_NODE_MAP, regex, PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_PROC_MAP, ppn, PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_JOBID, NSPACE, PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_NUM_NODES, &one, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_APPNUM, &zero, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCALLDR, &leader, PMIX_PROC_RANK);
    for (int r = 0; r < nprocs; ++r) {
        pmix_data_array_t *da;
        pmix_info_t *pi;
        uint16_t lr = (uint16_t) r;
        pmix_rank_t rk = (pmix_rank_t) r;

        PMIX_DATA_ARRAY_CREATE(da, 7, PMIX_INFO);
        pi = (pmix_info_t *) da->array;
        PMIX_INFO_LOAD(&pi[0], PMIX_RANK, &rk, PMIX_PROC_RANK);
        PMIX_INFO_LOAD(&pi[1], PMIX_LOCAL_RANK, &lr, PMIX_UINT16);
        PMIX_INFO_LOAD(&pi[2], PMIX_NODE_RANK, &lr, PMIX_UINT16);
        PMIX_INFO_LOAD(&pi[3], PMIX_GLOBAL_RANK, &rk, PMIX_PROC_RANK);
        PMIX_INFO_LOAD(&pi[4], PMIX_APP_RANK, &rk, PMIX_PROC_RANK);
        PMIX_INFO_LOAD(&pi[5], PMIX_NODEID, &zero, PMIX_UINT32);
        PMIX_INFO_LOAD(&pi[6], PMIX_HOSTNAME, host, PMIX_STRING);
        PMIX_INFO_LOAD(&info[i++], PMIX_PROC_DATA, da, PMIX_DATA_ARRAY);
        PMIX_DATA_ARRAY_FREE(da);
    }
    PMIX_LOAD_NSPACE(ns, NSPACE);
    rc = PMIx_server_register_nspace(ns, nprocs, info, i, op_cb, &l);
    if (PMIX_SUCCESS == rc) {
        rc = latch_wait(&l);
    }
    PMIX_INFO_FREE(info, ninfo);
    free(regex);
    free(ppn);
    return rc;
}

/* A malloc'ed copy of @p env (PMIx_server_setup_fork() adds to it with
 * realloc). */
static char **copy_env(char **env)
{
    size_t n = 0;
    char **copy;

    while (NULL != env[n]) {
        ++n;
    }
    copy = calloc(n + 1, sizeof(*copy));
    for (size_t i = 0; NULL != copy && i < n; ++i) {
        copy[i] = strdup(env[i]);
    }
    return copy;
}

int main(int argc, char **argv)
{
    extern char **environ;
    char host[256], tmpl[] = "/tmp/evt_pmixprod.XXXXXX";
    const char *tmpdir = getenv("EVT_PMIXPROD_TMPDIR");
    pmix_info_t sinfo[4];
    pmix_rank_t srank = 0;
    pthread_t upd;
    int opt, die_after = 0, left = 0, failed = 0;
    double start;
    pmix_status_t rc;

    while (-1 != (opt = getopt(argc, argv, "+n:x:u:"))) {
        switch (opt) {
        case 'n':
            nprocs = atoi(optarg);
            break;
        case 'x':
            die_after = atoi(optarg);
            break;
        case 'u':
            push_rate = (unsigned) atoi(optarg);
            break;
        default:
            return 2;
        }
    }
    if (optind >= argc || 1 > nprocs || MAX_PROCS < nprocs) {
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
    gethostname(host, sizeof(host));
    PMIX_INFO_LOAD(&sinfo[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[2], PMIX_SERVER_NSPACE, "evt-pmixprod-srv", PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[3], PMIX_SERVER_RANK, &srank, PMIX_PROC_RANK);
    rc = PMIx_server_init(&module, sinfo, 4);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "[server] PMIx_server_init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    PMIX_PROC_LOAD(&server_proc, "evt-pmixprod-srv", 0);
    if (PMIX_SUCCESS != (rc = register_job(host))) {
        fprintf(stderr, "[server] register_nspace: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    for (int r = 0; r < nprocs; ++r) {
        push_next[r] = now_s() + push_rate;
    }
    pthread_create(&upd, NULL, updater, NULL);

    for (int r = 0; r < nprocs; ++r) {
        pmix_proc_t p;
        char **env = NULL;
        latch_t l = LATCH_INIT;

        PMIX_PROC_LOAD(&p, NSPACE, (pmix_rank_t) r);
        rc = PMIx_server_register_client(&p, geteuid(), getegid(), NULL, op_cb, &l);
        if (PMIX_SUCCESS == rc) {
            rc = latch_wait(&l);
        }
        env = copy_env(environ);
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_server_setup_fork(&p, &env);
        }
        if (PMIX_SUCCESS != rc) {
            fprintf(stderr, "[server] rank %d: %s\n", r, PMIx_Error_string(rc));
            return 1;
        }
        pids[r] = fork();
        if (0 == pids[r]) {
            execve(argv[optind], &argv[optind], env);
            perror("execve");
            _exit(127);
        }
        for (char **e = env; NULL != e && NULL != *e; ++e) {
            free(*e);
        }
        free(env);
        ++left;
    }

    start = now_s();
    while (0 < left) {
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);

        if (0 == pid) {
            if (0 < die_after && now_s() - start >= die_after) {
                fprintf(stderr, "[server] dying now (-x %d)\n", die_after);
                fflush(stderr);
                raise(SIGKILL);
            }
            usleep(20000);
            continue;
        }
        if (0 > pid) {
            if (EINTR == errno) {
                continue;
            }
            break;
        }
        for (int r = 0; r < nprocs; ++r) {
            if (pids[r] != pid) {
                continue;
            }
            pids[r] = 0;
            --left;
            if (!WIFEXITED(st) || 0 != WEXITSTATUS(st)) {
                ++failed;
            }
            fprintf(stderr, "[server] rank %d %s %d\n", r,
                    WIFEXITED(st) ? "exited" : "killed by signal",
                    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
            if (WIFSIGNALED(st)) {
                announce_kill(r, WTERMSIG(st));
            }
        }
    }
    done = 1;
    pthread_join(upd, NULL);
    fprintf(stderr,
            "[server] done: %d of %d ranks failed, %lu resource updates sent, %d monitor "
            "upcalls\n",
            failed, nprocs, updates_sent, monitor_upcalls);
    (void) PMIx_server_finalize();
    if (NULL == getenv("EVT_PMIXPROD_TMPDIR")) {
        char cmd[512];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
        (void) system(cmd);
    }
    return 0 == failed ? 0 : 1;
}
