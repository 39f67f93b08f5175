/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Errors said by the process itself (evt_base_report.h says why).
 */

#include "ompi_config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/evt/base/evt_base_report.h"

/* The latest error's message, room for a path and its sentence: the
 * base's help message and ompi-evt-info quote it after the report
 * returns, so it is kept here, not on a stack. */
static char evt_base_report_reason_text[PATH_MAX + 1024];
static bool evt_base_report_reason_set;

bool ompi_evt_base_report_node_leader(void)
{
    /* set by Open MPI's launcher in every rank; absent for a singleton or
     * under another launcher, where each process speaks for itself */
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");

    return NULL == local || '\0' == local[0] || 0 == strcmp(local, "0");
}

static void report(ompi_evt_report_scope_t scope, bool error, const char *fmt, va_list ap)
{
    const char *what = error ? "ERROR" : "WARNING";
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    char host[256] = "?", line[1536];
    size_t used;
    int n;

    if (error) {
        va_list copy;

        va_copy(copy, ap);
        (void) vsnprintf(evt_base_report_reason_text, sizeof(evt_base_report_reason_text), fmt,
                         copy);
        va_end(copy);
        evt_base_report_reason_set = true;
    }
    if (OMPI_EVT_REPORT_ONCE_PER_NODE == scope && !ompi_evt_base_report_node_leader()) {
        return;
    }
    if (NULL == rank) {
        rank = getenv("PMIX_RANK");
    }
    (void) gethostname(host, sizeof(host) - 1);
    host[sizeof(host) - 1] = '\0';
    n = snprintf(line, sizeof(line), "ompi-evt: %s on %s (rank %s, pid %d): ", what, host,
                 NULL == rank ? "?" : rank, (int) getpid());
    used = 0 < n && (size_t) n < sizeof(line) ? (size_t) n : 0;
    n = vsnprintf(line + used, sizeof(line) - used - 1, fmt, ap);
    if (0 < n) {
        used += (size_t) n < sizeof(line) - used - 1 ? (size_t) n : sizeof(line) - used - 2;
    }
    line[used++] = '\n';
    /* one write: lines of several ranks sharing the stream stay whole */
    while (0 < used) {
        ssize_t w = write(STDERR_FILENO, line, used);
        if (0 > w && EINTR == errno) {
            continue;
        }
        break;
    }
}

void ompi_evt_base_report_error(ompi_evt_report_scope_t scope, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report(scope, true, fmt, ap);
    va_end(ap);
}

void ompi_evt_base_report_warning(ompi_evt_report_scope_t scope, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    report(scope, false, fmt, ap);
    va_end(ap);
}

const char *ompi_evt_base_report_reason(void)
{
    return evt_base_report_reason_set ? evt_base_report_reason_text : NULL;
}

void ompi_evt_base_report_clear(void)
{
    evt_base_report_reason_set = false;
    evt_base_report_reason_text[0] = '\0';
}
