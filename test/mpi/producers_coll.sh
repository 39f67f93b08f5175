#!/bin/sh
# ompi.mpi.coll_complete against the calls test_coll_events makes, with
# evt/sync and evt/ring, -np 2 and 4, and on two nodes of this machine
# (run_two_nodes in evt_mpi_run.sh).
. "$(dirname "$0")/evt_mpi_run.sh"
ring="--mca evt ring --mca evt_ring_ring_size 2097152"
for np in 2 4; do
    run_np $np test_coll_events --mca evt sync
    run_np $np test_coll_events $ring
done
run_two_nodes 4 test_coll_events --mca btl self,tcp --mca evt sync
exit $status
