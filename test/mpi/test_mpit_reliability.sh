#!/bin/sh
# What hostile and sloppy tools do, through the public MPI_T API
# (test_mpit_reliability.c),
# each in its own process under evt/sync and evt/ring, with a timeout: a
# scenario that hangs fails here instead of blocking the suite. The
# small rings of the overflow scenario make drops certain.
status=0
run() {
    what=$1; shift
    if env "$@" timeout -k 10 120 ./test_mpit_reliability "$what" >"rel.$what.$$" 2>&1; then
        sed "s/^/[$what $*] /" "rel.$what.$$" | tail -1
    else
        rc=$?
        sed "s/^/[$what $*] /" "rel.$what.$$"
        if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
            echo "FAIL [$what $*]: hung (killed after 120 s)"
        else
            echo "FAIL [$what $*]: exit $rc"
        fi
        status=1
    fi
    rm -f "rel.$what.$$"
}
for evt in sync ring; do
    for what in register_while_freeing free_under_tool_lock finalize_in_callback \
        cycles_while_raising session_end session_end_mpi; do
        run $what OMPI_MCA_evt=$evt
    done
done
run toggle_dropped_handler OMPI_MCA_evt=ring OMPI_MCA_evt_ring_ring_size=4096
run toggle_dropped_handler OMPI_MCA_evt=sync
exit $status
