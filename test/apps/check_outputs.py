#!/usr/bin/python3
"""Checks one recording of a real program against what the program did.

usage: check_outputs.py OUTDIR ORACLEDIR NP [aborted]

Prints one line per check, "PASS: ..." or "FAIL: ...: expected X got Y",
and exits 1 if any check failed:
  - every rank's p2p send and receive completions, its collective
    completions per kind and its one-sided communication and
    synchronisation calls per kind, in events.jsonl equal the preloaded
    oracle's counts of the same rank
  - every rank of the job wrote its initialization and finalization event
With "aborted" (a job that ends by MPI_Abort, as the program means to: no
rank finalizes, and the oracle writes its counts at MPI_Finalize), only
the initialization events and the outputs' own checks below.
  - trace.json parses, every flow start has exactly one end with the
    same id and the other way round, and no arrow points back in time
  - summary.txt reports no receive completing before its send started
"""
import collections
import json
import re
import sys

outdir, oracledir, np_ = sys.argv[1], sys.argv[2], int(sys.argv[3])
aborted = len(sys.argv) > 4 and sys.argv[4] == "aborted"
failed = 0


def check(ok, what, expected, got):
    global failed
    if ok:
        print("PASS: %s" % what)
    else:
        failed += 1
        print("FAIL: %s: expected %s got %s" % (what, expected, got))


events = collections.Counter()
with open(outdir + "/events.jsonl") as f:
    for n, line in enumerate(f, 1):
        try:
            e = json.loads(line)
        except ValueError as err:
            check(False, "events.jsonl line %d parses" % n, "JSON", err)
            continue
        if "event" in e:
            events[(e["rank"], e["event"])] += 1
            if e["event"] == "ompi.mpi.coll_complete":
                events[(e["rank"], "coll%d" % e["fields"]["kind"])] += 1
            elif e["event"] == "ompi.mpi.rma_op":
                events[(e["rank"], "rma_op%d" % e["fields"]["kind"])] += 1
            elif e["event"] == "ompi.mpi.rma_sync":
                events[(e["rank"], "rma_sync%d" % e["fields"]["kind"])] += 1

for r in range(np_ if aborted else 0):
    check(events[(r, "ompi.mpi.initialization")] == 1, "rank %d: one ompi.mpi.initialization" % r,
          1, events[(r, "ompi.mpi.initialization")])

for r in range(0 if aborted else np_):
    oracle = {}
    try:
        with open("%s/rank.%d" % (oracledir, r)) as f:
            for line in f:
                k, v = line.split()
                oracle[k] = int(v)
    except OSError as err:
        check(False, "rank %d: oracle counts" % r, "a file", err)
        continue
    check(oracle.get("unfollowed", 0) == 0,
          "rank %d: the oracle followed every cancelled request" % r, 0, oracle.get("unfollowed"))
    for fam, ev in (("send", "ompi.mpi.p2p_send_complete"), ("recv", "ompi.mpi.p2p_recv_complete")):
        got = events[(r, ev)]
        check(got == oracle[fam], "rank %d: %s events = oracle" % (r, fam), oracle[fam], got)
    for k in range(22):
        fam = "coll%d" % k
        got = events[(r, fam)]
        check(got == oracle[fam], "rank %d: collectives of kind %d = oracle" % (r, k), oracle[fam],
              got)
    for fam_prefix, kinds, what in (("rma_op", 10, "one-sided calls"),
                                    ("rma_sync", 15, "one-sided synchronisations")):
        for k in range(kinds):
            fam = "%s%d" % (fam_prefix, k)
            got = events[(r, fam)]
            check(got == oracle[fam], "rank %d: %s of kind %d = oracle" % (r, what, k),
                  oracle[fam], got)
    for ev in ("ompi.mpi.initialization", "ompi.mpi.finalization"):
        check(events[(r, ev)] == 1, "rank %d: one %s" % (r, ev), 1, events[(r, ev)])

with open(outdir + "/trace.json") as f:
    trace = json.load(f)
starts, ends = collections.Counter(), collections.Counter()
start_ts, end_ts = {}, {}
for e in trace["traceEvents"]:
    if e.get("ph") == "s":
        starts[e["id"]] += 1
        start_ts[e["id"]] = e["ts"]
    elif e.get("ph") == "f":
        ends[e["id"]] += 1
        end_ts[e["id"]] = e["ts"]
bad = [i for i in set(starts) | set(ends) if starts[i] != 1 or ends[i] != 1]
check(not bad, "trace.json: %d flows, each one start and one end" % len(starts), "none unmatched",
      "%d unmatched (e.g. id %s)" % (len(bad), bad[:3]))
back = [i for i in start_ts if i in end_ts and end_ts[i] < start_ts[i]]
check(not back, "trace.json: no arrow points back in time", "none",
      "%d of %d (e.g. id %s)" % (len(back), len(start_ts), back[:3]))

with open(outdir + "/summary.txt") as f:
    summary = f.read()
m = re.search(r"causality: (\d+) violations of (\d+) flows", summary)
check(m is not None and m.group(1) == "0",
      "summary: causality (%s flows)" % (m.group(2) if m else "?"), "0 violations",
      m.group(0) if m else "no causality line")
check(int(m.group(2)) == len(starts) if m else False, "summary: flows checked = flows drawn",
      len(starts), m.group(2) if m else "?")
sys.exit(1 if failed else 0)
