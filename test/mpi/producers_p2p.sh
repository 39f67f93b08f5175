#!/bin/sh
# p2p_send_complete / p2p_recv_complete over ob1 and UCX
# (/etc/openmpi/openmpi-mca-params.conf excludes ucx by default).
. "$(dirname "$0")/evt_mpi_run.sh"
for np in 2 4; do
    run_np $np test_p2p_events --mca pml ob1
    run_np $np test_p2p_events --mca pml ucx
done
exit $status
