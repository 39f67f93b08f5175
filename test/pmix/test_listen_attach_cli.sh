#!/bin/sh
# ompi-evt-listen --attach under the tests' own PMIx server (3 ranks, range
# namespace):
#  1. attached by pid with --ranks 3: it stops when every rank sent its last
#     batch; its attached.evt accounts for every event exactly
#     (evt_pmix_check), and events.jsonl holds every numbered event;
#  1b. rank 1 sends batches in rank 0's name (a FINAL among them) and in
#     another namespace's: refused and counted (exit 1, the outputs still
#     written); it still waits for rank 0's own last batch, and holds every
#     real event exactly once;
#  1c. no room for the reception: kept as counts of drops, exit 1;
#  2. Ctrl-C (SIGINT) mid-run: it stops at once, still writes the outputs,
#     and what it holds is a clean prefix of each rank's batches;
#  3. errors: a malformed target, no server, --read with --attach, the
#     --attach options alone, an output folder that already holds a
#     reception: each exits 2 with a message.
. "$(dirname "$0")/evt_pmix_common.sh"
NP=3
N=20000
LISTEN=../../tools/ompi-evt-listen

# 1. every rank done
tmp="$scratch/a.tmp"; out=$(sink_dir a.out)
OMPI_MCA_evt=pmix OMPI_MCA_evt_pmix_range=namespace \
    start_server all "$tmp" $NP -W "$tmp/ready" -T 100 -- ./evt_pmix_producer -n $N -c 3
run all.listen timeout 100 "$LISTEN" --attach "pid:$spid" --server-tmpdir "$tmp" --ranks $NP \
    --ready "$tmp/ready" --timeout 90 -o "$out"
[ "$rc" -eq 0 ] || fail "all: listener exit $rc"
expect_grep 1 "received [0-9]* batches .* $NP ranks done) into .*attached.evt; stopped: every rank sent its last batch" \
    "$scratch/all.listen.out"
wait_pid "$spid" 100
[ "$rc" -eq 0 ] || { cat "$scratch/all.srv"; fail "all: server (job) exit $rc"; }
run all.check timeout 60 ./evt_pmix_check -v -N $NP -n $N -c 3 "$out/attached.evt"
[ "$rc" -eq 0 ] || fail "all: attached.evt does not hold every event"
for f in events.jsonl trace.json summary.txt; do
    [ -s "$out/$f" ] || fail "all: $out/$f missing or empty"
done
[ -d "$out/trace.otf2" ] || fail "all: $out/trace.otf2 missing"
n=$(grep -c '"event":"ompi.evt_pmix_test_numbered"' "$out/events.jsonl")
[ "$n" -eq $((NP * N)) ] || fail "all: events.jsonl holds $n numbered events, want $((NP * N))"

# 1b. forged senders
tmp="$scratch/f.tmp"; out=$(sink_dir f.out)
OMPI_MCA_evt=pmix OMPI_MCA_evt_pmix_range=namespace \
    start_server forge "$tmp" $NP -W "$tmp/ready" -T 100 -- ./evt_pmix_producer -n $N -c 3 -F
run forge.listen timeout 100 "$LISTEN" --attach "pid:$spid" --server-tmpdir "$tmp" --ranks $NP \
    --ready "$tmp/ready" --timeout 90 -o "$out"
[ "$rc" -eq 1 ] || fail "forge: listener exit $rc (want 1: refused batches)"
expect_grep 1 "received [0-9]* batches .* $NP ranks done) into .*attached.evt; stopped: every rank sent its last batch" \
    "$scratch/forge.listen.out"
expect_grep 1 "3 batches were refused (sent by another process than their sender)" \
    "$scratch/forge.listen.out"
wait_pid "$spid" 100
[ "$rc" -eq 0 ] || { cat "$scratch/forge.srv"; fail "forge: server (job) exit $rc"; }
run forge.check timeout 60 ./evt_pmix_check -v -Z -N $NP -n $N -c 3 "$out/attached.evt"
[ "$rc" -eq 0 ] || fail "forge: attached.evt does not hold exactly the real events"

# 1c. no room for the reception (RLIMIT_FSIZE of 1024 blocks on the
#     listener): what does not fit is kept as counts of dropped events, so
#     every event is still accounted for; the listener says so and exits 1
tmp="$scratch/r.tmp"; out=$(sink_dir r.out)
OMPI_MCA_evt=pmix OMPI_MCA_evt_pmix_range=namespace \
    start_server room "$tmp" $NP -W "$tmp/ready" -T 100 -- ./evt_pmix_producer -n 100000 -c 3
run room.listen timeout 100 sh -c 'trap "" XFSZ; ulimit -f 1024; exec "$@"' sh "$LISTEN" \
    --attach "pid:$spid" --server-tmpdir "$tmp" --ranks $NP --ready "$tmp/ready" --timeout 90 \
    -o "$out" --summary-only --quiet
[ "$rc" -eq 1 ] || fail "room: listener exit $rc (want 1: incomplete)"
expect_grep 1 "no room for what arrives .*: batches that do not fit are kept only as counts" \
    "$scratch/room.listen.out"
expect_grep 1 "the recording is incomplete: [1-9][0-9]* batches found no room" \
    "$scratch/room.listen.out"
wait_pid "$spid" 100
[ "$rc" -eq 0 ] || { cat "$scratch/room.srv"; fail "room: server (job) exit $rc"; }
run room.check timeout 60 ./evt_pmix_check -v -N $NP -n 100000 -c 3 "$out/attached.evt"
[ "$rc" -eq 0 ] || fail "room: attached.evt does not account for every event"
grep -q "numbered events reported dropped: [1-9]" "$scratch/room.check.out" ||
    fail "room: nothing was counted as dropped (did the limit apply?)"

# 2. Ctrl-C while the job runs (3 ranks raising 100000/s for 3 s)
tmp="$scratch/i.tmp"; out=$(sink_dir i.out)
mkdir -p "$scratch/pids"
OMPI_MCA_evt=pmix OMPI_MCA_evt_pmix_range=namespace \
    start_server intr "$tmp" $NP -W "$tmp/ready" -T 100 -- \
    ./evt_pmix_producer -n 300000 -r 100000 -o "$scratch/pids"
timeout 100 "$LISTEN" --attach "pid:$spid" --server-tmpdir "$tmp" --ready "$tmp/ready" \
    -o "$out" >"$scratch/intr.listen.out" 2>&1 &
lpid=$!
i=0
while [ "$(ls "$scratch/pids" | wc -l)" -lt $NP ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -INT "$lpid"
wait_pid "$lpid" 60
cat "$scratch/intr.listen.out"
[ "$rc" -eq 0 ] || fail "intr: listener exit $rc after SIGINT"
expect_grep 1 "stopped: interrupted" "$scratch/intr.listen.out"
[ -s "$out/events.jsonl" ] || fail "intr: no events.jsonl after SIGINT"
wait_pid "$spid" 100
[ "$rc" -eq 0 ] || { cat "$scratch/intr.srv"; fail "intr: the job failed ($rc) after its listener left"; }
run intr.check timeout 60 ./evt_pmix_check -P -N $NP -n 300000 "$out/attached.evt"
[ "$rc" -eq 0 ] || fail "intr: what the listener holds is not a clean prefix"

# 3. errors
bad() { # LABEL EXPECTED-MESSAGE ARGS...
    _b=$1; _m=$2; shift 2
    run "$_b" timeout 30 "$LISTEN" "$@"
    [ "$rc" -eq 2 ] || fail "$_b: exit $rc, want 2"
    expect_grep 1 "$_m" "$scratch/$_b.out"
}
bad target "--attach pid:x" --attach pid:x -o "$(sink_dir e1)"
bad noserver "ompi-evt-listen: " --attach pid:1 --server-tmpdir "$scratch" -o "$(sink_dir e2)"
bad both "exclude each other" --attach system --read "$out"
bad alone "go with --attach" --ranks 3 --read "$out"
bad ranks "--ranks: not a positive count" --attach system --ranks 0
bad again "exists already" --attach system -o "$out"
finish
