/*
 * Copyright (c) 2026      The ompi-evt developers.
 * $COPYRIGHT$
 *
 * $HEADER$
 */

/* A plain MPI program, NOT linked with libompi_evt (test_hook_only.sh
 * checks its NEEDED entries): evt is brought up by mca_hook_evt.so alone,
 * which the script sees in the evt_base_verbose output. */

#include <stdio.h>

#include <mpi.h>

int main(int argc, char **argv)
{
    int rank = -1, size = 0, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d: sum %d\n", rank, size, sum);
    MPI_Finalize();
    return sum == size * (size - 1) / 2 ? 0 : 1;
}
