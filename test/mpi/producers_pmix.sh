#!/bin/sh
# Events from PMIx (source ompi.pmix) under Open MPI 4.1.4's mpirun
# (test_pmix_events.c says what each mode checks), with evt/sync (all) and
# evt/ring (resource usage, heartbeat):
#   - resource usage at 1 s over a 5 s window, sampled from /proc (PMIx
#     4.2.2 accepts PMIX_MONITOR_PROC_RESOURCE_USAGE and never reports; the
#     verbose output must say which path was used);
#   - heartbeat monitor (3 s): rank 1 of 3 silent for 8 s;
#   - file monitor (checked every 1 s): rank 1 of 3 does not write for 5 s.
# Under ring the parameters are given by their names (mpi_events_pmix_*),
# under sync by their first names (evt_pmix_*, now synonyms).
. "$(dirname "$0")/evt_mpi_run.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

for evt in sync ring; do
    # the parameters' names (mpi_events_pmix_*) under ring, their first
    # names (evt_pmix_*, synonyms) under sync: both must work
    p=mpi_events_pmix
    [ $evt = sync ] && p=evt_pmix
    run_np 2 test_pmix_events --mca evt $evt --mca ${p}_resource_rate 1 \
        --mca evt_base_verbose 10 -- resource 1 5 proc
    if ! echo "$out" | grep -q "evt:pmix: resource usage every 1 s: sampled from /proc until the PMIx server's first update"; then
        echo "FAIL: the verbose output does not say the resource usage comes from /proc"
        status=1
    fi
    if [ $evt = sync ]; then
        run_np 2 test_pmix_events --mca evt $evt --mca evt_pmix_resource_rate 1 \
            --mca evt_pmix_resource_source proc -- resource 1 4 proc
    fi

    run_np 3 test_pmix_events --mca evt $evt --mca ${p}_monitor_heartbeat 3 \
        --mca evt_base_verbose 10 -- heartbeat 8
    if ! echo "$out" | grep -q "evt:pmix: heartbeat monitor (3 s, 1 drops): PMIx_Process_monitor returned 0"; then
        echo "FAIL: the heartbeat monitor was not accepted"
        status=1
    fi

    if [ $evt = sync ]; then
        rm -f "$dir"/f.*
        for r in 0 1 2; do : > "$dir/f.$r"; done
        run_np 3 test_pmix_events --mca evt $evt --mca evt_pmix_monitor_file "$dir/f.%r" \
            --mca evt_pmix_monitor_file_check 1 -- file "$dir" 5
    fi
done

# A killed rank under mpirun: no job event reaches the others (the host does
# not deliver; producers_pmix_server.sh tests the job event under a server
# that does). With --enable-recovery the job goes on, without it mpirun
# kills it at once.
out=$(timeout 60 ${MPIRUN:-mpirun} --oversubscribe -np 3 --enable-recovery ./test_pmix_events \
    nojobevent 1 4 2>&1)
echo "== mpirun -np 3 --enable-recovery test_pmix_events nojobevent 1 4"
echo "$out"
n=$(echo "$out" | grep -c "test_pmix_events: rank [02]: [1-9][0-9]* passed, 0 failed")
[ "$n" -eq 2 ] || { echo "FAIL: nojobevent: $n survivors passed"; status=1; }
exit $status
