#!/bin/sh
# evt/pmix under the tests' own PMIx server (evt_pmix_test_server): 3 ranks
# export with the namespace, session, global and custom ranges to a PMIx tool
# (evt_pmix_listener, on tools/evt_listen_attach) attached by pid, by URI,
# as system server and by the server's namespace. The listener's file must
# account for every event of every rank exactly (evt_pmix_check).
. "$(dirname "$0")/evt_pmix_common.sh"
N=20000
NP=3
one() { # LABEL RANGE TARGET-KIND
    label=$1; range=$2; how=$3
    tmp="$scratch/$label.tmp"; out=$(sink_dir "$label.out")
    OMPI_MCA_evt=pmix OMPI_MCA_evt_pmix_range=$range OMPI_MCA_evt_pmix_verbose=10 \
    OMPI_MCA_evt_pmix_custom_range=evt-test-tool-0 \
        start_server "$label" "$tmp" $NP -W "$tmp/ready" -T 100 -- ./evt_pmix_producer -n $N -c 3
    case $how in
    pid) target="pid:$spid" ;;
    uri) target="uri-file:$tmp/pmix.$host.tool.$spid" ;;
    system) target=system ;;
    nspace) target=nspace:evt-test-srv ;;
    esac
    run "$label.listen" timeout 100 ./evt_pmix_listener -a "$target" -d "$tmp" -o "$out" \
        -r "$tmp/ready" -N $NP -t 90
    [ "$rc" -eq 0 ] || fail "$label: listener exit $rc"
    wait_pid "$spid" 100
    cat "$scratch/$label.srv"
    [ "$rc" -eq 0 ] || fail "$label: server (job) exit $rc"
    expect_grep $NP "evt:pmix: exporting as evt-test-job-[0-9]*:[0-9] .* range $range" "$scratch/$label.srv"
    run "$label.check" timeout 60 ./evt_pmix_check -v -N $NP -n $N -c 3 "$out/listener.evt"
    [ "$rc" -eq 0 ] || fail "$label: the listener did not get every event"
}
one ns_pid namespace pid
one session_uri session uri
one global_system global system
one custom_nspace custom nspace
finish
