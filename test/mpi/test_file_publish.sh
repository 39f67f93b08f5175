#!/bin/sh
# evt/file builds its file under a hidden name and gives it its name only
# once the header is written: a rank killed while its (large) file is
# being sized and touched leaves no *.oevt that a reader would find
# without a header. With evt_file_size 1 GiB the build takes long enough
# to be caught: the rank is killed with SIGKILL as soon as its hidden file
# appears; then no *.oevt exists, or (the build was already done) each one
# reads as a recording. A rank left alone publishes its file.
set -u
: "${MPIRUN:=mpirun}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 0700 "$dir"
fail=0
ko() { echo "FAIL: $*"; fail=1; }

mkdir -m 0700 "$dir/rec"
timeout 120 "$MPIRUN" -np 1 --mca evt file --mca evt_file_dir "$dir/rec" \
    --mca evt_file_size 1073741824 ./test_record_app ok 10 >"$dir/job.out" 2>&1 &
job=$!
part= pid=
for _ in $(seq 1 2000); do
    part=$(cd "$dir/rec" && ls -A | grep '^\.evt\..*\.oevt\.part$' | head -1)
    [ -n "$part" ] && break
    sleep 0.005
done
if [ -n "$part" ]; then
    # .evt.JOB.RANK.HOST.PID.oevt.part
    pid=$(echo "$part" | sed 's/.*\.\([0-9]*\)\.oevt\.part$/\1/')
    kill -9 "$pid" 2>/dev/null
    echo "killed pid $pid while its file was $part"
else
    ko "the hidden file being built was never seen"
fi
wait "$job"
for f in "$dir"/rec/*.oevt; do
    [ -e "$f" ] || continue
    if ! ../../tools/ompi-evt-file-read "$f" >/dev/null 2>"$dir/read.err" &&
        grep -q "bad magic" "$dir/read.err"; then
        ko "$f: published without its header"
    fi
done
n=$(find "$dir/rec" -name '*.oevt' | wc -l)
echo "after the kill: $n published file(s), $(ls -A "$dir/rec" | grep -c '\.part$') hidden"

# left alone, the file is published and nothing hidden stays behind
mkdir -m 0700 "$dir/ok"
timeout 120 "$MPIRUN" -np 1 --mca evt file --mca evt_file_dir "$dir/ok" \
    --mca evt_file_size 16777216 ./test_record_app ok 10 >"$dir/ok.out" 2>&1 ||
    ko "job exit $? ($(tail -3 "$dir/ok.out"))"
n=$(find "$dir/ok" -name '*.oevt' | wc -l)
[ "$n" -eq 1 ] || ko "$n published files, want 1"
[ -z "$(ls -A "$dir/ok" | grep '\.part$')" ] || ko "a hidden .part file stayed behind"
f=$(find "$dir/ok" -name '*.oevt' | head -1)
[ -n "$f" ] && ../../tools/ompi-evt-file-read "$f" >/dev/null || ko "$f does not read back"
[ "$fail" -eq 0 ] && echo "PASS" || exit 1
