#!/bin/sh
# Selecting evt/pmix, and what it refuses:
#  1. a process that is not a PMIx client: evt/pmix declines, the reason at
#     evt_base_verbose (ompi-evt-info, not started by any PMIx server);
#  2. a bad evt_pmix_events: a help message, the job still runs with inline
#     delivery, local tools get every event;
#  3. evt_pmix_events filters: only the numbered events reach the node file
#     (the built-in events' gates stay closed for export), every one of them.
. "$(dirname "$0")/evt_pmix_common.sh"

run info env -u PMIX_NAMESPACE -u PMIX_RANK timeout 60 \
    ../../tools/ompi-evt-info --mca evt pmix --mca evt_base_verbose 10 --parsable
expect_grep 1 "evt:pmix: not usable: this process is not a PMIx client" "$scratch/info.out"
expect_grep 1 "evt:component:pmix:selected:no" "$scratch/info.out"

# Open MPI 4.1.4's mpirun now and then cannot unpack the help messages its
# ranks forward through PMIx during MPI_Init ("ORTE_ERROR_LOG: Data unpack
# would read past end of buffer in file .../orte/util/show_help.c": every
# help message of that run is lost; seen in 1 run of 6 with the normal
# build, more often with ASan's allocator in the ranks). Such a run says
# nothing about evt/pmix: it is repeated, and if every try hits the bug
# the message check is reported as not done (the rest still runs).
help_lost=0
for try in 1 2 3 4 5 6; do
    run badfilter timeout 60 "$MPIRUN" -np 2 --oversubscribe --mca evt pmix \
        --mca evt_pmix_events "ompi.mpi.*,,x" ./evt_pmix_producer -n 1000 -l
    if ! grep -q "ORTE_ERROR_LOG: .*orte/util/show_help.c" "$scratch/badfilter.out"; then
        help_lost=0
        break
    fi
    help_lost=1
    echo "mpirun lost the ranks' help messages (its show_help bug): run $try repeated"
done
[ "$rc" -eq 0 ] || fail "bad filter: mpirun exit $rc"
if [ "$help_lost" -eq 0 ]; then
    expect_grep 1 "cannot use the value of evt_pmix_events" "$scratch/badfilter.out"
else
    echo "NOT CHECKED: mpirun lost the help messages in every try (Open MPI 4.1.4 show_help bug)"
fi
expect_grep 2 "^local rank [01]: delivered 1000 dropped 0 raised 1000\$" "$scratch/badfilter.out"

d=$(sink_dir filter)
run filter timeout 120 "$MPIRUN" -np 2 --oversubscribe --mca evt pmix --mca evt_pmix_sink "$d" \
    --mca evt_pmix_events "ompi.evt_pmix_test_*" ./evt_pmix_producer -n 20000 -c 5 -l
[ "$rc" -eq 0 ] || fail "filter: mpirun exit $rc"
expect_grep 2 "^local rank [01]: delivered 20000 dropped 0 raised 20000\$" "$scratch/filter.out"
run check timeout 60 ./evt_pmix_check -v -X -N 2 -n 20000 "$d"/*.evt
[ "$rc" -eq 0 ] || fail "filter: the node file does not hold exactly the numbered events"
finish
