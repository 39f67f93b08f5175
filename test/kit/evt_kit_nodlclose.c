/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Sanitizer runs of the test kit: the same preload as test/mpi's (see
 * there why). */
#include "../mpi/evt_nodlclose.c"
