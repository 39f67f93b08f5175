#!/bin/sh
# p2p_send_complete / p2p_recv_complete over ob1 and UCX, delivered by
# evt/sync and by evt/ring (/etc/openmpi/openmpi-mca-params.conf excludes
# ucx by default; on a host without InfiniBand pml/ucx refuses to start
# unless told any transport and device will do: pml_ucx_tls/pml_ucx_devices
# any). With evt/ring the tool counts after a flush point
# (MPI_T_source_get_timestamp). Its table-overflow burst raises about 2 x
# 9000 completions inside one Waitall with no progress in between: the
# default 64 KiB ring keeps ~680 records and drops the rest, so the ring
# runs get 2 MiB rings to check exact counts (drops through the ring are
# the ring's own tests' business). One more run keeps the default ring
# ("lossy"): delivered + dropped == posted, the ring's drops reaching the
# dropped handler at the flush point although nothing follows them.
. "$(dirname "$0")/evt_mpi_run.sh"
ring="--mca evt ring --mca evt_ring_ring_size 2097152"
ucx="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any"
for np in 2 4; do
    run_np $np test_p2p_events --mca pml ob1 --mca evt sync
    run_np $np test_p2p_events --mca pml ob1 $ring
    run_np $np test_p2p_events $ucx --mca evt sync
    run_np $np test_p2p_events $ucx $ring
done
run_np 2 test_p2p_events --mca pml ob1 --mca evt ring -- lossy
exit $status
