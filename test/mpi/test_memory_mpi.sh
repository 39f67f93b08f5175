#!/bin/sh
# The memory-release producer in MPI singletons: default delivery, without
# memory/patcher, and with evt/ring.
set -e
./test_memory_mpi sync
OMPI_MCA_memory=^patcher ./test_memory_mpi absent
OMPI_MCA_evt=ring ./test_memory_mpi ring
