#!/bin/sh
# Receivers and servers that vanish mid-run, under the tests' own PMIx
# server (3 ranks, range namespace):
#  1. a listener vanishes (_exit, no detach) after 20 batches while a second
#     one stays: the job finishes; the second listener gets every event; what
#     the first one holds is, per rank, batches 0..L without a gap and the
#     numbered events 0..M-1 (so a reader knows what it missed).
#  2. the server is killed (SIGKILL) mid-run: the attached listener is told
#     (lost connection) and holds a clean prefix of each rank's batches; each
#     rank's exporter stops and says what it exported and what it could not
#     (counted) as its last word: Open MPI 4.1.4 itself then ends the rank
#     (exit status 195, from its own lost-connection handler); every rank is
#     gone within the timeout.
. "$(dirname "$0")/evt_pmix_common.sh"
NP=3

# 1. the listener vanishes
tmp="$scratch/l.tmp"; outa=$(sink_dir l.outa); outb=$(sink_dir l.outb)
OMPI_MCA_evt=pmix OMPI_MCA_evt_pmix_range=namespace \
    start_server listener_gone "$tmp" $NP -W "$tmp/readyb" -T 100 -- \
    ./evt_pmix_producer -n 50000 -r 50000 -c 2
timeout 100 ./evt_pmix_listener -a "pid:$spid" -d "$tmp" -o "$outa" -r "$tmp/readya" -x 20 \
    -t 90 >"$scratch/la.out" 2>&1 &
lpid=$!
i=0
while [ ! -f "$tmp/readya" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
run listener_b timeout 100 ./evt_pmix_listener -a "pid:$spid" -d "$tmp" -o "$outb" \
    -r "$tmp/readyb" -N $NP -t 90
[ "$rc" -eq 0 ] || fail "listener b: exit $rc"
wait_pid "$lpid" 30
cat "$scratch/la.out"
expect_grep 1 "listener: vanishing after 20 batches" "$scratch/la.out"
wait_pid "$spid" 100
cat "$scratch/listener_gone.srv"
[ "$rc" -eq 0 ] || fail "listener gone: the job failed ($rc)"
run check_b timeout 60 ./evt_pmix_check -v -N $NP -n 50000 -c 2 "$outb/listener.evt"
[ "$rc" -eq 0 ] || fail "the listener that stayed did not get every event"
run check_a timeout 60 ./evt_pmix_check -P -N $NP -n 50000 "$outa/listener.evt"
[ "$rc" -eq 0 ] || fail "what the vanished listener holds is not a clean prefix"

# 2. the server is killed
tmp="$scratch/s.tmp"; out=$(sink_dir s.out)
mkdir -p "$scratch/pids"
OMPI_MCA_evt=pmix OMPI_MCA_evt_pmix_range=namespace OMPI_MCA_evt_pmix_verbose=10 \
OMPI_MCA_evt_pmix_finalize_timeout=2000 \
    start_server server_gone "$tmp" $NP -W "$tmp/ready" -T 100 -- \
    ./evt_pmix_producer -n 300000 -r 100000 -o "$scratch/pids"
timeout 100 ./evt_pmix_listener -a "pid:$spid" -d "$tmp" -o "$out" -r "$tmp/ready" -t 90 \
    >"$scratch/ls.out" 2>&1 &
lpid=$!
# kill the server once batches flow (about 1 s into the 3 s run)
i=0
while [ "$(ls "$scratch/pids" | wc -l)" -lt $NP ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -9 "$spid"
wait "$spid" 2>/dev/null
wait_pid "$lpid" 30
cat "$scratch/ls.out"
[ "$rc" -eq 3 ] || fail "the listener was not told the server went (exit $rc)"
for f in "$scratch"/pids/producer.*.pid; do
    p=$(cat "$f")
    i=0
    while kill -0 "$p" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 "$p" 2>/dev/null; then
        fail "rank $f ($p) did not finish within 60 s after the server died: killed"
        kill -9 "$p"
    fi
done
cat "$scratch/server_gone.srv"
expect_grep $NP "evt:pmix: evt-test-job-[0-9]*:[0-9]: the PMIx server is gone .*: exporting stopped; [0-9]* records exported in [0-9]* batches, [0-9]* records not exported (counted)" \
    "$scratch/server_gone.srv"
run check_s timeout 60 ./evt_pmix_check -P -N $NP -n 300000 "$out/listener.evt"
[ "$rc" -eq 0 ] || fail "what the listener holds is not a clean prefix"
finish
