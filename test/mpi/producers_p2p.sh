#!/bin/sh
# p2p_send_complete / p2p_recv_complete over ob1 and UCX
# (/etc/openmpi/openmpi-mca-params.conf excludes ucx by default; on a host
# without InfiniBand pml/ucx refuses to start unless told any transport and
# device will do: pml_ucx_tls/pml_ucx_devices any).
. "$(dirname "$0")/evt_mpi_run.sh"
for np in 2 4; do
    run_np $np test_p2p_events --mca pml ob1
    run_np $np test_p2p_events --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any
done
exit $status
