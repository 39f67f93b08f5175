/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* ompi-evt-listen --read on a large recording: the decode + merge + write
 * rate per output format, and the listener's peak memory.
 *
 * 1. Writes node files of BENCH_EVENTS events (default 10,000,000) as a job
 *    of BENCH_RANKS ranks (8) on BENCH_NODES nodes (2) would leave them:
 *    p2p send/recv completions (48-byte payloads, every field named) in
 *    batches of BENCH_BATCH bytes (65536), with the real encoder and node
 *    file writer (this rate is printed too: it is what a node sink pays).
 * 2. Runs the real tool (ompi-evt-listen, path in argv[1]) BENCH_REPEAT
 *    times (5) per format (none = --summary-only: decode and merge only;
 *    jsonl; perfetto; otf2), each in its own process; of the run with the
 *    median CPU time: wall time and CPU time (user + system, the figure
 *    that matters on a shared machine; its range over the runs too) with
 *    their event rates,
 *    output bytes, and the child's peak RSS (getrusage of the child). The event count in
 *    summary.txt must equal the number written. The reference of the same
 *    run: the CPU time of writing as many bytes in 4 MiB writes where the
 *    outputs go (the kernel's share, which the listener cannot avoid
 *    but by writing less), and the listener's CPU time minus it.
 * 3. jsonl once more with --window-events=100000 (a window 10x smaller
 *    than the default): peak memory follows the window, not the recording.
 * 4. All four outputs at once (what ompi-evt-record asks for), with
 *    --threads=1 and --threads=2 (the traces on a second thread): the wall
 *    time is the figure there.
 * Outputs are deleted after each run (they are large). BENCH_DIR sets the
 * folder (default: a new one under /tmp), BENCH_OUT where the outputs go (default:
 * there too; /dev/shm takes the disk out of the figures); BENCH_KEEP=1 keeps
 * the node files. */

#include "opal_config.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ompi/mca/common/evt/common_evt_nodefile.h"
#include "ompi/mca/common/evt/common_evt_wire.h"
#include "ompi/runtime/ompi_evt_payloads.h"
#include "ompi/runtime/ompi_evt_producers.h"
#include "opal/mca/base/mca_base_event.h"
#include "opal/runtime/opal.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static long envl(const char *name, long def)
{
    const char *v = getenv(name);
    return NULL == v ? def : atol(v);
}

static uint64_t du(const char *path)
{
    struct stat st;
    uint64_t n = 0;
    DIR *d;
    struct dirent *de;

    if (0 != lstat(path, &st)) {
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        return (uint64_t) st.st_size;
    }
    d = opendir(path);
    if (NULL == d) {
        return 0;
    }
    while (NULL != (de = readdir(d))) {
        char p[4096];
        if (0 == strcmp(de->d_name, ".") || 0 == strcmp(de->d_name, "..")) {
            continue;
        }
        snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
        n += du(p);
    }
    closedir(d);
    return n;
}

static int sh(const char *cmd)
{
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int generate(const char *dir, long events, int ranks, int nodes, size_t batch)
{
    mca_base_event_t *send_ev, *recv_ev;
    mca_common_evt_nodefile_t files[26];
    mca_common_evt_wire_encoder_t *enc = calloc((size_t) ranks, sizeof(*enc));
    uint64_t *seq = calloc((size_t) ranks, sizeof(*seq));
    const int64_t t0 = 1700000000000000000LL;
    long per_rank = events / ranks, written = 0;
    double t_start, t_end;
    uint64_t bytes = 0;

    if (NULL == enc || NULL == seq
        || OPAL_SUCCESS != mca_base_event_get_by_name("ompi.mpi.p2p_send_complete", &send_ev)
        || OPAL_SUCCESS != mca_base_event_get_by_name("ompi.mpi.p2p_recv_complete", &recv_ev)) {
        return -1;
    }
    for (int n = 0; n < nodes; ++n) {
        char host[16];
        snprintf(host, sizeof(host), "node%c", 'A' + n);
        if (OPAL_SUCCESS != mca_common_evt_nodefile_open(&files[n], dir, host)) {
            fprintf(stderr, "bench_listen: %s\n", files[n].error);
            return -1;
        }
    }
    for (int r = 0; r < ranks; ++r) {
        mca_common_evt_wire_sender_t s;
        memset(&s, 0, sizeof(s));
        strcpy(s.nspace, "prterun-bench-1@1");
        snprintf(s.host, sizeof(s.host), "node%c", 'A' + r * nodes / ranks);
        s.rank = (uint32_t) r;
        if (OPAL_SUCCESS != mca_common_evt_wire_encoder_construct(&enc[r], &s, batch)
            || OPAL_SUCCESS != mca_common_evt_wire_encoder_begin(&enc[r], 0, 0)
            || OPAL_SUCCESS
                   != mca_common_evt_wire_encoder_add_clock(&enc[r], send_ev->source, 0, t0)) {
            return -1;
        }
    }
    t_start = now();
    /* ranks interleaved in time: record i of every rank, then i + 1 ... */
    for (long i = 0; i <= per_rank; ++i) {
        for (int r = 0; r < ranks; ++r) {
            int node = r * nodes / ranks;
            bool last = i == per_rank;
            ompi_evt_p2p_payload_t p;
            mca_base_event_record_t rec;
            int rc;
            if (!last) {
                memset(&p, 0, sizeof(p));
                p.comm = 0x7f0000000100ULL;
                p.bytes = 64;
                p.peer = (i & 1) ? (r + ranks - 1) % ranks : (r + 1) % ranks;
                p.tag = (int32_t) (i / 2);
                p.mode = 1;
                p.comm_peer = p.peer;
                p.start_time = 1000000 + i * 1000 + r;
                p.complete_time = p.start_time + 400;
                memset(&rec, 0, sizeof(rec));
                rec.event = (i & 1) ? recv_ev : send_ev;
                rec.source = send_ev->source;
                rec.timestamp = p.complete_time;
                rec.data = &p;
                rc = mca_common_evt_wire_encoder_add_record(&enc[r], &rec);
            } else {
                rc = OPAL_ERR_TEMP_OUT_OF_RESOURCE;
                (void) mca_common_evt_wire_encoder_set_flags(&enc[r],
                                                             MCA_COMMON_EVT_WIRE_FLAG_FINAL);
            }
            if (OPAL_ERR_TEMP_OUT_OF_RESOURCE == rc) {
                const void *buf;
                size_t len;
                if (OPAL_SUCCESS != mca_common_evt_wire_encoder_finish(&enc[r], &buf, &len)
                    || OPAL_SUCCESS != mca_common_evt_nodefile_append(&files[node], buf, len)) {
                    return -1;
                }
                bytes += len;
                if (last) {
                    continue;
                }
                if (OPAL_SUCCESS != mca_common_evt_wire_encoder_begin(&enc[r], ++seq[r], 0)
                    || OPAL_SUCCESS
                           != mca_common_evt_wire_encoder_add_clock(&enc[r], send_ev->source,
                                                                    p.complete_time,
                                                                    t0 + p.complete_time)
                    || OPAL_SUCCESS != mca_common_evt_wire_encoder_add_record(&enc[r], &rec)) {
                    return -1;
                }
            } else if (OPAL_SUCCESS != rc) {
                return -1;
            }
            written += !last;
        }
    }
    t_end = now();
    for (int n = 0; n < nodes; ++n) {
        mca_common_evt_nodefile_close(&files[n]);
    }
    for (int r = 0; r < ranks; ++r) {
        mca_common_evt_wire_encoder_destruct(&enc[r]);
    }
    printf("generated %ld events of %d ranks on %d nodes: %.1f MB of batches (%.1f bytes/event), "
           "encode + validate + append %.2f s = %.2f M events/s\n",
           written, ranks, nodes, bytes / 1e6, (double) bytes / (double) written, t_end - t_start,
           written / (t_end - t_start) / 1e6);
    free(enc);
    free(seq);
    return (int) (written == per_rank * ranks ? 0 : -1);
}

typedef struct {
    double wall, cpu, user;
    double out_mb, rss_mb;
    bool ok;
} run_result_t;

/* Run the listener once; measure. */
static int run_once(const char *listen, const char *dir, const char *fmt, const char *extra,
                    long events, run_result_t *res)
{
    char out[4096], cmd[16384], sum[4200], line[512];
    struct rusage ru;
    double t0, t1;
    int status;
    pid_t pid;
    FILE *f;
    long counted = -1;

    snprintf(out, sizeof(out), "%s/out-%s", NULL != getenv("BENCH_OUT") ? getenv("BENCH_OUT") : dir,
             fmt);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -m 700 '%s'", out, out);
    if (0 != sh(cmd)) {
        return -1;
    }
    t0 = now();
    pid = fork();
    if (0 == pid) {
        if (0 == strcmp(fmt, "none")) {
            execl(listen, listen, "--read", dir, "-o", out, "--summary-only", "--quiet",
                  NULL == extra ? (char *) NULL : extra, (char *) NULL);
        } else {
            execl(listen, listen, "--read", dir, "-o", out, "--format", fmt, "--quiet",
                  NULL == extra ? (char *) NULL : extra, (char *) NULL);
        }
        _exit(127);
    }
    if (pid < 0 || pid != wait4(pid, &status, 0, &ru)) {
        return -1;
    }
    t1 = now();
    snprintf(sum, sizeof(sum), "%s/summary.txt", out);
    f = fopen(sum, "r");
    while (NULL != f && fgets(line, sizeof(line), f)) {
        if (1 == sscanf(line, "events: %ld", &counted)) {
            break;
        }
    }
    if (NULL != f) {
        fclose(f);
    }
    res->wall = t1 - t0;
    res->user = (double) ru.ru_utime.tv_sec + 1e-6 * (double) ru.ru_utime.tv_usec;
    res->cpu = res->user + (double) ru.ru_stime.tv_sec + 1e-6 * (double) ru.ru_stime.tv_usec;
    res->out_mb = (double) du(out) / 1e6;
    res->rss_mb = (double) ru.ru_maxrss / 1024.0;
    res->ok = WIFEXITED(status) && 0 == WEXITSTATUS(status) && counted == events;
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out);
    (void) sh(cmd);
    return 0;
}

/* The reference for the output's share: the CPU time (mostly system) of
 * writing `bytes` bytes of zeros in 4 MiB writes to a new file where the
 * outputs go, in a child process like the listener's runs. */
static double write_cost(const char *dir, double bytes)
{
    char path[4200];
    struct rusage ru;
    int status;
    pid_t pid;

    snprintf(path, sizeof(path), "%s/write-reference",
             NULL != getenv("BENCH_OUT") ? getenv("BENCH_OUT") : dir);
    pid = fork();
    if (0 == pid) {
        static char chunk[4 << 20];
        FILE *f = fopen(path, "wx");
        double left = bytes;
        if (NULL == f) {
            _exit(1);
        }
        setvbuf(f, NULL, _IONBF, 0);
        while (left > 0) {
            size_t n = left < (double) sizeof(chunk) ? (size_t) left : sizeof(chunk);
            if (n != fwrite(chunk, 1, n, f)) {
                _exit(1);
            }
            left -= (double) n;
        }
        _exit(0 == fclose(f) ? 0 : 1);
    }
    if (pid < 0 || pid != wait4(pid, &status, 0, &ru)) {
        return -1.0;
    }
    (void) unlink(path);
    if (!WIFEXITED(status) || 0 != WEXITSTATUS(status)) {
        return -1.0;
    }
    return (double) ru.ru_utime.tv_sec + 1e-6 * (double) ru.ru_utime.tv_usec
           + (double) ru.ru_stime.tv_sec + 1e-6 * (double) ru.ru_stime.tv_usec;
}

static int by_double(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (*x > *y) - (*x < *y);
}

static int by_cpu(const void *a, const void *b)
{
    const run_result_t *x = a, *y = b;
    return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Run the listener `repeat` times; report the run of median CPU time and
 * the range. The system time varies from run to run with the kernel's
 * work for the output's pages (on this VM, pages the guest never touched
 * before cost several times more than reused ones), so one run is not a
 * figure. */
static int run(const char *listen, const char *dir, const char *fmt, const char *extra,
               long events, int repeat)
{
    run_result_t res[16];
    const run_result_t *m;
    double ref[16], walls[16], own;
    bool ok = true;

    for (int i = 0; i < repeat; ++i) {
        if (0 != run_once(listen, dir, fmt, extra, events, &res[i])) {
            return -1;
        }
        ok = ok && res[i].ok;
        ref[i] = write_cost(dir, res[i].out_mb * 1e6);
        if (ref[i] < 0) {
            return -1;
        }
    }
    for (int i = 0; i < repeat; ++i) {
        walls[i] = res[i].wall;
    }
    qsort(walls, (size_t) repeat, sizeof(walls[0]), by_double);
    qsort(res, (size_t) repeat, sizeof(res[0]), by_cpu);
    qsort(ref, (size_t) repeat, sizeof(ref[0]), by_double);
    m = &res[repeat / 2];
    own = m->cpu - ref[repeat / 2];
    printf("%-9s %-24s %6.2f s %5.2f M/s  cpu %5.2f s (user %5.2f; %5.2f..%5.2f) %5.2f M/s  "
           "out %6.0f MB  RSS %6.1f MB  %s\n",
           fmt, NULL == extra ? "" : extra, m->wall, events / m->wall / 1e6, m->cpu, m->user,
           res[0].cpu, res[repeat - 1].cpu, events / m->cpu / 1e6, m->out_mb, m->rss_mb,
           ok ? "ok" : "FAILED");
    printf("%-9s %-24s wall of the %d runs: median %5.2f s (%5.2f..%5.2f)\n", "", "", repeat,
           walls[repeat / 2], walls[0], walls[repeat - 1]);
    if (0 != strcmp(fmt, "none")) {
        printf("%-9s %-24s writing its output's bytes alone: cpu %5.2f s (%5.2f..%5.2f); the "
               "rest %5.2f s = %5.2f M events/s\n",
               "", "", ref[repeat / 2], ref[0], ref[repeat - 1], own,
               own > 0 ? events / own / 1e6 : 0.0);
    }
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    long events = envl("BENCH_EVENTS", 10000000);
    int ranks = (int) envl("BENCH_RANKS", 8), nodes = (int) envl("BENCH_NODES", 2);
    size_t batch = (size_t) envl("BENCH_BATCH", 65536);
    int repeat = (int) envl("BENCH_REPEAT", 5);
    char dir[4096], cmd[8300];
    int fails = 0;

    if (2 != argc) {
        fprintf(stderr, "usage: bench_listen PATH-TO-ompi-evt-listen\n");
        return 2;
    }
    if (repeat < 1 || repeat > 16) {
        fprintf(stderr, "bench_listen: BENCH_REPEAT must be 1..16\n");
        return 2;
    }
    if (NULL != getenv("BENCH_DIR")) {
        snprintf(dir, sizeof(dir), "%s", getenv("BENCH_DIR"));
        if (0 != mkdir(dir, 0700)) {
            perror(dir);
            return 1;
        }
    } else {
        snprintf(dir, sizeof(dir), "/tmp/bench_listen.XXXXXX");
        if (NULL == mkdtemp(dir)) {
            perror("mkdtemp");
            return 1;
        }
    }
    if (OPAL_SUCCESS != opal_init_util(&argc, &argv) || OPAL_SUCCESS != mca_base_event_init()
        || OPAL_SUCCESS != ompi_evt_producers_register()) {
        return 1;
    }
    events -= events % ranks;
    if (0 != generate(dir, events, ranks, nodes, batch)) {
        fprintf(stderr, "bench_listen: generating the node files failed\n");
        return 1;
    }
    printf("node files: %.1f MB in %s\n", du(dir) / 1e6, dir);
    printf(
        "format    options                   wall    rate      cpu = user + sys (range)          "
        "    rate     output     peak memory\n");
    fails += 0 != run(argv[1], dir, "none", NULL, events, repeat);
    fails += 0 != run(argv[1], dir, "jsonl", NULL, events, repeat);
    fails += 0 != run(argv[1], dir, "perfetto", NULL, events, repeat);
    fails += 0 != run(argv[1], dir, "otf2", NULL, events, repeat);
    fails += 0 != run(argv[1], dir, "jsonl", "--window-events=100000", events, repeat);
    /* all four outputs, as ompi-evt-record writes them: on one thread, and
     * with the two traces on a second one (the default on more than one
     * CPU) */
    fails += 0 != run(argv[1], dir, "jsonl,perfetto,otf2,report", "--threads=1", events, repeat);
    fails += 0 != run(argv[1], dir, "jsonl,perfetto,otf2,report", "--threads=2", events, repeat);
    if (NULL == getenv("BENCH_KEEP")) {
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        (void) sh(cmd);
    }
    (void) mca_base_event_finalize();
    return 0 == fails ? 0 : 1;
}
