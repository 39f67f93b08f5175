#!/bin/sh
# communicator_created / _freed for every constructor, name_set binding.
. "$(dirname "$0")/evt_mpi_run.sh"
for np in 2 4; do
    run_np $np test_comm_events
    run_np $np test_comm_name_set
done
# a NONE-level callback that calls MPI: never inside an
# MPI call's progress, under sync and ring
for evt in sync ring; do
    run_np 2 test_callback_calls_mpi --mca evt $evt
done
exit $status
