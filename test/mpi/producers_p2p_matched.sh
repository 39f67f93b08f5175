#!/bin/sh
# Receives through matched probes, probe-then-receive, Sendrecv and
# Sendrecv_replace (test_p2p_matched.c) raise p2p_recv_complete /
# p2p_send_complete exactly as the program did them: -np 2 and 4, over ob1
# with evt/sync and over UCX with evt/ring (see producers_p2p.sh for the
# UCX options on a host without InfiniBand).
. "$(dirname "$0")/evt_mpi_run.sh"
ucx="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
for np in 2 4; do
    run_np $np test_p2p_matched --mca pml ob1 --mca evt sync
    run_np $np test_p2p_matched $ucx --mca evt ring
done
exit $status
