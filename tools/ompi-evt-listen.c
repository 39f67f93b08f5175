/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * ompi-evt-listen --read DIR|FILE... [-o OUTDIR] [--format jsonl,perfetto,otf2,report]
 *                 [--events PATTERNS] [--nspace NS] [--summary-only] [--quiet]
 *                 [--window SECONDS] [--window-events N] [--threads 1|2]
 * ompi-evt-listen --attach pid:N|uri:U|system|nspace:NS [--server-tmpdir DIR]
 *                 [--ranks N] [--ready FILE] [--timeout SECONDS] [same options]
 *
 * Reads node files (what evt/pmix's node sink writes), merges every rank's
 * events on one timeline and writes events.jsonl, trace.json (Perfetto),
 * trace.otf2/ (OTF2) and summary.txt into OUTDIR (default: the folder
 * read, or the folder of the first file). With --attach, it first receives
 * a job's batches live as a PMIx tool into OUTDIR/attached.evt (default
 * OUTDIR: ompi-evt.<date>-<time>), until the job is over (evt_listen_live.h),
 * then reads that file the same way. Exit status: 0 when every input
 * was valid, 1 when some input was damaged or invalid, a file of a folder
 * was skipped (someone else's, not a regular file, unreadable) or the
 * recording is incomplete (batches a node sink or --attach had no room
 * for, kept as drop counts); the outputs hold everything valid. 2 on a
 * usage error or when nothing could be written or received. The reading
 * side lives in tools/listen/ (evt_listen.h).
 */

#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "evt_listen_live.h"
#include "listen/evt_listen.h"

static void usage(FILE *f, const char *argv0)
{
    fprintf(
        f,
        "Usage: %s --read DIR|FILE... [options]\n"
        "       %s --attach pid:N|uri:URI|system|nspace:NS [options]\n"
        "       %s --follow DIR [options]\n"
        "Merge the node files of a recorded job (evt/pmix node sink, evt_pmix_sink=DIR) into\n"
        "one timeline and write it as JSON Lines, a Chrome/Perfetto trace and an OTF2 archive.\n"
        "With --attach, first receive a running job's events as a PMIx tool attached to a\n"
        "server that accepts tools (not Open MPI 4.1.4's mpirun: record with ompi-evt-record\n"
        "there); the ranks export with evt_pmix_range=namespace, session or global.\n"
        "With --follow, watch a node sink folder while the job writes it (any launcher; a\n"
        "folder on a shared file system can be watched from another machine), then write\n"
        "the outputs of --read DIR.\n"
        "\n"
        "  --read DIR|FILE...     node files (*.evt), evt/file recordings (*.oevt), or\n"
        "                         folders holding them\n"
        "  --attach TARGET        the PMIx server: of process N, at URI, the node's system\n"
        "                         server, or the one of namespace NS; receives into\n"
        "                         OUTDIR/attached.evt until every rank sent its last batch\n"
        "                         (--ranks), the server goes, Ctrl-C, or --timeout\n"
        "  --follow DIR           read DIR's node files as they grow and show per rank\n"
        "                         events/s, drops, lost batches, the last event's age,\n"
        "                         p2p messages and bytes/s (redrawn like top on a terminal,\n"
        "                         a line per interval otherwise) until every rank sent its\n"
        "                         last batch (--ranks N, else the job size the ranks\n"
        "                         report), Ctrl-C, or --timeout\n"
        "  --interval SECONDS     --follow: the view's refresh (default 1)\n"
        "  --server-tmpdir DIR    where the server's rendezvous files are\n"
        "  --ranks N              the job's number of ranks: stop when all N are done\n"
        "  --ready FILE           create FILE once attached (a script may start the job then)\n"
        "  --timeout SECONDS      stop receiving after SECONDS\n"
        "  -o, --output OUTDIR    where to write (default: the folder read; with --attach\n"
        "                         ompi-evt.<date>-<time>)\n"
        "  --format LIST          jsonl,perfetto,otf2,report (default: all four)\n"
        "  --events PATTERNS      event names to keep: PAT[,PAT...], '*' wildcard, '^PAT' "
        "excludes\n"
        "  --nspace NS            only this PMIx namespace (others are ignored and counted)\n"
        "  --summary-only         write summary.txt only\n"
        "  --quiet                do not print the summary\n"
        "  --window SECONDS       merge window in job time (default 10)\n"
        "  --window-events N      most records held by the merge (default 250000)\n"
        "  --threads 1|2          write trace.json and the report on a second thread (when\n"
        "                         one of them is written; default: 2 when this process may\n"
        "                         use more than one CPU)\n"
        "  --all-owners           in folders, read other users' files too (default: only\n"
        "                         this user's; others are skipped and listed)\n"
        "  -h, --help\n"
        "\n"
        "Only regular files are read: FIFOs, devices and symbolic links never. A file of a\n"
        "folder that cannot be read is skipped and listed (summary, stderr).\n"
        "Outputs: events.jsonl, trace.json, trace.otf2/, report.html, report.csv,\n"
        "summary.txt.\n"
        "Exit status: 0 every input valid, 1 some input damaged, invalid, skipped or changed\n"
        "while it was read, or the recording incomplete (no room for some batches where they\n"
        "were recorded: their events are counted as dropped); everything valid was still\n"
        "written. 2 usage error, nothing written or nothing received.\n",
        argv0, argv0, argv0);
}

/* The CPUs this process may run on (a job's cpuset or taskset may allow
 * fewer than the machine has). */
/* A positive count in decimal digits alone: strtoull would take a sign or
 * leading blanks ("-5" is 2^64 - 5) and wrap on overflow. */
static bool parse_count(const char *s, unsigned long long *out)
{
    char *end;

    if ('0' > s[0] || '9' < s[0]) {
        return false;
    }
    errno = 0;
    *out = strtoull(s, &end, 10);
    return 0 == errno && '\0' == *end && 0 < *out;
}

static int usable_cpus(void)
{
    long online = sysconf(_SC_NPROCESSORS_CONF);
    size_t size;
    cpu_set_t *set;
    int n = 1;

    if (online < 1) {
        return 1;
    }
    set = CPU_ALLOC((int) online);
    if (NULL == set) {
        return 1;
    }
    size = CPU_ALLOC_SIZE((int) online);
    if (0 == sched_getaffinity(0, size, set)) {
        n = CPU_COUNT_S(size, set);
    }
    CPU_FREE(set);
    return n;
}

static void stop_signal(int sig)
{
    atomic_store_explicit(&listen_stop_signal, sig, memory_order_relaxed);
}

static volatile sig_atomic_t follow_stop;

static void follow_signal(int sig)
{
    (void) sig;
    follow_stop = 1;
}

/**
 * --follow DIR: read the folder's node files as the job writes them and
 * show the view every @p interval seconds, until every expected rank sent
 * its FINAL batch (@p ranks, 0: the job sizes the ranks report), SIGINT or
 * SIGTERM, or @p seconds (0: no limit). @retval 0 (then --read DIR), -1
 */
static int follow(const char *dir, uint64_t ranks, double seconds, double interval, bool quiet)
{
    static const char *const ends[] = {"every rank sent its last batch", "interrupted",
                                       "--timeout passed"};
    listen_follow_t *f = listen_follow_new(dir, ranks);
    struct sigaction sa, old_int, old_term;
    bool tty = isatty(STDOUT_FILENO);
    struct timespec t0, now, nap = {0, 100 * 1000 * 1000};
    double next_view = interval, t;
    int end = -1;
    struct stat st;

    if (NULL == f) {
        fprintf(stderr, "ompi-evt-listen: out of memory\n");
        return -1;
    }
    if (0 != stat(dir, &st)) {
        /* a job not started yet creates it; a mistyped path never does */
        fprintf(stderr, "ompi-evt-listen: --follow %s: %s: waiting for it to appear%s\n", dir,
                strerror(errno), 0 < seconds ? " (until --timeout)" : " (Ctrl-C stops)");
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = follow_signal;
    sigemptyset(&sa.sa_mask);
    (void) sigaction(SIGINT, &sa, &old_int);
    (void) sigaction(SIGTERM, &sa, &old_term);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (end < 0) {
        if (0 != listen_follow_poll(f)) {
            fprintf(stderr, "ompi-evt-listen: --follow %s: a read error or no memory\n", dir);
            listen_follow_free(f);
            return -1;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        t = (double) (now.tv_sec - t0.tv_sec) + (double) (now.tv_nsec - t0.tv_nsec) * 1e-9;
        if (listen_follow_done(f)) {
            end = 0;
        } else if (follow_stop) {
            end = 1;
        } else if (0 < seconds && t >= seconds) {
            end = 2;
        }
        if (!quiet && (t >= next_view || end >= 0)) {
            listen_follow_view(f, stdout, tty);
            next_view = t + interval;
        }
        if (end < 0) {
            nanosleep(&nap, NULL);
        }
    }
    (void) sigaction(SIGINT, &old_int, NULL);
    (void) sigaction(SIGTERM, &old_term, NULL);
    if (!quiet) {
        fprintf(stderr, "ompi-evt-listen: followed %s: %llu events; stopped: %s\n", dir,
                (unsigned long long) listen_follow_events(f), ends[end]);
    }
    listen_follow_free(f);
    return 0;
}

/* What the summary's list of outputs says of the sink named @p name (the
 * report's sink writes two files). */
static const char *output_label(const char *name)
{
    return 0 == strcmp(name, "trace.otf2")    ? "trace.otf2/ "
           : 0 == strcmp(name, "report.html") ? "report.html report.csv "
           : 0 == strcmp(name, "trace.json")  ? "trace.json "
                                              : "events.jsonl ";
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"read", no_argument, NULL, 'r'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"events", required_argument, NULL, 'e'},
                                         {"nspace", required_argument, NULL, 'n'},
                                         {"summary-only", no_argument, NULL, 's'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"window", required_argument, NULL, 'w'},
                                         {"window-events", required_argument, NULL, 'W'},
                                         {"threads", required_argument, NULL, 'j'},
                                         {"attach", required_argument, NULL, 'a'},
                                         {"server-tmpdir", required_argument, NULL, 'T'},
                                         {"ranks", required_argument, NULL, 'R'},
                                         {"ready", required_argument, NULL, 'y'},
                                         {"timeout", required_argument, NULL, 't'},
                                         {"all-owners", no_argument, NULL, 'A'},
                                         {"follow", required_argument, NULL, 'F'},
                                         {"interval", required_argument, NULL, 'i'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    listen_live_opts_t live = {NULL, NULL, NULL, 0, 0, false};
    listen_live_result_t received;
    listen_merge_opts_t mopts = {10LL * 1000000000LL, 250000};
    listen_inputs_t inputs = {NULL, 0, false, NULL, 0};
    const char **read_args = NULL;
    size_t num_read_args = 0;
    listen_registry_t reg;
    listen_filter_t filter;
    listen_merge_stats_t mstats;
    listen_sink_t sinks[4];
    size_t nsinks = 0;
    const char *outdir = NULL, *events = NULL, *nspace = NULL;
    char *defdir = NULL, err[1024] = "", outputs[128] = "";
    int fmt = LISTEN_FMT_JSONL | LISTEN_FMT_PERFETTO | LISTEN_FMT_OTF2 | LISTEN_FMT_REPORT;
    bool reading = false, summary_only = false, quiet = false, bad_input = false;
    const char *follow_dir = NULL;
    double interval = 1.0;
    int c, ret = 2, stop, threads = usable_cpus() > 1 ? 2 : 1;

    /* batches are allocated and freed by the thousand: keep freed memory
     * instead of returning it to the kernel and faulting it in again */
    (void) mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
    (void) mallopt(M_MMAP_THRESHOLD, 64 * 1024 * 1024);
    memset(&filter, 0, sizeof(filter));
    memset(&mstats, 0, sizeof(mstats));
    listen_registry_init(&reg);
    read_args = calloc((size_t) argc + 1, sizeof(*read_args));
    if (NULL == read_args) {
        fprintf(stderr, "ompi-evt-listen: out of memory\n");
        goto done;
    }
    /* --read takes every following argument that is not an option */
    while (-1 != (c = getopt_long(argc, argv, "-o:h", opts, NULL))) {
        switch (c) {
        case 'r':
            reading = true;
            break;
        case 1: /* a non-option argument */
            if (!reading) {
                fprintf(stderr,
                        "ompi-evt-listen: unexpected argument \"%s\" (files follow --read)\n",
                        optarg);
                goto usage_error;
            }
            /* resolved once every option is known (--all-owners) */
            read_args[num_read_args++] = optarg;
            break;
        case 'A':
            inputs.all_owners = true;
            break;
        case 'o':
            outdir = optarg;
            break;
        case 'f':
            if (0 != listen_formats_parse(optarg, &fmt, err, sizeof(err))) {
                fprintf(stderr, "ompi-evt-listen: %s\n", err);
                goto usage_error;
            }
            break;
        case 'e':
            events = optarg;
            break;
        case 'n':
            nspace = optarg;
            break;
        case 's':
            summary_only = true;
            break;
        case 'q':
            quiet = true;
            break;
        case 'w': {
            char *end;
            double w = strtod(optarg, &end);
            if ('\0' != *end || !(w >= 0) || w > 1e9) {
                fprintf(stderr, "ompi-evt-listen: --window: not a number of seconds: %s\n", optarg);
                goto usage_error;
            }
            mopts.window_ns = (int64_t) (w * 1e9);
            break;
        }
        case 'W': {
            unsigned long long n;
            if (!parse_count(optarg, &n) || n > SIZE_MAX) {
                fprintf(stderr, "ompi-evt-listen: --window-events: not a positive count: %s\n",
                        optarg);
                goto usage_error;
            }
            mopts.window_events = (size_t) n;
            break;
        }
        case 'j':
            if (0 != strcmp(optarg, "1") && 0 != strcmp(optarg, "2")) {
                fprintf(stderr, "ompi-evt-listen: --threads: 1 or 2, not %s\n", optarg);
                goto usage_error;
            }
            threads = optarg[0] - '0';
            break;
        case 'a':
            live.target = optarg;
            break;
        case 'F':
            follow_dir = optarg;
            break;
        case 'i': {
            char *end;
            double t = strtod(optarg, &end);
            if ('\0' != *end || !(t >= 0.05) || t > 3600) {
                fprintf(stderr,
                        "ompi-evt-listen: --interval: not a number of seconds in 0.05..3600: %s\n",
                        optarg);
                goto usage_error;
            }
            interval = t;
            break;
        }
        case 'T':
            live.tmpdir = optarg;
            break;
        case 'y':
            live.ready = optarg;
            break;
        case 'R': {
            unsigned long long n;
            if (!parse_count(optarg, &n)) {
                fprintf(stderr, "ompi-evt-listen: --ranks: not a positive count: %s\n", optarg);
                goto usage_error;
            }
            live.ranks = n;
            break;
        }
        case 't': {
            char *end;
            double t = strtod(optarg, &end);
            if ('\0' != *end || !(t > 0) || t > 1e9) {
                fprintf(stderr, "ompi-evt-listen: --timeout: not a number of seconds: %s\n",
                        optarg);
                goto usage_error;
            }
            live.seconds = t;
            break;
        }
        case 'h':
            usage(stdout, argv[0]);
            ret = 0;
            goto done;
        default:
            goto usage_error;
        }
    }
    for (size_t i = 0; i < num_read_args; ++i) {
        if (0 != listen_inputs_add(&inputs, read_args[i], err, sizeof(err))) {
            for (size_t k = 0; k < inputs.num_skipped; ++k) {
                fprintf(stderr, "ompi-evt-listen: skipped %s\n", inputs.skipped[k]);
            }
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
    }
    if ((NULL != live.target) + reading + (NULL != follow_dir) > 1) {
        fprintf(stderr, "ompi-evt-listen: --read, --attach and --follow exclude each other\n");
        goto usage_error;
    }
    if (NULL == live.target && NULL == follow_dir
        && (NULL != live.tmpdir || NULL != live.ready || 0 < live.ranks || 0 < live.seconds)) {
        fprintf(stderr, "ompi-evt-listen: --server-tmpdir, --ranks, --ready and --timeout go "
                        "with --attach (--ranks and --timeout with --follow too)\n");
        goto usage_error;
    }
    if (NULL != follow_dir && (NULL != live.tmpdir || NULL != live.ready)) {
        fprintf(stderr, "ompi-evt-listen: --server-tmpdir and --ready go with --attach\n");
        goto usage_error;
    }
    if (NULL != follow_dir) {
        int frc = follow(follow_dir, live.ranks, live.seconds, interval, quiet);
        if (0 != frc) {
            goto done;
        }
        if (0 != listen_inputs_add(&inputs, follow_dir, err, sizeof(err))) {
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
    } else if (NULL == live.target && (!reading || 0 == inputs.num_files)) {
        fprintf(stderr, "ompi-evt-listen: nothing to read: give --read DIR|FILE..., "
                        "--attach TARGET or --follow DIR\n");
        goto usage_error;
    }
    if (0 != listen_filter_parse(&filter, events, err, sizeof(err))) {
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        goto usage_error;
    }
    if (NULL == outdir && NULL != live.target) {
        time_t now = time(NULL);
        struct tm tm;
        defdir = malloc(64);
        if (NULL == defdir || NULL == localtime_r(&now, &tm)
            || 0 == strftime(defdir, 64, "ompi-evt.%Y%m%d-%H%M%S", &tm)) {
            fprintf(stderr, "ompi-evt-listen: cannot name the output folder\n");
            goto done;
        }
        outdir = defdir;
    } else if (NULL == outdir) {
        const char *first = inputs.files[0].path;
        /* the folder read, or the first file's folder */
        defdir = strdup(first);
        if (NULL == defdir) {
            goto done;
        }
        outdir = dirname(defdir);
    }
    {
        struct stat st;
        if (0 != stat(outdir, &st)) {
            if (ENOENT != errno || 0 != mkdir(outdir, 0700)) {
                fprintf(stderr, "ompi-evt-listen: output folder %s: %s\n", outdir, strerror(errno));
                goto done;
            }
        } else if (!S_ISDIR(st.st_mode)) {
            fprintf(stderr, "ompi-evt-listen: output %s is not a folder\n", outdir);
            goto done;
        }
    }
    reg.only_nspace = nspace;

    if (NULL != live.target) {
        static const char *const ends[] = {"", "every rank sent its last batch",
                                           "the server is gone", "interrupted", "--timeout passed"};
        live.quiet = quiet;
        if (0 != listen_live_receive(&live, outdir, &received, err, sizeof(err))) {
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
        fprintf(stderr,
                "ompi-evt-listen: received %llu batches (%llu bytes, %llu ranks done) into %s; "
                "stopped: %s\n",
                (unsigned long long) received.batches, (unsigned long long) received.bytes,
                (unsigned long long) received.finals, received.path, ends[received.end]);
        if (0 < received.invalid || 0 < received.write_errors || 0 < received.forged) {
            fprintf(stderr,
                    "ompi-evt-listen: %llu notifications were not valid batches, %llu batches "
                    "could not be written, %llu batches were refused (sent by another process "
                    "than their sender)\n",
                    (unsigned long long) received.invalid,
                    (unsigned long long) received.write_errors,
                    (unsigned long long) received.forged);
            bad_input = true;
        }
        if (0 == received.batches) {
            fprintf(stderr, "ompi-evt-listen: nothing received (do the ranks export with "
                            "--mca evt pmix and a range that reaches tools?)\n");
            ret = 2;
            goto done;
        }
        if (0 != listen_inputs_add(&inputs, received.path, err, sizeof(err))) {
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
    }

    /* pass 1: what every process sent; fixes the time mapping */
    if (0 != listen_scan_run(&inputs, &reg, &filter, err, sizeof(err))) {
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        goto done;
    }

    /* pass 2: merge and write; a signal from here on stops the merge, and
     * the outputs' temporaries are removed on the way out (a signal we were
     * started ignoring, as under nohup or in a background job, stays so) */
    {
        static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
        struct sigaction sa, old;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = stop_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < sizeof(stops) / sizeof(stops[0]); ++k) {
            if (0 == sigaction(stops[k], NULL, &old) && SIG_IGN != old.sa_handler) {
                (void) sigaction(stops[k], &sa, NULL);
            }
        }
    }
    if (!summary_only) {
        if ((fmt & LISTEN_FMT_JSONL)
            && 0 == listen_sink_jsonl(&sinks[nsinks], outdir, err, sizeof(err))) {
            nsinks++;
            strcat(outputs, "events.jsonl ");
        } else if (fmt & LISTEN_FMT_JSONL) {
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
        if ((fmt & LISTEN_FMT_PERFETTO)
            && 0 == listen_sink_perfetto(&sinks[nsinks], outdir, err, sizeof(err))) {
            /* trace.json and the report (both pair messages) on the second
             * thread, events.jsonl and trace.otf2/ beside the merge: about
             * half of the work each, measured on p2p-heavy jobs */
            sinks[nsinks].on_worker = 2 == threads;
            nsinks++;
            strcat(outputs, "trace.json ");
        } else if (fmt & LISTEN_FMT_PERFETTO) {
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
        if ((fmt & LISTEN_FMT_OTF2)
            && 0 == listen_sink_otf2(&sinks[nsinks], outdir, err, sizeof(err))) {
            nsinks++;
            strcat(outputs, "trace.otf2/ ");
        } else if (fmt & LISTEN_FMT_OTF2) {
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
        if ((fmt & LISTEN_FMT_REPORT)
            && 0 == listen_sink_report(&sinks[nsinks], outdir, err, sizeof(err))) {
            sinks[nsinks].on_worker = 2 == threads;
            nsinks++;
            strcat(outputs, "report.html report.csv ");
        } else if (fmt & LISTEN_FMT_REPORT) {
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
    }
    int merged = listen_merge_run(&inputs, &reg, &filter, &mopts, sinks, nsinks, &mstats, err,
                                  sizeof(err));
    if (0 > merged) {
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        goto done;
    }
    if (0 < merged) {
        /* some outputs could not be finished (said by them, and here): the
         * others and the summary are written, and list only what is */
        fprintf(stderr, "ompi-evt-listen: %s\n", err);
        outputs[0] = '\0';
        for (size_t i = 0; i < nsinks; ++i) {
            if (!sinks[i].failed) {
                strcat(outputs, output_label(sinks[i].name));
            }
        }
    }
    if ('\0' != outputs[0]) {
        outputs[strlen(outputs) - 1] = '\0';
    }
    {
        listen_summary_info_t info = {&inputs, &mstats,
                                      &filter, '\0' != outputs[0] ? outputs : NULL,
                                      sinks,   nsinks};
        if (0
            != listen_summary_write(&reg, &info, outdir, quiet ? NULL : stdout, err, sizeof(err))) {
            fprintf(stderr, "ompi-evt-listen: %s\n", err);
            goto done;
        }
    }
    if (0 < mstats.unseen) {
        bad_input = true;
        fprintf(stderr,
                "ompi-evt-listen: %llu batches appeared after the first reading (a file grew "
                "or changed while it was read) and were not written\n",
                (unsigned long long) mstats.unseen);
    }
    for (size_t i = 0; i < inputs.num_files; ++i) {
        const listen_file_t *f = &inputs.files[i];
        if (f->invalid_batches || f->damaged || f->truncated || f->read_error) {
            bad_input = true;
            fprintf(stderr, "ompi-evt-listen: %s: %s\n", f->path,
                    NULL == f->first_error ? "damaged" : f->first_error);
        } else if (!f->flight && 0 == f->frames) {
            /* every rank's last batch reaches its node's file, so one
             * with none is what a sink without room leaves */
            bad_input = true;
            fprintf(stderr,
                    "ompi-evt-listen: %s: no batch of any process (the ranks of %s could not "
                    "store theirs: a full disk? their messages say why)\n",
                    f->path, '\0' == f->host[0] ? "that node" : f->host);
        }
    }
    for (size_t i = 0; i < inputs.num_skipped; ++i) {
        bad_input = true;
        fprintf(stderr, "ompi-evt-listen: skipped %s\n", inputs.skipped[i]);
    }
    {
        uint64_t not_stored = 0;
        for (size_t i = 0; i < reg.num_procs; ++i) {
            not_stored += reg.procs[i]->not_stored;
        }
        if (0 < not_stored) {
            fprintf(stderr,
                    "ompi-evt-listen: the recording is incomplete: %llu batches found no room "
                    "where they were recorded (their events are counted as dropped; see "
                    "summary.txt)\n",
                    (unsigned long long) not_stored);
            bad_input = true;
        }
    }
    ret = 0 < merged ? 2 : bad_input ? 1 : 0;
    goto done;
usage_error:
    usage(stderr, argv[0]);
    ret = 2;
done:
    free(read_args);
    for (size_t i = 0; i < nsinks; ++i) {
        sinks[i].destroy(sinks[i].ctx);
    }
    listen_registry_fini(&reg);
    listen_filter_free(&filter);
    listen_inputs_free(&inputs);
    free(defdir);
    stop = atomic_load_explicit(&listen_stop_signal, memory_order_relaxed);
    if (0 != stop) {
        /* temporaries gone: end as the signal would have ended us */
        signal(stop, SIG_DFL);
        raise(stop);
    }
    return ret;
}
