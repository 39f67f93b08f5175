#!/bin/sh
# A rank killed (SIGKILL) mid-run under mpirun --enable-recovery (the other
# ranks go on): the others' events all arrive, exactly; the killed rank's
# batches stop without a FINAL batch, and hold every numbered event it
# raised before it waited for them to leave (batches numbered 0..L without
# a gap: its last sequence number says where its records stop). The sink
# names the rank whose FINAL batch never came.
. "$(dirname "$0")/evt_pmix_common.sh"
d=$(sink_dir kill)
run kill timeout 120 "$MPIRUN" -np 4 --oversubscribe --enable-recovery --mca evt pmix \
    --mca evt_pmix_sink "$d" --mca evt_pmix_finalize_timeout 3000 --mca evt_pmix_verbose 10 \
    ./evt_pmix_producer -n 20000 -r 200000 -c 2 -k 2:5000 -w 300
expect_grep 1 "producer rank 2 of 4 .*killing itself" "$scratch/kill.out"
expect_grep 3 "^producer rank [013] of 4 .*raised 20000 numbered" "$scratch/kill.out"
expect_grep 1 "the last batch of 1 local rank(s) did not arrive" "$scratch/kill.out"
expect_grep 1 "rank 2 (last batch [0-9]*)" "$scratch/kill.out"
run check timeout 60 ./evt_pmix_check -v -N 4 -n 20000 -c 2 -k 2:5000 "$d"/*.evt
[ "$rc" -eq 0 ] || fail "the node file does not account for the events"
finish
