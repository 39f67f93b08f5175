#!/bin/sh
# The message-rate loop (windows of 64 eager Isend/Irecv completed
# by Waitall) with a listener on both p2p events drops nothing at default
# settings: evt/ring with its default ring and pool sizes and overflow
# policy, callbacks at MPI_T_CB_REQUIRE_NONE (served at the end of wrapped
# MPI calls) and at MPI_RESTRICTED (served inside opal_progress too); evt/sync
# for reference. Over ob1 (shared memory) and, larger windows, 1024
# completions per Waitall.
. "$(dirname "$0")/evt_mpi_run.sh"
for level in none restricted; do
    run_np 2 test_p2p_msgrate --mca pml ob1 --mca evt ring -- $level 2000 64
    run_np 2 test_p2p_msgrate --mca pml ob1 --mca evt ring -- $level 100 1024
done
run_np 2 test_p2p_msgrate --mca pml ob1 --mca evt sync -- none 2000 64
exit $status
