#!/bin/sh
# win_created / win_freed for every flavor.
. "$(dirname "$0")/evt_mpi_run.sh"
for np in 2 4; do
    run_np $np test_win_events
done
exit $status
