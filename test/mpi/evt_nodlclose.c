/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* Sanitizer runs only (test/mpi/Makefile.am, EVT_SANITIZE): preloaded so
 * that dlclose() keeps every library mapped. Open MPI 4.1 unloads its
 * components in MPI_Finalize, and LeakSanitizer, which reports at exit,
 * can then neither symbolize their allocations nor match them against
 * test/lsan.supp ("<unknown module>"): every mpirun test failed on the host's
 * leaks. With the modules kept, the suppressions apply and our own leaks
 * stay visible. Not instrumented itself. */

int dlclose(void *handle);

int dlclose(void *handle)
{
    (void) handle;
    return 0;
}
