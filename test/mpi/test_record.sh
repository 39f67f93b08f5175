#!/bin/sh
# ompi-evt-record: one command records a job's events and writes the
# outputs, through either transport (pmix: evt/pmix into node files; shm:
# evt/file rings in shared memory copied out by the recorder; auto, the
# default: shm for a job on this host alone, pmix for any other). The app
# is not linked with libompi_evt: the recorder preloads it.
#   ok     with each transport, every rank's events arrive once: 4 ranks x N
#          sends and N receives, one initialization and one finalization
#          each, in events.jsonl, trace.json and the summary; auto records
#          a job on this host through shm, a job on two nodes through pmix,
#          a job whose rings /dev/shm has no room for through pmix
#   exit   the job's exit status is the recorder's
#   abort  a rank calls MPI_Abort: the recorder's status is the job's
#          (non-zero), what arrived is decoded, the summary names the ranks
#          that ended early
#   errors no job, not a launcher, a folder that holds a recording
set -u
fail=0
B=${EVT_TOP_BUILDDIR:?run from make check}
rec="$B/tools/ompi-evt-record"
app=./test_record_app
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ko() { echo "FAIL: $*"; fail=1; }
count() { grep -c -- "$1" "$2" 2>/dev/null || true; }

if readelf -d "$app" | grep -q 'libompi_evt'; then ko "$app is linked with libompi_evt"; fi

N=25
nodes=$tmp/nodes
mkdir "$nodes"
printf 'nodeA slots=2\nnodeB slots=2\n' >"$nodes/hosts"
two_nodes="--hostfile $nodes/hosts --mca plm_rsh_agent $EVT_TOP_SRCDIR/test/two_nodes_agent.sh
    --mca rtc ^hwloc --mca oob_tcp_if_include lo --mca btl_tcp_if_include lo --mca btl self,tcp"
for transport in auto shm pmix auto-two-nodes; do
    where=""
    case $transport in
    auto) opts="" said='--mca evt file,pmix --mca evt_file_priority 1 --mca evt_file_one_node 1 --mca evt_file_dir /dev/shm/ompi-evt-record\..* --mca evt_pmix_sink' ;;
    shm) opts="--transport shm" said='--mca evt file --mca evt_file_dir /dev/shm/ompi-evt-record\.' ;;
    pmix) opts="--transport pmix" said='--mca evt pmix --mca evt_pmix_sink' ;;
    auto-two-nodes) opts="" said='--mca evt file,pmix' where=$two_nodes ;;
    esac
    out="$tmp/ok-$transport"
    # shellcheck disable=SC2086
    EVT_TWO_NODES_DIR=$nodes timeout 180 "$rec" $opts -o "$out" -- ${MPIRUN:-mpirun} -np 4 \
        --oversubscribe $where "$app" ok $N >"$out.out" 2>&1; rc=$?
    echo "=== ok, $transport (rc $rc)"; grep -v '^\[' "$out.out" | head -60
    [ "$rc" -eq 0 ] || ko "ok, $transport: exit $rc"
    grep -q "ompi-evt-record: running: .*$said" "$out.out" \
        || ko "ok, $transport: the added options are not said"
    # the last line: the job's time and the outputs' time, apart
    tail -1 "$out.out" | grep -q '^ompi-evt-record: job [0-9]*\.[0-9][0-9] s, outputs [0-9]*\.[0-9][0-9] s$' \
        || ko "ok, $transport: no closing line with the job's and the outputs' times: $(tail -1 "$out.out")"
    for f in events.jsonl trace.json summary.txt trace.otf2/traces.otf2; do
        [ -s "$out/$f" ] || ko "ok, $transport: no $f"
    done
    for r in 0 1 2 3; do
        for ev in p2p_send_complete p2p_recv_complete; do
            n=$(grep "\"rank\":$r," "$out/events.jsonl" | count "\"event\":\"ompi.mpi.$ev\"" -)
            [ "$n" -eq $N ] || ko "ok, $transport: rank $r: $n $ev, want $N"
        done
        for ev in initialization finalization; do
            n=$(grep "\"rank\":$r," "$out/events.jsonl" | count "\"event\":\"ompi.mpi.$ev\"" -)
            [ "$n" -eq 1 ] || ko "ok, $transport: rank $r: $n $ev, want 1"
        done
    done
    grep -q 'ranks that ended early (no FINAL batch): none' "$out/summary.txt" \
        || ko "ok, $transport: summary does not say that no rank ended early"
    grep -q '"name":"ompi.mpi.p2p_send_complete"' "$out/trace.json" \
        || ko "ok, $transport: trace.json has no send slices"
    # which transport carried them: the recorder's copies of the ranks'
    # rings (shm), or the node sinks' files (pmix)
    copies=$(find "$out" -maxdepth 1 -name '*.oevt' | wc -l)
    nodefiles=$(find "$out" -maxdepth 1 -name '*.evt' | wc -l)
    case $transport in
    auto | shm)
        [ "$copies" -eq 4 ] && [ "$nodefiles" -eq 0 ] \
            || ko "ok, $transport: $copies ring copies and $nodefiles node files, want 4 and 0"
        grep -q 'records copied from the ranks. rings' "$out.out" \
            || ko "ok, $transport: the recorder did not say what it copied" ;;
    pmix)
        [ "$copies" -eq 0 ] && [ "$nodefiles" -eq 1 ] \
            || ko "ok, $transport: $copies ring copies and $nodefiles node files, want 0 and 1" ;;
    auto-two-nodes)
        [ "$copies" -eq 0 ] && [ -f "$out/nodeA.evt" ] && [ -f "$out/nodeB.evt" ] \
            || ko "ok, $transport: $copies ring copies, node files: $(ls "$out")"
        grep -q 'the job did not run on this host alone: its ranks recorded through PMIx' \
            "$out.out" || ko "ok, $transport: the recorder did not say which transport" ;;
    esac
done
mv "$tmp/ok-pmix" "$tmp/ok"

timeout 180 "$rec" -q -o "$tmp/exit" -- ${MPIRUN:-mpirun} -np 2 "$app" exit 3 5 \
    >"$tmp/exit.out" 2>&1; rc=$?
echo "=== exit (rc $rc)"; grep -v '^\[' "$tmp/exit.out" | head -20
[ "$rc" -eq 5 ] || ko "exit: recorder status $rc, want the job's 5"
[ -s "$tmp/exit/events.jsonl" ] || ko "exit: no events.jsonl"
grep -q 'ompi-evt-record: job ' "$tmp/exit.out" && ko "exit: -q printed the times line"

for transport in shm pmix; do
    a="$tmp/abort-$transport"
    timeout 180 "$rec" --transport $transport -o "$a" -- ${MPIRUN:-mpirun} -np 4 --oversubscribe \
        "$app" abort 5 2 >"$a.out" 2>&1; rc=$?
    echo "=== abort, $transport (rc $rc)"; grep -v '^\[' "$a.out" | head -60
    [ "$rc" -ne 0 ] || ko "abort, $transport: recorder status 0"
    [ -s "$a/summary.txt" ] || ko "abort, $transport: no summary"
    # Every rank recorded its messages (the app waits a second before the
    # abort: evt/pmix's timer exports them; evt/file's rings keep them
    # through the rank's death) and none ended cleanly: all four are named.
    early=$(grep 'ranks that ended early (no FINAL batch):' "$a/summary.txt")
    for r in 0 1 2 3; do
        echo "$early" | grep -Eq ": ([0-9 ]* )?$r( |\$)" \
            || ko "abort, $transport: rank $r not named as ended early: $early"
        n=$(grep "\"rank\":$r," "$a/events.jsonl" | count '"event":"ompi.mpi.p2p_send_complete"' -)
        [ "$n" -eq 5 ] || ko "abort, $transport: rank $r: $n sends arrived, want 5"
    done
    grep -q 'ranks that ended early (no FINAL batch): none' "$a/summary.txt" \
        && ko "abort, $transport: the summary says no rank ended early"
done

# auto without room in /dev/shm for the ranks' rings (a container's is
# often 64 MiB): PMIx, said before the job runs (mpirun then refuses
# 100000 ranks at once); a program's own "-n" is not a rank count
timeout 60 "$rec" -o "$tmp/room" -- ${MPIRUN:-mpirun} -np 100000 "$app" ok 1 >"$tmp/room.out" 2>&1
grep -q '/dev/shm has [0-9]* MiB free, less than the [0-9]* MiB the ranks. rings would take on this host: recording through PMIx' \
    "$tmp/room.out" || ko "no room: not said: $(head -3 "$tmp/room.out")"
grep -q 'ompi-evt-record: running: [^ ]*mpirun --mca evt pmix ' "$tmp/room.out" \
    || ko "no room: not recorded through pmix: $(grep running "$tmp/room.out")"
timeout 60 "$rec" -o "$tmp/ownn" -- ${MPIRUN:-mpirun} -np 2 "$app" ok 1 -n 100000 >"$tmp/ownn.out" 2>&1
grep -q 'ompi-evt-record: running: [^ ]*mpirun --mca evt file,pmix ' "$tmp/ownn.out" \
    || ko "the program's own -n counted as ranks: $(grep -E 'running|MiB' "$tmp/ownn.out")"

# errors: each a clear message and a non-zero status, nothing run
"$rec" >"$tmp/e1" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q 'no job to run' "$tmp/e1" || ko "no job: rc $rc: $(cat "$tmp/e1")"
"$rec" -- ls >"$tmp/e2" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q 'is not mpirun or mpiexec' "$tmp/e2" || ko "ls: rc $rc: $(cat "$tmp/e2")"
"$rec" -o "$tmp/ok" -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/e3" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q 'already holds a recording' "$tmp/e3" || ko "reuse: rc $rc: $(cat "$tmp/e3")"
"$rec" --bogus -- ${MPIRUN:-mpirun} -np 1 "$app" ok 1 >"$tmp/e4" 2>&1; rc=$?
[ "$rc" -eq 2 ] || ko "unknown option: rc $rc"

[ "$fail" -eq 0 ] && echo "test_record: all checks passed"
exit $fail
