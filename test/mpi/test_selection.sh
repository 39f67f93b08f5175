#!/bin/sh
# Selection of the evt component, through mpirun (np 2) and ompi-evt-info:
#   --mca evt sync              -> sync selected (priority 20), events delivered
#   --mca evt ^sync,ring,pmix,file -> inline, and evt_base_verbose says why; events
#                                  still delivered (sync semantics)
#   --mca evt_sync_priority 5   -> sync at priority 5
#   no evt_base_verbose         -> no selection chatter
#   ompi-evt-info (--parsable)  -> components, priorities, selected, variables,
#                                  sources and events with their layouts
set -u
fail=0
B=${EVT_TOP_BUILDDIR:-../..}
probe=./test_select_probe
info=$B/tools/ompi-evt-info
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run() { # run NAME ARGS... : mpirun the probe, keep the output in $out
    name=$1; shift
    ${MPIRUN:-mpirun} -np 2 "$@" "$probe" >"$out" 2>&1
    rc=$?
    echo "=== $name (rc $rc)"; cat "$out"
    [ "$rc" -eq 0 ] || { echo "FAIL [$name]: exit $rc"; fail=1; }
    ok=$(grep -Ec '^rank [01]: [1-9][0-9]* passed, 0 failed$' "$out")
    [ "$ok" -eq 2 ] || { echo "FAIL [$name]: $ok ranks passed"; fail=1; }
}
expect() { # expect NAME COUNT PATTERN : PATTERN matches COUNT lines of $out
    n=$(grep -Ec -- "$3" "$out")
    [ "$n" -eq "$2" ] || { echo "FAIL [$1]: '$3' matched $n lines, want $2"; fail=1; }
}

run sync --mca evt sync --mca evt_base_verbose 10
expect sync 2 '^rank [01]: delivery: sync$'
expect sync 2 '^rank [01]: priority: 20$'
expect sync 2 'evt:base:select: selected component sync \(priority 20\)'

run exclude --mca evt ^sync,ring,pmix,file --mca evt_base_verbose 10
expect exclude 2 '^rank [01]: delivery: inline$'
expect exclude 2 'evt:base:select: no evt component selected: no evt component was found or every one was excluded \(evt = "\^sync,ring,pmix,file"\); events are dispatched at the raise'
expect exclude 0 'selected component sync'

# The recorder (evt/file) and the exporter (evt/pmix) are chosen only when
# named, never as what is left after excluding the others.
run nofile --mca evt ^sync,ring --mca evt_base_verbose 10
expect nofile 2 '^rank [01]: delivery: inline$'
expect nofile 2 'evt:base:select: component file \(priority 0\) is used only when asked for by name'
expect nofile 2 'evt:base:select: component pmix \(priority 0\) is used only when asked for by name'
expect nofile 2 'no evt component was found or every one was excluded \(those of priority 0 or less are used only when asked for by name\) \(evt = "\^sync,ring"\)'
expect nofile 0 'selected component (file|pmix)'

run priority --mca evt_sync_priority 5 --mca evt_ring_priority 1 --mca evt_pmix_priority 1 \
    --mca evt_base_verbose 10
expect priority 2 '^rank [01]: priority: 5$'
expect priority 2 'evt:base:select: component sync available, priority 5'
expect priority 2 'evt:base:select: selected component sync \(priority 5\)'

run quiet --mca evt sync
expect quiet 2 '^rank [01]: delivery: sync$'
expect quiet 0 'evt:base:'

# The environment works as well as --mca (OMPI_MCA_evt=^sync,ring,pmix,file;
# with only ^sync the ring component would be selected).
OMPI_MCA_evt=^sync,ring,pmix,file run env
expect env 2 '^rank [01]: delivery: inline$'

# ompi-evt-info
"$info" --parsable >"$out" 2>&1; rc=$?
echo "=== info (rc $rc)"; cat "$out"
[ "$rc" -eq 0 ] || { echo "FAIL [info]: exit $rc"; fail=1; }
expect info 1 '^evt:component:sync:priority:20$'
expect info 1 '^evt:component:sync:selected:yes$'
expect info 1 '^evt:delivery:sync$'
expect info 1 '^mca:evt:sync:param:evt_sync_priority:value:20$'
expect info 1 '^mca:evt:base:param:evt_base_verbose:value:'
expect info 1 '^source:[0-9]+:ompi:ordering:ordered$'
expect info 1 '^source:[0-9]+:ompi:ticks_per_second:1000000000$'
expect info 1 '^event:[0-9]+:ompi.mpi.initialization:source:ompi$'
expect info 1 '^event:[0-9]+:ompi.mpi.initialization:level:1$'
expect info 1 '^event:[0-9]+:ompi.mpi.initialization:bind:none$'
expect info 1 '^event:[0-9]+:ompi.mpi.initialization:extent:24$'
expect info 5 '^event:[0-9]+:ompi.mpi.initialization:element:'
expect info 1 '^event:[0-9]+:ompi.mpi.initialization:element:3:world_size:int32:12$'
expect info 1 '^event:[0-9]+:ompi.mpi.initialization:element:4:instance_id:uint64:16$'
expect info 3 '^event:[0-9]+:ompi.mpi.finalization:element:'
expect info 1 '^event:[0-9]+:ompi.mpi.finalization:element:2:instance_id:uint64:8$'

"$info" --parsable --mca evt ^sync,ring,pmix,file >"$out" 2>&1
echo "=== info ^sync"; cat "$out"
expect info-exclude 1 '^evt:delivery:inline:reason:no evt component was found or every one was excluded$'
expect info-exclude 0 '^evt:component:sync:selected:yes$'

"$info" -p --mca evt_sync_priority 7 >"$out" 2>&1
echo "=== info priority"; cat "$out"
expect info-priority 1 '^evt:component:sync:priority:7$'
expect info-priority 1 '^mca:evt:sync:param:evt_sync_priority:value:7$'

"$info" >"$out" 2>&1; rc=$?
echo "=== info (human, rc $rc)"; cat "$out"
[ "$rc" -eq 0 ] || { echo "FAIL [info-human]: exit $rc"; fail=1; }
expect info-human 1 '^  sync +priority +20  selected$'
expect info-human 1 'ompi.mpi.initialization \(source ompi, level 1, bind none, flags none, 24 bytes\)'
expect info-human 1 'layout: [^ ]+:int32@0 [^ ]+:int32@4 [^ ]+:int32@8 [^ ]+:int32@12 [^ ]+:uint64@16$'

exit $fail
