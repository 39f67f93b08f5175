/* Unit tests: the /proc sampler of ompi.pmix.proc_resource_usage
 * (ompi/runtime/ompi_evt_procstat.h): the stat, status and Pss parsers on
 * real-looking and hostile input, the reader on a fake /proc tree (smaps
 * summed across read chunks where smaps_rollup is missing) and on this
 * process, and the payload arithmetic (CPU time, percent CPU, sizes). */
#include "opal_config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ompi/runtime/ompi_evt_procstat.h"
#include "opal/constants.h"

/* Build a stat line "pid (comm) f3 f4 ... f52": every field "0" but the
 * ones given as {field, text} pairs (field numbers of proc(5)). */
typedef struct {
    int field;
    const char *text;
} field_t;

static const char *make_stat(char *buf, size_t size, const char *pid_comm, const field_t *set,
                             size_t nset)
{
    size_t len = (size_t) snprintf(buf, size, "%s", pid_comm);

    for (int f = 3; f <= 52; ++f) {
        const char *t = 3 == f ? "S" : "0";

        for (size_t i = 0; i < nset; ++i) {
            if (set[i].field == f) {
                t = set[i].text;
            }
        }
        len += (size_t) snprintf(buf + len, size - len, " %s", t);
    }
    snprintf(buf + len, size - len, "\n");
    return buf;
}

static const field_t typical[] = {
    {3, "S"},          {14, "150"},  {15, "50"},
    {18, "20"},        {20, "7"},    {22, "12345"},
    {23, "104857600"}, {24, "2560"}, {25, "18446744073709551615"},
    {38, "17"},        {39, "3"},
};
#define NTYPICAL (sizeof(typical) / sizeof(typical[0]))

Test(procstat, stat_fields_counted_from_the_last_paren)
{
    char line[1024];
    ompi_evt_procstat_t st;

    /* comm holds spaces and parentheses */
    make_stat(line, sizeof(line), "4242 (a) b (c))", typical, NTYPICAL);
    memset(&st, 0, sizeof(st));
    cr_assert_eq(ompi_evt_procstat_parse_stat(line, strlen(line), &st), OPAL_SUCCESS, "%s", line);
    cr_expect_eq(st.pid, 4242);
    cr_expect_eq(st.state, 'S');
    cr_expect_eq(st.utime_ticks, 150);
    cr_expect_eq(st.stime_ticks, 50);
    cr_expect_eq(st.priority, 20);
    cr_expect_eq(st.num_threads, 7);
    cr_expect_eq(st.start_ticks, 12345);
    cr_expect_eq(st.vsize_bytes, 104857600);
    cr_expect_eq(st.rss_pages, 2560);
    cr_expect_eq(st.cpu, 3);
}

Test(procstat, stat_negative_priority_of_a_realtime_process)
{
    static const field_t rt[] = {{3, "R"}, {18, "-51"}, {20, "1"}, {39, "1"}};
    char line[1024];
    ompi_evt_procstat_t st;

    make_stat(line, sizeof(line), "7 (rt)", rt, 4);
    cr_assert_eq(ompi_evt_procstat_parse_stat(line, strlen(line), &st), OPAL_SUCCESS);
    cr_expect_eq(st.priority, -51);
    cr_expect_eq(st.cpu, 1);
    cr_expect_eq(st.state, 'R');
}

Test(procstat, stat_hostile_input_is_refused)
{
    /* typical, damaged in one field each */
    static const struct {
        int field;
        const char *text;
        const char *why;
    } damage[] = {
        {3, "SS", "state of two characters"},
        {14, "1x", "utime not a number"},
        {14, "-1", "negative utime"},
        {14, "99999999999999999999", "utime over 64 bits"},
        {18, "3000000000", "priority over 32 bits"},
        {20, "0", "no thread"},
        {39, "-2", "negative processor"},
    };
    char line[1024], cut[1024];
    const char *p3;
    ompi_evt_procstat_t st;
    size_t whole;

    for (size_t i = 0; i < sizeof(damage) / sizeof(damage[0]); ++i) {
        field_t set[NTYPICAL + 1];

        memcpy(set, typical, sizeof(typical));
        set[NTYPICAL].field = damage[i].field;
        set[NTYPICAL].text = damage[i].text;
        /* later entries win in make_stat */
        make_stat(line, sizeof(line), "42 (a)", set, NTYPICAL + 1);
        cr_expect_eq(ompi_evt_procstat_parse_stat(line, strlen(line), &st), OPAL_ERR_BAD_PARAM,
                     "%s accepted: %s", damage[i].why, line);
    }
    /* no parentheses, pid not a number, nothing */
    make_stat(line, sizeof(line), "42 a", typical, NTYPICAL);
    cr_expect_eq(ompi_evt_procstat_parse_stat(line, strlen(line), &st), OPAL_ERR_BAD_PARAM);
    make_stat(line, sizeof(line), "x42 (a)", typical, NTYPICAL);
    cr_expect_eq(ompi_evt_procstat_parse_stat(line, strlen(line), &st), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(ompi_evt_procstat_parse_stat("", 0, &st), OPAL_ERR_BAD_PARAM);
    /* the line cut anywhere before the processor field (39) is complete */
    make_stat(line, sizeof(line), "4242 (a) b (c))", typical, NTYPICAL);
    p3 = strstr(line, " 17 3 ");
    cr_assert_not_null(p3);
    whole = (size_t) (p3 - line) + 4; /* up to, not including, the "3" */
    for (size_t n = 0; n <= whole; ++n) {
        memcpy(cut, line, n);
        cr_expect_eq(ompi_evt_procstat_parse_stat(cut, n, &st), OPAL_ERR_BAD_PARAM,
                     "prefix of %zu bytes accepted", n);
    }
    cr_expect_eq(ompi_evt_procstat_parse_stat(NULL, 0, &st), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(ompi_evt_procstat_parse_stat(line, strlen(line), NULL), OPAL_ERR_BAD_PARAM);
}

Test(procstat, status_sizes)
{
    const char *status = "Name:\tapp\nVmPeak:\t  380740 kB\nVmSize:\t  316700 kB\n"
                         "VmRSS:\t   80192 kB\nThreads:\t4\n";
    const char *bad = "VmPeak:\t abc kB\nVmRSS:\t 123 MB\n";
    ompi_evt_procstat_t st;

    cr_assert_eq(ompi_evt_procstat_parse_status(status, strlen(status), &st), OPAL_SUCCESS);
    cr_expect_eq(st.peak_vsize_kb, 380740);
    cr_expect_eq(st.rss_kb, 80192);
    /* malformed or absent fields stay unknown */
    cr_assert_eq(ompi_evt_procstat_parse_status(bad, strlen(bad), &st), OPAL_SUCCESS);
    cr_expect_eq(st.peak_vsize_kb, -1);
    cr_expect_eq(st.rss_kb, -1);
    cr_assert_eq(ompi_evt_procstat_parse_status("", 0, &st), OPAL_SUCCESS);
    cr_expect_eq(st.rss_kb, -1);
    /* a field cut by the end of the buffer is not read as a shorter number */
    cr_assert_eq(ompi_evt_procstat_parse_status(status, strstr(status, "80192") - status + 3, &st),
                 OPAL_SUCCESS);
    cr_expect_eq(st.rss_kb, -1, "a cut VmRSS line was read as %lld", (long long) st.rss_kb);
}

Test(procstat, pss_lines_only)
{
    const char *rollup = "55d0c0a00000-7ffd4b1e5000 ---p 00000000 00:00 0  [rollup]\n"
                         "Rss:               80400 kB\nPss:               71234 kB\n"
                         "Pss_Anon:          65000 kB\nPss_File:           6234 kB\n";
    const char *smaps = "Size: 4 kB\nPss:  10 kB\nSwapPss: 0 kB\nSize: 8 kB\nPss: 20 kB\n";
    int64_t pss = 0;

    cr_expect_eq(ompi_evt_procstat_parse_pss(rollup, strlen(rollup), &pss), 1);
    cr_expect_eq(pss, 71234);
    pss = 0;
    cr_expect_eq(ompi_evt_procstat_parse_pss(smaps, strlen(smaps), &pss), 2);
    cr_expect_eq(pss, 30);
    pss = 0;
    cr_expect_eq(ompi_evt_procstat_parse_pss("Rss: 4 kB\n", 10, &pss), 0);
    cr_expect_eq(ompi_evt_procstat_parse_pss("Pss: x kB\n", 10, &pss), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(ompi_evt_procstat_parse_pss(NULL, 0, &pss), OPAL_ERR_BAD_PARAM);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    cr_assert_not_null(f, "create %s", path);
    fputs(text, f);
    fclose(f);
}

/* A fake /proc/<pid> without smaps_rollup (a kernel before 4.14): Pss is
 * summed over an smaps of several read chunks. */
Test(procstat, read_fake_tree_sums_smaps)
{
    char root[] = "/tmp/test_procstat.XXXXXX", dir[256], line[1024];
    ompi_evt_procstat_t st;
    FILE *f;
    char path[512];
    int64_t expect = 0;

    cr_assert_not_null(mkdtemp(root));
    snprintf(dir, sizeof(dir), "%s/4242", root);
    cr_assert_eq(mkdir(dir, 0700), 0);
    write_file(dir, "stat", make_stat(line, sizeof(line), "4242 (a) b (c))", typical, NTYPICAL));
    write_file(dir, "status", "VmPeak:\t 2048 kB\nVmRSS:\t 1024 kB\n");
    snprintf(path, sizeof(path), "%s/smaps", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int m = 0; m < 2000; ++m) { /* ~190 KB: many chunks of 8 KiB */
        fprintf(f, "%08x-%08x r-xp 00000000 08:01 1234   /usr/lib/libfoo.so\n", m * 4096,
                m * 4096 + 4096);
        fprintf(f, "Size: 4 kB\nRss: 4 kB\nPss: %d kB\nPss_Dirty: 1 kB\n", m % 7);
        expect += m % 7;
    }
    fclose(f);

    cr_assert_eq(ompi_evt_procstat_read(root, 4242, &st), OPAL_SUCCESS);
    cr_expect_eq(st.pid, 4242);
    cr_expect_eq(st.num_threads, 7);
    cr_expect_eq(st.rss_kb, 1024);
    cr_expect_eq(st.peak_vsize_kb, 2048);
    cr_expect_eq(st.pss_kb, expect, "Pss %lld, expected %lld", (long long) st.pss_kb,
                 (long long) expect);
    cr_expect_gt(st.boottime_ns, 0);
    cr_expect_gt(st.realtime_s, 0);

    /* with smaps_rollup, it wins */
    write_file(dir, "smaps_rollup", "Rss: 1024 kB\nPss: 999 kB\n");
    cr_assert_eq(ompi_evt_procstat_read(root, 4242, &st), OPAL_SUCCESS);
    cr_expect_eq(st.pss_kb, 999);
    /* a damaged stat is an error, not a sample */
    write_file(dir, "stat", "4242 (a) S 1 2 3\n");
    cr_expect_eq(ompi_evt_procstat_read(root, 4242, &st), OPAL_ERR_BAD_PARAM);
    /* no such process */
    cr_expect_eq(ompi_evt_procstat_read(root, 4343, &st), OPAL_ERR_NOT_FOUND);

    snprintf(path, sizeof(path), "rm -rf '%s'", root);
    cr_expect_eq(system(path), 0);
}

Test(procstat, read_self)
{
    ompi_evt_procstat_t st;

    cr_assert_eq(ompi_evt_procstat_read(NULL, 0, &st), OPAL_SUCCESS);
    cr_expect_eq(st.pid, (int32_t) getpid());
    cr_expect_geq(st.num_threads, 1);
    cr_expect_gt(st.rss_kb, 0);
    cr_expect_geq(st.peak_vsize_kb * 1024, (int64_t) st.vsize_bytes);
    cr_expect_gt(st.pss_kb, 0);
    cr_expect(NULL != strchr("RSD", st.state), "state %c", st.state);
}

Test(procstat, payload_arithmetic)
{
    ompi_evt_procstat_t a, b;
    ompi_evt_pmix_resource_usage_payload_t p;

    memset(&a, 0, sizeof(a));
    a.pid = 9;
    a.state = 'R';
    a.priority = 20;
    a.num_threads = 3;
    a.cpu = 1;
    a.utime_ticks = 300; /* 5 s of CPU at 100 ticks/s */
    a.stime_ticks = 200;
    a.start_ticks = 100;               /* started 1 s after boot */
    a.boottime_ns = 11LL * 1000000000; /* now: 11 s after boot */
    a.vsize_bytes = 256ULL << 20;
    a.rss_pages = 100;
    a.rss_kb = -1; /* no status: RSS from stat's pages */
    a.peak_vsize_kb = 300 * 1024;
    a.pss_kb = -1;
    a.realtime_s = 1700000000;

    cr_assert_eq(ompi_evt_procstat_to_payload(&a, NULL, 100, 4096, &p), OPAL_SUCCESS);
    cr_expect_eq(p.pid, 9);
    cr_expect_eq(p.state, 'R');
    cr_expect_eq(p.cpu_time_usec, 5000000);
    cr_expect_float_eq(p.percent_cpu, 50.0, 1e-9, "5 s CPU in 10 s since start: %f", p.percent_cpu);
    cr_expect_float_eq(p.vsize_mb, 256.0, 1e-9);
    cr_expect_float_eq(p.rss_mb, 100 * 4096 / 1048576.0, 1e-9);
    cr_expect_float_eq(p.peak_vsize_mb, 300.0, 1e-9);
    cr_expect_float_eq(p.pss_mb, -1.0, 1e-9, "unknown PSS stays -1");
    cr_expect_eq(p.sample_time, 1700000000);

    b = a;
    b.utime_ticks += 150; /* 1.5 s more CPU in 2 s */
    b.boottime_ns += 2LL * 1000000000;
    b.rss_kb = 2048;
    b.pss_kb = 1536;
    cr_assert_eq(ompi_evt_procstat_to_payload(&b, &a, 100, 4096, &p), OPAL_SUCCESS);
    cr_expect_float_eq(p.percent_cpu, 75.0, 1e-9, "1.5 s in 2 s: %f", p.percent_cpu);
    cr_expect_eq(p.cpu_time_usec, 6500000);
    cr_expect_float_eq(p.rss_mb, 2.0, 1e-9, "VmRSS wins over stat's pages");
    cr_expect_float_eq(p.pss_mb, 1.5, 1e-9);
    /* odd tick rates keep microseconds exact */
    b.utime_ticks = 1;
    b.stime_ticks = 0;
    cr_assert_eq(ompi_evt_procstat_to_payload(&b, NULL, 3, 4096, &p), OPAL_SUCCESS);
    cr_expect_eq(p.cpu_time_usec, 333333);

    cr_expect_eq(ompi_evt_procstat_to_payload(&a, NULL, 0, 4096, &p), OPAL_ERR_BAD_PARAM);
    cr_expect_eq(ompi_evt_procstat_to_payload(NULL, NULL, 100, 4096, &p), OPAL_ERR_BAD_PARAM);
}
