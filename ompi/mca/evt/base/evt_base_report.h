/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Errors that decide whether anything is recorded, said by the process
 * itself on its stderr, with the cause in the message (a recorder that
 * records nothing, an exporter that sends nothing).
 *
 * opal_show_help is not enough for them: Open MPI 4.1.4's mpirun now and
 * then fails to unpack help messages forwarded from ranks during MPI_Init
 * ("ORTE_ERROR_LOG: Data unpack would read past end of buffer" in
 * orte/util/show_help.c) and the message is lost while the job exits 0.
 * A rank's own stderr always reaches the user (mpirun forwards it as
 * output). Callers may still add an opal_show_help message with the long
 * explanation; this line is the one that cannot go missing.
 */

#ifndef OMPI_EVT_BASE_REPORT_H
#define OMPI_EVT_BASE_REPORT_H

#include "ompi_config.h"

#include <stdbool.h>

BEGIN_C_DECLS

/** Who says it. */
typedef enum {
    /** every process that calls (the caller already is the only one, e.g.
     *  a node sink) */
    OMPI_EVT_REPORT_THIS_PROCESS = 0,
    /** only the lowest local rank of the node (local rank 0, as Open MPI's
     *  launcher gives it; a process without one counts as local rank 0):
     *  an error every rank meets is said once per node */
    OMPI_EVT_REPORT_ONCE_PER_NODE = 1,
} ompi_evt_report_scope_t;

/**
 * Write one line "ompi-evt: ERROR on HOST (rank R): MESSAGE" to stderr with
 * a single write(2), so lines of several ranks do not interleave.
 * @param[in] scope  who says it (ompi_evt_report_scope_t)
 * @param[in] fmt    printf format of MESSAGE (no trailing newline; cut at
 *                   1 KiB)
 * Context: INIT or ANY (formats on the stack; not async-signal-safe).
 * Locks: none.
 */
OMPI_DECLSPEC void ompi_evt_base_report_error(ompi_evt_report_scope_t scope, const char *fmt, ...)
    __opal_attribute_format__(__printf__, 2, 3);

/** Like ompi_evt_base_report_error(), with "WARNING" for what is still
 *  recorded but incomplete. Context: INIT or ANY. */
OMPI_DECLSPEC void ompi_evt_base_report_warning(ompi_evt_report_scope_t scope, const char *fmt, ...)
    __opal_attribute_format__(__printf__, 2, 3);

/** The MESSAGE of the latest ompi_evt_base_report_error() since the last
 *  ompi_evt_base_report_clear(), or NULL: the base's help message quotes
 *  it when a component fails to start. Valid until the next error or
 *  clear. Context: INIT. */
OMPI_DECLSPEC const char *ompi_evt_base_report_reason(void);

/** Forget the latest reason (a new selection starts). Context: INIT. */
OMPI_DECLSPEC void ompi_evt_base_report_clear(void);

/** Is this process the one that speaks for its node
 *  (OMPI_EVT_REPORT_ONCE_PER_NODE)? Context: ANY. */
OMPI_DECLSPEC bool ompi_evt_base_report_node_leader(void);

END_C_DECLS

#endif /* OMPI_EVT_BASE_REPORT_H */
