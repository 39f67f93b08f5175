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
 *   -n  ranks of the job "evt-test-job" (default 2, at most 64)
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
#include <errno.h>
#include <fcntl.h>
#include <pmix.h>
#include <pmix_server.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define JOB_NSPACE "evt-test-job"
#define MAX_PROCS  64

/* full-size buffers: the API reads PMIX_MAX_NSLEN + 1 bytes */
static pmix_nspace_t job_ns = JOB_NSPACE;
static int quiet, nprocs = 2;
static pid_t pids[MAX_PROCS];
static atomic_int nfinalized, ntools, tool_seq;
static atomic_ulong nnotify[8];
static volatile sig_atomic_t stop;

#define LOG(...)                                      \
    do {                                              \
        if (!quiet) {                                 \
            fprintf(stderr, "[server] " __VA_ARGS__); \
        }                                             \
    } while (0)

static void kill_job(int sig)
{
    for (int i = 0; i < nprocs; ++i) {
        if (0 < pids[i]) {
            (void) kill(pids[i], sig);
        }
    }
}

static void on_term(int sig)
{
    (void) sig;
    stop = 1;
    kill_job(SIGTERM);
}

/* ---- waiting for the library's callbacks ---- */
typedef struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    bool done;
    pmix_status_t status;
} latch_t;
#define LATCH_INIT                                                               \
    {                                                                            \
        PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, PMIX_SUCCESS \
    }

static void op_cb(pmix_status_t status, void *cbdata)
{
    latch_t *l = cbdata;
    pthread_mutex_lock(&l->m);
    l->status = status;
    l->done = true;
    pthread_cond_broadcast(&l->c);
    pthread_mutex_unlock(&l->m);
}

static pmix_status_t latch_wait(latch_t *l, pmix_status_t call_rc)
{
    if (PMIX_SUCCESS != call_rc) {
        return PMIX_OPERATION_SUCCEEDED == call_rc ? PMIX_SUCCESS : call_rc;
    }
    pthread_mutex_lock(&l->m);
    while (!l->done) {
        pthread_cond_wait(&l->c, &l->m);
    }
    pthread_mutex_unlock(&l->m);
    return l->status;
}

/* ---- upcalls ---- */
static pmix_status_t up_connected(const pmix_proc_t *p, void *obj, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) obj;
    LOG("client %s:%u connected\n", p->nspace, p->rank);
    if (NULL != cb) {
        cb(PMIX_SUCCESS, cbd);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t up_finalized(const pmix_proc_t *p, void *obj, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) obj;
    LOG("client %s:%u finalized\n", p->nspace, p->rank);
    atomic_fetch_add(&nfinalized, 1);
    if (NULL != cb) {
        cb(PMIX_SUCCESS, cbd);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t up_abort(const pmix_proc_t *p, void *obj, int status, const char msg[],
                              pmix_proc_t procs[], size_t np, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) obj;
    (void) procs;
    (void) np;
    fprintf(stderr, "[server] abort from %s:%u (status %d: %s): killing the job\n", p->nspace,
            p->rank, status, NULL == msg ? "" : msg);
    kill_job(SIGTERM);
    if (NULL != cb) {
        cb(PMIX_SUCCESS, cbd);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t up_fence(const pmix_proc_t procs[], size_t np, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cb,
                              void *cbd)
{
    (void) procs;
    (void) np;
    (void) info;
    (void) ninfo;
    if (NULL != cb) {
        cb(PMIX_SUCCESS, data, ndata, cbd, NULL, NULL);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t up_notify(pmix_status_t code, const pmix_proc_t *src, pmix_data_range_t range,
                               pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) code;
    (void) src;
    (void) info;
    (void) ninfo;
    (void) cb;
    (void) cbd;
    atomic_fetch_add(&nnotify[range & 7], 1);
    return PMIX_OPERATION_SUCCEEDED;
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
    LOG("tool connected as %s:%u\n", p.nspace, p.rank);
    atomic_fetch_add(&ntools, 1);
    if (NULL != cb) {
        cb(PMIX_SUCCESS, &p, cbd);
    }
}

static pmix_status_t up_regev(pmix_status_t *codes, size_t ncodes, const pmix_info_t info[],
                              size_t ninfo, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) codes;
    (void) ncodes;
    (void) info;
    (void) ninfo;
    (void) cb;
    (void) cbd;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t up_deregev(pmix_status_t *codes, size_t ncodes, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) codes;
    (void) ncodes;
    (void) cb;
    (void) cbd;
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_server_module_t module = {
    .client_connected = up_connected,
    .client_finalized = up_finalized,
    .abort = up_abort,
    .fence_nb = up_fence,
    .register_events = up_regev,
    .deregister_events = up_deregev,
    .notify_event = up_notify,
    .tool_connected = up_tool,
};

/* The job: its size, its node (this one), and per rank its local rank and
 * host. Returns 0 on success. */
static int register_job(const char *host)
{
    char ranks[MAX_PROCS * 4] = "", *regex = NULL, *ppn = NULL;
    uint32_t n = (uint32_t) nprocs, zero = 0, one = 1;
    pmix_rank_t leader = 0;
    size_t ninfo = 12 + (size_t) nprocs, i = 0;
    pmix_info_t *info;
    latch_t l = LATCH_INIT;
    pmix_status_t rc;

    for (int r = 0; r < nprocs; ++r) {
        snprintf(ranks + strlen(ranks), sizeof(ranks) - strlen(ranks), "%s%d", r ? "," : "", r);
    }
    if (PMIX_SUCCESS != PMIx_generate_regex(host, &regex)
        || PMIX_SUCCESS != PMIx_generate_ppn(ranks, &ppn)) {
        fprintf(stderr, "[server] PMIx_generate_regex/ppn failed\n");
        return 1;
    }
    PMIX_INFO_CREATE(info, ninfo);
    PMIX_INFO_LOAD(&info[i++], PMIX_UNIV_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_JOB_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_MAX_PROCS, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCAL_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_NODE_SIZE, &n, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCAL_PEERS, ranks, PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_NODE_MAP, regex, PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_PROC_MAP, ppn, PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_JOBID, JOB_NSPACE, PMIX_STRING);
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
    rc = latch_wait(&l, PMIx_server_register_nspace(job_ns, nprocs, info, i, op_cb, &l));
    PMIX_INFO_FREE(info, ninfo);
    free(regex);
    free(ppn);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "[server] register_nspace: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    return 0;
}

/* Fork rank @p r with what PMIx_server_setup_fork adds to our environment. */
static int spawn(int r, char **argv)
{
    extern char **environ;
    pmix_proc_t p;
    latch_t l = LATCH_INIT;
    char **env = NULL;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&p, JOB_NSPACE, (pmix_rank_t) r);
    rc = latch_wait(&l, PMIx_server_register_client(&p, geteuid(), getegid(), NULL, op_cb, &l));
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "[server] register_client: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    for (char **e = environ; NULL != *e; ++e) {
        pmix_argv_append_nosize(&env, *e);
    }
    rc = PMIx_server_setup_fork(&p, &env);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "[server] setup_fork: %s\n", PMIx_Error_string(rc));
        pmix_argv_free(env);
        return 1;
    }
    pids[r] = fork();
    if (0 == pids[r]) {
        execve(argv[0], argv, env);
        perror("[server] execve");
        _exit(127);
    }
    pmix_argv_free(env);
    return 0 > pids[r] ? 1 : 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *tmpdir = getenv("EVT_PMIX_TMPDIR"), *waitfile = NULL, *pidfile = NULL;
    int opt, linger = 0, timeout = 120, failed = 0, left = 0, rc = 0;
    pmix_info_t sinfo[7];
    pmix_rank_t srank = 0;
    struct sigaction sa;
    char host[256];
    latch_t l = LATCH_INIT;
    bool yes = true;
    double t0;

    while (-1 != (opt = getopt(argc, argv, "+n:d:W:L:T:P:q"))) {
        switch (opt) {
        case 'n':
            nprocs = atoi(optarg);
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
            timeout = atoi(optarg);
            break;
        case 'P':
            pidfile = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        default:
            return 2;
        }
    }
    if (optind >= argc || 1 > nprocs || MAX_PROCS < nprocs || 0 > linger || 1 > timeout) {
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

    PMIX_INFO_LOAD(&sinfo[0], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&sinfo[1], PMIX_SERVER_SYSTEM_SUPPORT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&sinfo[2], PMIX_SERVER_SESSION_SUPPORT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&sinfo[3], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[4], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[5], PMIX_SERVER_NSPACE, "evt-test-srv", PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[6], PMIX_SERVER_RANK, &srank, PMIX_PROC_RANK);
    if (PMIX_SUCCESS != PMIx_server_init(&module, sinfo, 7)) {
        fprintf(stderr, "[server] PMIx_server_init failed\n");
        return 1;
    }
    fprintf(stderr, "[server] pid %d, PMIx %s, rendezvous files in %s\n", (int) getpid(),
            PMIx_Get_version(), tmpdir);
    if (0 != register_job(host)) {
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
        LOG("waitfile %s %s\n", waitfile, 0 == stat(waitfile, &st) ? "present" : "TIMED OUT");
    }
    for (int r = 0; r < nprocs && !stop; ++r) {
        if (0 != spawn(r, &argv[optind])) {
            kill_job(SIGKILL);
            rc = 1;
            break;
        }
        ++left;
    }

    t0 = now_s();
    while (0 < left) {
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);

        if (0 == pid) {
            if (now_s() - t0 > timeout) {
                fprintf(stderr, "[server] the job ran longer than %d s: killed\n", timeout);
                kill_job(SIGKILL);
                t0 = now_s() + 1e9;
            }
            usleep(10000);
            continue;
        }
        if (0 > pid) {
            if (EINTR == errno) {
                continue;
            }
            break;
        }
        for (int r = 0; r < nprocs; ++r) {
            pmix_proc_t p;

            if (pids[r] != pid) {
                continue;
            }
            pids[r] = 0;
            --left;
            failed += !WIFEXITED(st) || 0 != WEXITSTATUS(st);
            LOG("rank %d (pid %d) %s %d\n", r, (int) pid,
                WIFEXITED(st) ? "exited with" : "killed by signal",
                WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
            PMIX_LOAD_PROCID(&p, JOB_NSPACE, (pmix_rank_t) r);
            PMIx_server_deregister_client(&p, NULL, NULL);
        }
    }
    for (int i = 0; i < 10 * linger && !stop; ++i) {
        usleep(100000);
    }
    fprintf(stderr,
            "[server] done: %d/%d ranks failed, %d finalized, %d tool(s) connected, "
            "notifications namespace=%lu session=%lu global=%lu custom=%lu\n",
            failed, nprocs, atomic_load(&nfinalized), atomic_load(&ntools),
            atomic_load(&nnotify[PMIX_RANGE_NAMESPACE]), atomic_load(&nnotify[PMIX_RANGE_SESSION]),
            atomic_load(&nnotify[PMIX_RANGE_GLOBAL]), atomic_load(&nnotify[PMIX_RANGE_CUSTOM]));
    PMIx_server_deregister_nspace(job_ns, op_cb, &l);
    (void) latch_wait(&l, PMIX_SUCCESS);
out:
    (void) PMIx_server_finalize();
    return 0 != rc ? rc : 0 < failed ? 1 : 0;
}
