#!/bin/sh
# communicator_created / _freed for every constructor, name_set binding.
. "$(dirname "$0")/evt_mpi_run.sh"
for np in 2 4; do
    run_np $np test_comm_events
    run_np $np test_comm_name_set
done
exit $status
