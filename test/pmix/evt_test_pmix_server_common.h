/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * What the tests' PMIx servers share (evt_pmix_test_server.c for the
 * tools tests of test/pmix, evt_pmixprod_server.c for the PMIx producer's
 * tests of test/mpi): one node, one job, built on the PMIx library's
 * server API. Tests only, not a product.
 *
 * A server fills an evt_tsrv_job_t, starts the library with
 * evt_tsrv_init(), registers the job (evt_tsrv_register_job()), forks its
 * ranks (evt_tsrv_spawn()) and waits for them (evt_tsrv_reap()). Every
 * function runs on the server's main thread unless it says otherwise.
 */

#ifndef EVT_TEST_PMIX_SERVER_COMMON_H
#define EVT_TEST_PMIX_SERVER_COMMON_H

#include <pmix.h>
#include <pmix_server.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#define EVT_TSRV_MAX_PROCS 64

/** The job the server hosts. pids[r] is 0 before rank r is forked and
 *  after it was reaped (read by any thread: a stale pid is only a missed
 *  signal or update). */
typedef struct {
    const char *nspace;
    int nprocs;
    pid_t pids[EVT_TSRV_MAX_PROCS];
} evt_tsrv_job_t;

/** A one-shot latch for the library's completion callbacks. */
typedef struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    bool done;
    pmix_status_t status;
} evt_tsrv_latch_t;
#define EVT_TSRV_LATCH_INIT                                                      \
    {                                                                            \
        PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, PMIX_SUCCESS \
    }

/** Non-zero: no per-rank and per-upcall lines on stderr (evt_tsrv_log). */
extern int evt_tsrv_quiet;

/** When set, told the range of every notification that passes through
 *  the server (the notify_event upcall of evt_tsrv_module_defaults()).
 *  Library thread. */
extern void (*evt_tsrv_notify_seen)(pmix_data_range_t range);

/** fprintf(stderr, "[server] ...") unless evt_tsrv_quiet. ANY thread. */
void evt_tsrv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** CLOCK_MONOTONIC in seconds. ANY thread. */
double evt_tsrv_now(void);

/** A pmix_op_cbfunc_t completing the evt_tsrv_latch_t @p cbdata. Library
 *  thread. */
void evt_tsrv_op_cb(pmix_status_t status, void *cbdata);

/** The result of a non-blocking PMIx call that completes @p l through
 *  evt_tsrv_op_cb: @p call_rc itself when the call did not start the
 *  operation (PMIX_OPERATION_SUCCEEDED meaning success), else the status
 *  passed to the callback, once it ran. */
pmix_status_t evt_tsrv_latch_wait(evt_tsrv_latch_t *l, pmix_status_t call_rc);

/** Upcalls every test server serves the same: client_connected and
 *  client_finalized log the client (finalized ones are counted:
 *  evt_tsrv_finalized()); abort kills @p job (SIGTERM); fence completes
 *  with the local contributions (on a single node they are the whole
 *  collective); event (de)registrations need nothing of the host; and
 *  notify_event completes at once (the library has already delivered the
 *  event to the local clients and tools; injecting it again would deliver
 *  it twice) after telling evt_tsrv_notify_seen. @p m's other upcalls are
 *  left as they are. */
void evt_tsrv_module_defaults(pmix_server_module_t *m, evt_tsrv_job_t *job);

/** How many clients finalized so far. ANY thread. */
int evt_tsrv_finalized(void);

/** Send @p sig to every live rank of @p job. ANY thread. */
void evt_tsrv_kill_job(evt_tsrv_job_t *job, int sig);

/** PMIx_server_init with @p module, rendezvous files in @p tmpdir, the
 *  server's own namespace @p srv_nspace (rank 0); @p tools: also accept
 *  PMIx tools (tool, system and session server support). Prints a line
 *  on failure; returns the library's status. */
pmix_status_t evt_tsrv_init(pmix_server_module_t *module, const char *tmpdir,
                            const char *srv_nspace, bool tools);

/** Register @p job with the library: its size, its one node (@p host) and
 *  per rank its local, node and global rank. Prints a line on failure;
 *  returns the library's status. */
pmix_status_t evt_tsrv_register_job(const evt_tsrv_job_t *job, const char *host);

/** Register rank @p r of @p job as a client and fork it, running @p argv
 *  (argv[0] a path) in this environment plus what PMIx_server_setup_fork
 *  adds. Sets job->pids[r]. Prints a line on failure; returns 0 on
 *  success. */
int evt_tsrv_spawn(evt_tsrv_job_t *job, int r, char **argv);

/** Callbacks of evt_tsrv_reap(): @p tick runs about every @p tick_us
 *  while no rank ended, @p ended after rank @p r ended with wait status
 *  @p status (before it is deregistered). Either may be NULL. */
typedef struct {
    void (*tick)(void *arg);
    void (*ended)(int r, int status, void *arg);
    void *arg;
    unsigned tick_us;
} evt_tsrv_reap_t;

/** Wait until the @p left forked ranks of @p job ended, logging each and
 *  deregistering it as a client. Returns how many did not exit with 0. */
int evt_tsrv_reap(evt_tsrv_job_t *job, int left, const evt_tsrv_reap_t *how);

#endif /* EVT_TEST_PMIX_SERVER_COMMON_H */
