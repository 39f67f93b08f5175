#!/bin/sh
# Runs one mpirun test program (np 2, --mca evt sync, evt_base_verbose 10)
# and checks what it reported, not only its exit code:
#  - both ranks print "rank R: N passed, 0 failed" with N > 0 (the program
#    checks the counts and payloads it received);
#  - MPI_Init was seen once per rank (the hook and the PMPI wrappers are
#    both present, and the initialization event is raised once);
#  - the sync component was selected in both ranks.
# Usage (automake LOG_COMPILER): mpirun_np2.sh ./program
set -u
prog=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
${MPIRUN:-mpirun} -np 2 --mca evt sync --mca evt_base_verbose 10 "$prog" >"$out" 2>&1
rc=$?
cat "$out"
fail=0
[ "$rc" -eq 0 ] || { echo "FAIL: mpirun exit code $rc"; fail=1; }
ok=$(grep -Ec '^rank [01]: [1-9][0-9]* passed, 0 failed$' "$out")
[ "$ok" -eq 2 ] || { echo "FAIL: expected 2 ranks reporting 0 failures, got $ok"; fail=1; }
# Lines of ranks that ran MPI_Init (all programs here do).
seen=$(grep -c 'evt:init: MPI_Init seen' "$out")
[ "$seen" -eq 2 ] || { echo "FAIL: MPI_Init seen $seen times (want once per rank)"; fail=1; }
sel=$(grep -c 'evt:base:select: selected component sync' "$out")
[ "$sel" -ge 2 ] || { echo "FAIL: sync selected $sel times (want >= 2)"; fail=1; }
exit $fail
