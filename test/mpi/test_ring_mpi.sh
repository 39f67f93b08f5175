#!/bin/sh
# evt/ring under mpirun -np 2 --mca evt ring, over ob1 and over UCX: events
# drained while the ranks sit in MPI_Recv and MPI_Barrier (test_ring_mpi
# checks the counts; here: both ranks report 0 failures, ring selected);
# over ob1 also with MPI_T_init_thread before MPI_Init.
set -u
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Open MPI 4.1's pml/ucx accepts only RDMA transports by default
# (pml_ucx_tls); this host has shared memory and TCP: allow any.
ucx_args="--mca pml_ucx_tls any --mca pml_ucx_devices any"
for pml in ob1 ucx ob1-mpit-first; do
    args="--mca pml ${pml%-mpit-first}"
    [ "$pml" = ucx ] && args="$args $ucx_args"
    first=
    [ "$pml" = ob1-mpit-first ] && first="-x TEST_RING_MPI_T_FIRST=1"
    # shellcheck disable=SC2086
    ${MPIRUN:-mpirun} -np 2 --mca evt ring $args $first --mca evt_base_verbose 10 \
        ./test_ring_mpi >"$out" 2>&1
    rc=$?
    echo "=== pml $pml (rc $rc)"; cat "$out"
    [ "$rc" -eq 0 ] || { echo "FAIL [$pml]: exit $rc"; fail=1; }
    ok=$(grep -Ec '^rank [01]: [1-9][0-9]* passed, 0 failed$' "$out")
    [ "$ok" -eq 2 ] || { echo "FAIL [$pml]: $ok ranks passed"; fail=1; }
    sel=$(grep -c 'evt:base:select: selected component ring' "$out")
    [ "$sel" -ge 2 ] || { echo "FAIL [$pml]: ring selected $sel times"; fail=1; }
done
exit $fail
