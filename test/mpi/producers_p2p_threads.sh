#!/bin/sh
# Point-to-point completions from six threads at once on each of two ranks
# (MPI_THREAD_MULTIPLE): every message raised once, with its tag and bytes,
# nothing dropped, the request table empty at the end; through evt/ring
# (callbacks served by whichever thread drains) and evt/sync (inline).
# Unbound (--bind-to none): a rank's threads must run at the same time on
# different cores for the table's updates to race at all (with them made
# plain loads and stores, the counts fail in 3 runs of 3 so, none bound).
. "$(dirname "$0")/evt_mpi_run.sh"
for c in ring sync; do
    run_np 2 test_p2p_threads --bind-to none --mca pml ob1 --mca evt $c -- 400
done
exit $status
