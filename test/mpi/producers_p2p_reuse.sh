#!/bin/sh
# Every message yields its completion event or a counted drop,
# although ob1 and pml/ucx hand back one shared completed request for
# small sends (test_p2p_reuse.c). Over ob1 and UCX, delivered by evt/sync
# and by evt/ring with 2 MiB rings (exact counts: the 9000-request
# overflow bursts raise ~9000 records inside one Waitall); one run with
# the default ring ("lossy": the ring drops as well, delivered + dropped
# == messages still holds).
. "$(dirname "$0")/evt_mpi_run.sh"
ring="--mca evt ring --mca evt_ring_ring_size 2097152"
ucx="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
run_np 2 test_p2p_reuse --mca pml ob1 --mca evt sync
run_np 2 test_p2p_reuse --mca pml ob1 $ring
run_np 2 test_p2p_reuse $ucx --mca evt sync
run_np 2 test_p2p_reuse $ucx $ring
run_np 2 test_p2p_reuse --mca pml ob1 --mca evt ring -- lossy
exit $status
