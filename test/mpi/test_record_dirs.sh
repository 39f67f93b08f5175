#!/bin/sh
# ompi-evt-record's output folder:
#   unique    two recordings without -o started together (mpirun --wdir
#             elsewhere) get a folder each, each with its own job's events
#   wdir      a relative -o works under mpirun --wdir (the job is given an
#             absolute path)
#   symlink   an -o that is a symbolic link is refused (exit 2), nothing is
#             written where it points
#   owner     an -o folder of another user is refused (exit 2; as root only)
#   earlier   an -o folder that holds any earlier recording (node file, its
#             index, a flight-recorder file, an output) is refused (exit 2)
#   nothing   a job that records nothing (not an MPI program) is an error,
#             and the folder the recorder made for it is removed
#   busy      a second recorder given the -o of one still running is
#             refused (exit 2) before its job starts
#   readonly  an -o folder the caller cannot write into is refused (exit 2)
#             before the job (as a normal user only: root writes anywhere)
#   options   an unknown --format or a bad --events is refused (exit 2)
#             before the job, no folder made
#   signal    SIGTERM to the recorder during its job: the job ends, the
#             outputs are written, the exit status is 143
set -u
fail=0
B=${EVT_TOP_BUILDDIR:?run from make check}
rec="$B/tools/ompi-evt-record"
app="$(pwd)/test_record_app"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ko() { echo "FAIL: $*"; fail=1; }
count() { grep -c -- "$1" "$2" 2>/dev/null || true; }
mkdir "$tmp/elsewhere" "$tmp/here"

# unique: both started at once, so both pick their default name in the same second
(cd "$tmp/here" && timeout 240 "$rec" -- ${MPIRUN:-mpirun} --wdir "$tmp/elsewhere" -np 1 \
    "$app" ok 3 >"$tmp/u1.out" 2>&1; echo $? >"$tmp/u1.rc") &
(cd "$tmp/here" && timeout 240 "$rec" -- ${MPIRUN:-mpirun} --wdir "$tmp/elsewhere" -np 1 \
    "$app" ok 3 >"$tmp/u2.out" 2>&1; echo $? >"$tmp/u2.rc") &
wait
echo "=== unique (rc $(cat "$tmp/u1.rc") $(cat "$tmp/u2.rc"))"; grep -v '^\[' "$tmp/u1.out" "$tmp/u2.out" | head -40
[ "$(cat "$tmp/u1.rc")" -eq 0 ] && [ "$(cat "$tmp/u2.rc")" -eq 0 ] || ko "unique: exit status"
n=$(ls -d "$tmp/here"/ompi-evt.* 2>/dev/null | wc -l)
[ "$n" -eq 2 ] || ko "unique: $n default folders, want 2: $(ls "$tmp/here")"
for d in "$tmp/here"/ompi-evt.*; do
    [ -d "$d" ] || continue
    n=$(count '"event":"ompi.mpi.initialization"' "$d/events.jsonl")
    [ "$n" -eq 1 ] || ko "unique: $d has $n initializations, want its job's 1"
    [ "$(stat -c %a "$d")" = 700 ] || ko "unique: $d mode $(stat -c %a "$d")"
done
ls "$tmp/elsewhere" | grep -q . && ko "unique: files in the job's working folder: $(ls "$tmp/elsewhere")"

# wdir: a relative -o
(cd "$tmp/here" && timeout 240 "$rec" -o rel -- ${MPIRUN:-mpirun} --wdir "$tmp/elsewhere" -np 2 \
    "$app" ok 3 >"$tmp/w.out" 2>&1); rc=$?
echo "=== wdir (rc $rc)"; grep -v '^\[' "$tmp/w.out" | head -20
[ "$rc" -eq 0 ] || ko "wdir: exit $rc"
n=$(count '"event":"ompi.mpi.initialization"' "$tmp/here/rel/events.jsonl")
[ "$n" -eq 2 ] || ko "wdir: $n initializations in here/rel, want 2"

# symlink: planted, pointing at someone else's folder
mkdir "$tmp/victim"
ln -s "$tmp/victim" "$tmp/link"
timeout 240 "$rec" -o "$tmp/link" -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/s.out" 2>&1; rc=$?
echo "=== symlink (rc $rc)"; cat "$tmp/s.out"
[ "$rc" -eq 2 ] && grep -q 'is a symbolic link' "$tmp/s.out" || ko "symlink: rc $rc"
[ -z "$(ls -A "$tmp/victim")" ] || ko "symlink: written into the link's target: $(ls "$tmp/victim")"
ln -s "$tmp/nowhere" "$tmp/dangling"
timeout 240 "$rec" -o "$tmp/dangling" -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/s2.out" 2>&1; rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$tmp/nowhere" ] || ko "dangling symlink: rc $rc: $(cat "$tmp/s2.out")"

# owner: a folder of another user
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
    mkdir "$tmp/theirs" && chown nobody "$tmp/theirs"
    timeout 240 "$rec" -o "$tmp/theirs" -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/o.out" 2>&1; rc=$?
    echo "=== owner (rc $rc)"; cat "$tmp/o.out"
    [ "$rc" -eq 2 ] && grep -q 'not to you' "$tmp/o.out" || ko "owner: rc $rc"
    [ -z "$(ls -A "$tmp/theirs")" ] || ko "owner: written into their folder"
else
    echo "SKIP owner: needs root and a user nobody"
fi

# earlier: any kind of earlier recording
for f in host.evt host.evt.idx evt.1.0.host.1.oevt events.jsonl summary.txt trace.otf2; do
    mkdir "$tmp/e.$f" && : >"$tmp/e.$f/$f"
    timeout 240 "$rec" -o "$tmp/e.$f" -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/e.out" 2>&1; rc=$?
    [ "$rc" -eq 2 ] && grep -q "already holds a recording ($f)" "$tmp/e.out" \
        || ko "earlier $f: rc $rc: $(cat "$tmp/e.out")"
done

# nothing: a job that succeeds without recording anything
timeout 240 "$rec" -o "$tmp/none" -- ${MPIRUN:-mpirun} -np 1 /bin/true >"$tmp/n.out" 2>&1; rc=$?
echo "=== nothing (rc $rc)"; cat "$tmp/n.out"
[ "$rc" -ne 0 ] && grep -q 'left no recording' "$tmp/n.out" || ko "nothing: rc $rc"
[ ! -e "$tmp/none" ] && grep -q 'removed (it was empty)' "$tmp/n.out" ||
    ko "nothing: the empty folder was left"

# busy: the first recorder holds its folder until it exits
(timeout 240 "$rec" -o "$tmp/busy" -- ${MPIRUN:-mpirun} -np 1 sleep 6 >"$tmp/b1.out" 2>&1) &
first=$!
n=0
while [ $n -lt 500 ] && [ ! -d "$tmp/busy" ]; do sleep 0.01; n=$((n + 1)); done
sleep 1
timeout 240 "$rec" -o "$tmp/busy" -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/b2.out" 2>&1; rc=$?
echo "=== busy (rc $rc)"; cat "$tmp/b2.out"
[ "$rc" -eq 2 ] && grep -q 'is being recorded into by another' "$tmp/b2.out" || ko "busy: rc $rc"
grep -q 'ompi.mpi' "$tmp/b2.out" && ko "busy: the second job ran"
wait $first

# readonly
if [ "$(id -u)" -ne 0 ]; then
    mkdir -m 500 "$tmp/ro"
    timeout 240 "$rec" -o "$tmp/ro" -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/r.out" 2>&1; rc=$?
    echo "=== readonly (rc $rc)"; cat "$tmp/r.out"
    [ "$rc" -eq 2 ] && grep -q 'cannot write there' "$tmp/r.out" || ko "readonly: rc $rc"
    chmod 700 "$tmp/ro"
else
    echo "SKIP readonly: root writes into any folder"
fi

# options: checked before the job
for o in "--format jsonl,bogus" "--events ompi.mpi.p2p_*,"; do
    timeout 240 "$rec" -o "$tmp/opt" $o -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/p.out" 2>&1; rc=$?
    echo "=== options $o (rc $rc)"; cat "$tmp/p.out"
    [ "$rc" -eq 2 ] && [ ! -e "$tmp/opt" ] && ! grep -q 'ompi-evt-record: job' "$tmp/p.out" ||
        ko "options $o: rc $rc"
done

# signal: SIGTERM during the job
(timeout 240 "$rec" -o "$tmp/sig" -- ${MPIRUN:-mpirun} -np 2 "$app" sleep 10 30 >"$tmp/t.out" 2>&1
    echo $? >"$tmp/t.rc") &
n=0
while [ $n -lt 1000 ] && ! ls "$tmp/sig" 2>/dev/null | grep -q .; do sleep 0.01; n=$((n + 1)); done
sleep 1
pkill -TERM -f "ompi-evt-record -o $tmp/sig" || ko "signal: no recorder to stop"
wait
rc=$(cat "$tmp/t.rc")
echo "=== signal (rc $rc)"; grep -v '^\[' "$tmp/t.out" | head -20
[ "$rc" -eq 143 ] || ko "signal: rc $rc, want 143"
[ -s "$tmp/sig/summary.txt" ] || ko "signal: no outputs written"

[ "$fail" -eq 0 ] && echo "test_record_dirs: all checks passed"
exit $fail
