#!/bin/sh
# ompi-evt-record and the job it runs:
#   stdout    the job's stdout redirected to a file is byte-identical recorded
#             and plain; the summary goes to stderr
#   terminal  no progress line on the terminal the job writes to
#   preload   a user's PMPI tool (counts MPI_Send) given with -x LD_PRELOAD=,
#             with -x LD_PRELOAD or in the environment runs first and sees
#             every call; the recorder's library is preloaded after it and
#             the tool's PMPI_Send reaches it, so every send and receive is
#             recorded (N of MPI_Send's and N of MPI_Sendrecv's, N of
#             MPI_Recv's and N of MPI_Sendrecv's): PMPI tools stack
#   missing   a program that does not exist: "not found", exit 127
#   pipe      the recorder's messages into a pipe whose reader left (`| head
#             -1`), for each transport: the recording goes on, every output
#             made, exit 0
set -u
fail=0
B=${EVT_TOP_BUILDDIR:?run from make check}
rec="$B/tools/ompi-evt-record"
app="$(pwd)/test_record_app"
tool="$(pwd)/.libs/libtest_record_count.so"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ko() { echo "FAIL: $*"; fail=1; }
count() { grep -c -- "$1" "$2" 2>/dev/null || true; }
[ -f "$tool" ] || { echo "FAIL: no $tool"; exit 1; }

# stdout
timeout 240 ${MPIRUN:-mpirun} -np 2 "$app" print 40 >"$tmp/plain.out" 2>/dev/null; rc=$?
[ "$rc" -eq 0 ] && [ -s "$tmp/plain.out" ] || ko "stdout: the plain run failed ($rc)"
timeout 240 "$rec" -o "$tmp/p" -- ${MPIRUN:-mpirun} -np 2 "$app" print 40 \
    >"$tmp/rec.out" 2>"$tmp/rec.err"; rc=$?
echo "=== stdout (rc $rc)"; head -c 3000 "$tmp/rec.err"
[ "$rc" -eq 0 ] || ko "stdout: exit $rc"
cmp "$tmp/plain.out" "$tmp/rec.out" || ko "stdout: recorded stdout differs: $(diff "$tmp/plain.out" "$tmp/rec.out" | head -5)"
grep -q 'ranks that ended early' "$tmp/rec.err" || ko "stdout: no summary on stderr"

# terminal: the job's output and ours on one pseudo-terminal
if command -v script >/dev/null 2>&1; then
    timeout 240 script -qec "\"$rec\" -o \"$tmp/t\" -- ${MPIRUN:-mpirun} -np 2 \"$app\" print 3" \
        /dev/null </dev/null >"$tmp/tty.out" 2>&1; rc=$?
    echo "=== terminal (rc $rc)"; tr '\r' '\n' <"$tmp/tty.out" | grep -v '^\[' | head -20
    [ "$rc" -eq 0 ] || ko "terminal: exit $rc"
    grep -q 'line 3 of 3' "$tmp/tty.out" || ko "terminal: the job's output is missing"
    grep -Eq 'events in [0-9]+ batches from' "$tmp/tty.out" \
        && ko "terminal: a progress line on the job's terminal"
else
    echo "SKIP terminal: no script(1)"
fi

# preload: the user's tool and the recorder's library, three ways
N=10
check_preload() { # name
    for r in 0 1; do
        c=$(cat "$tmp/c.$1/count.$r" 2>/dev/null)
        [ "${c:-none}" = "$N" ] || ko "preload $1: the user's tool counted ${c:-no} sends on rank $r, want $N"
        n=$(grep "\"rank\":$r," "$tmp/$1/events.jsonl" | count '"event":"ompi.mpi.p2p_recv_complete"' -)
        [ "$n" -eq $((2 * N)) ] || ko "preload $1: rank $r: $n receives recorded, want $((2 * N))"
        # the tool's PMPI_Send reaches libompi_evt's: its sends are recorded
        n=$(grep "\"rank\":$r," "$tmp/$1/events.jsonl" | count '"event":"ompi.mpi.p2p_send_complete"' -)
        [ "$n" -eq $((2 * N)) ] ||
            ko "preload $1: rank $r: $n sends recorded, want $((2 * N)) (the tool's MPI_Send ones too)"
    done
    grep -q "PMPI tool among them" "$tmp/$1.out" && ko "preload $1: a warning that PMPI tools hide calls"
    grep -q "LD_PRELOAD=$tool:.*libompi_evt" "$tmp/$1.out" \
        || ko "preload $1: the user's tool is not first: $(grep running: "$tmp/$1.out")"
}
user_preload="$tool${LD_PRELOAD:+:$LD_PRELOAD}"
mkdir "$tmp/c.x" "$tmp/c.xenv" "$tmp/c.env"
timeout 240 "$rec" -o "$tmp/x" -- ${MPIRUN:-mpirun} -np 2 -x RECORD_COUNT_DIR="$tmp/c.x" \
    -x LD_PRELOAD="$user_preload" "$app" send $N >"$tmp/x.out" 2>&1; rc=$?
echo "=== preload -x LD_PRELOAD=... (rc $rc)"; grep -v '^\[' "$tmp/x.out" | head -8
[ "$rc" -eq 0 ] || ko "preload x: exit $rc"
check_preload x
LD_PRELOAD="$user_preload" RECORD_COUNT_DIR="$tmp/c.xenv" timeout 240 "$rec" -o "$tmp/xenv" -- \
    ${MPIRUN:-mpirun} -np 2 -x LD_PRELOAD "$app" send $N >"$tmp/xenv.out" 2>&1; rc=$?
echo "=== preload -x LD_PRELOAD (rc $rc)"; grep -v '^\[' "$tmp/xenv.out" | head -8
[ "$rc" -eq 0 ] || ko "preload xenv: exit $rc"
check_preload xenv
LD_PRELOAD="$user_preload" RECORD_COUNT_DIR="$tmp/c.env" timeout 240 "$rec" -o "$tmp/env" -- \
    ${MPIRUN:-mpirun} -np 2 "$app" send $N >"$tmp/env.out" 2>&1; rc=$?
echo "=== preload environment (rc $rc)"; grep -v '^\[' "$tmp/env.out" | head -8
[ "$rc" -eq 0 ] || ko "preload env: exit $rc"
check_preload env
timeout 240 "$rec" -o "$tmp/twice" -- ${MPIRUN:-mpirun} -np 1 -x LD_PRELOAD=a.so -x LD_PRELOAD=b.so \
    "$app" ok 1 >"$tmp/twice.out" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q 'exported twice' "$tmp/twice.out" || ko "preload twice: rc $rc: $(cat "$tmp/twice.out")"

# missing
timeout 240 "$rec" -o "$tmp/m" -- ${MPIRUN:-mpirun} -np 1 "$tmp/no-such-program" \
    >"$tmp/m.out" 2>&1; rc=$?
echo "=== missing (rc $rc)"; cat "$tmp/m.out"
[ "$rc" -eq 127 ] && grep -q 'not found' "$tmp/m.out" || ko "missing: rc $rc, want 127 and 'not found'"

for t in shm pmix; do
    # (the status of the pipe's first command, in a shell without pipefail)
    st=$( ( (timeout 240 "$rec" --transport $t -o "$tmp/pipe$t" -- ${MPIRUN:-mpirun} -np 2 "$app" \
        send 100 2>&1 >/dev/null; echo "$?" >"$tmp/pipe$t.rc") | head -1) >/dev/null; cat "$tmp/pipe$t.rc")
    echo "=== pipe, $t (rc $st)"
    [ "$st" -eq 0 ] || ko "pipe, $t: exit $st, want 0"
    for o in events.jsonl trace.json trace.otf2 report.html report.csv summary.txt; do
        [ -e "$tmp/pipe$t/$o" ] || ko "pipe, $t: no $o"
    done
done

[ "$fail" -eq 0 ] && echo "test_record_job: all checks passed"
exit $fail
