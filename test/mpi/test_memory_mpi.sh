#!/bin/sh
# The memory-release producer in MPI singletons: default delivery, without
# memory/patcher, and with evt/ring (the per-release event, test_memory_ring).
set -e
./test_memory_mpi sync
OMPI_MCA_memory=^patcher ./test_memory_mpi absent
if ! test -e "$EVT_TOP_BUILDDIR/components/mca_evt_ring.so"; then
    echo "test_memory_mpi: mca_evt_ring.so is not built in $EVT_TOP_BUILDDIR/components" >&2
    exit 1
fi
OMPI_MCA_evt=ring ./test_memory_mpi ring
OMPI_MCA_evt=ring ./test_memory_ring
