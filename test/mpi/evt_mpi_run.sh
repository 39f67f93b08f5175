#!/bin/sh
# Sourced by the producer test drivers:
#   run_np NP PROGRAM [mpirun args...] [-- program args...]
# runs ./PROGRAM (or PROGRAM, an absolute path) under mpirun with NP ranks, prints its output (also left in
# $out), and fails the script when the run fails or does not print
# "0 failed".
#   run_two_nodes NP PROGRAM [mpirun args...] [-- program args...]
# the same on two nodes of this machine: a hostfile of two names (2 slots
# each) and an rsh agent that runs the command here (test/two_nodes_agent.sh:
# a session folder per node), so one daemon per node, ranks talking over TCP on the loopback. The daemons run without
# rtc/hwloc (--mca rtc ^hwloc, it only binds processes): the second
# daemon crashed about 1 run in 12 here (orted in
# hwloc_shmem_topology_write, writing its topology to shared memory at an
# address its VM-hole search picked).
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

run_two_nodes() {
    np=$1; prog=$2; shift 2
    nodes=$(mktemp -d)
    printf 'nodeA slots=2\nnodeB slots=2\n' >"$nodes/hosts"
    case $prog in
    /*) ;;
    *) prog=$PWD/$prog ;;
    esac
    EVT_TWO_NODES_DIR=$nodes
    export EVT_TWO_NODES_DIR
    run_np "$np" "$prog" --hostfile "$nodes/hosts" \
        --mca plm_rsh_agent "$EVT_TOP_SRCDIR/test/two_nodes_agent.sh" \
        --mca rtc ^hwloc --mca oob_tcp_if_include lo --mca btl_tcp_if_include lo \
        -x LD_LIBRARY_PATH -x OMPI_MCA_mca_base_component_path "$@"
    unset EVT_TWO_NODES_DIR
    rm -rf "$nodes"
}
