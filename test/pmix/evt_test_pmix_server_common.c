/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* What the tests' PMIx servers share (evt_test_pmix_server_common.h). */

#include "evt_test_pmix_server_common.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int evt_tsrv_quiet = 0;
void (*evt_tsrv_notify_seen)(pmix_data_range_t range) = NULL;

void evt_tsrv_log(const char *fmt, ...)
{
    va_list ap;

    if (evt_tsrv_quiet) {
        return;
    }
    va_start(ap, fmt);
    fputs("[server] ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

double evt_tsrv_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

void evt_tsrv_op_cb(pmix_status_t status, void *cbdata)
{
    evt_tsrv_latch_t *l = cbdata;

    pthread_mutex_lock(&l->m);
    l->status = status;
    l->done = true;
    pthread_cond_broadcast(&l->c);
    pthread_mutex_unlock(&l->m);
}

pmix_status_t evt_tsrv_latch_wait(evt_tsrv_latch_t *l, pmix_status_t call_rc)
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

/* ---- upcalls every test server serves the same ---- */

static evt_tsrv_job_t *the_job; /* set by evt_tsrv_module_defaults() */
static atomic_int nfinalized;

static pmix_status_t up_connected(const pmix_proc_t *p, void *obj, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) obj;
    evt_tsrv_log("client %s:%u connected\n", p->nspace, p->rank);
    if (NULL != cb) {
        cb(PMIX_SUCCESS, cbd);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t up_finalized(const pmix_proc_t *p, void *obj, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) obj;
    evt_tsrv_log("client %s:%u finalized\n", p->nspace, p->rank);
    atomic_fetch_add(&nfinalized, 1);
    if (NULL != cb) {
        cb(PMIX_SUCCESS, cbd);
    }
    return PMIX_SUCCESS;
}

int evt_tsrv_finalized(void)
{
    return atomic_load(&nfinalized);
}

static pmix_status_t up_abort(const pmix_proc_t *p, void *obj, int status, const char msg[],
                              pmix_proc_t procs[], size_t np, pmix_op_cbfunc_t cb, void *cbd)
{
    (void) obj;
    (void) procs;
    (void) np;
    fprintf(stderr, "[server] abort from %s:%u (status %d: %s): killing the job\n", p->nspace,
            p->rank, status, NULL == msg ? "" : msg);
    evt_tsrv_kill_job(the_job, SIGTERM);
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
    if (NULL != evt_tsrv_notify_seen) {
        evt_tsrv_notify_seen(range);
    }
    return PMIX_OPERATION_SUCCEEDED;
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

void evt_tsrv_module_defaults(pmix_server_module_t *m, evt_tsrv_job_t *job)
{
    the_job = job;
    m->client_connected = up_connected;
    m->client_finalized = up_finalized;
    m->abort = up_abort;
    m->fence_nb = up_fence;
    m->register_events = up_regev;
    m->deregister_events = up_deregev;
    m->notify_event = up_notify;
}

void evt_tsrv_kill_job(evt_tsrv_job_t *job, int sig)
{
    for (int i = 0; i < job->nprocs; ++i) {
        pid_t pid = job->pids[i];

        if (0 < pid) {
            (void) kill(pid, sig);
        }
    }
}

pmix_status_t evt_tsrv_init(pmix_server_module_t *module, const char *tmpdir,
                            const char *srv_nspace, bool tools)
{
    pmix_info_t sinfo[7];
    pmix_rank_t srank = 0;
    bool yes = true;
    size_t n = 0;
    pmix_status_t rc;

    PMIX_INFO_LOAD(&sinfo[n++], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[n++], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[n++], PMIX_SERVER_NSPACE, srv_nspace, PMIX_STRING);
    PMIX_INFO_LOAD(&sinfo[n++], PMIX_SERVER_RANK, &srank, PMIX_PROC_RANK);
    if (tools) {
        PMIX_INFO_LOAD(&sinfo[n++], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&sinfo[n++], PMIX_SERVER_SYSTEM_SUPPORT, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&sinfo[n++], PMIX_SERVER_SESSION_SUPPORT, &yes, PMIX_BOOL);
    }
    rc = PMIx_server_init(module, sinfo, n);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "[server] PMIx_server_init: %s\n", PMIx_Error_string(rc));
    }
    return rc;
}

pmix_status_t evt_tsrv_register_job(const evt_tsrv_job_t *job, const char *host)
{
    char ranks[EVT_TSRV_MAX_PROCS * 4] = "", *regex = NULL, *ppn = NULL;
    uint32_t n = (uint32_t) job->nprocs, zero = 0, one = 1;
    pmix_rank_t leader = 0;
    size_t ninfo = 12 + (size_t) job->nprocs, i = 0;
    pmix_info_t *info;
    pmix_nspace_t ns; /* full size: the API reads PMIX_MAX_NSLEN + 1 bytes */
    evt_tsrv_latch_t l = EVT_TSRV_LATCH_INIT;
    pmix_status_t rc;

    for (int r = 0; r < job->nprocs; ++r) {
        snprintf(ranks + strlen(ranks), sizeof(ranks) - strlen(ranks), "%s%d", r ? "," : "", r);
    }
    if (PMIX_SUCCESS != (rc = PMIx_generate_regex(host, &regex))
        || PMIX_SUCCESS != (rc = PMIx_generate_ppn(ranks, &ppn))) {
        fprintf(stderr, "[server] PMIx_generate_regex/ppn: %s\n", PMIx_Error_string(rc));
        free(regex);
        return rc;
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
    PMIX_INFO_LOAD(&info[i++], PMIX_JOBID, job->nspace, PMIX_STRING);
    PMIX_INFO_LOAD(&info[i++], PMIX_NUM_NODES, &one, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_APPNUM, &zero, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[i++], PMIX_LOCALLDR, &leader, PMIX_PROC_RANK);
    for (int r = 0; r < job->nprocs; ++r) {
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
    PMIX_LOAD_NSPACE(ns, job->nspace);
    rc = evt_tsrv_latch_wait(&l, PMIx_server_register_nspace(ns, job->nprocs, info, i,
                                                             evt_tsrv_op_cb, &l));
    PMIX_INFO_FREE(info, ninfo);
    free(regex);
    free(ppn);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "[server] register_nspace: %s\n", PMIx_Error_string(rc));
    }
    return rc;
}

/* A malloc'ed copy of @p env (PMIx_server_setup_fork() adds to it with
 * realloc); NULL when out of memory. */
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

static void free_env(char **env)
{
    for (char **e = env; NULL != e && NULL != *e; ++e) {
        free(*e);
    }
    free(env);
}

int evt_tsrv_spawn(evt_tsrv_job_t *job, int r, char **argv)
{
    extern char **environ;
    pmix_proc_t p;
    evt_tsrv_latch_t l = EVT_TSRV_LATCH_INIT;
    char **env;
    pmix_status_t rc;
    pid_t pid;

    PMIX_LOAD_PROCID(&p, job->nspace, (pmix_rank_t) r);
    rc = evt_tsrv_latch_wait(&l, PMIx_server_register_client(&p, geteuid(), getegid(), NULL,
                                                             evt_tsrv_op_cb, &l));
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "[server] rank %d: register_client: %s\n", r, PMIx_Error_string(rc));
        return 1;
    }
    env = copy_env(environ);
    rc = NULL == env ? PMIX_ERR_NOMEM : PMIx_server_setup_fork(&p, &env);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "[server] rank %d: setup_fork: %s\n", r, PMIx_Error_string(rc));
        free_env(env);
        return 1;
    }
    pid = fork();
    if (0 == pid) {
        execve(argv[0], argv, env);
        perror("[server] execve");
        _exit(127);
    }
    free_env(env);
    if (0 > pid) {
        perror("[server] fork");
        return 1;
    }
    job->pids[r] = pid;
    return 0;
}

int evt_tsrv_reap(evt_tsrv_job_t *job, int left, const evt_tsrv_reap_t *how)
{
    int failed = 0;

    while (0 < left) {
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);

        if (0 == pid) {
            if (NULL != how->tick) {
                how->tick(how->arg);
            }
            usleep(how->tick_us);
            continue;
        }
        if (0 > pid) {
            if (EINTR == errno) {
                continue;
            }
            break;
        }
        for (int r = 0; r < job->nprocs; ++r) {
            pmix_proc_t p;

            if (job->pids[r] != pid) {
                continue;
            }
            job->pids[r] = 0;
            --left;
            failed += !WIFEXITED(st) || 0 != WEXITSTATUS(st);
            evt_tsrv_log("rank %d (pid %d) %s %d\n", r, (int) pid,
                         WIFEXITED(st) ? "exited with" : "killed by signal",
                         WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
            if (NULL != how->ended) {
                how->ended(r, st, how->arg);
            }
            PMIX_LOAD_PROCID(&p, job->nspace, (pmix_rank_t) r);
            PMIx_server_deregister_client(&p, NULL, NULL);
        }
    }
    return failed;
}
