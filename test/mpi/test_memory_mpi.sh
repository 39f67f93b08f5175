#!/bin/sh
# The memory-release producer in MPI singletons: default delivery, without
# memory/patcher, and with evt/ring (when the ring component is built).
set -e
./test_memory_mpi sync
OMPI_MCA_memory=^patcher ./test_memory_mpi absent
if test -e "$EVT_TOP_BUILDDIR/components/mca_evt_ring.so"; then
    OMPI_MCA_evt=ring ./test_memory_mpi ring
else
    echo "test_memory_mpi ring: not run (mca_evt_ring.so is not built in this tree)"
fi
