#!/bin/sh
# The node sink on a file that cannot grow: batches that do not fit are
# written as counts of their dropped events (same batch numbers, FINAL
# kept) into the room the sink keeps for that, so every event is still
# accounted for exactly (evt_pmix_check); the sink rank says so on its
# stderr when it happens and at the end; ompi-evt-listen exits 1 (the
# recording is incomplete) with its outputs written.
#   1. RLIMIT_FSIZE of 1024 blocks on the sink rank (512 KiB in sh, 1 MiB
#      in bash; any user; SIGXFSZ ignored, as a write past the limit must
#      fail rather than kill)
#   2. a 1 MiB tmpfs (needs root and mount; skipped with a line otherwise)
. "$(dirname "$0")/evt_pmix_common.sh"
N=100000

# 1. the file size limit, set in rank 0 only (the sink); shared memory
#    between the ranks is left out (its files would meet the limit too)
cat >"$scratch/limited.sh" <<'A'
#!/bin/sh
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ]; then
    trap '' XFSZ
    ulimit -f 1024
fi
exec "$@"
A
chmod +x "$scratch/limited.sh"
d=$(sink_dir fsize)
run fsize timeout 180 "$MPIRUN" -np 2 --oversubscribe --mca btl self,tcp --mca evt pmix \
    --mca evt_pmix_sink "$d" "$scratch/limited.sh" ./evt_pmix_producer -n $N -c 3
[ "$rc" -eq 0 ] || fail "fsize: mpirun exit $rc"
size=$(stat -c %s "$d"/*.evt)
[ "$size" -le 1048576 ] || fail "fsize: the node file has $size bytes, over the limit"
expect_grep 1 "node sink .*: no room for the batches of this node .*RLIMIT_FSIZE" "$scratch/fsize.out"
expect_grep 1 "node sink .*: [0-9]* batch(es) holding [0-9]* event(s) did not fit .*The recording is incomplete: [0-9]* of them are in the file as counts of dropped events per rank and type\$" \
    "$scratch/fsize.out"
h=$(basename "$(ls "$d"/*.evt | head -1)" .evt)
run fsize.check ./evt_pmix_check -v -N 2 -n $N -c 3 -H "$h=0,1" "$d"/*.evt
[ "$rc" -eq 0 ] || fail "fsize: the node file does not account for every event"
grep -q "numbered events reported dropped: [1-9]" "$scratch/fsize.check.out" ||
    fail "fsize: nothing was counted as dropped (did the limit apply?)"
run fsize.listen timeout 120 "$LISTEN" --read "$d" -o "$scratch/fsize.listen" --summary-only --quiet
[ "$rc" -eq 1 ] || fail "fsize: ompi-evt-listen exit $rc (want 1: incomplete)"
expect_grep 1 "the recording is incomplete: [1-9][0-9]* batches found no room where they were recorded" \
    "$scratch/fsize.listen.out"
[ -f "$scratch/fsize.listen/summary.txt" ] || fail "fsize: no summary.txt written"

# 2. a full file system
m="$scratch/tmpfs"
mkdir -p "$m"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m,mode=0700 tmpfs "$m" 2>/dev/null; then
    trap 'umount "$m" 2>/dev/null; cleanup' EXIT
    trap 'exit 1' INT TERM HUP
    run tmpfs timeout 180 "$MPIRUN" -np 2 --oversubscribe --mca btl self,tcp --mca evt pmix \
        --mca evt_pmix_sink "$m" ./evt_pmix_producer -n $N -c 3
    [ "$rc" -eq 0 ] || fail "tmpfs: mpirun exit $rc"
    expect_grep 1 "node sink .*: no room for the batches of this node" "$scratch/tmpfs.out"
    h=$(basename "$(ls "$m"/*.evt | head -1)" .evt)
    run tmpfs.check ./evt_pmix_check -v -N 2 -n $N -c 3 -H "$h=0,1" "$m"/*.evt
    [ "$rc" -eq 0 ] || fail "tmpfs: the node file does not account for every event"
    grep -q "numbered events reported dropped: [1-9]" "$scratch/tmpfs.check.out" ||
        fail "tmpfs: nothing was counted as dropped (was the file system full?)"
    run tmpfs.listen timeout 120 "$LISTEN" --read "$m" -o "$scratch/tmpfs.listen" --summary-only \
        --quiet
    [ "$rc" -eq 1 ] || fail "tmpfs: ompi-evt-listen exit $rc (want 1: incomplete)"
    umount "$m" || fail "tmpfs: cannot unmount $m"
else
    echo "SKIP (part 2): a 1 MiB tmpfs cannot be mounted here (needs root and mount)"
fi
finish
