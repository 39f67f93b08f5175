#!/bin/sh
# When nothing of a node can be recorded, the user is told every time:
# the reason is written by the rank itself to its stderr (Open MPI 4.1.4's
# mpirun now and then loses the help messages ranks forward during
# MPI_Init), once per node. Each case runs 3 times.
#   1. a sink folder others may write to (no sticky bit): refused
#   2. a sink folder that does not exist: a parameter error
#   3. the index's name is taken: refused, and no node file is left behind
#      (it would block the next run and look foreign to a reader); once the
#      name is free the same folder records again
. "$(dirname "$0")/evt_pmix_common.sh"

open_dir=$(sink_dir open)
chmod 0777 "$open_dir"
for try in 1 2 3; do
    run open$try timeout 60 "$MPIRUN" -np 2 --oversubscribe --mca evt pmix \
        --mca evt_pmix_sink "$open_dir" ./evt_pmix_producer -n 1000
    [ "$rc" -eq 0 ] || fail "open$try: mpirun exit $rc"
    expect_grep 1 "^ompi-evt: ERROR on .*: node sink: cannot create the node file of .* in $open_dir: .*writable by others.*Nothing of this node is recorded" \
        "$scratch/open$try.out"
    [ -z "$(ls "$open_dir")" ] || fail "open$try: files were left in $open_dir"
done

for try in 1 2 3; do
    run missing$try timeout 60 "$MPIRUN" -np 2 --oversubscribe --mca evt pmix \
        --mca evt_pmix_sink "$scratch/nosuch" ./evt_pmix_producer -n 1000
    [ "$rc" -eq 0 ] || fail "missing$try: mpirun exit $rc"
    # once per node: the lowest local rank says it
    n=$(grep -c "^ompi-evt: ERROR on .*: evt/pmix: evt_pmix_sink=$scratch/nosuch: not an existing folder; nothing is exported" \
        "$scratch/missing$try.out")
    [ "$n" -eq 1 ] || fail "missing$try: the reason was said $n times (want 1)"
done

d=$(sink_dir taken)
for try in 1 2 3; do
    : >"$d/$host.evt.idx"
    run taken$try timeout 60 "$MPIRUN" -np 2 --oversubscribe --mca evt pmix \
        --mca evt_pmix_sink "$d" ./evt_pmix_producer -n 1000
    [ "$rc" -eq 0 ] || fail "taken$try: mpirun exit $rc"
    expect_grep 1 "^ompi-evt: ERROR on .*: node sink: cannot create the node file of .*/$host.evt.idx: File exists (files are never overwritten" \
        "$scratch/taken$try.out"
    [ ! -e "$d/$host.evt" ] || fail "taken$try: a node file was left behind"
    rm -f "$d/$host.evt.idx"
done
run free timeout 60 "$MPIRUN" -np 2 --oversubscribe --mca evt pmix --mca evt_pmix_sink "$d" \
    ./evt_pmix_producer -n 1000 -c 2
[ "$rc" -eq 0 ] || fail "free: mpirun exit $rc"
if grep -q "^ompi-evt: ERROR" "$scratch/free.out"; then
    fail "free: an error was reported"
fi
run free.check ./evt_pmix_check -N 2 -n 1000 -c 2 "$d"/*.evt
[ "$rc" -eq 0 ] || fail "free: the folder does not record again"
finish
