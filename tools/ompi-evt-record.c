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
 * shows how many events have reached the node files (on a terminal the
 * job does not write to), and
 * when the job has ended (however it ended) runs ompi-evt-listen --read on
 * DIR to write the outputs and the summary (on stderr: the job's stdout
 * stays the program's own). Its exit status is the job's when the job
 * failed (127 when mpirun could not find the program), 1 when nothing was
 * recorded, otherwise the listener's (0 only when everything read was
 * valid).
 */

#include "ompi_config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_flight_format.h"
#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_wire.h"

#include "evt_record_spool.h"
#include "listen/evt_listen.h"

#define RECORD_NAME "ompi-evt-record"

/* How the events leave the ranks (--transport). */
enum {
    /* each job by where it runs (the default): shm for a job on this host
     * alone, pmix for any other (evt/file's evt_file_one_node decides in
     * the ranks, from what the launcher tells them) */
    RECORD_TRANSPORT_AUTO = 0,
    RECORD_TRANSPORT_PMIX, /* evt/pmix batches into each node's sink */
    RECORD_TRANSPORT_SHM,  /* evt/file rings in /dev/shm, copied out by our thread */
};

/* Each rank's evt/file with the shared-memory transport: four rings (four
 * threads recording at once) of 8 MiB in 33 MiB with the header and the
 * dictionary. A thread raising 5 million events a second fills a ring in
 * about 25 ms, many times the copier's pause; larger rings made the copy
 * dearer, not safer (bench-spool, bench-record: the copy reads what the
 * ranks wrote last from cache when the rings are small, from memory when
 * they are not). */
#define RECORD_SHM_RINGS      "4"
#define RECORD_SHM_BUFFER     (33ull << 20)
#define RECORD_SHM_BUFFER_MIN (64ull << 10)
#define RECORD_SHM_BUFFER_MAX (8ull << 30)

typedef struct record_options_t {
    const char *dir;
    const char *events;
    const char *formats;
    bool summary_only;
    bool quiet;
    bool live;               /**< --live: the follow view during the run */
    int transport;           /**< RECORD_TRANSPORT_* */
    char buffer[32];         /**< shm: evt_file_size of each rank, in bytes */
    bool no_wait;            /**< shm: --no-wait, the rings overwrite what is not copied */
    char live_dir[PATH_MAX]; /**< shm: the ranks' evt/file folder */
    bool made_dir;           /**< the folder is ours: created by this run */
    char **job_argv;         /**< the launcher command after "--" */
} record_options_t;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: " RECORD_NAME " [-o DIR] [--events PATTERNS] [--format LIST]\n"
            "                       [--summary-only] [--quiet] [--live]\n"
            "                       [--transport auto|shm|pmix]\n"
            "                       [--buffer SIZE] [--no-wait]\n"
            "                       -- mpirun ARGS... ./app ARGS...\n"
            "  -o, --output DIR    where node files and outputs go (default a new\n"
            "                      ompi-evt.<date>-<time>.XXXXXX; an existing DIR must be\n"
            "                      your own folder, not a symlink, and hold no recording)\n"
            "  --events PATTERNS   export only these events (comma-separated name\n"
            "                      patterns with '*', '^' to exclude)\n"
            "  --format LIST       outputs: jsonl,perfetto,otf2,report (default all four)\n"
            "  --summary-only      only the summary, no event outputs\n"
            "  -q, --quiet         no progress and no summary on the terminal\n"
            "  --live              during the run, per rank events/s, drops, lost batches,\n"
            "                      the last event's age, p2p messages and bytes/s (redrawn\n"
            "                      on the terminal when the job's output is not there, a\n"
            "                      line a second on stderr otherwise; records through pmix)\n"
            "  --transport auto    shm for a job that runs on this host alone, pmix for any\n"
            "                      other (the default; each job's ranks choose at MPI_Init)\n"
            "  --transport pmix    the ranks send batches through PMIx to a sink on each node\n"
            "                      (any number of nodes; a rank that raises faster than it\n"
            "                      exports slows down, nothing is lost)\n"
            "  --transport shm     the ranks record into rings in this host's shared memory\n"
            "                      (/dev/shm) that this program copies out: cheaper for the\n"
            "                      job, one host only; a rank whose rings the copy falls\n"
            "                      behind waits for it at its next progress call\n"
            "  --buffer SIZE       shm: bytes of each rank's rings (default 33M: four of 8M;\n"
            "                      K, M, G allowed)\n"
            "  --no-wait           shm: the ranks never wait for the copy; what a ring\n"
            "                      overwrites before it is copied is counted as lost\n");
}

/* ------------------------------------------------------------------------ */
/* Where our pieces are: the library this program runs with, and the
 * listener beside this program. */

/* The libompi_evt.so this process uses (the engine's event registration
 * is defined there): the one to preload into the job, so the job's producers are the
 * build of this recorder and its listener. */
static int own_library_path(char *path, size_t size)
{
    Dl_info info;
    if (0 == dladdr((void *) mca_base_event_register_ptr, &info) || NULL == info.dli_fname) {
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

/* Names an earlier recording leaves in a folder: node files and their
 * indexes, flight-recorder files, and the outputs of the listener. */
static bool is_recording_name(const char *name)
{
    static const char *const suffixes[] = {MCA_COMMON_EVT_NODEFILE_SUFFIX, ".idx", ".oevt"};
    static const char *const outputs[] = {"events.jsonl", "trace.json",  "trace.otf2",
                                          "summary.txt",  "report.html", "report.csv"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); ++i) {
        size_t s = strlen(suffixes[i]);
        if (n > s && 0 == strcmp(name + n - s, suffixes[i])) {
            return true;
        }
    }
    for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); ++i) {
        if (0 == strcmp(name, outputs[i])) {
            return true;
        }
    }
    return false;
}

/* The folder's lock, held until we exit: two recorders given the same -o
 * would otherwise both find it empty and merge each other's ranks. */
static int dir_lock_fd = -1;

static int take_dir_lock(const char *dir, int fd)
{
    int lfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (lfd < 0 || 0 != flock(lfd, LOCK_EX | LOCK_NB)) {
        fprintf(stderr,
                RECORD_NAME ": %s is being recorded into by another " RECORD_NAME
                            "; choose another folder with -o\n",
                dir);
        if (lfd >= 0) {
            close(lfd);
        }
        return -1;
    }
    dir_lock_fd = lfd;
    return 0;
}

/* Lock the folder this run has just made, or remove it and say why.
 * Returns 0 or -1. */
static int lock_made_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

    if (fd < 0) {
        fprintf(stderr, RECORD_NAME ": %s: %s\n", dir, strerror(errno));
    }
    if (fd < 0 || 0 != take_dir_lock(dir, fd)) {
        if (fd >= 0) {
            close(fd);
        }
        (void) rmdir(dir); /* empty: ours */
        return -1;
    }
    close(fd);
    return 0;
}

/* An existing -o folder is used only when it is a real folder of the
 * caller (not a symlink that someone else may have planted, not someone
 * else's folder) and holds no earlier recording to be merged with ours.
 * Returns 0, or the exit status after saying why. */
static int check_existing_dir(const char *dir)
{
    struct stat st;
    if (0 != lstat(dir, &st)) {
        fprintf(stderr, RECORD_NAME ": %s: %s\n", dir, strerror(errno));
        return 1;
    }
    if (S_ISLNK(st.st_mode)) {
        fprintf(stderr,
                RECORD_NAME ": %s is a symbolic link; give the folder itself or a new "
                            "name with -o\n",
                dir);
        return 2;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, RECORD_NAME ": %s exists and is not a folder\n", dir);
        return 2;
    }
    if (st.st_uid != geteuid()) {
        fprintf(stderr,
                RECORD_NAME ": %s belongs to user id %lu, not to you; choose a folder of "
                            "your own with -o\n",
                dir, (unsigned long) st.st_uid);
        return 2;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat fst;
    if (fd < 0 || 0 != fstat(fd, &fst) || fst.st_ino != st.st_ino || fst.st_dev != st.st_dev) {
        fprintf(stderr, RECORD_NAME ": %s changed while being checked; not used\n", dir);
        if (fd >= 0) {
            close(fd);
        }
        return 2;
    }
    if (0 != faccessat(fd, ".", W_OK | X_OK, AT_EACCESS)) {
        fprintf(stderr,
                RECORD_NAME ": %s: cannot write there (%s); choose another folder with -o\n", dir,
                strerror(errno));
        close(fd);
        return 2;
    }
    if (0 != take_dir_lock(dir, fd)) {
        close(fd);
        return 2;
    }
    DIR *d = fdopendir(fd);
    if (NULL == d) {
        fprintf(stderr, RECORD_NAME ": %s: %s\n", dir, strerror(errno));
        close(fd);
        return 1;
    }
    struct dirent *de;
    int rc = 0;
    while (NULL != (de = readdir(d))) {
        if (is_recording_name(de->d_name)) {
            fprintf(stderr,
                    RECORD_NAME ": %s already holds a recording (%s); choose another "
                                "folder with -o\n",
                    dir, de->d_name);
            rc = 2;
            break;
        }
    }
    closedir(d);
    return rc;
}

/* Creates the output folder (or checks the one given) and writes its
 * absolute path to 'abs': the ranks resolve the sink folder in their own
 * working directory (mpirun --wdir), so the job gets no relative path.
 * A default name is made unique by mkdtemp: two recordings started in the
 * same second get folders of their own. Returns 0 or the exit status. */
static int prepare_dir(record_options_t *opt, char *abs, size_t size)
{
    char made[64];
    if (NULL == opt->dir) {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        if (0 == strftime(made, sizeof(made), "ompi-evt.%Y%m%d-%H%M%S.XXXXXX", &tm)) {
            return 1;
        }
        if (NULL == mkdtemp(made)) {
            fprintf(stderr, RECORD_NAME ": cannot create a folder %s: %s\n", made, strerror(errno));
            return 1;
        }
        if (0 != lock_made_dir(made)) {
            return 2;
        }
        opt->dir = made; /* until its absolute path replaces it below */
        opt->made_dir = true;
    } else if (0 == mkdir(opt->dir, 0700)) {
        if (0 != lock_made_dir(opt->dir)) {
            return 2;
        }
        opt->made_dir = true;
    } else {
        if (EEXIST != errno) {
            fprintf(stderr, RECORD_NAME ": cannot create %s: %s\n", opt->dir, strerror(errno));
            return 1;
        }
        int rc = check_existing_dir(opt->dir);
        if (0 != rc) {
            return rc;
        }
    }
    char *real = realpath(opt->dir, NULL);
    if (NULL == real || strlen(real) >= size) {
        fprintf(stderr, RECORD_NAME ": %s: %s\n", opt->dir,
                NULL == real ? strerror(errno) : "path too long");
        free(real);
        if (opt->made_dir) {
            (void) rmdir(opt->dir);
        }
        opt->dir = NULL; /* it may be this function's own array */
        return 1;
    }
    strcpy(abs, real);
    free(real);
    opt->dir = abs;
    return 0;
}

/* Whether the job left any node file or spool: none means nothing was
 * recorded. */
static bool has_node_file(const char *dir)
{
    DIR *d = opendir(dir);
    if (NULL == d) {
        return false;
    }
    struct dirent *de;
    bool found = false;
    size_t s = strlen(MCA_COMMON_EVT_NODEFILE_SUFFIX), f = strlen(MCA_COMMON_EVT_FLIGHT_SUFFIX);
    while (!found && NULL != (de = readdir(d))) {
        size_t n = strlen(de->d_name);
        found = (n > s && 0 == strcmp(de->d_name + n - s, MCA_COMMON_EVT_NODEFILE_SUFFIX))
                || (n > f && 0 == strcmp(de->d_name + n - f, MCA_COMMON_EVT_FLIGHT_SUFFIX));
    }
    closedir(d);
    return found;
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

static bool is_export_option(const char *arg)
{
    return 0 == strcmp(arg, "-x") || 0 == strcmp(arg, "--x");
}

static bool is_mca_option(const char *arg)
{
    return 0 == strcmp(arg, "-mca") || 0 == strcmp(arg, "--mca") || 0 == strcmp(arg, "-gmca")
           || 0 == strcmp(arg, "--gmca");
}

/* mpirun options followed by one value (Open MPI 4.1's common ones; the
 * -mca family takes two). */
static bool is_count_option(const char *arg)
{
    return 0 == strcmp(arg, "-np") || 0 == strcmp(arg, "--np") || 0 == strcmp(arg, "-n")
           || 0 == strcmp(arg, "--n") || 0 == strcmp(arg, "-c");
}

static bool takes_value(const char *arg)
{
    static const char *const valued[] = {"-H",
                                         "-host",
                                         "--host",
                                         "-hostfile",
                                         "--hostfile",
                                         "-machinefile",
                                         "--machinefile",
                                         "--default-hostfile",
                                         "-x",
                                         "--x",
                                         "-map-by",
                                         "--map-by",
                                         "-rank-by",
                                         "--rank-by",
                                         "-bind-to",
                                         "--bind-to",
                                         "-wdir",
                                         "--wdir",
                                         "-wd",
                                         "--wd",
                                         "-prefix",
                                         "--prefix",
                                         "-npernode",
                                         "--npernode",
                                         "-N",
                                         "-app",
                                         "--app",
                                         "-rf",
                                         "--rankfile",
                                         "-path",
                                         "--path",
                                         "-am",
                                         "--am",
                                         "--tune",
                                         "-stdin",
                                         "--stdin",
                                         "--timeout",
                                         "-output-filename",
                                         "--output-filename",
                                         "-cpus-per-proc",
                                         "--cpus-per-proc",
                                         "--cpus-per-rank",
                                         "--preload-files",
                                         "--personality"};

    if (is_count_option(arg)) {
        return true;
    }
    for (size_t i = 0; i < sizeof(valued) / sizeof(valued[0]); ++i) {
        if (0 == strcmp(arg, valued[i])) {
            return true;
        }
    }
    return false;
}

/* The ranks the launcher command asks for: the sum of its -np/-n/-c values
 * (one per program of an MPMD command, between ':'), 0 when none is given.
 * A program's own arguments are skipped (NetPIPE's "-n 500" is not a rank
 * count). */
static unsigned long job_ranks(char **job_argv)
{
    unsigned long ranks = 0;
    bool in_program = false;

    for (int i = 1; NULL != job_argv[i]; ++i) {
        const char *a = job_argv[i];

        if (0 == strcmp(a, ":")) {
            in_program = false;
        } else if (in_program) {
            continue;
        } else if (is_mca_option(a)) {
            i += NULL != job_argv[i + 1] ? 1 + (NULL != job_argv[i + 2]) : 0;
        } else if (takes_value(a) && NULL != job_argv[i + 1]) {
            const char *v = job_argv[++i];
            char *end;
            unsigned long n;

            if (is_count_option(a)) {
                errno = 0;
                n = strtoul(v, &end, 10);
                if (0 == errno && end != v && '\0' == *end) {
                    ranks += n;
                }
            }
        } else if ('-' != a[0]) {
            in_program = true;
        }
    }
    return ranks;
}

/* The user's own preloads: the value of a "-x LD_PRELOAD=VALUE" on the
 * mpirun line, or of LD_PRELOAD in our environment (which "-x LD_PRELOAD"
 * exports and which local ranks would inherit). NULL when there are none.
 * Preloads set where we cannot put ours after them (mpirun's environment
 * list parameter) are refused: the job would run without our library, or
 * without theirs. Returns 0, or 2 after saying why. */
static int user_preload(char **job_argv, const char **value)
{
    const char *env = getenv("LD_PRELOAD");
    *value = (NULL != env && '\0' != env[0]) ? env : NULL;
    const char *list = getenv("OMPI_MCA_mca_base_env_list");
    if (NULL != list && NULL != strstr(list, "LD_PRELOAD")) {
        fprintf(stderr, RECORD_NAME ": OMPI_MCA_mca_base_env_list sets LD_PRELOAD, which would "
                                    "replace the recorder's; give it as -x LD_PRELOAD=... on the "
                                    "mpirun line instead\n");
        return 2;
    }
    const char *given = NULL;
    for (int i = 1; NULL != job_argv[i] && NULL != job_argv[i + 1]; ++i) {
        const char *arg = job_argv[i + 1];
        if (is_mca_option(job_argv[i]) && 0 == strcmp(arg, "mca_base_env_list")
            && NULL != job_argv[i + 2] && NULL != strstr(job_argv[i + 2], "LD_PRELOAD")) {
            fprintf(stderr, RECORD_NAME ": --mca mca_base_env_list sets LD_PRELOAD, which would "
                                        "replace the recorder's; give it as -x LD_PRELOAD=... "
                                        "instead\n");
            return 2;
        }
        if (!is_export_option(job_argv[i])) {
            continue;
        }
        const char *v;
        if (0 == strcmp(arg, "LD_PRELOAD")) {
            v = (NULL != env) ? env : "";
        } else if (0 == strncmp(arg, "LD_PRELOAD=", 11)) {
            v = arg + 11;
        } else {
            continue;
        }
        if (NULL != given && 0 != strcmp(given, v)) {
            fprintf(stderr,
                    RECORD_NAME ": LD_PRELOAD is exported twice with different values "
                                "(%s and %s); give it once\n",
                    given, v);
            return 2;
        }
        given = v;
    }
    if (NULL != given) {
        *value = ('\0' != given[0]) ? given : NULL;
    }
    return 0;
}

/* argv of the job: launcher, our options, then the user's arguments
 * without their LD_PRELOAD export, which is composed into ours: their
 * preloads first, then libompi_evt. PMPI tools stack in preload order (the
 * first one's MPI_Send is called, its PMPI_Send reaches the next:
 * libompi_evt defines the PMPI_ names it wraps too), so the user's tool
 * sees every call and so do our producers. 'preload' is set to
 * the string built for -x, to be freed by the caller. */
static char **build_job_argv(const record_options_t *opt, const char *library, char **preload)
{
    const char *theirs;
    if (0 != user_preload(opt->job_argv, &theirs)) {
        return NULL;
    }
    int nuser = 0;
    while (NULL != opt->job_argv[nuser]) {
        ++nuser;
    }
    /* ours: at most 11 "--mca NAME VALUE", "-x LD_PRELOAD=..." and the end */
    char **argv = calloc((size_t) nuser + 40, sizeof(char *));
    if (NULL == argv) {
        fprintf(stderr, RECORD_NAME ": out of memory\n");
        return NULL;
    }
    int rc;
    if (NULL == theirs) {
        rc = asprintf(preload, "LD_PRELOAD=%s", library);
    } else if (NULL != strstr(theirs, library)) {
        rc = asprintf(preload, "LD_PRELOAD=%s", theirs); /* already in their list */
    } else {
        rc = asprintf(preload, "LD_PRELOAD=%s:%s", theirs, library);
    }
    if (rc < 0) {
        fprintf(stderr, RECORD_NAME ": out of memory\n");
        free(argv);
        return NULL;
    }
    int n = 0;
    argv[n++] = opt->job_argv[0];
    argv[n++] = "--mca";
    argv[n++] = "evt";
    if (RECORD_TRANSPORT_AUTO == opt->transport) {
        /* evt/file first; a rank whose job does not run on this host alone
         * leaves it to evt/pmix */
        argv[n++] = "file,pmix";
        argv[n++] = "--mca";
        argv[n++] = "evt_file_priority";
        argv[n++] = "1";
        argv[n++] = "--mca";
        argv[n++] = "evt_file_one_node";
        argv[n++] = "1";
    } else {
        argv[n++] = RECORD_TRANSPORT_SHM == opt->transport ? "file" : "pmix";
    }
    if (RECORD_TRANSPORT_PMIX != opt->transport) {
        argv[n++] = "--mca";
        argv[n++] = "evt_file_dir";
        argv[n++] = (char *) opt->live_dir;
        argv[n++] = "--mca";
        argv[n++] = "evt_file_size";
        argv[n++] = (char *) opt->buffer;
        argv[n++] = "--mca";
        argv[n++] = "evt_file_rings";
        argv[n++] = RECORD_SHM_RINGS;
        argv[n++] = "--mca";
        argv[n++] = "evt_file_consumer_wait";
        argv[n++] = opt->no_wait ? "0" : "1";
        if (NULL != opt->events) {
            argv[n++] = "--mca";
            argv[n++] = "evt_file_events";
            argv[n++] = (char *) opt->events;
        }
    }
    if (RECORD_TRANSPORT_SHM != opt->transport) {
        argv[n++] = "--mca";
        argv[n++] = "evt_pmix_sink";
        argv[n++] = (char *) opt->dir;
    }
    if (RECORD_TRANSPORT_SHM != opt->transport && NULL != opt->events) {
        argv[n++] = "--mca";
        argv[n++] = "evt_pmix_events";
        argv[n++] = (char *) opt->events;
    }
    argv[n++] = "-x";
    argv[n++] = *preload;
    for (int i = 1; i < nuser; ++i) {
        if (is_export_option(opt->job_argv[i]) && i + 1 < nuser
            && (0 == strcmp(opt->job_argv[i + 1], "LD_PRELOAD")
                || 0 == strncmp(opt->job_argv[i + 1], "LD_PRELOAD=", 11))) {
            ++i; /* composed into ours */
            continue;
        }
        argv[n++] = opt->job_argv[i];
    }
    argv[n] = NULL;
    return argv;
}

/* A size in bytes, with an optional K, M or G (powers of 1024).
 * Returns 0, or -1 when @p s is not one. */
static int parse_size(const char *s, unsigned long long *out)
{
    char *end;
    unsigned long long v, unit = 1;

    errno = 0;
    if ('-' == s[0] || '+' == s[0]) {
        return -1;
    }
    v = strtoull(s, &end, 10);
    if (0 != errno || end == s) {
        return -1;
    }
    switch (*end) {
    case 'K':
    case 'k':
        unit = 1ull << 10;
        ++end;
        break;
    case 'M':
    case 'm':
        unit = 1ull << 20;
        ++end;
        break;
    case 'G':
    case 'g':
        unit = 1ull << 30;
        ++end;
        break;
    default:
        break;
    }
    if ('\0' != *end || v > ~0ull / unit) {
        return -1;
    }
    *out = v * unit;
    return 0;
}

static bool shm_usable(void)
{
    struct stat st;

    return 0 == stat("/dev/shm", &st) && S_ISDIR(st.st_mode)
           && 0 == access("/dev/shm", W_OK | X_OK);
}

/* Whether /dev/shm has room for the rings of the job's ranks on this host:
 * a rank reserves its header and first ring at MPI_Init (a quarter of the
 * buffer, plus 1 MiB), and Open MPI's own shared-memory segment takes a
 * few MiB more (4 counted); as many ranks as the command asks for, or as
 * cores without a count. A container's /dev/shm is often 64 MiB: a rank
 * that finds no room records nothing, so the default then takes PMIx.
 * @p need, @p have: what was counted, in bytes. */
static bool shm_has_room(const record_options_t *opt, unsigned long long *need,
                         unsigned long long *have)
{
    unsigned long long per_rank = strtoull(opt->buffer, NULL, 10)
                                      / strtoull(RECORD_SHM_RINGS, NULL, 10)
                                  + (5ull << 20);
    unsigned long ranks = job_ranks(opt->job_argv);
    struct statvfs fs;

    if (0 == ranks) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        ranks = cores > 0 ? (unsigned long) cores : 1;
    }
    *need = per_rank * ranks;
    *have = 0 == statvfs("/dev/shm", &fs) ? (unsigned long long) fs.f_bavail * fs.f_frsize : 0;
    return *have >= *need;
}

/* The ranks' evt/file folder for the shared-memory transport: a new
 * private folder in /dev/shm (memory, never written back to a disk), or
 * beside the recording when there is none. Returns 0 or the exit status. */
static int prepare_live_dir(record_options_t *opt)
{
    int n;

    if (shm_usable()) {
        n = snprintf(opt->live_dir, sizeof(opt->live_dir), "/dev/shm/ompi-evt-record.XXXXXX");
    } else {
        n = snprintf(opt->live_dir, sizeof(opt->live_dir), "%s/.live.XXXXXX", opt->dir);
    }
    if (n < 0 || (size_t) n >= sizeof(opt->live_dir) || NULL == mkdtemp(opt->live_dir)) {
        fprintf(stderr, RECORD_NAME ": cannot create a folder for the ranks' rings (%s): %s\n",
                opt->live_dir,
                n < 0 || (size_t) n >= sizeof(opt->live_dir) ? "path too long" : strerror(errno));
        opt->live_dir[0] = '\0';
        return 1;
    }
    return 0;
}

/* The ranks' folder, with whatever a rank that never got mapped left in
 * it (the consumer unlinks the files it maps). */
static void remove_live_dir(record_options_t *opt)
{
    if ('\0' == opt->live_dir[0]) {
        return;
    }
    int fd = open(opt->live_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (NULL != d) {
        struct dirent *de;
        while (NULL != (de = readdir(d))) {
            if (0 != strcmp(de->d_name, ".") && 0 != strcmp(de->d_name, "..")) {
                (void) unlinkat(fd, de->d_name, 0);
            }
        }
        closedir(d);
    } else if (fd >= 0) {
        close(fd);
    }
    (void) rmdir(opt->live_dir);
    opt->live_dir[0] = '\0';
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
/* Progress: what reached the node files so far, read as the sinks append
 * (listen_follow_*: a frame still being written is read at the next tick,
 * never taken for damage). Only a display: the listener validates later. */

typedef struct record_view_t {
    listen_follow_t *follow;
    int tty;               /**< the terminal for the one-line progress, or -1 */
    FILE *live;            /**< --live: where the view goes, or NULL */
    bool redraw;           /**< --live on a terminal: redrawn like top */
    double next;           /**< --live: when the next view is due (CLOCK_MONOTONIC s) */
    record_spool_t *spool; /**< shm: the consumer, whose count is the progress */
} record_view_t;

/* ------------------------------------------------------------------------ */

static volatile sig_atomic_t forward_pid;
static volatile sig_atomic_t got_signal; /**< SIGTERM/SIGHUP received (the last one) */
static struct sigaction saved_int;       /**< SIGINT as we found it, for our children */
static struct sigaction saved_pipe;      /**< SIGPIPE as we found it, for our children */

/* SIGTERM/SIGHUP to us reach the job; SIGINT from a terminal reaches the
 * job by itself (same process group) and we keep going to decode. */
static void forward_signal(int sig)
{
    got_signal = sig;
    if (0 < forward_pid) {
        kill((pid_t) forward_pid, sig);
    }
}

/* The terminal progress goes to, or -1 for no progress: it must never mix
 * with the job's output, so it is shown on our controlling terminal only
 * when neither the job's stdout nor its stderr (ours) is a terminal. */
static int progress_terminal(const record_options_t *opt)
{
    if (opt->quiet || isatty(STDOUT_FILENO) || isatty(STDERR_FILENO)) {
        return -1;
    }
    return open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC);
}

/* mpirun's messages when the program cannot be started. */
static const char *const launch_failures[] = {
    "unable to find the specified executable",
    "unable to launch the specified application",
};

/* The job's stderr passes through us unchanged, so that we can tell a
 * program that was not found from one that failed. */
typedef struct record_relay_t {
    int fd;        /**< read end; -1 once closed */
    char tail[64]; /**< end of what was read before: a message split between reads */
    size_t ntail;
    bool launch_failed;
} record_relay_t;

static void relay_write(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, p, n);
        if (w < 0 && EINTR == errno) {
            continue;
        }
        if (w <= 0) {
            return; /* our stderr is gone: the job's stderr goes with it */
        }
        p += w;
        n -= (size_t) w;
    }
}

static void relay_pump(record_relay_t *rl)
{
    char buf[sizeof(rl->tail) + 8192];
    for (;;) {
        memcpy(buf, rl->tail, rl->ntail);
        ssize_t r = read(rl->fd, buf + rl->ntail, sizeof(buf) - rl->ntail);
        if (r < 0 && EINTR == errno) {
            continue;
        }
        if (r <= 0) {
            if (0 == r || EAGAIN != errno) {
                close(rl->fd);
                rl->fd = -1;
            }
            return;
        }
        relay_write(buf + rl->ntail, (size_t) r);
        size_t len = rl->ntail + (size_t) r;
        for (size_t i = 0; i < sizeof(launch_failures) / sizeof(launch_failures[0]); ++i) {
            if (NULL != memmem(buf, len, launch_failures[i], strlen(launch_failures[i]))) {
                rl->launch_failed = true;
            }
        }
        rl->ntail = len < sizeof(rl->tail) ? len : sizeof(rl->tail);
        memmove(rl->tail, buf + len - rl->ntail, rl->ntail);
    }
}

static double record_now(void);

static void progress_show(record_view_t *v, bool last)
{
    (void) listen_follow_poll(v->follow); /* a display: read errors show as no progress */
    if (NULL != v->live) {
        double now = record_now();
        if (last || now >= v->next) {
            listen_follow_view(v->follow, v->live, v->redraw);
            v->next = now + 1.0;
        }
    } else if (v->tty >= 0) {
        /* copied from rings (shm) and read from node files (pmix): a
         * default recording may have both, a spawned job taking the other */
        dprintf(v->tty, "\r" RECORD_NAME ": %llu events so far%s",
                (unsigned long long) ((NULL != v->spool ? record_spool_records(v->spool) : 0)
                                      + listen_follow_events(v->follow)),
                last ? "\n" : " ");
    }
}

/* A descriptor that becomes readable when process @p pid ends, or -1
 * (a kernel before 5.3): the wait then naps in short steps. */
static int job_exit_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int) syscall(SYS_pidfd_open, pid, 0);
#else
    (void) pid;
    return -1;
#endif
}

/* Waits for the job, relaying its stderr and showing progress. Returns
 * its exit status (128 + signal when mpirun was killed). The end is seen
 * when it happens (mpirun's exit wakes the wait), not at the next look:
 * the job's time, and the outputs after it, do not wait for a timer. */
static int wait_job(pid_t pid, const record_options_t *opt, record_relay_t *rl, record_view_t *v)
{
    int status = 0;
    bool ended = false;
    struct timespec end_seen = {0, 0};
    int exit_fd = job_exit_fd(pid);

    for (;;) {
        struct pollfd p[2];
        nfds_t n = 0;
        int timeout = 250; /* ms: the progress view's refresh */

        if (!ended) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid) {
                ended = true;
                clock_gettime(CLOCK_MONOTONIC, &end_seen);
            } else if (w < 0 && EINTR != errno) {
                fprintf(stderr, RECORD_NAME ": waitpid: %s\n", strerror(errno));
                status = 127 << 8;
                ended = true;
            }
        }
        if (ended) {
            /* what mpirun wrote is read to its end; a daemon it left behind
             * that still holds the pipe gets a second, not our wait */
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (rl->fd < 0 || now.tv_sec - end_seen.tv_sec > 1) {
                break;
            }
        }
        if (rl->fd >= 0) {
            p[n++] = (struct pollfd){rl->fd, POLLIN, 0};
        }
        if (!ended && exit_fd >= 0) {
            p[n++] = (struct pollfd){exit_fd, POLLIN, 0};
        } else if (!ended) {
            /* no pidfd: mpirun's end is seen by looking (its stderr pipe may
             * outlive it, held by a process it started) */
            timeout = 10;
        }
        if (0 < poll(p, n, timeout) && rl->fd >= 0 && 0 != p[0].revents) {
            relay_pump(rl);
        }
        if ((v->tty >= 0 || NULL != v->live) && !ended) {
            progress_show(v, false);
        }
    }
    if (exit_fd >= 0) {
        (void) close(exit_fd);
    }
    if (rl->fd >= 0) {
        close(rl->fd);
        rl->fd = -1;
    }
    if (v->tty >= 0 || NULL != v->live) {
        progress_show(v, true);
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

/* Seconds on CLOCK_MONOTONIC. */
static double record_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
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
        /* the summary goes where our messages go: the job's stdout, maybe
         * redirected to a file, stays the program's own */
        dup2(STDERR_FILENO, STDOUT_FILENO);
        sigaction(SIGINT, &saved_int, NULL); /* Ctrl-C stops the outputs */
        /* (SIGPIPE stays ignored: its summary goes where our messages go) */
        execv(path, argv);
        fprintf(stderr, RECORD_NAME ": cannot run %s: %s\n", path, strerror(errno));
        _exit(127);
    }
    forward_pid = pid; /* SIGTERM/SIGHUP stop it (it removes its temporaries) */
    int status;
    while (pid != waitpid(pid, &status, 0)) {
        if (EINTR != errno) {
            return 127;
        }
    }
    forward_pid = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
    record_options_t opt = {0};
    struct sigaction ign_pipe = {0};

    /* Our messages going nowhere (stderr a pipe whose reader left, as with
     * `| head`) must not end the recording: the job and its outputs go on,
     * the messages are lost. Set before the first message; the job gets
     * SIGPIPE back. */
    ign_pipe.sa_handler = SIG_IGN;
    sigemptyset(&ign_pipe.sa_mask);
    sigaction(SIGPIPE, &ign_pipe, &saved_pipe);
    enum {
        OPT_EVENTS = 1000,
        OPT_FORMAT,
        OPT_SUMMARY_ONLY,
        OPT_LIVE,
        OPT_TRANSPORT,
        OPT_BUFFER,
        OPT_NO_WAIT
    };
    unsigned long long buffer = RECORD_SHM_BUFFER;
    bool buffer_given = false;
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"events", required_argument, NULL, OPT_EVENTS},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"summary-only", no_argument, NULL, OPT_SUMMARY_ONLY},
        {"live", no_argument, NULL, OPT_LIVE},
        {"transport", required_argument, NULL, OPT_TRANSPORT},
        {"buffer", required_argument, NULL, OPT_BUFFER},
        {"no-wait", no_argument, NULL, OPT_NO_WAIT},
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
        case OPT_LIVE:
            opt.live = true;
            break;
        case OPT_NO_WAIT:
            opt.no_wait = true;
            break;
        case OPT_BUFFER:
            if (0 != parse_size(optarg, &buffer) || buffer < RECORD_SHM_BUFFER_MIN
                || buffer > RECORD_SHM_BUFFER_MAX) {
                fprintf(stderr,
                        RECORD_NAME ": --buffer %s: give a size from 64K to 8G (bytes, or "
                                    "with K, M or G)\n",
                        optarg);
                return 2;
            }
            buffer_given = true;
            break;
        case OPT_TRANSPORT:
            if (0 == strcmp(optarg, "shm")) {
                opt.transport = RECORD_TRANSPORT_SHM;
            } else if (0 == strcmp(optarg, "pmix")) {
                opt.transport = RECORD_TRANSPORT_PMIX;
            } else if (0 == strcmp(optarg, "auto")) {
                opt.transport = RECORD_TRANSPORT_AUTO;
            } else {
                fprintf(stderr, RECORD_NAME ": --transport %s: give auto, shm or pmix\n", optarg);
                return 2;
            }
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
    if (NULL != opt.events) {
        /* the ranks and the listener refuse what this refuses: say it
         * before the job runs, not after */
        listen_filter_t filter;
        char why[512];
        memset(&filter, 0, sizeof(filter));
        if (0 != listen_filter_parse(&filter, opt.events, why, sizeof(why))) {
            fprintf(stderr, RECORD_NAME ": %s\n", why);
            return 2;
        }
        listen_filter_free(&filter);
    }
    if (NULL != opt.formats) {
        char why[512];
        int fmt;
        if (0 != listen_formats_parse(opt.formats, &fmt, why, sizeof(why))) {
            fprintf(stderr, RECORD_NAME ": %s\n", why);
            return 2;
        }
    }

    if (RECORD_TRANSPORT_SHM == opt.transport && opt.live) {
        fprintf(stderr, RECORD_NAME ": --live follows the node files of --transport pmix; it "
                                    "cannot be used with --transport shm\n");
        return 2;
    }
    if (RECORD_TRANSPORT_PMIX == opt.transport && (buffer_given || opt.no_wait)) {
        fprintf(stderr,
                RECORD_NAME ": %s is about the rings of --transport shm; give --transport shm "
                            "or auto, or leave it out\n",
                buffer_given ? "--buffer" : "--no-wait");
        return 2;
    }
    if (RECORD_TRANSPORT_AUTO == opt.transport && opt.live) {
        if (buffer_given || opt.no_wait) {
            fprintf(stderr,
                    RECORD_NAME ": --live records through pmix, and %s is about the rings of "
                                "--transport shm: leave one of them out\n",
                    buffer_given ? "--buffer" : "--no-wait");
            return 2;
        }
        opt.transport = RECORD_TRANSPORT_PMIX; /* the view follows the node files */
    }
    (void) snprintf(opt.buffer, sizeof(opt.buffer), "%llu", buffer);

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
    char dir[PATH_MAX];
    int rc = prepare_dir(&opt, dir, sizeof(dir));
    if (0 != rc) {
        return rc;
    }
    unsigned long long need = 0, have = 0;
    if (RECORD_TRANSPORT_AUTO == opt.transport && !shm_usable()) {
        /* the rings' fallback folder beside the recording may be on a file
         * system other hosts share, where their ranks would find it */
        opt.transport = RECORD_TRANSPORT_PMIX;
    } else if (RECORD_TRANSPORT_AUTO == opt.transport && !shm_has_room(&opt, &need, &have)) {
        if (!opt.quiet) {
            fprintf(stderr,
                    RECORD_NAME ": /dev/shm has %llu MiB free, less than the %llu MiB the "
                                "ranks' rings would take on this host: recording through "
                                "PMIx\n",
                    have >> 20, need >> 20);
        }
        opt.transport = RECORD_TRANSPORT_PMIX;
    }
    if (RECORD_TRANSPORT_PMIX != opt.transport && 0 != (rc = prepare_live_dir(&opt))) {
        if (RECORD_TRANSPORT_SHM == opt.transport) {
            return rc;
        }
        /* the reason said by prepare_live_dir() */
        fprintf(stderr, RECORD_NAME ": recording through PMIx\n");
        opt.transport = RECORD_TRANSPORT_PMIX;
    }
    char *preload = NULL;
    char **job = build_job_argv(&opt, library, &preload);
    if (NULL == job) {
        remove_live_dir(&opt);
        if (opt.made_dir) {
            rmdir(opt.dir); /* ours, still empty */
        }
        return 2;
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
    saved_int = old_int;

    record_spool_t *spool = NULL;
    if (RECORD_TRANSPORT_PMIX != opt.transport) {
        char why[PATH_MAX + 128];
        spool = record_spool_start(opt.live_dir, opt.dir, why, sizeof(why));
        if (NULL == spool) {
            fprintf(stderr, RECORD_NAME ": %s\n", why);
            remove_live_dir(&opt);
            return 1;
        }
    }

    record_relay_t relay = {.fd = -1};
    int errpipe[2];
    if (0 != pipe2(errpipe, O_CLOEXEC)) {
        fprintf(stderr, RECORD_NAME ": pipe: %s\n", strerror(errno));
        return 1;
    }
    fflush(NULL);
    double t_start = record_now();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, RECORD_NAME ": fork: %s\n", strerror(errno));
        return 1;
    }
    if (0 == pid) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGPIPE, &saved_pipe, NULL);
        dup2(errpipe[1], STDERR_FILENO);
        execvp(job[0], job);
        fprintf(stderr, RECORD_NAME ": cannot run %s: %s\n", job[0], strerror(errno));
        _exit(127);
    }
    close(errpipe[1]);
    relay.fd = errpipe[0];
    fcntl(relay.fd, F_SETFL, fcntl(relay.fd, F_GETFL) | O_NONBLOCK);
    forward_pid = pid;
    record_view_t view = {listen_follow_new(opt.dir, 0), -1, NULL, false, 0, spool};
    if (NULL == view.follow) {
        fprintf(stderr, RECORD_NAME ": out of memory\n");
        return 1;
    }
    view.tty = progress_terminal(&opt);
    if (opt.live && !opt.quiet) {
        /* the view on our terminal when the job's output is not there,
         * else plain lines on stderr, which the job's lines interleave */
        view.live = view.tty >= 0 ? fdopen(view.tty, "w") : stderr;
        view.redraw = view.tty >= 0;
        if (NULL == view.live) {
            view.live = stderr;
        }
    }
    int job_status = wait_job(pid, &opt, &relay, &view);
    forward_pid = 0;
    int spool_status = 0;
    if (NULL != spool) {
        /* the job's last records are copied out before the job counts as
         * ended: that is what it costs */
        spool_status = record_spool_finish(spool, opt.quiet ? NULL : stderr);
        if (!opt.quiet && 0 < record_spool_count(spool)) {
            double job = record_now() - t_start;
            fprintf(stderr,
                    RECORD_NAME ": %llu records copied from the ranks' rings in %.3f s of CPU "
                                "(%.1f %% of the job's %.2f s); the ranks waited %.3f s for "
                                "the copy\n",
                    (unsigned long long) record_spool_records(spool), record_spool_cpu(spool),
                    job > 0 ? 100.0 * record_spool_cpu(spool) / job : 0.0, job,
                    record_spool_waited(spool));
        } else if (!opt.quiet && RECORD_TRANSPORT_AUTO == opt.transport && has_node_file(opt.dir)) {
            /* no ring here, node files there: the ranks left evt/file out */
            fprintf(stderr, RECORD_NAME ": the job did not run on this host alone: its ranks "
                                        "recorded through PMIx\n");
        }
        record_spool_free(spool);
        remove_live_dir(&opt);
    }
    double t_job = record_now();
    if (NULL != view.live && stderr != view.live) {
        fclose(view.live); /* closes view.tty */
    } else if (view.tty >= 0) {
        close(view.tty);
    }
    listen_follow_free(view.follow);
    free(preload);
    free(job);
    if (0 != job_status && relay.launch_failed) {
        /* mpirun's own status for this (132) reads like a rank killed by
         * SIGILL; a shell says 127 */
        fprintf(stderr, RECORD_NAME ": the program was not found or cannot be run (see mpirun's "
                                    "message above); nothing was recorded\n");
        if (opt.made_dir) {
            rmdir(opt.dir); /* only if still empty */
        }
        return 127;
    }
    if (!has_node_file(opt.dir)) {
        fprintf(stderr,
                RECORD_NAME ": the job left no recording in %s: no rank exported events "
                            "(%s)\n",
                opt.dir,
                0 != job_status ? "the job failed before any rank recorded"
                                : "the program does not call MPI_Init, or the evt component "
                                  "could not be loaded or write there: see the messages "
                                  "above");
        if (opt.made_dir && 0 == rmdir(opt.dir)) {
            fprintf(stderr, RECORD_NAME ": %s removed (it was empty)\n", opt.dir);
        }
        return 0 != job_status ? job_status : 1;
    }
    if (0 > spool_status) {
        /* The spools could not be written (a full disk, said above): one
         * whose image was under way has no header yet and reads as no
         * recording at all, and the outputs would go to the same place. */
        fprintf(stderr,
                RECORD_NAME ": no outputs made: the recording in %s could not be written "
                            "whole (see above); make room there, or record elsewhere with -o\n",
                opt.dir);
        return 0 != got_signal ? 128 + got_signal : 0 != job_status ? job_status : 1;
    }
    if (0 != job_status && !opt.quiet) {
        fprintf(stderr, RECORD_NAME ": the job ended with status %d; decoding what arrived\n",
                job_status);
    }
    int listen_status = run_listener(&opt);
    if (0 == listen_status && 0 != spool_status) {
        listen_status = 1; /* records lost or a rank missing: said above */
    }
    if (!opt.quiet) {
        /* what recording cost is told apart: the job (with the recording
         * in its ranks) and the outputs written after it */
        fprintf(stderr, RECORD_NAME ": job %.2f s, outputs %.2f s\n", t_job - t_start,
                record_now() - t_job);
    }
    if (0 != got_signal) {
        /* stopped by SIGTERM/SIGHUP: say so in the status, whatever mpirun
         * or the listener made of it */
        return 128 + got_signal;
    }
    return 0 != job_status ? job_status : listen_status;
}
