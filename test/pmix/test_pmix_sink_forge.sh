#!/bin/sh
# The node sink believes PMIx, not the batch: rank 1 sends batches in rank
# 0's name (rank 0's first batch number, and a FINAL one far ahead) and in
# another namespace's name (evt_pmix_producer -F) before any rank raises.
# Every real event of both ranks is in the node file exactly once, none of
# the forged ones is, rank 0 is not reported as ended early, the sink rank
# says on its stderr that it refused them, and the listener reads a clean
# recording.
. "$(dirname "$0")/evt_pmix_common.sh"
N=20000

d=$(sink_dir forge)
run forge timeout 120 "$MPIRUN" -np 2 --oversubscribe --mca evt pmix --mca evt_pmix_sink "$d" \
    ./evt_pmix_producer -n $N -c 3 -F
[ "$rc" -eq 0 ] || fail "forge: mpirun exit $rc"
expect_grep 1 "^producer rank 1: sent 3 forged batches" "$scratch/forge.out"
expect_grep 1 "node sink .*: a batch claiming to come from .* rank 0 was sent by .* rank 1: ignored" \
    "$scratch/forge.out"
expect_grep 1 "node sink .*: 3 batch(es) whose sender was not the process that sent them" \
    "$scratch/forge.out"
if grep -q "did not arrive" "$scratch/forge.out"; then
    fail "forge: a rank was reported as ended early"
fi
files=$(ls "$d"/*.evt 2>/dev/null | wc -l)
[ "$files" -eq 1 ] || fail "forge: $files node files (want 1)"
h=$(basename "$(ls "$d"/*.evt | head -1)" .evt)
# exactly ranks 0 and 1 of one namespace, every event once, tag 7 only
run check ./evt_pmix_check -v -Z -N 2 -n $N -c 3 -H "$h=0,1" "$d"/*.evt
[ "$rc" -eq 0 ] || fail "forge: the node file does not hold exactly the real events"
run listen timeout 120 "$LISTEN" --read "$d" -o "$scratch/forge.listen" --summary-only --quiet
[ "$rc" -eq 0 ] || fail "forge: ompi-evt-listen exit $rc (want 0: the recording is clean)"
finish
