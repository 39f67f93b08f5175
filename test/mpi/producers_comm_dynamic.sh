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

# evt/pmix with a node sink: the spawned child's batches go to the parent
# job's sink on this node, which already holds the node file; the child
# must not claim that its batches are not recorded.
sink=$(mktemp -d)
run_np 2 test_comm_dynamic --mca evt pmix --mca evt_pmix_sink "$sink" -- spawn
expect_child 1
if echo "$out" | grep -q "could not create its node file"; then
    echo "FAIL: spawn under a node sink: the child says its node file could not be created"
    status=1
fi
mkdir -m 0700 "$sink/listen"
timeout 60 ../../tools/ompi-evt-listen --read "$sink" -o "$sink/listen" --quiet --format jsonl
procs=$(sed -n 's/^processes: //p' "$sink/listen/summary.txt")
if [ "$procs" != 3 ]; then
    echo "FAIL: spawn under a node sink: the node file holds ${procs:-no} processes, want 3 (2 + the child)"
    status=1
fi
rm -rf "$sink"
exit $status
