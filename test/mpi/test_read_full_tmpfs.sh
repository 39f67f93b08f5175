#!/bin/sh
# Reading a recording that lies on a full tmpfs. The copies ompi-evt-record
# makes keep the unused part of each ring as a hole, and on tmpfs a read
# fault on a hole allocates a page: on a full one it fails, and a reader
# that maps the file dies of SIGBUS. A recording made on this machine's
# disk is put on a tmpfs of its own, which is then filled; ompi-evt-file-read
# and ompi-evt-listen must read it there as they read it on the disk: the
# same records, the same status; and ompi-evt-listen writing its outputs
# onto the full tmpfs fails (exit 2) leaving nothing there, temporaries
# included. The tmpfs is mounted as root, or in a user
# namespace of our own (unshare); the test is skipped when neither can.
set -u
B=${EVT_TOP_BUILDDIR:?run from make check}
rec="$B/tools/ompi-evt-record"
fileread="$B/tools/ompi-evt-file-read"
listen="$B/tools/ompi-evt-listen"
tmp=$(mktemp -d)
trap 'umount "$tmp/fs" 2>/dev/null; [ -n "${EVT_KEEP:-}" ] || rm -rf "$tmp"' EXIT

if [ "${1:-}" = inside ]; then
    # the part that runs where the tmpfs may be mounted
    mkdir -p "$tmp/fs" && mount -t tmpfs -o size=256m tmpfs "$tmp/fs" || exit 77
    cp "$2"/*.oevt "$tmp/fs/" || exit 1
    dd if=/dev/zero of="$tmp/fs/fill" bs=1M >/dev/null 2>&1
    for f in "$tmp"/fs/*.oevt; do
        timeout 120 "$fileread" "$f" >"$3/$(basename "$f").full" 2>&1
        echo "$?" >"$3/$(basename "$f").full.rc"
    done
    timeout 120 "$listen" --read "$tmp/fs" --format jsonl -o "$3/listen" >"$3/listen.out" 2>&1
    echo "$?" >"$3/listen.rc"
    # and the outputs written onto the full tmpfs: none can be
    mkdir "$tmp/fs/out"
    timeout 120 "$listen" --read "$2" -o "$tmp/fs/out" >"$3/out.out" 2>&1
    echo "$?" >"$3/out.rc"
    ls -A "$tmp/fs/out" >"$3/out.left"
    umount "$tmp/fs"
    exit 0
fi

fail=0
ko() { echo "FAIL: $*"; fail=1; }
# 300,000 messages a rank: images of several rings, each with its hole
timeout 300 "$rec" --transport shm --format jsonl -o "$tmp/rec" -- ${MPIRUN:-mpirun} -np 2 \
    ./test_record_app send 150000 >"$tmp/rec.out" 2>&1 || { cat "$tmp/rec.out"; exit 1; }
mkdir "$tmp/res" && chmod 777 "$tmp/res"
if [ "$(id -u)" -eq 0 ]; then
    sh "$0" inside "$tmp/rec" "$tmp/res"
elif unshare -rm true 2>/dev/null; then
    unshare -rm sh "$0" inside "$tmp/rec" "$tmp/res"
else
    false
fi
rc=$?
if [ "$rc" -eq 77 ] || { [ "$rc" -eq 1 ] && [ "$(id -u)" -ne 0 ] && ! unshare -rm true 2>/dev/null; }; then
    echo "SKIP: cannot mount a tmpfs here (neither root nor a user namespace)"
    exit 77
fi
[ "$rc" -eq 0 ] || { echo "FAIL: copying the recording onto the tmpfs (status $rc)"; exit 1; }
n=0
for f in "$tmp"/rec/*.oevt; do
    b=$(basename "$f")
    n=$((n + 1))
    "$fileread" "$f" >"$tmp/res/$b.disk" 2>&1
    want=$?
    got=$(cat "$tmp/res/$b.full.rc")
    [ "$got" -lt 128 ] || ko "$b: ompi-evt-file-read died of signal $((got - 128)) on the full tmpfs"
    [ "$got" -eq "$want" ] || ko "$b: ompi-evt-file-read: status $got on the full tmpfs, $want on disk"
    # the records (the file and summary lines name the path)
    grep "\"type\":\"record\"" "$tmp/res/$b.disk" >"$tmp/res/$b.disk.recs"
    grep "\"type\":\"record\"" "$tmp/res/$b.full" >"$tmp/res/$b.full.recs"
    [ -s "$tmp/res/$b.disk.recs" ] || ko "$b: no records read on disk"
    cmp -s "$tmp/res/$b.disk.recs" "$tmp/res/$b.full.recs" \
        || ko "$b: other records read on the full tmpfs ($(wc -l <"$tmp/res/$b.full.recs") against $(wc -l <"$tmp/res/$b.disk.recs"))"
done
[ "$n" -eq 2 ] || ko "$n recordings, want 2"
got=$(cat "$tmp/res/listen.rc")
[ "$got" -eq 0 ] || ko "ompi-evt-listen on the full tmpfs: status $got: $(grep '^ompi-evt-listen' "$tmp/res/listen.out")"
events=$(grep -c '"event":' "$tmp/res/listen/events.jsonl" 2>/dev/null || echo 0)
want=$(grep -c '"event":' "$tmp/rec/events.jsonl")
[ "$events" -eq "$want" ] || ko "ompi-evt-listen on the full tmpfs: $events events, $want on disk"
got=$(cat "$tmp/res/out.rc")
[ "$got" -eq 2 ] || ko "ompi-evt-listen writing onto the full tmpfs: status $got, want 2"
[ ! -s "$tmp/res/out.left" ] || ko "ompi-evt-listen writing onto the full tmpfs left: $(cat "$tmp/res/out.left")"
[ "$fail" -eq 0 ] && echo "test_read_full_tmpfs: $n recordings and $events events read on a full tmpfs as on disk"
exit $fail
