/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Messages a process writes itself when a component the user asked for
 * cannot do its work (a recorder that records nothing, an exporter that
 * sends nothing), with the cause in the message.
 *
 * Why not opal_show_help alone: Open MPI 4.1.4's mpirun now and then loses
 * the help messages its ranks forward during MPI_Init (an ORTE_ERROR_LOG
 * in orte/util/show_help.c, and every message of that job is gone), and a
 * job must never record nothing without a word. A line on the process's
 * own stderr reaches the user through mpirun's I/O forwarding. The base
 * still shows its help message, naming the same cause
 * (ompi_evt_base_report_reason()).
 */

#ifndef OMPI_EVT_BASE_REPORT_H
#define OMPI_EVT_BASE_REPORT_H

#include "ompi_config.h"

#include "opal/util/output.h"

BEGIN_C_DECLS

/**
 * Write "[host:pid] evt:<component>: <message>" on this process's stderr
 * (opal_output stream 0, whatever evt_base_verbose says), and keep the
 * message as this process's latest reason.
 * @param component  the component's name ("file")
 * @param format     printf format of the message: the cause and what it
 *                   means for the user ("...: this process records nothing")
 * Context: INIT (not thread safe, not async-signal safe).
 */
OMPI_DECLSPEC void ompi_evt_base_report(const char *component, const char *format, ...)
    __opal_attribute_format__(__printf__, 2, 3);

/** The message of the latest ompi_evt_base_report() since the last
 *  ompi_evt_base_report_clear(), or NULL. Valid until the next report or
 *  clear. Context: INIT. */
OMPI_DECLSPEC const char *ompi_evt_base_report_reason(void);

/** Forget the latest reason (a new selection starts). Context: INIT. */
OMPI_DECLSPEC void ompi_evt_base_report_clear(void);

END_C_DECLS

#endif /* OMPI_EVT_BASE_REPORT_H */
