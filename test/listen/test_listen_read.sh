#!/bin/sh
# ompi-evt-listen --read: outputs, counts across formats, damage, errors,
# options, the time mapping (a node whose clock is off by 5 s) and its
# causality check, rank order whatever order batches arrive in, ranks that
# never reported, which sends and receives may be paired by order, and the
# outputs written on two threads.
# Each case prints "ok" or "FAIL"; the last line is "N passed, M failed".
set -u
L=${LISTEN:?}
P=${OTF2_PRINT:-}
test -n "$P" || P=-
W=$PWD/listen-work
rm -rf "$W" && mkdir -p "$W" && chmod 700 "$W" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
gen() { # gen NAME ARGS...: node files in $W/NAME, expected counts in $W/NAME.exp
    n=$1; shift
    mkdir -m 700 "$W/$n" && ./gen_nodefiles "$W/$n" "$W/$n.exp" "$@" || { bad "gen $n"; return 1; }
}
listen() { # listen EXPECTED_STATUS ARGS...
    want=$1; shift
    "$L" "$@" >"$W/out.txt" 2>"$W/err.txt"
    st=$?
    if test "$st" != "$want"; then
        bad "ompi-evt-listen $* exited $st, expected $want"; cat "$W/err.txt"; return 1
    fi
    return 0
}
checkout() { # checkout DIR EXPECTED [check_listen options]
    d=$1; e=$2; shift 2
    if ./check_listen "$d" "$e" "$P" "$@" >"$W/check.txt" 2>&1; then
        ok "$d: $(tail -1 "$W/check.txt")"
    else
        bad "$d: outputs"; cat "$W/check.txt"
    fi
}

# 1. a 6-rank job on 3 nodes, several batches per rank, with drops, a lost
#    batch, a duplicated batch and a rank killed halfway
gen job --ranks 6 --nodes 3 --iters 300 --batch-bytes 4096 --drops 1:7 --lose 2:1 \
    --duplicate 0:2 --kill 4 &&
    listen 0 --read "$W/job" -o "$W/job.out" && checkout "$W/job.out" "$W/job.exp" --causal
grep -q "^  ompi.mpi.p2p_send_complete rank 1 .* 7$" "$W/job.out/summary.txt" &&
    grep -q "ended early (no FINAL batch): 4$" "$W/job.out/summary.txt" &&
    grep -q "1 duplicate batches read and ignored" "$W/job.out/summary.txt" &&
    ok "summary: drops, early rank, duplicate" || bad "summary: drops, early rank, duplicate"
# the report's numbers say the same: rank 4 ended early, rank 2 lost one
# batch, rank 1 dropped 7 events, the others ended normally
awk -F, '$1 == "ranks" {print $2, $8, $9, $10}' "$W/job.out/report.csv" >"$W/ranks.txt"
printf '0 0 0 1\n1 7 0 1\n2 0 1 1\n3 0 0 1\n4 0 0 0\n5 0 0 1\n' | cmp -s - "$W/ranks.txt" &&
    grep -q "<svg" "$W/job.out/report.html" &&
    test "$(stat -c %a "$W/job.out/report.html")" = 600 &&
    ok "report: drops, lost batch, early rank per rank; report.html 0600" ||
    { cat "$W/ranks.txt"; bad "report: drops, lost batch, early rank per rank"; }
grep -q "events per type and rank" "$W/out.txt" && ok "summary printed" || bad "summary printed"
test "$(stat -c %a "$W/job.out/events.jsonl")" = 600 && ok "outputs are 0600" || bad "outputs are 0600"
ls -a "$W/job.out" | grep -q tmp && bad "temporary files left" || ok "no temporary files left"

# 2. the same read again into the same folder: outputs replaced, identical
listen 0 --read "$W/job" -o "$W/job.out" --quiet && test ! -s "$W/out.txt" &&
    ok "--quiet prints nothing" || bad "--quiet"
cp "$W/job.out/events.jsonl" "$W/first.jsonl"
listen 0 --read "$W/job/nodeA.evt" "$W/job/nodeB.evt" "$W/job/nodeC.evt" -o "$W/job.out" --quiet &&
    cmp -s "$W/first.jsonl" "$W/job.out/events.jsonl" &&
    ok "files named one by one = the folder" || bad "files named one by one"

# 3. clocks: node B's CLOCK_REALTIME 5 s off, corrected by its offset
#    samples: the merged outputs equal the unskewed job's, receives never
#    complete before their sends start; without the samples they do (control)
gen plain --ranks 4 --nodes 2 --iters 40 && listen 0 --read "$W/plain" --quiet &&
    checkout "$W/plain" "$W/plain.exp" --causal
# trace.otf2 as a timeline draws it
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 "$EVT_TOP_SRCDIR/test/listen/check_otf2.py" "$W/plain/trace.otf2/traces.otf2" \
        --print "$P" --min-requests 1 >"$W/otf2check.txt" 2>&1 &&
        ok "trace.otf2: $(grep -c '^PASS' "$W/otf2check.txt") checks of check_otf2.py" ||
        { bad "trace.otf2: check_otf2.py"; grep -v '^PASS' "$W/otf2check.txt"; }
fi
gen skew --ranks 4 --nodes 2 --iters 40 --skew 1:5000000000 && listen 0 --read "$W/skew" --quiet &&
    checkout "$W/skew" "$W/skew.exp" --causal
# the events are identical; the per-rank lines differ by the offsets applied
grep '"time_ns"' "$W/plain/events.jsonl" >"$W/plain.events" &&
    grep '"time_ns"' "$W/skew/events.jsonl" >"$W/skew.events" &&
    cmp -s "$W/plain.events" "$W/skew.events" && cmp -s "$W/plain/trace.json" "$W/skew/trace.json" &&
    grep -q '"rank":2,.*"clock_offsets":\[{"local_realtime_ns"' "$W/skew/events.jsonl" &&
    ok "a 5 s clock skew corrected by offsets: identical events, offsets reported" ||
    bad "skew corrected"
grep -q "^  rank 2 prterun-gen-1@1 on nodeB: offset_us -5000000.000 uncertainty_us 1.000$" \
    "$W/skew/summary.txt" && grep -q "^clock alignment (.*in microseconds):$" "$W/skew/summary.txt" &&
    ok "clock offsets in labelled microseconds" || bad "clock offsets in labelled microseconds"
grep -q "^  causality: 0 violations of [1-9][0-9]* flows" "$W/skew/summary.txt" &&
    ! grep -q causality "$W/err.txt" && ok "causality: no violation after alignment" ||
    bad "causality: no violation after alignment"
gen noofs --ranks 4 --nodes 2 --iters 40 --skew 1:5000000000 --no-offsets &&
    listen 0 --read "$W/noofs" --quiet && checkout "$W/noofs" "$W/noofs.exp" --acausal
# the skewed clock left as it is: the listener reports the violations
listen 0 --read "$W/noofs" --quiet &&
    grep -q "^  causality: [1-9][0-9]* violations of [1-9][0-9]* flows.*; worst: .*; [1-9][0-9]* by more than the clock offsets' uncertainty$" \
        "$W/noofs/summary.txt" &&
    grep -q "causality: [1-9][0-9]* of [1-9][0-9]* send->receive flows" "$W/err.txt" &&
    ok "causality: a skewed clock's violations reported" || bad "causality: skewed clock reported"

# 3a. a second offset sample 200 us off but uncertain by 400 us (a round
#     trip under load) agrees with the first, certain one: the first's
#     value is applied throughout, the events equal the exact job's and
#     the summary says so; the same error claimed certain (50 us) is a
#     change of the clocks and is applied: receives then precede their
#     sends (control)
gen late --ranks 4 --nodes 2 --iters 40 --skew 1:5000000000 --late-sample 200000:400000 &&
    listen 0 --read "$W/late" --quiet && checkout "$W/late" "$W/late.exp" --causal
grep '"time_ns"' "$W/late/events.jsonl" >"$W/late.events" &&
    cmp -s "$W/skew.events" "$W/late.events" &&
    grep -q "offset_us -4999800.000 uncertainty_us 400.000 (applied -5000000.000: within the uncertainty of a more certain sample)" \
        "$W/late/summary.txt" &&
    grep -q '"offset_ns":-4999800000,"uncertainty_ns":400000,"applied_offset_ns":-5000000000' \
        "$W/late/events.jsonl" &&
    ok "an uncertain late sample that agrees is not applied" ||
    bad "an uncertain late sample that agrees is not applied"
gen latesure --ranks 4 --nodes 2 --iters 40 --skew 1:5000000000 --late-sample 200000:50000 &&
    listen 0 --read "$W/latesure" --quiet &&
    checkout "$W/latesure" "$W/latesure.exp" --acausal

# 3b. one host, one CLOCK_MONOTONIC: ranks whose clock pairs were sampled
#     5 us apart (a preempted CLOCK_REALTIME read) are converted with one
#     pair: the events equal those of exact pairs and no receive completes
#     before its send; the same error on four hosts (their own clocks, no
#     offsets measured) does show (control)
gen host1 --ranks 4 --nodes 1 --iters 40 && listen 0 --read "$W/host1" --quiet &&
    checkout "$W/host1" "$W/host1.exp" --causal
gen pairerr --ranks 4 --nodes 1 --iters 40 --pair-error 5000 &&
    listen 0 --read "$W/pairerr" --quiet && checkout "$W/pairerr" "$W/pairerr.exp" --causal
grep '"time_ns"' "$W/host1/events.jsonl" >"$W/host1.events" &&
    grep '"time_ns"' "$W/pairerr/events.jsonl" >"$W/pairerr.events" &&
    cmp -s "$W/host1.events" "$W/pairerr.events" &&
    ok "one host: clock pairs 5 us apart give the events of exact pairs" ||
    bad "one host: clock pairs 5 us apart give the events of exact pairs"
gen pairerr4 --ranks 4 --nodes 4 --iters 40 --pair-error 5000 &&
    listen 0 --read "$W/pairerr4" --quiet && checkout "$W/pairerr4" "$W/pairerr4.exp" --acausal

# 4. damage: a truncated file and a corrupted one still give every intact
#    batch, and exit 1
gen dmg --ranks 4 --nodes 2 --iters 300 --batch-bytes 4096 &&
    listen 0 --read "$W/dmg" --quiet && total=$(grep -c '"time_ns"' "$W/dmg/events.jsonl")
size=$(stat -c %s "$W/dmg/nodeA.evt")
truncate -s $((size - 100)) "$W/dmg/nodeA.evt"
listen 1 --read "$W/dmg" --quiet && grep -q TRUNCATED "$W/dmg/summary.txt" &&
    grep -q nodeA.evt "$W/err.txt" && ok "truncated: exit 1, reported" || bad "truncated"
n1=$(grep -c '"time_ns"' "$W/dmg/events.jsonl")
test "$n1" -lt "$total" && test "$n1" -gt $((total / 2)) && ok "truncated: $n1 of $total events" ||
    bad "truncated: $n1 of $total events"
printf 'XXXX' | dd of="$W/dmg/nodeB.evt" bs=1 seek=3000 conv=notrunc 2>/dev/null
listen 1 --read "$W/dmg" --quiet && grep -q DAMAGED "$W/dmg/summary.txt" &&
    ok "corrupted: exit 1, reported" || bad "corrupted"
n2=$(grep -c '"time_ns"' "$W/dmg/events.jsonl")
test "$n2" -lt "$n1" && test "$n2" -gt $((n1 / 2)) && ok "corrupted: $n2 events" || bad "corrupted: $n2 events"
./check_listen "$W/dmg" "$W/dmg.exp" "$P" >"$W/check.txt" 2>&1
# (counts differ from the undamaged job's: only form and order are checked)
! grep -q "FAIL: events.jsonl: .*valid JSON\|FAIL: events.jsonl: every line\|FAIL: events.jsonl: in time order\|FAIL: trace.json parses\|FAIL: trace.json: every event\|FAIL: otf2-print\|FAIL: otf2: time order" "$W/check.txt" &&
    ok "damaged input: outputs still well formed" || { bad "damaged input: outputs"; cat "$W/check.txt"; }

# 5. options
gen opt --ranks 4 --nodes 2 --iters 20
# 4a. in a folder, a file named like an input that is none (a foreign
#     *.evt; a *.oevt whose header is zeros, as a copy cut short by a full
#     disk leaves it) is skipped and said, the rest read: exit 1, every
#     event of the valid files
mkdir -m 700 "$W/mixed" && cp "$W"/opt/*.evt "$W/mixed/" &&
    echo '{"not": "a node file"}' >"$W/mixed/foreign.evt" &&
    head -c 65536 /dev/zero >"$W/mixed/cut.oevt"
listen 0 --read "$W/opt" -o "$W/opt.ref" --format jsonl --quiet
listen 1 --read "$W/mixed" --format jsonl --quiet &&
    grep -q "skipped $W/mixed/foreign.evt: not an ompi-evt node file" "$W/err.txt" &&
    grep -q "skipped $W/mixed/cut.oevt: not an evt/file recording (no header" "$W/err.txt" &&
    test "$(grep -c '"time_ns"' "$W/mixed/events.jsonl")" = "$(grep -c '"time_ns"' "$W/opt.ref/events.jsonl")" &&
    ok "files that are no input in a folder: skipped, said, the rest read, exit 1" ||
    { bad "files that are no input in a folder"; cat "$W/err.txt"; }
listen 0 --read "$W/opt" -o "$W/sel" --events 'ompi.mpi.p2p_*,^*recv*' --quiet &&
    test "$(grep -c '"time_ns"' "$W/sel/events.jsonl")" = "$(awk '/^count ompi.mpi.p2p_send/ {s += $4} END {print s}' "$W/opt.exp")" &&
    ! grep -q 'recv_complete\|initialization' "$W/sel/events.jsonl" &&
    ok "--events selects" || bad "--events"
listen 0 --read "$W/opt" -o "$W/so" --summary-only --quiet && test -f "$W/so/summary.txt" &&
    test ! -e "$W/so/events.jsonl" && test ! -e "$W/so/trace.json" && test ! -e "$W/so/trace.otf2" &&
    ok "--summary-only" || bad "--summary-only"
listen 0 --read "$W/opt" -o "$W/fj" --format jsonl --quiet && test -f "$W/fj/events.jsonl" &&
    test ! -e "$W/fj/trace.json" && test ! -e "$W/fj/trace.otf2" && ok "--format jsonl" || bad "--format jsonl"
listen 0 --read "$W/opt" -o "$W/ns" --nspace other --quiet &&
    grep -q "batches of other namespaces ignored" "$W/ns/summary.txt" &&
    test "$(grep -c '"time_ns"' "$W/ns/events.jsonl")" = 0 && ok "--nspace" || bad "--nspace"

# 6. many clock sources: 64 per process (the most a batch carries), each
#    batch holding all of them, so the registry meets 63 new sources in
#    one batch and grows its per-process clock table while reading it
gen many --ranks 6 --nodes 3 --iters 100 --sources 64 --batch-bytes 65536 &&
    listen 0 --read "$W/many" -o "$W/many.out" --quiet &&
    checkout "$W/many.out" "$W/many.exp" --causal
test "$(grep -c 'tick_[0-9]* rank 5 ' "$W/many.out/summary.txt" 2>/dev/null)" = 63 &&
    ok "64 sources: every one counted" || bad "64 sources: every one counted"

# 7. the ranks' first batches arrive out of rank order (each node's ranks
#    deliver one right after MPI_Init, highest rank first), rank 2 dies
#    before its first batch and rank 3 halfway: OTF2 locations and every
#    list are in rank order, and the rank that never reported is listed
gen order --ranks 4 --nodes 2 --iters 30 --reverse-first --missing 2 --kill 3 &&
    listen 0 --read "$W/order" --quiet && checkout "$W/order" "$W/order.exp" --causal
grep -q "^  job prterun-gen-1@1: 4 ranks, 3 reported, never reported: 2$" "$W/order/summary.txt" &&
    grep -q "^ranks that ended early (no FINAL batch): 2 3$" "$W/order/summary.txt" &&
    grep -q "^  never reported (no batch at all): 2$" "$W/order/summary.txt" &&
    ok "a rank that never reported is listed" || bad "a rank that never reported is listed"
awk '/^processes:/ {p = 1; next} p && /^  rank / {print $2} /^$/ {p = 0}' "$W/order/summary.txt" |
    tr '\n' ' ' | grep -q "^0 1 3 $" && ok "processes in rank order" || bad "processes in rank order"
# the job size also comes from the initialization events when --events
# leaves them out
listen 0 --read "$W/order" -o "$W/order.sel" --events 'ompi.mpi.p2p_*' --quiet &&
    grep -q "^ranks that ended early (no FINAL batch): 2 3$" "$W/order.sel/summary.txt" &&
    ok "job size with --events" || bad "job size with --events"

# 8. messages told apart only by order (one tag, one size) and rank 1's
#    recording missing its oldest batches (a flight window): no arrow joins
#    a receive that ends before its send starts, and exactly the pairs of
#    whole recordings are joined; with whole recordings every pair is
gen window --ranks 4 --nodes 2 --iters 200 --batch-bytes 4096 --same-tag --window 1:3 &&
    listen 0 --read "$W/window" --quiet && checkout "$W/window" "$W/window.exp" --causal
gen sametag --ranks 4 --nodes 2 --iters 200 --batch-bytes 4096 --same-tag &&
    listen 0 --read "$W/sametag" --quiet && checkout "$W/sametag" "$W/sametag.exp" --causal

# 9. the second thread (--threads 2: trace.json and the report written on it,
#    the events handed over in blocks that circulate): the same outputs
#    byte for byte as one thread, on a recording of many blocks
gen threads2 --ranks 4 --nodes 2 --iters 6000 &&
    listen 0 --read "$W/threads2" -o "$W/t2.1" --threads 1 --quiet &&
    listen 0 --read "$W/threads2" -o "$W/t2.2" --threads 2 --quiet &&
    checkout "$W/t2.2" "$W/threads2.exp" --causal
same=yes
for f in events.jsonl trace.json report.csv report.html summary.txt; do
    cmp -s "$W/t2.1/$f" "$W/t2.2/$f" || { same="no ($f)"; break; }
done
if test "$P" != - && test "$same" = yes; then
    "$P" "$W/t2.1/trace.otf2/traces.otf2" >"$W/t2.1.otf2" 2>&1 &&
        "$P" "$W/t2.2/trace.otf2/traces.otf2" >"$W/t2.2.otf2" 2>&1 &&
        cmp -s "$W/t2.1.otf2" "$W/t2.2.otf2" || same="no (trace.otf2)"
fi
test "$same" = yes && ok "--threads 2 writes what --threads 1 writes" ||
    bad "--threads 2 writes what --threads 1 writes: $same"
# a sink failing on either thread (the file size limit: trace.json,
# written on the second thread, or events.jsonl beside the merge, while
# the other thread still writes): exit 2, the error said, no hang, no
# temporary file left
for case in "perfetto,report trace.json" "jsonl,otf2 events.jsonl"; do
    fmt=${case% *}
    rm -rf "$W/limit" && mkdir -m 700 "$W/limit"
    (trap '' XFSZ && ulimit -f 256 && exec timeout 120 "$L" --read "$W/threads2" -o "$W/limit" \
        --format "$fmt" --threads 2 --quiet) >"$W/out.txt" 2>"$W/err.txt"
    st=$?
    test "$st" = 2 && grep -q "writing an output failed" "$W/err.txt" &&
        test -z "$(ls -A "$W/limit" | grep -v '^summary.txt$')" &&
        ok "a failing ${case#* } on --threads 2: exit 2, nothing half-written" ||
        { bad "a failing ${case#* } on --threads 2 (exit $st)"; cat "$W/err.txt"; ls -A "$W/limit"; }
done
listen 2 --read "$W/threads2" --threads 3 && grep -q "threads: 1 or 2" "$W/err.txt" &&
    ok "bad --threads" || bad "bad --threads"
# a node file replaced between the two passes by a recording of more ranks
# and clock sources: the second pass adds nothing to what the first
# learnt, skips and counts the rest, on one thread and on two; and by the
# same ranks further on, where rank 0 (cut short in pass 1, before
# finalizing) now has events of a type only rank 1 had used (13 sources:
# that type's number is past the 16 a process's counts started with)
for c in "1 some" "2 some" "1 none --sources 8" "2 none --sources 8" "1 all" "2 all"; do
    set -- $c
    t=$1 want=$2
    shift 2
    rm -rf "$W/chg" "$W/chg.new" "$W/chg.exp" "$W/chg.new.exp"
    if [ $want = all ]; then
        set -- --iters 400 --batch-bytes 4096 --sources 13
        gen chg --ranks 2 --nodes 1 "$@" --kill 0 && gen chg.new --ranks 2 --nodes 1 "$@"
    else
        gen chg --ranks 2 --nodes 1 --iters 50 && gen chg.new --ranks 4 --nodes 1 --iters 50 "$@"
    fi
    if [ $? = 0 ]; then
        if ./check_changed "$W/chg/nodeA.evt" "$W/chg.new/nodeA.evt" $t $want >"$W/check.txt" 2>&1
        then
            ok "a file changed between the passes ($t threads, $want written): $(tail -1 "$W/check.txt")"
        else
            bad "a file changed between the passes ($t threads, $want written)"; cat "$W/check.txt"
        fi
    fi
done

# a signal while the outputs are written (SIGTERM, SIGHUP; the listener
# stopped at once so that it takes the signal there): the merge stops, the
# temporaries are removed, nothing is half-written, and the listener ends
# by that signal. The listener keeps a signal it was started ignoring (as
# under nohup), so it starts here with the signal's default whatever
# this test inherited.
dflt=
env --default-signal=HUP true 2>/dev/null && dflt=--default-signal=TERM,HUP
if gen sig --ranks 4 --nodes 1 --iters 100000; then
    for c in "TERM 15" "HUP 1"; do
        s=${c% *}
        rm -rf "$W/sig.out" && mkdir -m 700 "$W/sig.out"
        env $dflt "$L" --read "$W/sig" -o "$W/sig.out" --quiet >"$W/out.txt" 2>"$W/err.txt" &
        pid=$!
        n=0
        while [ $n -lt 3000 ] && ! ls -A "$W/sig.out" | grep -q '\.tmp\.'; do
            sleep 0.01
            n=$((n + 1))
        done
        kill -STOP $pid
        kill -$s $pid
        kill -CONT $pid
        wait $pid
        st=$?
        if [ $n -lt 3000 ] && [ $st = $((128 + ${c#* })) ] &&
            grep -q "interrupted by signal" "$W/err.txt" && [ -z "$(ls -A "$W/sig.out")" ]; then
            ok "SIG$s while the outputs are written: exit $st, no temporary left"
        else
            bad "SIG$s while the outputs are written (exit $st, looked $n times)"
            cat "$W/err.txt"
            ls -A "$W/sig.out"
        fi
    done
fi

# 9a. an output that cannot be finished (trace.otf2 in the way, a file)
#     keeps neither the others nor the summary from being written; it is
#     named, left out of the summary's list of outputs, exit 2
mkdir -m 700 "$W/otf2inway" && echo x >"$W/otf2inway/trace.otf2"
listen 2 --read "$W/opt" -o "$W/otf2inway" &&
    grep -q "cannot finish writing trace.otf2" "$W/err.txt" &&
    test -s "$W/otf2inway/events.jsonl" && test -s "$W/otf2inway/trace.json" &&
    test -s "$W/otf2inway/report.html" && test -s "$W/otf2inway/report.csv" &&
    grep -q "^events: .*(in events.jsonl trace.json report.html report.csv)" "$W/otf2inway/summary.txt" &&
    ok "an output that cannot be finished: the others and the summary written, exit 2" ||
    { bad "an output that cannot be finished"; cat "$W/err.txt"; ls -A "$W/otf2inway"; }

# 10. clear errors (exit 2)
listen 2 --read "$W/nosuch" && grep -q "No such file" "$W/err.txt" && ok "no such folder" || bad "no such folder"
echo '{"not": "a node file"}' >"$W/foreign.evt"
listen 2 --read "$W/foreign.evt" && grep -q "not an ompi-evt node file" "$W/err.txt" &&
    ok "foreign file" || bad "foreign file"
mkdir -p "$W/empty"
listen 2 --read "$W/empty" && grep -q "no node files" "$W/err.txt" && ok "folder without node files" ||
    bad "folder without node files"
listen 2 --read "$W/opt" --format jsonl,svg && grep -q 'unknown format "svg"' "$W/err.txt" &&
    ok "unknown format" || bad "unknown format"
listen 2 && grep -q "nothing to read" "$W/err.txt" && ok "no input" || bad "no input"
listen 2 --read "$W/opt" --events 'a,,b' && grep -q "empty pattern" "$W/err.txt" && ok "bad --events" ||
    bad "bad --events"
# counts: digits alone (strtoull takes "-5" as 2^64 - 5 and wraps on overflow)
for v in -5 " 7" +7 0 99999999999999999999999 7x ""; do
    listen 2 --read "$W/opt" --window-events "$v" && grep -q "window-events: not a positive count" "$W/err.txt" &&
        ok "--window-events '$v' refused" || bad "--window-events '$v' refused"
    listen 2 --follow "$W/opt" --ranks "$v" && grep -q "ranks: not a positive count" "$W/err.txt" &&
        ok "--ranks '$v' refused" || bad "--ranks '$v' refused"
done

echo "$pass passed, $fail failed"
test "$fail" = 0
