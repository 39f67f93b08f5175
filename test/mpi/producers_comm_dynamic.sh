#!/bin/sh
# communicator_created / _freed for the dynamic-process constructors, on
# both sides (all of them work under Open MPI 4.1.4's mpirun on this host):
# spawn from -np 1 and -np 2, spawn_multiple, Open_port + accept/connect
# over MPI_COMM_SELF, join over loopback TCP; under evt/sync and evt/ring.
# A spawned child prints its own "test_comm_dynamic child: ..." line.
. "$(dirname "$0")/evt_mpi_run.sh"

expect_child() {
    # $1: the number of child jobs whose report must be present and clean
    n=$(echo "$out" | grep -c "test_comm_dynamic child: [0-9]* passed, 0 failed")
    if [ "$n" -ne "$1" ]; then
        echo "FAIL: $n clean child reports, want $1"
        status=1
    fi
}

for evt in sync ring; do
    run_np 1 test_comm_dynamic --mca evt $evt -- spawn
    expect_child 1
    run_np 2 test_comm_dynamic --mca evt $evt -- spawn
    expect_child 1
    run_np 2 test_comm_dynamic --mca evt $evt -- multiple
    expect_child 1
    run_np 2 test_comm_dynamic --mca evt $evt -- port
    run_np 2 test_comm_dynamic --mca evt $evt -- join
done
exit $status
