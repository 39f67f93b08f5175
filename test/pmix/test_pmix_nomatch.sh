#!/bin/sh
# An evt_pmix_events pattern that matches no event type known at MPI_Init
# is said once per job, on rank 0's stderr (not through show_help, which
# Open MPI 4.1.4's mpirun may lose), and the job still runs. The same
# through ompi-evt-record --events, with either transport (evt_file_events
# for shm). A pattern that matches is not named.
. "$(dirname "$0")/evt_pmix_common.sh"
: "${EVT_TOP_BUILDDIR:?run from make check}"
warning='evt_pmix_events pattern "nosuch\.\*" matches none'

run nomatch timeout 120 "$MPIRUN" -np 2 --oversubscribe -x LD_LIBRARY_PATH \
    -x OMPI_MCA_mca_base_component_path --mca evt pmix --mca evt_pmix_events \
    'ompi.mpi.*,nosuch.*' "$PWD/evt_pmix_pingpong" -n 5
[ "$rc" -eq 0 ] || fail "nomatch: mpirun exit $rc"
n=$(grep -c -- "$warning" "$scratch/nomatch.out")
[ "$n" -eq 1 ] || fail "nomatch: the warning appears $n times (want once per job)"
if grep -q 'pattern "ompi\.mpi\.\*"' "$scratch/nomatch.out"; then
    fail "nomatch: a pattern that matches is named"
fi
if grep -q "selects no event type" "$scratch/nomatch.out"; then
    fail "nomatch: ompi.mpi.* selects events, yet the job is told none"
fi

for t in pmix shm; do
    case $t in
    pmix) param=evt_pmix_events ;;
    shm) param=evt_file_events ;;
    esac
    run "record-$t" timeout 180 "$EVT_TOP_BUILDDIR/tools/ompi-evt-record" --transport $t \
        -o "$scratch/rec-$t" --events 'nosuch.*' -- "$MPIRUN" -np 2 --oversubscribe \
        -x LD_LIBRARY_PATH -x OMPI_MCA_mca_base_component_path "$PWD/evt_pmix_pingpong" -n 5
    [ "$rc" -eq 0 ] || fail "record, $t: exit $rc"
    n=$(grep -c -- "$param pattern \"nosuch\.\*\" matches none" "$scratch/record-$t.out")
    [ "$n" -eq 1 ] || fail "record, $t: the warning appears $n times (want once per job)"
    expect_grep 1 "$param \"nosuch\\.\\*\" selects no event type" "$scratch/record-$t.out"
done
finish
