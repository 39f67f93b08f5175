#!/bin/sh
# ompi-evt-listen --follow, on a job in progress and on files written
# piece by piece:
# 1. a 4-rank job that lasts about 3 s exports to a node sink folder
#    (evt/pmix); --follow on that folder, started with the job, prints a
#    plain view line per interval (stdout is not a terminal) while the job
#    runs, ends by itself once every rank sent its last batch, and writes
#    outputs equal to --read of the folder after the job (events.jsonl and
#    report.csv byte for byte); the events it counted live are the events
#    read.
# 2. a node file copied frame by frame into a followed folder, pausing
#    for 1.5 s with half a frame written: --follow waits for the rest
#    (its own count of events equals the file's, no damage), and its
#    outputs equal --read of the original.
# 3. the same with the last frame left torn for good: --follow counts no
#    damage while it follows; stopped by --timeout (the job never ended), the
#    read after it reports the torn tail (TRUNCATED, exit status 1).
# 4. on a terminal (a pty from script(1)) the view is a screen redrawn in
#    place: cleared, a header, a row per rank with its state.
# 5. ompi-evt-record --live: the view's lines during the recorded run.
# 6. a folder not there (yet): said at once, then waited for until --timeout.
. "$(dirname "$0")/evt_output_test.sh"

# 1. a job in progress
mkdir -m 700 "$tmp/sink"
timeout 120 "$listen" --follow "$tmp/sink" -o "$tmp/live" --interval 0.5 \
    >"$tmp/view.txt" 2>"$tmp/follow.err" &
fpid=$!
timeout 120 ${MPIRUN:-mpirun} -np 4 --oversubscribe --mca evt pmix --mca evt_pmix_sink "$tmp/sink" \
    -x LD_PRELOAD="$B/.libs/libompi_evt.so" "$PWD/report_patterns" slow 30 >"$tmp/job.out" 2>&1 ||
    { cat "$tmp/job.out"; ko "the job's exit status"; }
wait $fpid
frc=$?
cat "$tmp/follow.err"
[ "$frc" -eq 0 ] || ko "--follow exit status $frc"
lines=$(grep -c "^follow: " "$tmp/view.txt")
running=$(grep -c "^follow: .* FINAL 0, events [1-9]" "$tmp/view.txt")
tail -2 "$tmp/view.txt"
[ "$lines" -ge 3 ] && [ "$running" -ge 2 ] &&
    ok "view: $lines lines, $running while the job ran with events" ||
    ko "view: $lines lines, $running while the job ran with events (want >= 3 and >= 2)"
grep -q "^follow: .*ranks 4 of 4, FINAL 4, events [0-9]*.*, damaged 0," "$tmp/view.txt" &&
    grep -q "stopped: every rank sent its last batch" "$tmp/follow.err" &&
    ok "--follow ended by itself when every rank was done" || ko "--follow's end"
"$listen" --read "$tmp/sink" -o "$tmp/after" --quiet || ko "--read after the job"
for f in events.jsonl report.csv; do
    cmp -s "$tmp/live/$f" "$tmp/after/$f" && ok "$f equal to --read after the job" ||
        ko "$f differs from --read after the job"
done
live=$(sed -n 's/.*followed .*: \([0-9]*\) events;.*/\1/p' "$tmp/follow.err")
read=$(grep -c '"event":' "$tmp/after/events.jsonl")
[ -n "$live" ] && [ "$live" = "$read" ] && ok "events counted live ($live) = events read" ||
    ko "events counted live ($live) != events read ($read)"

# 2 and 3: a node file written piece by piece (a frame, its index entry,
# ...; once half a frame and a pause, or a torn end for good)
node=$(ls "$tmp/sink"/*.evt | head -1)
cat >"$tmp/feed.py" <<'PY'
import os, struct, sys, time
src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
data, idx = open(src, "rb").read(), open(src + ".idx", "rb").read()
hlen = struct.unpack_from("<H", data, 6)[0]
frames, pos = [], hlen
while pos < len(data):
    n = struct.unpack_from("<I", data, pos + 4)[0]
    end = min(pos + ((16 + n + 7) & ~7), len(data))
    frames.append((pos, end))
    pos = end
fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
ifd = os.open(dst + ".idx", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, data[:hlen])
os.write(ifd, idx[:16])
pause_at = len(frames) // 2
for k, (a, b) in enumerate(frames):
    last = k == len(frames) - 1
    if (mode == "pause" and k == pause_at) or (mode == "torn" and last):
        half = a + (b - a) // 2
        os.write(fd, data[a:half])
        if mode == "torn":
            break  # the rest never comes
        time.sleep(1.5)
        os.write(fd, data[half:b])
    else:
        os.write(fd, data[a:b])
    os.write(ifd, idx[16 + 32 * k:16 + 32 * (k + 1)])
    time.sleep(0.02)
print("frames %d" % len(frames))
PY
for mode in pause torn; do
    mkdir -m 700 "$tmp/$mode"
    [ $mode = torn ] && limit="--timeout 4" || limit="--ranks 4 --timeout 60"
    # shellcheck disable=SC2086 # limit: words on purpose
    timeout 120 "$listen" --follow "$tmp/$mode" -o "$tmp/$mode.out" --interval 0.25 $limit \
        >"$tmp/$mode.view" 2>"$tmp/$mode.err" &
    fpid=$!
    python3 "$tmp/feed.py" "$node" "$tmp/$mode/node.evt" $mode || ko "$mode: feeding"
    wait $fpid
    rc=$?
    echo "$mode: exit $rc"
    eval "${mode}_rc=$rc"
    tail -1 "$tmp/$mode.view"
    cat "$tmp/$mode.err" | head -5
done
"$listen" --read "$node" -o "$tmp/orig" --quiet
want=$(grep -c '"event":' "$tmp/orig/events.jsonl")
got=$(sed -n 's/.*followed .*: \([0-9]*\) events;.*/\1/p' "$tmp/pause.err")
[ "$got" = "$want" ] && ! grep -q "damaged [1-9]" "$tmp/pause.view" &&
    ok "paused half a frame: the follower waited ($got events of $want, no damage)" ||
    ko "paused half a frame: $got events of $want, or damage reported"
cmp -s "$tmp/orig/events.jsonl" "$tmp/pause.out/events.jsonl" &&
    ok "paused: events.jsonl equal to the original's" || ko "paused: events.jsonl differs"
grep -q "stopped: every rank sent its last batch" "$tmp/pause.err" ||
    ko "paused: --follow did not end with every rank done"
! grep -q "damaged [1-9]" "$tmp/torn.view" && grep -q "stopped: --timeout passed" "$tmp/torn.err" &&
    ok "torn end: no damage while followed" || ko "torn end: damage reported while followed"
grep -q "TRUNCATED" "$tmp/torn.out/summary.txt" && [ "$torn_rc" -eq 1 ] &&
    ok "torn end: reported TRUNCATED (exit 1) once the following ended" ||
    ko "torn end: exit $torn_rc, TRUNCATED not reported after the following"
[ "$pause_rc" -eq 0 ] || ko "paused: exit status $pause_rc"

# 4. a terminal
if command -v script >/dev/null 2>&1; then
    script -qec "'$listen' --follow '$tmp/sink' -o '$tmp/tty.out' --timeout 20" /dev/null \
        >"$tmp/tty.raw" 2>&1
    tr -d '\r' <"$tmp/tty.raw" >"$tmp/tty.txt"
    screen=$(printf '\033[H\033[2J')
    grep -qF "$screen" "$tmp/tty.txt" && grep -q "ompi-evt follow .*ranks 4 of 4, FINAL 4" "$tmp/tty.txt" &&
        grep -q "rank host .*events/s.*state" "$tmp/tty.txt" &&
        test "$(grep -c '^ *[0-3] .* FINAL .* ompi\.mpi\.finalization$' "$tmp/tty.txt")" -eq 4 &&
        ok "terminal: the screen redrawn, a row per rank" || ko "terminal view"
else
    echo "skip: no script(1) for a terminal"
fi

# 5. ompi-evt-record --live
timeout 120 "$B/tools/ompi-evt-record" --live -o "$tmp/rec" -- ${MPIRUN:-mpirun} -np 4 \
    --oversubscribe "$PWD/report_patterns" slow 20 >"$tmp/rec.out" 2>"$tmp/rec.err"
st=$?
# (what the recorder, the job and the listener said, to tell them apart)
[ $st -eq 0 ] || { ko "ompi-evt-record --live exit status $st"; grep -v '^  \|^follow: ' "$tmp/rec.err" | tail -20; }
grep "^follow: " "$tmp/rec.err" | tail -2
[ "$(grep -c '^follow: .*FINAL 0, events [1-9]' "$tmp/rec.err")" -ge 1 ] &&
    grep -q "^follow: .*ranks 4 of 4, FINAL 4" "$tmp/rec.err" && [ -s "$tmp/rec/report.html" ] &&
    ok "ompi-evt-record --live: the view during the run, then the outputs" ||
    ko "ompi-evt-record --live"
# 6. a folder not there yet
timeout 30 "$listen" --follow "$tmp/not-yet" --timeout 1 --quiet 2>"$tmp/notyet.err"
st=$?
[ $st -eq 2 ] && head -1 "$tmp/notyet.err" | grep -q "not-yet: No such file or directory: waiting for it to appear (until --timeout)" &&
    ok "--follow a folder not there yet: said at once, waited until --timeout (exit 2)" ||
    { ko "--follow a folder not there yet (exit $st)"; cat "$tmp/notyet.err"; }
[ $fail -eq 0 ] && echo "PASS: test_follow"
exit $fail
