/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* A user's PMPI tool, preloaded to check that ompi-evt-record composes its
 * preload with the user's: it counts the MPI_Send calls of its process and,
 * when the process exits, writes the count to $RECORD_COUNT_DIR/count.<rank>.
 * Only MPI_Send is wrapped, so that the recorder's own wrappers of the
 * other functions stay in the call path. Processes that are not ranks
 * (mpirun, the recorder, with LD_PRELOAD in their environment) write nothing. */

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long sends;

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    ++sends;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

__attribute__((destructor)) static void write_count(void)
{
    const char *dir = getenv("RECORD_COUNT_DIR");
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (NULL == dir || NULL == rank) {
        return;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/count.%s", dir, rank);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        dprintf(fd, "%ld\n", sends);
        close(fd);
    }
}
