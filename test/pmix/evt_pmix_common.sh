#!/bin/sh
# Sourced by the evt/pmix test scripts (run from the build's test/pmix).
#   scratch           a private folder (mode 0700) for sinks and rendezvous files,
#                     removed at exit (kept with EVT_KEEP=1)
#   run LABEL CMD...  runs CMD (the caller puts a timeout in it), output to
#                     $scratch/LABEL.out (printed), exit status in $rc
#   fail MSG          counts a failure
#   expect_grep N PATTERN FILE   at least N lines of FILE match PATTERN
#   finish            exit status of the script
# Every mpirun gets --oversubscribe and runs as root (EVT_RUN_ENV).
set -u
: "${MPIRUN:=mpirun}"
failures=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/evt_pmix_test.XXXXXX") || exit 99
chmod 0700 "$scratch"
cleanup() {
    if [ "${EVT_KEEP:-0}" = 1 ]; then
        echo "kept $scratch"
    else
        rm -rf "$scratch"
    fi
}
trap cleanup EXIT
# the rendezvous files of the test server are per host name: keep them short
host=$(hostname)

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run LABEL CMD...: CMD's output in $scratch/LABEL.out, its status in rc.
# When mpirun could not start its daemons (the two "nodes" of this machine
# under heavy load: ORTE says so, then may crash), no process of the job
# ran and nothing of ours was tested: the launch is tried again, at most
# twice, and said.
run() {
    _rl=$1; shift
    echo "=== $_rl: $*"
    for _try in 1 2 3; do
        "$@" >"$scratch/$_rl.out" 2>&1
        rc=$?
        grep -q "ORTE was unable to reliably start one or more daemons" "$scratch/$_rl.out" ||
            break
        echo "=== $_rl: mpirun could not start its daemons (try $_try of 3): launching again"
    done
    cat "$scratch/$_rl.out"
    echo "=== $_rl: exit $rc"
}

expect_grep() {
    n=$(grep -c -- "$2" "$3")
    [ "$n" -ge "$1" ] || fail "$3: $n lines match \"$2\" (want >= $1)"
}

# A fresh sink folder.
sink_dir() {
    d="$scratch/$1"
    mkdir -p "$d" && chmod 0700 "$d"
    echo "$d"
}

finish() {
    if [ "$failures" -eq 0 ]; then
        echo "PASS"
        exit 0
    fi
    echo "$failures FAILURE(S)"
    exit 1
}

# start_server LABEL TMPDIR NPROCS [server options...] -- PROGRAM [ARGS...]
# Starts the test PMIx server in the background (its output in
# $scratch/LABEL.srv), waits (10 s at most) until it accepts tools, and sets
# $spid. The ranks run with OMPI_MCA_schizo=^orte (MPI_Init under a foreign
# PMIx server) and whatever OMPI_MCA_* the caller exported.
start_server() {
    _sl=$1; _st=$2; _sn=$3; shift 3
    mkdir -p "$_st" && chmod 0700 "$_st"
    OMPI_MCA_schizo=^orte ./evt_pmix_test_server -n "$_sn" -d "$_st" "$@" \
        >"$scratch/$_sl.srv" 2>&1 &
    spid=$!
    _i=0
    while [ ! -f "$_st/pmix.$host.tool.$spid" ] && [ $_i -lt 100 ]; do
        sleep 0.1; _i=$((_i + 1))
    done
    [ -f "$_st/pmix.$host.tool.$spid" ] || fail "$_sl: the server did not come up"
}

# wait_pid PID SECONDS: wait for a child, at most SECONDS (then kill it); $rc
wait_pid() {
    _i=0
    while kill -0 "$1" 2>/dev/null && [ $_i -lt $(($2 * 10)) ]; do
        sleep 0.1; _i=$((_i + 1))
    done
    if kill -0 "$1" 2>/dev/null; then
        fail "process $1 still running after $2 s: killed"
        kill -9 "$1" 2>/dev/null
    fi
    wait "$1"
    rc=$?
}
