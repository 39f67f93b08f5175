/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Messages a process writes itself (evt_base_report.h says why).
 */

#include "ompi_config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "ompi/mca/evt/base/evt_base_report.h"
#include "opal/util/output.h"

/* The latest message, room for a path and its sentence. The base's help
 * message and ompi-evt-info (inline_reason) quote it after the report
 * returns: kept here, not on a stack. */
static char evt_base_report_text[PATH_MAX + 1024];
static bool evt_base_report_set;

/* Context: INIT. */
void ompi_evt_base_report(const char *component, const char *format, ...)
{
    va_list ap;

    va_start(ap, format);
    (void) vsnprintf(evt_base_report_text, sizeof(evt_base_report_text), format, ap);
    va_end(ap);
    evt_base_report_set = true;
    /* stream 0 is stderr, prefixed with [host:pid] */
    opal_output(0, "evt:%s: %s", component, evt_base_report_text);
}

/* Context: INIT. */
const char *ompi_evt_base_report_reason(void)
{
    return evt_base_report_set ? evt_base_report_text : NULL;
}

/* Context: INIT. */
void ompi_evt_base_report_clear(void)
{
    evt_base_report_set = false;
    evt_base_report_text[0] = '\0';
}
