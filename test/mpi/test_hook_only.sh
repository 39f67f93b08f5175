#!/bin/sh
# The hook alone: test_hook_only is a plain MPI program not linked with
# libompi_evt; mca_hook_evt.so (found in the component path) must still
# bring evt up in both ranks: selection, the initialization and
# finalization raises, once each, visible at evt_base_verbose 10.
# Negative control: with --mca hook ^evt nothing of evt happens; and with
# the hook excluded but libompi_evt preloaded, its wrappers do the same.
set -u
fail=0
prog=./test_hook_only
out=$(mktemp)
trap 'rm -f "$out"' EXIT
expect() {
    n=$(grep -Ec -- "$3" "$out")
    [ "$n" -eq "$2" ] || { echo "FAIL [$1]: '$3' matched $n lines, want $2"; fail=1; }
}

if readelf -d "$prog" | grep -q 'libompi_evt'; then
    echo "FAIL: $prog is linked with libompi_evt"; fail=1
fi

${MPIRUN:-mpirun} -np 2 --mca evt_base_verbose 10 "$prog" >"$out" 2>&1; rc=$?
echo "=== hook (rc $rc)"; cat "$out"
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; fail=1; }
expect hook 2 '^rank [01] of 2: sum 1$'
expect hook 2 'evt:base:select: selected component sync \(priority 20\)'
expect hook 2 'evt:init: MPI_Init seen \(thread level 0\): raising ompi.mpi.initialization'
expect hook 2 'evt:init: MPI_Finalize seen: raising ompi.mpi.finalization'

${MPIRUN:-mpirun} -np 2 --mca evt_base_verbose 10 --mca hook ^evt "$prog" >"$out" 2>&1; rc=$?
echo "=== no hook (rc $rc)"; cat "$out"
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; fail=1; }
expect nohook 2 '^rank [01] of 2: sum 1$'
expect nohook 0 'evt:'
# The other attach path: no hook, libompi_evt preloaded (its PMPI wrappers).
B=${EVT_TOP_BUILDDIR:-../..}
${MPIRUN:-mpirun} -np 2 --mca evt_base_verbose 10 --mca hook ^evt \
    -x LD_PRELOAD="$B/.libs/libompi_evt.so" "$prog" >"$out" 2>&1; rc=$?
echo "=== preload, no hook (rc $rc)"; cat "$out"
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; fail=1; }
expect preload 2 '^rank [01] of 2: sum 1$'
expect preload 2 'evt:base:select: selected component sync \(priority 20\)'
expect preload 2 'evt:init: MPI_Init seen \(thread level 0\): raising ompi.mpi.initialization'
expect preload 2 'evt:init: MPI_Finalize seen: raising ompi.mpi.finalization'
exit $fail
