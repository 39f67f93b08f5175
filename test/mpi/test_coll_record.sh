#!/bin/sh
# A job's collectives in the outputs a person opens: test_coll_events
# (every collective kind, blocking and nonblocking, and two on an
# intercommunicator) under ompi-evt-record with -np 4, through pmix (the
# one-sided test records through the default, shm on this host, so both
# transports carry the newer event families). Per output:
# events.jsonl (parsed as JSON): every collective event's (cid, seq) on an
# intracommunicator is held by exactly comm_size events, one per comm rank,
# all of the same kind, with the comm_size of the group (a reader can group
# them); trace.json (parsed): one slice per collective event on a
# "collectives" thread, named after the call; trace.otf2 (otf2-print, no
# warning): one MpiCollectiveEnd per intracommunicator collective (the
# neighbourhood collectives, which OTF2 has no operation for, aside), and its
# communicators defined. A context id freed and given to a new communicator
# numbers from 0 again: the groups are told apart by each rank's
# communicator_freed events. Skipped (77) without python3.
. "$(dirname "$0")/evt_output_test.sh"

timeout 180 "$rec" -q --transport pmix -o "$tmp/rec" -- ${MPIRUN:-mpirun} -np 4 --oversubscribe \
    "$PWD/test_coll_events" >"$tmp/log" 2>&1
rc=$?
cat "$tmp/log"
[ "$rc" -eq 0 ] || ko "ompi-evt-record exit $rc"
grep -q "test_coll_events: [0-9]* passed, 0 failed" "$tmp/log" || ko "the program's own checks"

python3 - "$tmp/rec" >"$tmp/py.out" 2>&1 <<'PY'
import json, sys
d = sys.argv[1]
bad = []
kinds = ["MPI_Barrier", "MPI_Bcast", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter",
         "MPI_Scatterv", "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv",
         "MPI_Alltoallw", "MPI_Reduce", "MPI_Allreduce", "MPI_Reduce_scatter",
         "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Exscan", "MPI_Neighbor_allgather",
         "MPI_Neighbor_allgatherv", "MPI_Neighbor_alltoall", "MPI_Neighbor_alltoallv",
         "MPI_Neighbor_alltoallw"]
events = [json.loads(l) for l in open(d + "/events.jsonl")]
coll = [e for e in events if e.get("event") == "ompi.mpi.coll_complete"]
# a context id given to a new communicator numbers from 0 again: walking a
# rank's events in the order it raised them, a communicator_freed event ends
# the life of the context id its handle held (a later communicator may get
# the same handle with another context id, so the handle's last context id
# is not the one it held when freed)
intra = []
by_rank = {}
for e in events:
    if "time_ns" in e and "rank" in e:
        by_rank.setdefault(e["rank"], []).append(e)
for r, evs in by_rank.items():
    evs.sort(key=lambda e: e["time_ns"])
    held = {}
    lives = {}
    for e in evs:
        f = e["fields"]
        if e.get("event") == "ompi.mpi.communicator_freed":
            cid = held.pop(f["handle"], None)
            if cid is not None:
                lives[cid] = lives.get(cid, 0) + 1
        elif e.get("event") == "ompi.mpi.coll_complete":
            held[f["comm"]] = f["cid"]
            if f["flags"] & 1:
                continue
            f["life"] = lives.get(f["cid"], 0)
            intra.append(f)
groups = {}
for f in intra:
    groups.setdefault((f["cid"], f["life"], f["seq"], f["comm_size"]), []).append(f)
for (cid, lf, seq, size), fs in groups.items():
    ranks = sorted(f["comm_rank"] for f in fs)
    if ranks != list(range(size)):
        bad.append("cid %d seq %d: comm ranks %s, want 0..%d" % (cid, seq, ranks, size - 1))
    if len({f["kind"] for f in fs}) != 1:
        bad.append("cid %d seq %d: kinds %s" % (cid, seq, sorted({f["kind"] for f in fs})))
seen = {f["kind"] for f in intra}
if seen != set(range(len(kinds))):
    bad.append("kinds recorded %s, want all %d" % (sorted(seen), len(kinds)))
trace = json.load(open(d + "/trace.json"))
names = {}
for e in trace["traceEvents"]:
    if e.get("ph") == "M" and e.get("name") == "thread_name":
        names[(e["pid"], e["tid"])] = e["args"]["name"]
slices = [e for e in trace["traceEvents"] if e.get("ph") == "X"
          and names.get((e["pid"], e["tid"]), "").startswith("collectives ")]
if len(slices) != len(coll):
    bad.append("%d collective slices in trace.json, %d events" % (len(slices), len(coll)))
if any(s["name"] not in kinds for s in slices):
    bad.append("slices named %s" % sorted({s["name"] for s in slices} - set(kinds)))
print("events %d intra %d groups %d slices %d" % (len(coll), len(intra), len(groups), len(slices)))
# OTF2 has no operation for the neighbourhood collectives (kinds 17..21):
# they are the Enter and Leave of their region, without collective records
print("intra_events %d" % sum(1 for f in intra if f["kind"] < 17))
for b in bad:
    print("BAD: " + b)
sys.exit(1 if bad else 0)
PY
prc=$?
cat "$tmp/py.out"
[ "$prc" -eq 0 ] || ko "events.jsonl / trace.json"
intra=$(sed -n 's/^intra_events //p' "$tmp/py.out")

otf2-print "$tmp/rec/trace.otf2/traces.otf2" >"$tmp/otf2.txt" 2>"$tmp/otf2.err"
orc=$?
[ "$orc" -eq 0 ] || ko "otf2-print exit $orc"
if [ -s "$tmp/otf2.err" ]; then
    head "$tmp/otf2.err"
    ko "otf2-print wrote to stderr"
fi
ends=$(grep -c "^MPI_COLLECTIVE_END " "$tmp/otf2.txt")
begins=$(grep -c "^MPI_COLLECTIVE_BEGIN " "$tmp/otf2.txt")
echo "otf2: $begins MpiCollectiveBegin, $ends MpiCollectiveEnd"
[ "${intra:-x}" = "$ends" ] && [ "$ends" = "$begins" ] ||
    ko "otf2: $begins begin / $ends end records, want $intra each"
otf2-print -G "$tmp/rec/trace.otf2/traces.otf2" >"$tmp/defs.txt" 2>&1
comms=$(grep -c "^COMM " "$tmp/defs.txt")
[ "$comms" -ge 2 ] || ko "otf2: $comms communicators defined (MPI_COMM_WORLD and the duplicates)"
if grep -q "MPI_COLLECTIVE_END .*Communicator: UNDEFINED" "$tmp/otf2.txt"; then
    ko "otf2: a collective record without its communicator"
fi
[ $fail -eq 0 ] && echo "PASS: test_coll_record"
exit $fail
