#!/bin/sh
# A job's one-sided calls in the outputs a person opens: test_rma_events
# (every communication and synchronisation call, in fence, PSCW and
# passive-target epochs, on a window over the world and one over a
# communicator that reverses the ranks) under ompi-evt-record with -np 4.
# events.jsonl (parsed as JSON): per rank, the number of calls of every
# kind the program makes (the recording listens from MPI_Init: the fences
# before and after the program's own listener are in it too), each target's
# world rank as its window says; trace.json (parsed): one slice per call on
# a "one-sided" thread, named after the call; trace.otf2 (otf2-print, no
# warning): an RmaPut, RmaGet or RmaAtomic per communication call of that
# kind, a RmaCollectiveBegin/End per fence, an RmaAcquireLock per lock, an
# RmaReleaseLock per unlock, an RmaSync per flush, and the windows defined.
# Skipped (77) without python3.
. "$(dirname "$0")/evt_output_test.sh"

timeout 180 "$rec" -q -o "$tmp/rec" -- ${MPIRUN:-mpirun} -np 4 --oversubscribe \
    "$PWD/test_rma_events" >"$tmp/log" 2>&1
rc=$?
cat "$tmp/log"
[ "$rc" -eq 0 ] || ko "ompi-evt-record exit $rc"
grep -q "test_rma_events: [0-9]* passed, 0 failed" "$tmp/log" || ko "the program's own checks"

python3 - "$tmp/rec" >"$tmp/py.out" 2>&1 <<'PY'
import json, sys
d = sys.argv[1]
n = 4
bad = []
ops = ["MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
       "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate"]
syncs = ["MPI_Win_fence", "MPI_Win_post", "MPI_Win_start", "MPI_Win_complete", "MPI_Win_wait",
         "MPI_Win_test", "MPI_Win_lock", "MPI_Win_unlock", "MPI_Win_lock_all",
         "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_all", "MPI_Win_flush_local",
         "MPI_Win_flush_local_all", "MPI_Win_sync"]
# what test_rma_events calls on every rank: four rounds of the eight
# plain communication calls, one of the four request forms
want_ops = {"MPI_Put": 4, "MPI_Get": 4, "MPI_Accumulate": 4, "MPI_Get_accumulate": 8,
            "MPI_Fetch_and_op": 8, "MPI_Compare_and_swap": 4, "MPI_Rput": 1, "MPI_Rget": 1,
            "MPI_Raccumulate": 1, "MPI_Rget_accumulate": 1}
want_syncs = {"MPI_Win_fence": 6, "MPI_Win_post": 2, "MPI_Win_start": 2, "MPI_Win_complete": 2,
              "MPI_Win_wait": 1, "MPI_Win_test": 1, "MPI_Win_lock": 2, "MPI_Win_unlock": 2,
              "MPI_Win_lock_all": 1, "MPI_Win_unlock_all": 1, "MPI_Win_flush": 1,
              "MPI_Win_flush_all": 1, "MPI_Win_flush_local": 1, "MPI_Win_flush_local_all": 1,
              "MPI_Win_sync": 1}
events = [json.loads(l) for l in open(d + "/events.jsonl")]
op_ev = [e for e in events if e.get("event") == "ompi.mpi.rma_op"]
sync_ev = [e for e in events if e.get("event") == "ompi.mpi.rma_sync"]
for r in range(n):
    got = {}
    for e in op_ev:
        if e["rank"] == r:
            k = ops[e["fields"]["kind"]]
            got[k] = got.get(k, 0) + 1
    if got != want_ops:
        bad.append("rank %d: communication calls %s, want %s" % (r, got, want_ops))
    got = {}
    for e in sync_ev:
        if e["rank"] == r:
            k = syncs[e["fields"]["kind"]]
            got[k] = got.get(k, 0) + 1
    if got != want_syncs:
        bad.append("rank %d: synchronisation calls %s, want %s" % (r, got, want_syncs))
# the two windows: on the world the target is its world rank; on the
# reversed communicator, window rank t is world rank n - 1 - t
for e in op_ev + sync_ev:
    f = e["fields"]
    if f["target"] < 0:
        if f["peer"] != -1:
            bad.append("rank %d: no target but peer %d" % (e["rank"], f["peer"]))
    elif f["peer"] not in (f["target"], n - 1 - f["target"]):
        bad.append("rank %d: target %d is world rank %d" % (e["rank"], f["target"], f["peer"]))
    if not (0 < f["start_time"] <= f["complete_time"]):
        bad.append("rank %d: times %d..%d" % (e["rank"], f["start_time"], f["complete_time"]))
wins = {(e["rank"], e["fields"]["win"]) for e in op_ev + sync_ev}
if len(wins) != 2 * n:
    bad.append("%d windows, want %d" % (len(wins), 2 * n))
trace = json.load(open(d + "/trace.json"))
names = {}
for e in trace["traceEvents"]:
    if e.get("ph") == "M" and e.get("name") == "thread_name":
        names[(e["pid"], e["tid"])] = e["args"]["name"]
slices = [e for e in trace["traceEvents"] if e.get("ph") == "X"
          and names.get((e["pid"], e["tid"]), "").startswith("one-sided ")]
if len(slices) != len(op_ev) + len(sync_ev):
    bad.append("%d one-sided slices in trace.json, %d events" % (len(slices),
                                                                   len(op_ev) + len(sync_ev)))
if any(s["name"] not in ops + syncs for s in slices):
    bad.append("slices named %s" % sorted({s["name"] for s in slices} - set(ops + syncs)))
count = lambda evs, ks: sum(1 for e in evs if e["fields"]["kind"] in ks)
# what trace.otf2 must hold, from the events
print("want RMA_PUT %d" % count(op_ev, (0, 6)))
print("want RMA_GET %d" % count(op_ev, (1, 7)))
print("want RMA_ATOMIC %d" % count(op_ev, (2, 3, 4, 5, 8, 9)))
print("want RMA_COLLECTIVE_BEGIN %d" % count(sync_ev, (0,)))
print("want RMA_COLLECTIVE_END %d" % count(sync_ev, (0,)))
print("want RMA_ACQUIRE_LOCK %d" % count(sync_ev, (6,)))
print("want RMA_RELEASE_LOCK %d" % count(sync_ev, (7,)))
print("want RMA_SYNC %d" % count(sync_ev, (10,)))
print("want RMA_WIN %d" % len(wins))
print("events %d + %d, slices %d" % (len(op_ev), len(sync_ev), len(slices)))
for b in bad:
    print("BAD: " + b)
sys.exit(1 if bad else 0)
PY
prc=$?
cat "$tmp/py.out"
[ "$prc" -eq 0 ] || ko "events.jsonl / trace.json"

otf2-print "$tmp/rec/trace.otf2/traces.otf2" >"$tmp/otf2.txt" 2>"$tmp/otf2.err"
orc=$?
[ "$orc" -eq 0 ] || ko "otf2-print exit $orc"
if [ -s "$tmp/otf2.err" ]; then
    head "$tmp/otf2.err"
    ko "otf2-print wrote to stderr"
fi
otf2-print -G "$tmp/rec/trace.otf2/traces.otf2" >"$tmp/defs.txt" 2>&1
sed -n 's/^want //p' "$tmp/py.out" >"$tmp/want"
[ -s "$tmp/want" ] || ko "no expectations from the events"
while read -r record want; do
    if [ "$record" = RMA_WIN ]; then
        got=$(grep -c "^RMA_WIN " "$tmp/defs.txt")
    else
        got=$(grep -c "^$record " "$tmp/otf2.txt")
    fi
    echo "otf2: $got $record, want $want"
    [ "$got" = "$want" ] || ko "otf2: $got $record records, want $want"
done <"$tmp/want"
if grep -q "^RMA_.*Window: UNDEFINED" "$tmp/otf2.txt"; then
    ko "otf2: an RMA record without its window"
fi
[ $fail -eq 0 ] && echo "PASS: test_rma_record"
exit $fail
