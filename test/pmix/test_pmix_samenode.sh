#!/bin/sh
# Clock alignment on one node: ranks that read the same clock as rank 0
# (same node, same boot, no test skew) must get an offset of exactly 0,
# never measured: a measured one is noise of about a microsecond, different
# per rank, and short messages between ranks of the node would then
# complete before they were sent. 4 ranks on this machine ping-pong many
# short messages (rank r with r + 2), recorded through evt/pmix into a node
# file, read by ompi-evt-listen; evt_pmix_clockcheck checks events.jsonl:
# no receive completes before its send started, and every offset sample
# of every rank is exactly 0 (tolerance 0).
. "$(dirname "$0")/evt_pmix_common.sh"
: "${LISTEN:?LISTEN must name ompi-evt-listen}"
rounds=3000
d=$(sink_dir samenode)
run samenode timeout 180 "$MPIRUN" -np 4 --oversubscribe -x LD_LIBRARY_PATH \
    -x OMPI_MCA_mca_base_component_path --mca evt pmix --mca evt_pmix_sink "$d" \
    --mca evt_pmix_verbose 10 "$PWD/evt_pmix_pingpong" -n $rounds -s 0
[ "$rc" -eq 0 ] || fail "samenode: mpirun exit $rc"
expect_grep 4 "clock offset to rank 0 at MPI_Init: 0 ns (+- 0 ns)" "$scratch/samenode.out"
expect_grep 4 "clock offset to rank 0 at MPI_Finalize: 0 ns (+- 0 ns)" "$scratch/samenode.out"
run samenode-read timeout 120 "$LISTEN" --read "$d" -o "$scratch/samenode.res" --format jsonl
[ "$rc" -eq 0 ] || fail "samenode: ompi-evt-listen --read exit $rc"
# 2 pairs x 2 messages per round
run check timeout 120 ./evt_pmix_clockcheck -t 0 -m $((rounds * 4)) \
    "$scratch/samenode.res/events.jsonl"
[ "$rc" -eq 0 ] || fail "samenode: a receive completes before its send, or an offset is not 0"
finish
