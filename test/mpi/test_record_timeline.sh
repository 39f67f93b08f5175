#!/bin/sh
# trace.otf2 as a timeline reader draws it, for the patterns whose records
# come in another order than their times (check_otf2.py: time order per
# location, regions that nest, every request started and completed once,
# no receive before its send):
#   halo     Irecv, Irecv, Isend, Isend, Waitall of 64 KiB between
#            neighbours: every request is written as one (MpiIsend at the
#            start, MpiIsendComplete at the completion; MpiIrecvRequest,
#            MpiIrecv), 4 ranks x 4 per round
#   ring     blocking Sendrecv: MpiSend and MpiRecv in their calls' regions
#   gather   blocking sends into one rank's blocking receives
#   threads  two threads per rank in blocking ping-pongs (MPI_THREAD_MULTIPLE)
#            while the main thread runs Allreduces: regions of one rank
#            overlap; one that overlaps another is written with no length
#            at its end, its send at its start (no receive before its send)
#   bigsmall an Isend of 64 KiB, then one of 8 bytes with the same tag,
#            received by two Recvs: the small one completes first, and
#            trace.json pairs each send with the receive MPI matched it
#            with (in order of their start): every message one arrow, no
#            pair with different byte counts
set -u
B=${EVT_TOP_BUILDDIR:?run from make check}
S=${EVT_TOP_SRCDIR:?run from make check}
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: $py is needed to read otf2-print's output (apt-get install python3)"; exit 77; }
rec="$B/tools/ompi-evt-record"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
N=40
for pattern in "halo $N $((16 * N))" "ring $N 0" "gather $N 0" "bigsmall $N $((2 * N))" \
    "threads $((5 * N)) 0"; do
    set -- $pattern
    name=$1 rounds=$2 requests=$3
    timeout 180 "$rec" -o "$tmp/$name" -- ${MPIRUN:-mpirun} -np 4 --oversubscribe \
        "$PWD/report_patterns" "$name" "$rounds" >"$tmp/$name.log" 2>&1 || {
        echo "FAIL: $name: the recording failed"
        cat "$tmp/$name.log"
        fail=1
        continue
    }
    # a thread blocked in a call longer than the writer waits (the horizon,
    # under this oversubscribed load) has its start moved up: said in the
    # summary, and only those may draw a receive before its send
    moved=$(sed -n 's/.*trace.otf2\/: \([0-9]*\) records moved up.*/\1/p' "$tmp/$name/summary.txt")
    [ "$name" = threads ] || moved=0
    "$py" "$S/test/listen/check_otf2.py" "$tmp/$name/trace.otf2/traces.otf2" \
        --print "${OTF2_PRINT:-otf2-print}" --min-requests "$requests" --moved "${moved:-0}" \
        >"$tmp/$name.check" 2>&1
    rc=$?
    sed "s/^\(PASS\|FAIL\): /\1: $name: /" "$tmp/$name.check"
    grep -q '^PASS' "$tmp/$name.check" && [ "$rc" -eq 0 ] || fail=1
    grep 'trace.otf2/: .*moved up' "$tmp/$name/summary.txt"
done
# the threads' calls did overlap: the split was exercised
if grep -q "trace.otf2/: .* [1-9][0-9]* regions that overlapped another" "$tmp/threads/summary.txt"; then
    echo "PASS: threads: regions of one rank overlapped and were split"
else
    echo "FAIL: threads: no region overlapped another (the pattern did not exercise the split)"
    fail=1
fi
want="trace.json: $((2 * N)) send->receive flows; 0 sends or receives without a partner, 0 pairs with different byte counts"
if grep -q "$want" "$tmp/bigsmall/summary.txt"; then
    echo "PASS: bigsmall: $want"
else
    echo "FAIL: bigsmall: expected \"$want\", got:"
    grep 'trace.json:' "$tmp/bigsmall/summary.txt"
    fail=1
fi
exit $fail
