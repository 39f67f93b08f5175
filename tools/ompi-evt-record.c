/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi-evt-record: record a job's MPI_T events with one command.
 *
 *   ompi-evt-record [-o DIR] [--events PATTERNS] [--format LIST]
 *                   [--summary-only] [--quiet] -- mpirun ARGS... ./app ARGS...
 *
 * It adds to the mpirun command line what export needs (evt/pmix with a
 * node sink in DIR, the event filter, libompi_evt.so preloaded so the PMPI
 * producers are active without relinking), says so once, runs the job,
 * shows on a terminal how many events have reached the node files, and
 * when the job has ended (however it ended) runs ompi-evt-listen --read on
 * DIR to write the outputs and the summary. Its exit status is the job's
 * when the job failed, otherwise the listener's (0 only when everything
 * read was valid).
 */

#include "ompi_config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ompi/mca/evt/base/evt_base_nodefile.h"
#include "ompi/mca/evt/base/evt_base_wire.h"

#define RECORD_NAME "ompi-evt-record"

typedef struct record_options_t {
    const char *dir;
    const char *events;
    const char *formats;
    bool summary_only;
    bool quiet;
    char **job_argv; /**< the launcher command after "--" */
} record_options_t;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: " RECORD_NAME " [-o DIR] [--events PATTERNS] [--format LIST]\n"
            "                       [--summary-only] [--quiet] -- mpirun ARGS... ./app ARGS...\n"
            "  -o, --output DIR    where node files and outputs go (default\n"
            "                      ompi-evt.<date>-<time>; must not hold a recording)\n"
            "  --events PATTERNS   export only these events (comma-separated name\n"
            "                      patterns with '*', '^' to exclude)\n"
            "  --format LIST       outputs: jsonl,perfetto,otf2 (default all three)\n"
            "  --summary-only      only the summary, no event outputs\n"
            "  -q, --quiet         no progress and no summary on the terminal\n");
}

/* ------------------------------------------------------------------------ */
/* Where our pieces are: the library this program runs with, and the
 * listener beside this program. */

/* The libompi_evt.so this process uses: the one to preload into the job,
 * so the job's producers and our decoder are the same build. */
static int own_library_path(char *path, size_t size)
{
    Dl_info info;
    if (0 == dladdr((void *) ompi_evt_wire_decode, &info) || NULL == info.dli_fname) {
        return -1;
    }
    char *real = realpath(info.dli_fname, NULL);
    if (NULL == real) {
        return -1;
    }
    int n = snprintf(path, size, "%s", real);
    free(real);
    return (n < 0 || (size_t) n >= size) ? -1 : 0;
}

/* ompi-evt-listen beside this program. In a libtool build tree the real
 * program is in .libs/ and the runnable wrapper one folder up. */
static int listener_path(char *path, size_t size)
{
    const char *env = getenv("OMPI_EVT_LISTEN");
    if (NULL != env && '\0' != env[0]) {
        int n = snprintf(path, size, "%s", env);
        return (n < 0 || (size_t) n >= size) ? -1 : 0;
    }
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (len <= 0) {
        return -1;
    }
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    if (NULL == slash) {
        return -1;
    }
    *slash = '\0';
    size_t dlen = strlen(self);
    if (dlen >= 6 && 0 == strcmp(self + dlen - 6, "/.libs")) {
        self[dlen - 6] = '\0';
    }
    int n = snprintf(path, size, "%s/ompi-evt-listen", self);
    if (n < 0 || (size_t) n >= size) {
        return -1;
    }
    return access(path, X_OK);
}

/* ------------------------------------------------------------------------ */
/* The output folder. */

static int prepare_dir(record_options_t *opt, char *made, size_t size)
{
    if (NULL == opt->dir) {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        if (0 == strftime(made, size, "ompi-evt.%Y%m%d-%H%M%S", &tm)) {
            return -1;
        }
        opt->dir = made;
    }
    if (0 == mkdir(opt->dir, 0700)) {
        return 0;
    }
    if (EEXIST != errno) {
        fprintf(stderr, RECORD_NAME ": cannot create %s: %s\n", opt->dir, strerror(errno));
        return -1;
    }
    DIR *d = opendir(opt->dir);
    if (NULL == d) {
        fprintf(stderr, RECORD_NAME ": %s: %s\n", opt->dir, strerror(errno));
        return -1;
    }
    struct dirent *de;
    int rc = 0;
    while (NULL != (de = readdir(d))) {
        size_t n = strlen(de->d_name), s = strlen(OMPI_EVT_NODEFILE_SUFFIX);
        if (n > s && 0 == strcmp(de->d_name + n - s, OMPI_EVT_NODEFILE_SUFFIX)) {
            fprintf(stderr,
                    RECORD_NAME ": %s already holds a recording (%s); choose another "
                                "folder with -o\n",
                    opt->dir, de->d_name);
            rc = -1;
            break;
        }
    }
    closedir(d);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The launcher command with our additions. */

static bool is_launcher(const char *arg0)
{
    const char *base = strrchr(arg0, '/');
    base = (NULL == base) ? arg0 : base + 1;
    return 0 == strcmp(base, "mpirun") || 0 == strcmp(base, "mpiexec")
           || 0 == strcmp(base, "orterun") || 0 == strncmp(base, "mpirun.", 7)
           || 0 == strncmp(base, "mpiexec.", 8);
}

/* argv of the job: launcher, our options, then the user's arguments.
 * Strings we build are kept in 'owned' to be freed by the caller. */
static char **build_job_argv(const record_options_t *opt, const char *library, char **owned,
                             int *nowned)
{
    int nuser = 0;
    while (NULL != opt->job_argv[nuser]) {
        ++nuser;
    }
    char **argv = calloc((size_t) nuser + 16, sizeof(char *));
    if (NULL == argv) {
        return NULL;
    }
    int n = 0;
    argv[n++] = opt->job_argv[0];
    argv[n++] = "--mca";
    argv[n++] = "evt";
    argv[n++] = "pmix";
    argv[n++] = "--mca";
    argv[n++] = "evt_pmix_sink";
    argv[n++] = (char *) opt->dir;
    if (NULL != opt->events) {
        argv[n++] = "--mca";
        argv[n++] = "evt_pmix_events";
        argv[n++] = (char *) opt->events;
    }
    const char *preload = getenv("LD_PRELOAD");
    char *x;
    if (NULL != preload && '\0' != preload[0]) {
        x = NULL;
        if (asprintf(&x, "LD_PRELOAD=%s:%s", library, preload) < 0) {
            x = NULL;
        }
    } else {
        x = NULL;
        if (asprintf(&x, "LD_PRELOAD=%s", library) < 0) {
            x = NULL;
        }
    }
    if (NULL == x) {
        free(argv);
        return NULL;
    }
    owned[(*nowned)++] = x;
    argv[n++] = "-x";
    argv[n++] = x;
    for (int i = 1; i < nuser; ++i) {
        argv[n++] = opt->job_argv[i];
    }
    argv[n] = NULL;
    return argv;
}

static void print_command(char **argv)
{
    fprintf(stderr, RECORD_NAME ": running:");
    for (int i = 0; NULL != argv[i]; ++i) {
        fprintf(stderr, " %s", argv[i]);
    }
    fputc('\n', stderr);
}

/* ------------------------------------------------------------------------ */
/* Progress: count the records that reached the node files so far. Frames
 * are appended whole by the sinks; a frame still being written is read
 * again at the next tick. Only a display: the listener validates later. */

#define RECORD_MAX_NODES 1024

typedef struct record_node_t {
    char name[NAME_MAX + 1];
    uint64_t offset; /**< next frame; 0 = header not read yet */
} record_node_t;

typedef struct record_progress_t {
    record_node_t nodes[RECORD_MAX_NODES];
    int nnodes;
    bool too_many_nodes;
    uint64_t events;
    uint64_t batches;
    void *buf;
    size_t bufsize;
} record_progress_t;

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static void progress_node(record_progress_t *pr, const char *dir, record_node_t *node)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof(path), "%s/%s", dir, node->name) >= (int) sizeof(path)) {
        return;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    unsigned char head[OMPI_EVT_NODEFILE_FRAME_BYTES];
    if (0 == node->offset) {
        /* file header: u8[4] magic, u16 version, u16 header length */
        if (8 == pread(fd, head, 8, 0) && 0 == memcmp(head, OMPI_EVT_NODEFILE_MAGIC, 4)) {
            node->offset = (uint64_t) head[6] | (uint64_t) head[7] << 8;
        }
    }
    while (0 != node->offset) {
        if (sizeof(head) != pread(fd, head, sizeof(head), (off_t) node->offset)
            || 0 != memcmp(head, OMPI_EVT_NODEFILE_FRAME, 4)) {
            break;
        }
        uint32_t len = le32(head + 4);
        if (len > OMPI_EVT_WIRE_MAX_BATCH) {
            break;
        }
        if (len > pr->bufsize) {
            void *nb = realloc(pr->buf, len);
            if (NULL == nb) {
                break;
            }
            pr->buf = nb;
            pr->bufsize = len;
        }
        if ((ssize_t) len != pread(fd, pr->buf, len, (off_t) (node->offset + sizeof(head)))) {
            break; /* still being written */
        }
        ompi_evt_wire_batch_t batch;
        if (OPAL_SUCCESS == ompi_evt_wire_decode(pr->buf, len, &batch)) {
            pr->events += batch.num_records;
            pr->batches += 1;
            ompi_evt_wire_batch_destruct(&batch);
        }
        node->offset += sizeof(head) + (((uint64_t) len + 7) & ~(uint64_t) 7);
    }
    close(fd);
}

static void progress_tick(record_progress_t *pr, const char *dir)
{
    DIR *d = opendir(dir);
    if (NULL == d) {
        return;
    }
    struct dirent *de;
    size_t s = strlen(OMPI_EVT_NODEFILE_SUFFIX);
    while (NULL != (de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n <= s || 0 != strcmp(de->d_name + n - s, OMPI_EVT_NODEFILE_SUFFIX)) {
            continue;
        }
        int i;
        for (i = 0; i < pr->nnodes && 0 != strcmp(pr->nodes[i].name, de->d_name); ++i) {
        }
        if (i == pr->nnodes) {
            if (RECORD_MAX_NODES == pr->nnodes) {
                pr->too_many_nodes = true; /* the display stops growing; the listener reads all */
                continue;
            }
            snprintf(pr->nodes[i].name, sizeof(pr->nodes[i].name), "%s", de->d_name);
            pr->nodes[i].offset = 0;
            pr->nnodes++;
        }
    }
    closedir(d);
    for (int i = 0; i < pr->nnodes; ++i) {
        progress_node(pr, dir, &pr->nodes[i]);
    }
}

/* ------------------------------------------------------------------------ */

static volatile sig_atomic_t forward_pid;

/* SIGTERM/SIGHUP to us reach the job; SIGINT from a terminal reaches the
 * job by itself (same process group) and we keep going to decode. */
static void forward_signal(int sig)
{
    if (0 < forward_pid) {
        kill((pid_t) forward_pid, sig);
    }
}

static int wait_job(pid_t pid, const record_options_t *opt, record_progress_t *pr)
{
    bool show = !opt->quiet && isatty(STDERR_FILENO);
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, show ? WNOHANG : 0);
        if (w == pid) {
            break;
        }
        if (w < 0 && EINTR != errno) {
            fprintf(stderr, RECORD_NAME ": waitpid: %s\n", strerror(errno));
            return 127;
        }
        if (show && 0 == w) {
            progress_tick(pr, opt->dir);
            fprintf(stderr, "\r" RECORD_NAME ": %llu events in %llu batches from %d node%s ",
                    (unsigned long long) pr->events, (unsigned long long) pr->batches, pr->nnodes,
                    1 == pr->nnodes ? "" : "s");
            struct timespec ts = {0, 500 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    if (show) {
        progress_tick(pr, opt->dir);
        fprintf(stderr, "\r" RECORD_NAME ": %llu events in %llu batches from %d node%s%s\n",
                (unsigned long long) pr->events, (unsigned long long) pr->batches, pr->nnodes,
                1 == pr->nnodes ? "" : "s", pr->too_many_nodes ? " (display capped)" : "");
    }
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, RECORD_NAME ": the job was killed by signal %d\n", WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return 127;
}

static int run_listener(const record_options_t *opt)
{
    char path[PATH_MAX];
    if (0 != listener_path(path, sizeof(path))) {
        fprintf(stderr,
                RECORD_NAME ": ompi-evt-listen not found beside this program "
                            "(set OMPI_EVT_LISTEN); the node files are in %s\n",
                opt->dir);
        return 127;
    }
    char *argv[16];
    int n = 0;
    argv[n++] = path;
    argv[n++] = "--read";
    argv[n++] = (char *) opt->dir;
    argv[n++] = "-o";
    argv[n++] = (char *) opt->dir;
    if (NULL != opt->formats) {
        argv[n++] = "--format";
        argv[n++] = (char *) opt->formats;
    }
    if (NULL != opt->events) {
        argv[n++] = "--events";
        argv[n++] = (char *) opt->events;
    }
    if (opt->summary_only) {
        argv[n++] = "--summary-only";
    }
    if (opt->quiet) {
        argv[n++] = "--quiet";
    }
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, RECORD_NAME ": fork: %s\n", strerror(errno));
        return 127;
    }
    if (0 == pid) {
        execv(path, argv);
        fprintf(stderr, RECORD_NAME ": cannot run %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    int status;
    while (pid != waitpid(pid, &status, 0)) {
        if (EINTR != errno) {
            return 127;
        }
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
    record_options_t opt = {0};
    enum { OPT_EVENTS = 1000, OPT_FORMAT, OPT_SUMMARY_ONLY };
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"events", required_argument, NULL, OPT_EVENTS},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"summary-only", no_argument, NULL, OPT_SUMMARY_ONLY},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    /* '+': stop at the first non-option, so the job's own options stay its own */
    while (-1 != (c = getopt_long(argc, argv, "+o:qh", longopts, NULL))) {
        switch (c) {
        case 'o':
            opt.dir = optarg;
            break;
        case OPT_EVENTS:
            opt.events = optarg;
            break;
        case OPT_FORMAT:
            opt.formats = optarg;
            break;
        case OPT_SUMMARY_ONLY:
            opt.summary_only = true;
            break;
        case 'q':
            opt.quiet = true;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, RECORD_NAME ": no job to run: give the mpirun command after --\n");
        usage(stderr);
        return 2;
    }
    opt.job_argv = argv + optind;
    if (!is_launcher(opt.job_argv[0])) {
        fprintf(stderr,
                RECORD_NAME ": '%s' is not mpirun or mpiexec: the job must be started by "
                            "Open MPI's launcher (e.g. -- mpirun -np 4 ./app)\n",
                opt.job_argv[0]);
        return 2;
    }
    if (NULL != opt.events && '\0' == opt.events[0]) {
        fprintf(stderr, RECORD_NAME ": --events needs at least one pattern\n");
        return 2;
    }

    char library[PATH_MAX];
    if (0 != own_library_path(library, sizeof(library))) {
        fprintf(stderr, RECORD_NAME ": cannot find the libompi_evt.so this program uses\n");
        return 1;
    }
    char listener[PATH_MAX];
    if (0 != listener_path(listener, sizeof(listener))) {
        fprintf(stderr, RECORD_NAME ": ompi-evt-listen not found beside this program "
                                    "(set OMPI_EVT_LISTEN)\n");
        return 1;
    }
    char made[64];
    if (0 != prepare_dir(&opt, made, sizeof(made))) {
        return 1;
    }
    char *owned[4];
    int nowned = 0;
    char **job = build_job_argv(&opt, library, owned, &nowned);
    if (NULL == job) {
        fprintf(stderr, RECORD_NAME ": out of memory\n");
        return 1;
    }
    if (!opt.quiet) {
        fprintf(stderr, RECORD_NAME ": recording into %s\n", opt.dir);
        print_command(job);
    }

    struct sigaction sa = {0};
    sa.sa_handler = forward_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    struct sigaction ign = {0}, old_int;
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);

    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, RECORD_NAME ": fork: %s\n", strerror(errno));
        return 1;
    }
    if (0 == pid) {
        sigaction(SIGINT, &old_int, NULL);
        execvp(job[0], job);
        fprintf(stderr, RECORD_NAME ": cannot run %s: %s\n", job[0], strerror(errno));
        _exit(127);
    }
    forward_pid = pid;
    record_progress_t *pr = calloc(1, sizeof(*pr));
    if (NULL == pr) {
        fprintf(stderr, RECORD_NAME ": out of memory\n");
        return 1;
    }
    int job_status = wait_job(pid, &opt, pr);
    forward_pid = 0;
    free(pr->buf);
    free(pr);
    if (0 != job_status && !opt.quiet) {
        fprintf(stderr, RECORD_NAME ": the job ended with status %d; decoding what arrived\n",
                job_status);
    }
    int listen_status = run_listener(&opt);
    for (int i = 0; i < nowned; ++i) {
        free(owned[i]);
    }
    free(job);
    return 0 != job_status ? job_status : listen_status;
}
