/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * --events PATTERNS: comma-separated name patterns, '*' matching any run of
 * characters, '^' in front of a pattern excluding what it matches. An event
 * is selected when it matches an include pattern (or there is none) and no
 * exclude pattern. The same rule as evt_pmix_events.
 */

#include <stdlib.h>
#include <string.h>

#include "evt_listen.h"

/* '*' globbing, iterative with one backtrack point (linear enough). */
bool listen_glob(const char *pat, const char *s)
{
    const char *star = NULL, *resume = NULL;

    while ('\0' != *s) {
        if ('*' == *pat) {
            star = pat++;
            resume = s;
        } else if (*pat == *s) {
            ++pat;
            ++s;
        } else if (NULL != star) {
            pat = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while ('*' == *pat) {
        ++pat;
    }
    return '\0' == *pat;
}

static int push(char ***arr, size_t *n, const char *s, size_t len)
{
    char **a = realloc(*arr, (*n + 1) * sizeof(**arr));
    if (NULL == a) {
        return -1;
    }
    *arr = a;
    a[*n] = strndup(s, len);
    if (NULL == a[*n]) {
        return -1;
    }
    (*n)++;
    return 0;
}

int listen_filter_parse(listen_filter_t *f, const char *spec, char *err, size_t errlen)
{
    const char *p = spec;

    memset(f, 0, sizeof(*f));
    if (NULL == spec || '\0' == spec[0]) {
        return 0;
    }
    while (true) {
        const char *e = strchr(p, ',');
        size_t len = NULL == e ? strlen(p) : (size_t) (e - p);
        bool excl = 0 < len && '^' == p[0];
        const char *q = excl ? p + 1 : p;
        size_t ql = excl ? len - 1 : len;

        if (0 == ql) {
            snprintf(err, errlen, "--events: empty pattern in \"%s\"", spec);
            listen_filter_free(f);
            return -1;
        }
        for (size_t i = 0; i < ql; ++i) {
            if (q[i] <= ' ' || q[i] > '~' || '^' == q[i]) {
                snprintf(err, errlen, "--events: bad character in pattern \"%.*s\"", (int) len,
                         p);
                listen_filter_free(f);
                return -1;
            }
        }
        if (0 != (excl ? push(&f->exclude, &f->n_exclude, q, ql)
                       : push(&f->include, &f->n_include, q, ql))) {
            snprintf(err, errlen, "out of memory");
            listen_filter_free(f);
            return -1;
        }
        if (NULL == e) {
            break;
        }
        p = e + 1;
    }
    return 0;
}

bool listen_filter_match(const listen_filter_t *f, const char *name)
{
    bool in = 0 == f->n_include;

    for (size_t i = 0; i < f->n_include && !in; ++i) {
        in = listen_glob(f->include[i], name);
    }
    for (size_t i = 0; i < f->n_exclude && in; ++i) {
        in = !listen_glob(f->exclude[i], name);
    }
    return in;
}

void listen_filter_free(listen_filter_t *f)
{
    for (size_t i = 0; i < f->n_include; ++i) {
        free(f->include[i]);
    }
    for (size_t i = 0; i < f->n_exclude; ++i) {
        free(f->exclude[i]);
    }
    free(f->include);
    free(f->exclude);
    memset(f, 0, sizeof(*f));
}
