/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The /proc sampler's parsers and reader (ompi_evt_procstat.h).
 */

#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ompi/runtime/ompi_evt_procstat.h"
#include "opal/constants.h"

/** Largest /proc file read whole (stat, status, smaps_rollup are < 2 KiB;
 *  smaps is read in chunks of this size). */
#define PROCSTAT_BUF 8192

/* Parse the decimal integer [s, s + n) (an optional '-', then digits, nothing
 * else) into *v. Context: ANY. */
static bool parse_i64(const char *s, size_t n, int64_t *v)
{
    bool neg = false;
    uint64_t acc = 0;
    size_t i = 0;

    if (0 < n && '-' == s[0]) {
        neg = true;
        i = 1;
    }
    if (i == n) {
        return false;
    }
    for (; i < n; ++i) {
        unsigned d;

        if ('0' > s[i] || '9' < s[i]) {
            return false;
        }
        d = (unsigned) (s[i] - '0');
        if (acc > (UINT64_MAX - d) / 10) {
            return false;
        }
        acc = acc * 10 + d;
    }
    if (neg) {
        if (acc > (uint64_t) INT64_MAX + 1) {
            return false;
        }
        *v = (int64_t) (0 - acc);
    } else {
        if (acc > (uint64_t) INT64_MAX) {
            return false;
        }
        *v = (int64_t) acc;
    }
    return true;
}

/* The next space-separated token of [*p, end): its start and length, *p
 * moved past it. Context: ANY. */
static bool next_token(const char **p, const char *end, const char **tok, size_t *len)
{
    const char *s = *p;

    while (s < end && (' ' == *s || '\n' == *s)) {
        ++s;
    }
    if (s == end) {
        return false;
    }
    *tok = s;
    while (s < end && ' ' != *s && '\n' != *s) {
        ++s;
    }
    *len = (size_t) (s - *tok);
    *p = s;
    return true;
}

/* Context: ANY. */
int ompi_evt_procstat_parse_stat(const char *buf, size_t len, ompi_evt_procstat_t *st)
{
    /* stat fields (1-based, proc(5)) we take, after "pid (comm)" */
    enum {
        F_STATE = 3,
        F_UTIME = 14,
        F_STIME = 15,
        F_PRIORITY = 18,
        F_THREADS = 20,
        F_START = 22,
        F_VSIZE = 23,
        F_RSS = 24,
        F_CPU = 39,
    };
    const char *end, *p, *rparen = NULL, *tok;
    int64_t pid, v;
    size_t n;
    int field;

    if (NULL == buf || NULL == st) {
        return OPAL_ERR_BAD_PARAM;
    }
    end = buf + len;
    /* comm is "(...)" and may contain ')' itself: the last ')' closes it */
    for (p = buf; p < end; ++p) {
        if (')' == *p) {
            rparen = p;
        }
    }
    p = buf;
    if (NULL == rparen || !next_token(&p, rparen, &tok, &n) || !parse_i64(tok, n, &pid) || 0 >= pid
        || INT32_MAX < pid || p >= rparen || ' ' != *p || '(' != p[1]) {
        return OPAL_ERR_BAD_PARAM;
    }
    st->pid = (int32_t) pid;
    p = rparen + 1;
    for (field = F_STATE; field <= F_CPU; ++field) {
        if (!next_token(&p, end, &tok, &n)) {
            return OPAL_ERR_BAD_PARAM; /* truncated */
        }
        if (F_STATE == field) {
            if (1 != n) {
                return OPAL_ERR_BAD_PARAM;
            }
            st->state = tok[0];
            continue;
        }
        if (F_UTIME != field && F_STIME != field && F_PRIORITY != field && F_THREADS != field
            && F_START != field && F_VSIZE != field && F_RSS != field && F_CPU != field) {
            continue;
        }
        if (!parse_i64(tok, n, &v)) {
            return OPAL_ERR_BAD_PARAM;
        }
        switch (field) {
        case F_UTIME:
        case F_STIME:
        case F_START:
        case F_VSIZE:
            if (0 > v) {
                return OPAL_ERR_BAD_PARAM;
            }
            if (F_UTIME == field) {
                st->utime_ticks = (uint64_t) v;
            } else if (F_STIME == field) {
                st->stime_ticks = (uint64_t) v;
            } else if (F_START == field) {
                st->start_ticks = (uint64_t) v;
            } else {
                st->vsize_bytes = (uint64_t) v;
            }
            break;
        case F_PRIORITY:
            if (INT32_MIN > v || INT32_MAX < v) {
                return OPAL_ERR_BAD_PARAM;
            }
            st->priority = (int32_t) v;
            break;
        case F_THREADS:
            if (0 >= v || UINT32_MAX < v) {
                return OPAL_ERR_BAD_PARAM; /* a live process has a thread */
            }
            st->num_threads = (uint32_t) v;
            break;
        case F_RSS:
            st->rss_pages = v;
            break;
        default: /* F_CPU */
            if (0 > v || INT32_MAX < v) {
                return OPAL_ERR_BAD_PARAM;
            }
            st->cpu = (int32_t) v;
            break;
        }
    }
    return OPAL_SUCCESS;
}

/* If the line [line, eol) is "<name>:<spaces><number> kB", store the number
 * in *kb. Context: ANY. */
static bool parse_kb_line(const char *line, const char *eol, const char *name, int64_t *kb)
{
    size_t nl = strlen(name);
    const char *p = line + nl, *tok;
    size_t n;
    int64_t v;

    if ((size_t) (eol - line) <= nl || 0 != memcmp(line, name, nl) || ':' != line[nl]) {
        return false;
    }
    ++p;
    while (p < eol && ('\t' == *p || ' ' == *p)) {
        ++p;
    }
    tok = p;
    while (p < eol && '0' <= *p && '9' >= *p) {
        ++p;
    }
    n = (size_t) (p - tok);
    if (0 == n || !parse_i64(tok, n, &v) || eol - p != 3 || 0 != memcmp(p, " kB", 3)) {
        return false;
    }
    *kb = v;
    return true;
}

/* Context: ANY. */
int ompi_evt_procstat_parse_status(const char *buf, size_t len, ompi_evt_procstat_t *st)
{
    const char *p, *end, *eol;

    if (NULL == buf || NULL == st) {
        return OPAL_ERR_BAD_PARAM;
    }
    st->rss_kb = -1;
    st->peak_vsize_kb = -1;
    for (p = buf, end = buf + len; p < end; p = eol + 1) {
        eol = memchr(p, '\n', (size_t) (end - p));
        if (NULL == eol) {
            eol = end;
        }
        if (!parse_kb_line(p, eol, "VmRSS", &st->rss_kb)) {
            (void) parse_kb_line(p, eol, "VmPeak", &st->peak_vsize_kb);
        }
    }
    return OPAL_SUCCESS;
}

/* Context: ANY. */
int ompi_evt_procstat_parse_pss(const char *buf, size_t len, int64_t *pss_kb)
{
    const char *p, *end, *eol;
    int found = 0;
    int64_t kb;

    if (NULL == buf || NULL == pss_kb) {
        return OPAL_ERR_BAD_PARAM;
    }
    for (p = buf, end = buf + len; p < end; p = eol + 1) {
        eol = memchr(p, '\n', (size_t) (end - p));
        if (NULL == eol) {
            eol = end;
        }
        if ((size_t) (eol - p) < 4 || 0 != memcmp(p, "Pss:", 4)) {
            continue; /* also "Pss_Anon:", "Pss_File:", ... */
        }
        if (!parse_kb_line(p, eol, "Pss", &kb) || INT64_MAX - kb < *pss_kb) {
            return OPAL_ERR_BAD_PARAM;
        }
        *pss_kb += kb;
        ++found;
    }
    return found;
}

/* Read the whole (small) file @p path into @p buf. @return bytes read, or
 * -1 (errno set). Context: ANY. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
    size_t have = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (0 > fd) {
        return -1;
    }
    while (have < size) {
        ssize_t n = read(fd, buf + have, size - have);

        if (0 > n && EINTR == errno) {
            continue;
        }
        if (0 > n) {
            int e = errno;

            (void) close(fd);
            errno = e;
            return -1;
        }
        if (0 == n) {
            break;
        }
        have += (size_t) n;
    }
    (void) close(fd);
    return (ssize_t) have;
}

/* Pss of a process whose kernel has no smaps_rollup (before Linux 4.14):
 * the sum over smaps, read in chunks cut at line ends. Context: ANY. */
static int64_t sum_smaps(const char *path, char *buf, size_t size)
{
    int64_t pss = 0;
    size_t keep = 0;
    int found = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (0 > fd) {
        return -1;
    }
    for (;;) {
        ssize_t n = read(fd, buf + keep, size - keep);
        const char *last;
        size_t have, whole;
        int rc;

        if (0 > n && EINTR == errno) {
            continue;
        }
        if (0 > n) {
            found = -1;
            break;
        }
        have = keep + (size_t) n;
        if (0 == n) {
            whole = have; /* the tail without a newline */
        } else {
            for (last = buf + have; last > buf && '\n' != last[-1]; --last) {
            }
            whole = (size_t) (last - buf); /* 0: no whole line yet */
        }
        rc = ompi_evt_procstat_parse_pss(buf, whole, &pss);
        if (0 > rc) {
            found = -1;
            break;
        }
        found += rc;
        if (0 == n) {
            break;
        }
        keep = have - whole;
        memmove(buf, buf + whole, keep);
        if (keep == size) {
            found = -1; /* a line longer than the buffer: not smaps */
            break;
        }
    }
    (void) close(fd);
    return 0 < found ? pss : -1;
}

/* Context: ANY. */
int ompi_evt_procstat_read(const char *procdir, pid_t pid, ompi_evt_procstat_t *st)
{
    char path[PATH_MAX], dir[PATH_MAX - 16]; /* room for "/smaps_rollup" */
    char buf[PROCSTAT_BUF];
    struct timespec ts;
    ssize_t n;
    int rc;

    if (NULL == st) {
        return OPAL_ERR_BAD_PARAM;
    }
    memset(st, 0, sizeof(*st));
    st->rss_kb = st->peak_vsize_kb = st->pss_kb = -1;
    if (0 == pid) {
        rc = snprintf(dir, sizeof(dir), "%s/self", NULL == procdir ? "/proc" : procdir);
    } else {
        rc = snprintf(dir, sizeof(dir), "%s/%ld", NULL == procdir ? "/proc" : procdir, (long) pid);
    }
    if (0 > rc || sizeof(dir) <= (size_t) rc) {
        return OPAL_ERR_BAD_PARAM;
    }

    (void) clock_gettime(CLOCK_BOOTTIME, &ts);
    st->boottime_ns = (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
    st->realtime_s = (int64_t) time(NULL);

    (void) snprintf(path, sizeof(path), "%s/stat", dir);
    n = read_small(path, buf, sizeof(buf));
    if (0 > n) {
        return OPAL_ERR_NOT_FOUND;
    }
    rc = ompi_evt_procstat_parse_stat(buf, (size_t) n, st);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    (void) snprintf(path, sizeof(path), "%s/status", dir);
    n = read_small(path, buf, sizeof(buf));
    if (0 <= n) {
        (void) ompi_evt_procstat_parse_status(buf, (size_t) n, st);
    }
    (void) snprintf(path, sizeof(path), "%s/smaps_rollup", dir);
    n = read_small(path, buf, sizeof(buf));
    if (0 <= n) {
        int64_t pss = 0;

        if (0 < ompi_evt_procstat_parse_pss(buf, (size_t) n, &pss)) {
            st->pss_kb = pss;
        }
    } else {
        (void) snprintf(path, sizeof(path), "%s/smaps", dir);
        st->pss_kb = sum_smaps(path, buf, sizeof(buf));
    }
    return OPAL_SUCCESS;
}

/* kB to MiB, -1 kept for "unknown". */
static double kb_to_mb(int64_t kb)
{
    return 0 > kb ? -1.0 : (double) kb / 1024.0;
}

/* Context: ANY. */
int ompi_evt_procstat_to_payload(const ompi_evt_procstat_t *cur, const ompi_evt_procstat_t *prev,
                                 long clk_tck, long page_size,
                                 ompi_evt_pmix_resource_usage_payload_t *p)
{
    uint64_t ticks;
    double cpu_s, wall_s;

    if (NULL == cur || NULL == p || 0 >= clk_tck || 0 >= page_size) {
        return OPAL_ERR_BAD_PARAM;
    }
    ticks = cur->utime_ticks + cur->stime_ticks;
    p->pid = cur->pid;
    p->state = (int32_t) (unsigned char) cur->state;
    p->priority = cur->priority;
    p->num_threads = cur->num_threads;
    p->cpu = cur->cpu;
    p->cpu_time_usec = ticks / (uint64_t) clk_tck * 1000000
                       + ticks % (uint64_t) clk_tck * 1000000 / (uint64_t) clk_tck;
    if (NULL != prev && prev->pid == cur->pid) {
        uint64_t pticks = prev->utime_ticks + prev->stime_ticks;

        cpu_s = (double) (ticks >= pticks ? ticks - pticks : 0) / (double) clk_tck;
        wall_s = (double) (cur->boottime_ns - prev->boottime_ns) / 1e9;
    } else {
        cpu_s = (double) ticks / (double) clk_tck;
        wall_s = (double) cur->boottime_ns / 1e9 - (double) cur->start_ticks / (double) clk_tck;
    }
    p->percent_cpu = 0.0 < wall_s ? 100.0 * cpu_s / wall_s : 0.0;
    p->pss_mb = kb_to_mb(cur->pss_kb);
    p->vsize_mb = (double) cur->vsize_bytes / (1024.0 * 1024.0);
    if (0 <= cur->rss_kb) {
        p->rss_mb = kb_to_mb(cur->rss_kb);
    } else {
        p->rss_mb = 0 > cur->rss_pages
                        ? -1.0
                        : (double) cur->rss_pages * (double) page_size / (1024.0 * 1024.0);
    }
    p->peak_vsize_mb = kb_to_mb(cur->peak_vsize_kb);
    p->sample_time = cur->realtime_s;
    return OPAL_SUCCESS;
}
