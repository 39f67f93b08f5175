#!/bin/sh
# ompi-evt-record --transport shm: the ranks record into evt/file rings in
# /dev/shm, the recorder copies them out into spools (chains of evt/file
# images) that the listener reads.
#   count    a job that raises 400,000 events per rank (more than one image
#            of a spool), recorded through pmix (the reference, which loses
#            nothing) and through shm: nothing lost (a rank whose rings the
#            copy falls behind waits at its progress calls), per rank what
#            shm delivered is what pmix delivered; the spool holds several
#            images (ompi-evt-file-read reads them all), the private folder
#            in /dev/shm is gone afterwards
#   wait     a smaller job with --buffer 64K (rings of a few KiB): the
#            ranks wait for the copy at their progress calls (the recorder
#            says how long, more than 0 s), and every record is delivered
#            or counted lost (nearly all delivered: a rank raises more
#            between two progress calls than a few KiB only rarely)
#            the same when the program calls MPI_T_init_thread first
#   lost     the same job with --buffer 64K (rings of a few KiB) and
#            --no-wait: the rings overwrite most records before they are
#            copied; the recorder says so per rank and exits 1, and
#            delivered + lost equals what the reference delivered, per rank
#            (the count is exact)
#   events   --events reaches evt/file (evt_file_events): only the chosen
#            events are recorded, all of them
#   full     the output folder's disk is full (test_full_disk.c, preloaded
#            into the recorder): the failed write is said first, with its
#            cause, no hint that the ranks raised too fast, no outputs made
#            (that is said too), exit 1; and, for comparison, through pmix
#            (the node sink in a rank finds no room at all): the listener
#            names the node file that holds no batch, exit 1
#   errors   --transport, --buffer and --live with shm, --buffer and
#            --no-wait with pmix or --live: clear messages, rc 2
set -u
fail=0
B=${EVT_TOP_BUILDDIR:?run from make check}
rec="$B/tools/ompi-evt-record"
app=./test_record_app
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ko() { echo "FAIL: $*"; fail=1; }
count() { grep -c -- "$1" "$2" 2>/dev/null || true; }
# events of rank $1 in $2/events.jsonl
rank_events() { grep -c "\"rank\":$1," "$2/events.jsonl" 2>/dev/null || true; }
# the records a recorder said it lost for rank $1 (0 when it said nothing)
said_lost() {
    sed -n "s/^ompi-evt-record: rank $1 (.*): \\([0-9]*\\) records were overwritten.*/\\1/p" "$2" \
        | head -1 | grep . || echo 0
}

N=100000
# the reference: the same job through evt/pmix, which loses nothing (a rank
# that raises faster than it exports slows down)
timeout 300 "$rec" --transport pmix --format jsonl -o "$tmp/ref" -- ${MPIRUN:-mpirun} -np 2 "$app" send $N \
    >"$tmp/ref.out" 2>&1; rc=$?
echo "=== reference, pmix (rc $rc)"
[ "$rc" -eq 0 ] || ko "reference: exit $rc: $(grep -v '^  ' "$tmp/ref.out" | tail -5)"
for r in 0 1; do
    n=$(grep "\"rank\":$r," "$tmp/ref/events.jsonl" | count '"event":"ompi.mpi.p2p_send_complete"' -)
    # N ring sends and N sendrecv sends
    [ "$n" -eq $((2 * N)) ] || ko "reference: rank $r: $n sends, want $((2 * N))"
done

# Nothing lost: a rank waits at its progress calls while a ring is five
# eighths behind the copy, and this job makes progress calls far more often
# than it fills three eighths of a ring (8 MiB).
timeout 300 "$rec" --transport shm --format jsonl -o "$tmp/count" -- ${MPIRUN:-mpirun} -np 2 \
    "$app" send $N >"$tmp/count.out" 2>&1; rc=$?
echo "=== count (rc $rc)"; grep -v '^  ' "$tmp/count.out" | head -20
lost=$(($(said_lost 0 "$tmp/count.out") + $(said_lost 1 "$tmp/count.out")))
[ "$rc" -eq 0 ] || ko "count: exit $rc"
[ "$lost" -eq 0 ] || ko "count: $lost records overwritten before they were copied"
grep -q 'the ranks waited [0-9.]* s for the copy' "$tmp/count.out" || ko "count: no wait figure"
grep -q -- '--mca evt_file_consumer_wait 1' "$tmp/count.out" || ko "count: the wait was not asked for"
for r in 0 1; do
    want=$(rank_events $r "$tmp/ref")
    got=$(rank_events $r "$tmp/count")
    l=$(said_lost $r "$tmp/count.out")
    [ $((got + l)) -eq "$want" ] || ko "count: rank $r: $got delivered + $l lost != $want"
done
live=$(sed -n 's/.*--mca evt_file_dir \(\/dev\/shm\/ompi-evt-record\.[A-Za-z0-9]*\) .*/\1/p' \
    "$tmp/count.out" | head -1)
[ -n "$live" ] || ko "count: the running line names no folder in /dev/shm"
[ -n "$live" ] && [ -e "$live" ] && ko "count: $live is still there"
grep -q 'ranks that ended early (no FINAL batch): none' "$tmp/count/summary.txt" \
    || ko "count: a rank ended early"
# spools: more than one image each (the first image's size, a u64 at byte
# 24 of its header, is less than the file's)
nspool=0
for f in "$tmp"/count/*.oevt; do
    [ -f "$f" ] || continue
    nspool=$((nspool + 1))
    first=$(od -An -t u8 -j 24 -N 8 "$f" | tr -d ' ')
    size=$(stat -c %s "$f")
    [ "$(stat -c %a "$f")" = 600 ] || ko "count: $f is not 0600"
    [ "$first" -lt "$size" ] || ko "count: $f is one image ($first of $size bytes)"
done
[ "$nspool" -eq 2 ] || ko "count: $nspool spools, want 2"
# ompi-evt-file-read reads a spool image by image: as many records as the
# listener wrote for that rank, no damage
for f in "$tmp"/count/*.oevt; do
    [ -f "$f" ] || continue
    r=$(od -An -t d4 -j 32 -N 4 "$f" | tr -d " ")
    "$B/tools/ompi-evt-file-read" "$f" >"$tmp/read.jsonl" 2>"$tmp/read.err"; rc=$?
    [ "$rc" -eq 0 ] || ko "file-read $f: exit $rc: $(head -3 "$tmp/read.err")"
    n=$(count '"type":"record"' "$tmp/read.jsonl")
    want=$(grep "\"rank\":$r," "$tmp/count/events.jsonl" | grep -c '"event":')
    [ "$n" -eq "$want" ] || ko "file-read $f: $n records, the listener wrote $want for rank $r"
    nfile=$(count '"type":"file"' "$tmp/read.jsonl")
    [ "$nfile" -ge 2 ] || ko "file-read $f: $nfile images"
done

NW=20000
timeout 300 "$rec" --transport shm --format jsonl --buffer 64K -o "$tmp/wait" -- \
    ${MPIRUN:-mpirun} -np 2 "$app" send $NW >"$tmp/wait.out" 2>&1; rc=$?
echo "=== wait (rc $rc)"; grep -v '^  ' "$tmp/wait.out" | head -20
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || ko "wait: exit $rc"
waited=$(sed -n 's/.*the ranks waited \([0-9.]*\) s for the copy/\1/p' "$tmp/wait.out")
awk -v w="${waited:-0}" 'BEGIN { exit !(w > 0) }' || ko "wait: the ranks did not wait ('$waited' s)"
for r in 0 1; do
    got=$(rank_events $r "$tmp/wait")
    l=$(said_lost $r "$tmp/wait.out")
    # the reference's events of a job of NW messages: N's scaled (the
    # lifecycle events are the same few per rank)
    ref=$(rank_events $r "$tmp/ref")
    want=$((ref - 4 * (N - NW)))
    [ $((got + l)) -eq "$want" ] || ko "wait: rank $r: $got delivered + $l lost != $want"
done

# the same with MPI_T_init_thread before MPI_Init (the tool interface starts
# evt before Open MPI's progress engine, which forgot callbacks registered
# before it): the ranks still wait
TEST_RECORD_MPI_T_FIRST=1 timeout 300 "$rec" --transport shm --format jsonl --buffer 64K \
    -o "$tmp/mpit" -- ${MPIRUN:-mpirun} -x TEST_RECORD_MPI_T_FIRST -np 2 "$app" send $NW \
    >"$tmp/mpit.out" 2>&1; rc=$?
echo "=== wait, MPI_T first (rc $rc)"; grep -v '^  ' "$tmp/mpit.out" | head -20
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || ko "wait, MPI_T first: exit $rc"
waited=$(sed -n 's/.*the ranks waited \([0-9.]*\) s for the copy/\1/p' "$tmp/mpit.out")
awk -v w="${waited:-0}" 'BEGIN { exit !(w > 0) }' || ko "wait, MPI_T first: the ranks did not wait ('$waited' s)"
lost=$(($(said_lost 0 "$tmp/mpit.out") + $(said_lost 1 "$tmp/mpit.out")))
# a few KiB between two progress calls now and then, not most of the records
[ "$lost" -lt $((NW / 10)) ] || ko "wait, MPI_T first: $lost records lost"

timeout 300 "$rec" --transport shm --format jsonl --buffer 64K --no-wait -o "$tmp/lost" -- \
    ${MPIRUN:-mpirun} -np 2 "$app" send $N >"$tmp/lost.out" 2>&1; rc=$?
echo "=== lost (rc $rc)"; grep -v '^  ' "$tmp/lost.out" | head -20
[ "$rc" -eq 1 ] || ko "lost: exit $rc, want 1 (records lost)"
grep -q -- '--mca evt_file_consumer_wait 0' "$tmp/lost.out" || ko "lost: --no-wait not passed"
for r in 0 1; do
    want=$(rank_events $r "$tmp/ref")
    got=$(rank_events $r "$tmp/lost")
    lost=$(said_lost $r "$tmp/lost.out")
    [ "$lost" -gt 0 ] || ko "lost: rank $r: no loss said"
    [ $((got + lost)) -eq "$want" ] || ko "lost: rank $r: $got delivered + $lost lost != $want"
done
total_lost=$(($(said_lost 0 "$tmp/lost.out") + $(said_lost 1 "$tmp/lost.out")))
sum=$(sed -n 's/.* \([0-9]*\) older records overwritten.*/\1/p' "$tmp/lost/summary.txt" \
    | awk '{s += $1} END {print s + 0}')
[ "$sum" -eq "$total_lost" ] || ko "lost: the summary counts $sum overwritten, the recorder $total_lost"

timeout 300 "$rec" --transport shm --format jsonl --events 'ompi.mpi.p2p_recv*' -o "$tmp/events" -- \
    ${MPIRUN:-mpirun} -np 2 "$app" send 1000 >"$tmp/events.out" 2>&1; rc=$?
echo "=== events (rc $rc)"; grep -v '^  ' "$tmp/events.out" | head -8
[ "$rc" -eq 0 ] || ko "events: exit $rc"
grep -q -- '--mca evt_file_events ompi.mpi.p2p_recv\*' "$tmp/events.out" \
    || ko "events: evt_file_events not passed"
other=$(grep '"event":' "$tmp/events/events.jsonl" | grep -vc '"event":"ompi.mpi.p2p_recv_complete"')
[ "$other" -eq 0 ] || ko "events: $other other events recorded"
n=$(count '"event":"ompi.mpi.p2p_recv_complete"' "$tmp/events/events.jsonl")
[ "$n" -eq 4000 ] || ko "events: $n receives, want 4000"
# the dictionary of a spool names only the chosen events
grep -aq 'ompi.mpi.p2p_send_complete' "$tmp"/events/*.oevt && ko "events: a spool describes sends"

mkdir "$tmp/full"
EVT_TEST_FULL_DIR="$tmp/full" LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$(pwd)/.libs/libtest_full_disk.so" \
    timeout 300 "$rec" --transport shm --format jsonl -o "$tmp/full" -- \
    ${MPIRUN:-mpirun} -np 2 "$app" send 1000 >"$tmp/full.out" 2>&1; rc=$?
echo "=== full (rc $rc)"; grep -v '^  ' "$tmp/full.out" | head -8
[ "$rc" -eq 1 ] || ko "full: exit $rc, want 1"
first=$(grep -m1 '^ompi-evt-record: \(cannot\|rank\|the ranks\|no outputs\)' "$tmp/full.out")
case "$first" in
*"cannot write the recording of "*": No space left on device; the recording is incomplete"*) ;;
*) ko "full: the first word on the recording is not the failed write: $first" ;;
esac
grep -q 'no outputs made: the recording in .* could not be written whole' "$tmp/full.out" \
    || ko "full: no outputs made is not said"
grep -q 'raised faster' "$tmp/full.out" && ko "full: the ranks are said to have raised too fast"
[ -e "$tmp/full/events.jsonl" ] && ko "full: outputs made"
mkdir "$tmp/fullp"
EVT_TEST_FULL_DIR="$tmp/fullp" LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$(pwd)/.libs/libtest_full_disk.so" \
    timeout 300 "$rec" --transport pmix --format jsonl -o "$tmp/fullp" -- \
    ${MPIRUN:-mpirun} -np 2 "$app" send 1000 >"$tmp/fullp.out" 2>&1; rc=$?
echo "=== full, pmix (rc $rc)"; grep '^ompi-evt' "$tmp/fullp.out" | head -8
[ "$rc" -eq 1 ] || ko "full, pmix: exit $rc, want 1"
grep -q "^ompi-evt-listen: $tmp/fullp/.*\.evt: no batch of any process" "$tmp/fullp.out" \
    || ko "full, pmix: the empty node file is not said"

"$rec" --transport tcp -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/e1" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q 'give auto, shm or pmix' "$tmp/e1" || ko "bad transport: rc $rc: $(cat "$tmp/e1")"
for b in 0 1K 9G 12X -5 ''; do
    "$rec" --buffer "$b" -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/e2" 2>&1; rc=$?
    [ "$rc" -eq 2 ] && grep -q 'give a size from 64K to 8G' "$tmp/e2" \
        || ko "--buffer '$b': rc $rc: $(cat "$tmp/e2")"
done
"$rec" --transport shm --live -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/e3" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q 'cannot be used with --transport shm' "$tmp/e3" \
    || ko "--live with shm: rc $rc: $(cat "$tmp/e3")"
for o in '--transport pmix --buffer 1M' '--transport pmix --no-wait' '--live --buffer 1M' \
    '--live --no-wait'; do
    # shellcheck disable=SC2086 # $o is the options
    "$rec" $o -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/e4" 2>&1; rc=$?
    [ "$rc" -eq 2 ] && grep -q 'is about the rings of --transport shm' "$tmp/e4" \
        || ko "$o: rc $rc: $(cat "$tmp/e4")"
done

[ "$fail" -eq 0 ] && echo "test_record_shm: all checks passed"
exit $fail
