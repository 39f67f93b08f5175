/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* ompi-evt-record's shared-memory consumer (tools/evt_record_spool.c),
 * built here with its periodic look at the live folder an hour apart: a
 * file is found only because its publication was reported (inotify). A
 * rank that fills its ring within the periodic look's interval (a short
 * latency loop does so in 50 ms) lost its first records when the consumer
 * found its file that late. */

#include "ompi_config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evt_record_spool.h"
#include "ompi/constants.h"
#include "ompi/mca/evt/base/base.h"
#include "ompi/mca/evt/file/evt_file.h"
#include "ompi/mca/evt/file/evt_file_internal.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"
#include "test_file_common.h"

#define RECORDS 1000

static char top[64], live[128], out[128];

static void make_dirs(void)
{
    snprintf(top, sizeof(top), "/tmp/evt_spool_XXXXXX");
    cr_assert_not_null(mkdtemp(top));
    snprintf(live, sizeof(live), "%s/live", top);
    snprintf(out, sizeof(out), "%s/out", top);
    cr_assert_eq(mkdir(live, 0700), 0);
    cr_assert_eq(mkdir(out, 0700), 0);
}

static void remove_dirs(void)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
    (void) system(cmd);
}

/* The writer: evt/file into the live folder (published at init), RECORDS
 * numbered events, its file's path written to @p path_fd, then it waits
 * for SIGTERM with its file open and finalizes. */
static pid_t start_writer(int go_fd, int path_fd)
{
    pid_t pid = fork();

    cr_assert_neq(pid, -1);
    if (0 == pid) {
        mca_base_event_t *ev = NULL;
        ompi_evt_base_module_t *m;
        sigset_t term;
        int prio = -1, sig;
        char c;

        /* published only once the consumer runs: its first look (at its
         * start) must not be what finds the file */
        if (1 != read(go_fd, &c, 1)) {
            _exit(1);
        }
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        (void) sigprocmask(SIG_BLOCK, &term, NULL);
        setenv("OMPI_COMM_WORLD_RANK", "0", 1);
        setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
        if (OPAL_SUCCESS != opal_init_util(NULL, NULL) || OPAL_SUCCESS != mca_base_event_init()
            || OMPI_SUCCESS
                   != mca_evt_file_component.super.evtc_version.mca_register_component_params()) {
            _exit(2);
        }
        mca_evt_file_component.dir = live;
        mca_evt_file_component.size = 1 << 20;
        mca_evt_file_component.rings = 1;
        m = mca_evt_file_component.super.evtc_init(&prio);
        if (NULL == m || OMPI_SUCCESS != ompi_evt_base_install("file", m, prio)
            || 0 > test_file_seq_register(&ev)) {
            _exit(3);
        }
        for (uint64_t s = 0; s < RECORDS; ++s) {
            test_file_seq_raise(ev, s, 0);
        }
        if ((ssize_t) sizeof(ompi_evt_file_state.path)
            != write(path_fd, ompi_evt_file_state.path, sizeof(ompi_evt_file_state.path))) {
            _exit(4);
        }
        (void) sigwait(&term, &sig);
        (void) mca_base_event_flush();
        ompi_evt_base_uninstall();
        (void) mca_base_event_finalize();
        _exit(0);
    }
    return pid;
}

Test(record_spool, a_published_file_is_found_without_the_periodic_look)
{
    char err[256] = "";
    record_spool_t *sp;
    char path[sizeof(ompi_evt_file_state.path)];
    int go[2], paths[2], status, waited_ms;
    pid_t pid;
    FILE *msgs;
    char *said = NULL;
    size_t said_len = 0;

    make_dirs();
    cr_assert_eq(pipe(go), 0);
    cr_assert_eq(pipe(paths), 0);
    pid = start_writer(go[0], paths[1]);
    sp = record_spool_start(live, out, err, sizeof(err));
    cr_assert_not_null(sp, "%s", err);
    /* whatever look the consumer makes as it starts sees an empty folder */
    usleep(100000);
    cr_assert_eq(write(go[1], "g", 1), 1);
    cr_assert_eq(read(paths[0], path, sizeof(path)), (ssize_t) sizeof(path),
                 "the writer did not start");
    cr_assert_eq(strncmp(path, live, strlen(live)), 0, "%s", path);
    /* published now; mapped and unlinked once the consumer finds it (30 s:
     * far beyond a wake-up, far below the hour of the periodic look) */
    for (waited_ms = 0; waited_ms < 30000 && 0 == access(path, F_OK); waited_ms += 1) {
        usleep(1000);
    }
    cr_assert_eq(access(path, F_OK), -1, "the consumer did not find %s in 30 s", path);
    cr_assert_eq(kill(pid, SIGTERM), 0);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && 0 == WEXITSTATUS(status), "writer status 0x%x", status);
    msgs = open_memstream(&said, &said_len);
    cr_assert_not_null(msgs);
    cr_assert_eq(record_spool_finish(sp, msgs), 0);
    (void) fclose(msgs);
    cr_assert_eq(record_spool_records(sp), RECORDS, "copied %llu, said: %s",
                 (unsigned long long) record_spool_records(sp), said);
    free(said);
    record_spool_free(sp);
    remove_dirs();
}
