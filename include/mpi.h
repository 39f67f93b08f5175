/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The mpi.h shim, installed as include/ompi-evt/mpi.h. `pkg-config --cflags
 * ompi-evt` puts its folder before Open MPI's, so `#include <mpi.h>` in an
 * unmodified MPI-4 tool reaches this file: it includes Open MPI 4.1's own
 * mpi.h (the next one on the include path), then declares the MPI-4.1 event
 * API that 4.1 lacks (mpi_t_events.h, installed beside this file; in the
 * build tree it is found in ompi/mpi/tool/ through config/Makefile.common).
 */

#ifndef OMPI_EVT_MPI_H_SHIM
#define OMPI_EVT_MPI_H_SHIM

#include_next <mpi.h>

#include "mpi_t_events.h"

#endif /* OMPI_EVT_MPI_H_SHIM */
