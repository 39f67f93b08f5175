#!/bin/sh
# evt/pmix under Open MPI 4.1.4's mpirun, np 4 --oversubscribe, one node
# sink: every numbered event and every built-in event of every rank is in
# the node file exactly once, or reported as dropped, exactly (decoded with
# the wire decoder by evt_pmix_check). Local tools keep their callbacks
# (-l: delivered + dropped == raised in each rank).
. "$(dirname "$0")/evt_pmix_common.sh"
N=100000

# 1. defaults: drops allowed only if accounted
d=$(sink_dir run1)
run run1 timeout 120 "$MPIRUN" -np 4 --oversubscribe --mca evt pmix --mca evt_pmix_sink "$d" \
    --mca evt_base_verbose 10 ./evt_pmix_producer -n $N -c 10 -l
[ "$rc" -eq 0 ] || fail "run1: mpirun exit $rc"
expect_grep 4 "evt:base:select: selected component pmix" "$scratch/run1.out"
expect_grep 4 "^local rank [0-3]: delivered [0-9]* dropped [0-9]* raised $N\$" "$scratch/run1.out"
expect_grep 1 "evt:pmix:sink: node sink of" "$scratch/run1.out"
files=$(ls "$d"/*.evt 2>/dev/null | wc -l)
[ "$files" -eq 1 ] || fail "run1: $files node files (want 1)"
h=$(basename "$(ls "$d"/*.evt | head -1)" .evt)
run check1 ./evt_pmix_check -v -N 4 -n $N -c 10 -H "$h=0,1,2,3" "$d"/*.evt
[ "$rc" -eq 0 ] || fail "run1: the node file does not account for every event"

# 2. starved: 4 KiB rings, 4 KiB batches, 2 notifications in flight: drops
#    and waits for slots happen, and every one is accounted
d=$(sink_dir run2)
run run2 timeout 120 "$MPIRUN" -np 4 --oversubscribe --mca evt pmix --mca evt_pmix_sink "$d" \
    --mca evt_pmix_ring_size 4096 --mca evt_pmix_batch_bytes 4096 --mca evt_pmix_max_inflight 2 \
    --mca evt_pmix_verbose 10 ./evt_pmix_producer -n $N -c 10
[ "$rc" -eq 0 ] || fail "run2: mpirun exit $rc"
run check2 ./evt_pmix_check -v -D -N 4 -n $N -c 10 "$d"/*.evt
[ "$rc" -eq 0 ] || fail "run2: drops not accounted exactly"

# 3. paced raises (100,000/s per rank): nothing may be dropped
d=$(sink_dir run3)
run run3 timeout 120 "$MPIRUN" -np 4 --oversubscribe --mca evt pmix --mca evt_pmix_sink "$d" \
    ./evt_pmix_producer -n 20000 -r 100000 -c 3
[ "$rc" -eq 0 ] || fail "run3: mpirun exit $rc"
run check3 ./evt_pmix_check -v -Z -N 4 -n 20000 -c 3 "$d"/*.evt
[ "$rc" -eq 0 ] || fail "run3: events missing"
finish
