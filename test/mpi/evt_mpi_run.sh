#!/bin/sh
# Sourced by the producer test drivers:
#   run_np NP PROGRAM [mpirun args...] [-- program args...]
# runs ./PROGRAM (or PROGRAM, an absolute path) under mpirun with NP ranks, prints its output (also left in
# $out), and fails the script when the run fails or does not print
# "0 failed".
: "${MPIRUN:=mpirun}"
here=$(dirname "$0")
status=0

run_np() {
    np=$1; prog=$2; shift 2
    margs=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        margs="$margs $1"; shift
    done
    [ $# -gt 0 ] && shift
    # shellcheck disable=SC2086 # margs: words on purpose
    case $prog in
    /*) path=$prog ;;
    *) path=./$prog ;;
    esac
    out=$(timeout 60 "$MPIRUN" --oversubscribe -np "$np" $margs "$path" "$@" 2>&1)
    rc=$?
    echo "== mpirun -np $np$margs $prog $* (exit $rc)"
    echo "$out"
    if [ $rc -ne 0 ] || ! echo "$out" | grep -q " 0 failed"; then
        echo "FAIL: $prog -np $np$margs $*"
        status=1
    fi
}
