#!/bin/sh
# An mpi4py program's messages are all recorded: p2p_mpi4py_app.py (lowercase
# send/recv, whose receives are MPI_Mprobe + MPI_Mrecv; isend/irecv;
# sendrecv; probe then recv; mprobe; improbe + irecv; Sendrecv of a buffer)
# under ompi-evt-record, which preloads libompi_evt into the Python ranks.
# Per rank and pattern (tag): N receives from the left neighbour and N sends
# to the right one, receives in the mode of their MPI call, and every send
# paired with its receive in trace.json. -np 2 and 4. Skipped (77) when no
# Python with mpi4py built for this Open MPI is found, and in sanitizer
# trees.
set -u
B=${EVT_TOP_BUILDDIR:?run from make check}
rec="$B/tools/ompi-evt-record"
app="$(cd "$(dirname "$0")" && pwd)/p2p_mpi4py_app.py"
N=10
fail=0
ko() { echo "FAIL: $*"; fail=1; }
count() { grep -c -- "$1" "$2" 2>/dev/null || true; }

if [ -n "${EVT_SANITIZER_CFLAGS:-}" ]; then
    echo "SKIP: sanitizer build ($EVT_SANITIZER_CFLAGS): this libompi_evt needs the sanitizer runtime, which an uninstrumented python3 does not load"
    exit 77
fi
python=""
for py in ${PYTHON:-} python3 /usr/bin/python3; do
    # import mpi4py only: mpi4py.MPI would initialise MPI as a singleton
    dir=$("$py" -c 'import mpi4py, os; print(os.path.dirname(mpi4py.__file__))' 2>/dev/null) || continue
    if ldd "$dir"/MPI.*.so 2>/dev/null | grep -q 'libmpi\.so\.40 '; then
        python=$py
        break
    fi
done
if [ -z "$python" ]; then
    echo "SKIP: no python3 with mpi4py linked with Open MPI's libmpi.so.40 (apt-get install python3-mpi4py)"
    exit 77
fi
echo "python: $python (mpi4py $("$python" -c 'import mpi4py; print(mpi4py.__version__)'))"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for np in 2 4; do
    out="$tmp/np$np"
    timeout 180 "$rec" -o "$out" -- ${MPIRUN:-mpirun} -np $np --oversubscribe \
        "$python" "$app" $N >"$out.log" 2>&1; rc=$?
    echo "=== np $np (rc $rc)"; grep -v '^\[' "$out.log" | head -40
    [ "$rc" -eq 0 ] || { ko "np $np: exit $rc"; continue; }
    ev="$out/events.jsonl"
    [ -s "$ev" ] || { ko "np $np: no events.jsonl"; continue; }
    for r in $(seq 0 $((np - 1))); do
        right=$(((r + 1) % np))
        left=$(((r + np - 1) % np))
        grep "\"rank\":$r," "$ev" >"$tmp/rank"
        for tag in 1 2 3 4 5 6 7; do
            n=$(count "p2p_recv_complete.*\"peer\":$left,\"tag\":$tag," "$tmp/rank")
            [ "$n" -eq $N ] || ko "np $np: rank $r: $n receives with tag $tag from rank $left, want $N"
            n=$(count "p2p_send_complete.*\"peer\":$right,\"tag\":$tag," "$tmp/rank")
            [ "$n" -eq $N ] || ko "np $np: rank $r: $n sends with tag $tag to rank $right, want $N"
        done
        # the mode of the receive call (sendrecv, tag 3, is mpi4py's business)
        for tm in 1:0 2:1 4:0 5:0 6:1 7:0; do
            n=$(count "p2p_recv_complete.*\"tag\":${tm%:*},\"mode\":${tm#*:}," "$tmp/rank")
            [ "$n" -eq $N ] || ko "np $np: rank $r: $n receives with tag ${tm%:*} in mode ${tm#*:}, want $N"
        done
        n=$(count "p2p_recv_complete" "$tmp/rank")
        [ "$n" -eq $((7 * N)) ] || ko "np $np: rank $r: $n receives in all, want $((7 * N))"
    done
    grep -q "0 sends or receives without a partner, 0 pairs with different byte counts" \
        "$out/summary.txt" || ko "np $np: unpaired messages: $(grep 'without a partner' "$out/summary.txt")"
done
[ $fail -eq 0 ] && echo "test_p2p_mpi4py: every message recorded"
exit $fail
