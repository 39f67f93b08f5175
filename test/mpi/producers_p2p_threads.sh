#!/bin/sh
# Point-to-point completions from six threads at once on each of two ranks
# (MPI_THREAD_MULTIPLE): every message raised once, with its tag and bytes,
# nothing dropped, the request table empty at the end; through evt/ring
# (callbacks served by whichever thread drains) and evt/sync (inline).
# Unbound (--bind-to none): a rank's threads must run at the same time on
# different cores for the table's updates to race at all (with them made
# plain loads and stores, the counts fail in 3 runs of 3 so, none bound).
# evt/ring with 4 MiB rings: a thread's whole run (25,600 records of 88
# bytes) fits in its ring, so the counts are exact however late the drains
# come on a loaded machine (the default 64 KiB ring drops new records when
# a drain is late: counted, and not what this test is about).
. "$(dirname "$0")/evt_mpi_run.sh"
run_np 2 test_p2p_threads --bind-to none --mca pml ob1 --mca evt ring \
    --mca evt_ring_ring_size 4194304 -- 400
run_np 2 test_p2p_threads --bind-to none --mca pml ob1 --mca evt sync -- 400
exit $status
