#!/bin/sh
# Events from PMIx under a PMIx server started by the test
# (test/pmix/evt_pmixprod_server.c; ranks run with OMPI_MCA_schizo=^orte),
# for what Open MPI 4.1.4's mpirun does not deliver:
#   - resource usage reported by the PMIx server (evt_pmix_resource_source
#     pmix, and auto switching from /proc to PMIx), values checked against
#     /proc as under mpirun; and PMIx 4.2.2's server library never passes
#     PMIX_MONITOR_PROC_RESOURCE_USAGE to its host (0 monitor upcalls: the
#     server pushes the updates unasked, -u);
#   - a job event for a rank killed by SIGKILL, seen by the others (sync, ring);
#   - PMIX_ERR_LOST_CONNECTION when the server dies (sync: the callback runs
#     before Open MPI's default handler aborts the rank).
set -u
status=0
server=./evt_pmixprod_server
export OMPI_MCA_schizo=^orte
# the rendezvous files (left behind by the server killed in "lost")
EVT_PMIXPROD_TMPDIR=$(mktemp -d)
export EVT_PMIXPROD_TMPDIR
trap 'rm -rf "$EVT_PMIXPROD_TMPDIR"' EXIT

# run NAME CHECK... -- server args: the output is in $out
run() {
    name=$1; shift
    out=$(timeout 90 "$server" "$@" 2>&1)
    rc=$?
    echo "== $name: $server $* (exit $rc)"
    echo "$out" | grep -av "mca: base"
}
expect() { # PATTERN COUNT WHY
    n=$(echo "$out" | grep -ac -- "$1")
    if [ "$n" -lt "$2" ]; then
        echo "FAIL [$name]: $3 ($n lines match '$1', expected at least $2)"
        status=1
    fi
}

for src in pmix auto; do
    for evt in sync ring; do
        [ $src = auto ] && [ $evt = sync ] && continue
        OMPI_MCA_evt=$evt OMPI_MCA_evt_pmix_resource_rate=1 OMPI_MCA_evt_pmix_resource_source=$src \
            OMPI_MCA_evt_base_verbose=10 run "resource $src $evt" -u 1 -n 2 -- \
            ./test_pmix_events resource 1 4 pmix
        [ "$rc" -eq 0 ] || { echo "FAIL [$name]: exit $rc"; status=1; }
        expect "test_pmix_events: [1-9][0-9]* passed, 0 failed" 1 "the checks of both ranks"
        expect "evt:pmix: the PMIx server reports this process's resource usage" 2 \
            "both ranks switched to PMIx"
        expect "\[server\] done: 0 of 2 ranks failed, [1-9][0-9]* resource updates sent, 0 monitor upcalls" 1 \
            "PMIx 4.2.2 does not pass the request to the host"
    done
done

for evt in sync ring; do
    OMPI_MCA_evt=$evt run "jobevent $evt" -n 3 -- ./test_pmix_events jobevent 1
    expect "\[server\] announced: rank 1 killed by signal 9" 1 "the server announced the kill"
    expect "test_pmix_events: rank [02]: [1-9][0-9]* passed, 0 failed" 2 "both survivors saw the job event"
done

OMPI_MCA_evt=sync run "lost sync" -x 4 -n 2 -- ./test_pmix_events lost
expect "job_event status -61 " 2 "both ranks saw PMIX_ERR_LOST_CONNECTION"

[ $status -eq 0 ] && echo "producers_pmix_server: 1 passed, 0 failed" ||
    echo "producers_pmix_server: 0 passed, 1 failed"
exit $status
