#!/bin/sh
# ompi.mpi.rma_op and rma_sync against the calls test_rma_events makes, with
# evt/sync and evt/ring, -np 2 and 4, and on two nodes of this machine
# (run_two_nodes in evt_mpi_run.sh).
# Across the two nodes the windows use osc/pt2pt: osc/rdma wants a BTL with
# remote memory access, which btl/tcp is not, and pml/ucx finds no
# transport here.
. "$(dirname "$0")/evt_mpi_run.sh"
ring="--mca evt ring --mca evt_ring_ring_size 2097152"
for np in 2 4; do
    run_np $np test_rma_events --mca evt sync
    run_np $np test_rma_events $ring
done
# osc/pt2pt defers the operations to the synchronisation (osc/sm, chosen
# on one node, completes them in the call)
run_np 2 test_rma_events --mca osc pt2pt --mca evt ring
run_two_nodes 4 test_rma_events --mca btl self,tcp --mca osc pt2pt --mca evt sync
exit $status
