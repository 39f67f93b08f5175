#!/bin/sh
# evt/pmix turns Nagle's algorithm off on each rank's TCP connection to its
# PMIx server (a message after a notification waited for the server's
# delayed acknowledgement): np 3 under Open MPI 4.1.4's mpirun, each rank
# inspects its own connections (evt_pmix_nodelay_check). With evt/pmix
# every connection to the server has TCP_NODELAY; with
# evt_pmix_server_nodelay 0, and without evt/pmix, none has (PMIx leaves it
# off: what makes the first case a test).
. "$(dirname "$0")/evt_pmix_common.sh"

# check LABEL WANT: every rank has >= 1 connection, and WANT says whether
# all of them (all) or none (none) have TCP_NODELAY
check() {
    n=$(grep -c "^rank [0-9]*: [1-9][0-9]* connections to the PMIx server" "$scratch/$1.out")
    [ "$n" -eq 3 ] || fail "$1: $n of 3 ranks found their connection to the server"
    if [ "$2" = all ]; then
        bad=$(grep "^rank [0-9]*: .* connections" "$scratch/$1.out" \
            | awk '{ if ($3 != $(NF - 2)) print }')
    else
        bad=$(grep "^rank [0-9]*: .* connections" "$scratch/$1.out" \
            | awk '{ if ($(NF - 2) != 0) print }')
    fi
    [ -z "$bad" ] || fail "$1: want $2 with TCP_NODELAY: $bad"
}

run on timeout 120 "$MPIRUN" -np 3 --oversubscribe -x LD_LIBRARY_PATH \
    -x OMPI_MCA_mca_base_component_path --mca evt pmix "$PWD/evt_pmix_nodelay_check"
[ "$rc" -eq 0 ] || fail "on: mpirun exit $rc"
check on all

run off timeout 120 "$MPIRUN" -np 3 --oversubscribe -x LD_LIBRARY_PATH \
    -x OMPI_MCA_mca_base_component_path --mca evt pmix --mca evt_pmix_server_nodelay 0 \
    "$PWD/evt_pmix_nodelay_check"
[ "$rc" -eq 0 ] || fail "off: mpirun exit $rc"
check off none

run sync timeout 120 "$MPIRUN" -np 3 --oversubscribe -x LD_LIBRARY_PATH \
    -x OMPI_MCA_mca_base_component_path --mca evt sync "$PWD/evt_pmix_nodelay_check"
[ "$rc" -eq 0 ] || fail "sync: mpirun exit $rc"
check sync none
finish
