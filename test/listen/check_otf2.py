#!/usr/bin/python3
"""Checks an OTF2 archive as a timeline reader would draw it, from what
otf2-print reads of it (no warning, exit 0):
  - every location's records in time order
  - regions nest: every LEAVE leaves the innermost region entered
  - every MPI_ISEND has one MPI_ISEND_COMPLETE with its request id later
    in its location, every MPI_IRECV_REQUEST one MPI_IRECV
  - messages, matched as readers match them (per communicator, sender,
    receiver and tag, the n-th send record with the n-th receive record):
    a send for every receive, and no receive before its send
With --min-requests N, at least N nonblocking requests are written as
such (MPI_ISEND or MPI_IRECV_REQUEST): the pattern under test has them.
With --moved N, at most N receives may come before their sends: the
writer said it moved N records up past the horizon it waits for.

usage: check_otf2.py ARCHIVE/traces.otf2 [--print OTF2_PRINT] [--min-requests N] [--moved N]
Prints one line per check, "PASS: ..." or "FAIL: ...", and exits 1 if
any check failed.
"""
import collections
import re
import subprocess
import sys

args = sys.argv[1:]
if not args:
    sys.exit(__doc__)
anchor = args.pop(0)
otf2_print = "otf2-print"
min_requests = 0
moved = 0
while args:
    opt = args.pop(0)
    if opt == "--print" and args:
        otf2_print = args.pop(0)
    elif opt == "--min-requests" and args:
        min_requests = int(args.pop(0))
    elif opt == "--moved" and args:
        moved = int(args.pop(0))
    else:
        sys.exit("check_otf2.py: unknown argument %s\n%s" % (opt, __doc__))
failed = 0


def check(ok, what, got=""):
    global failed
    if ok:
        print("PASS: %s" % what)
    else:
        failed += 1
        print("FAIL: %s: %s" % (what, got))


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    warn = [l for l in (p.stdout + p.stderr).splitlines()
            if re.search(r"warning|out of order|error", l, re.I)]
    check(p.returncode == 0 and not warn, "%s reads %s without a warning" % (" ".join(argv[:-1]),
                                                                             anchor),
          "exit %d, %s" % (p.returncode, warn[:3]))
    return p.stdout


rank_of = {}
for line in run([otf2_print, "-G", anchor]).splitlines():
    m = re.match(r'LOCATION\s+(\d+)\s+Name: "rank (\d+)', line)
    if m:
        rank_of[int(m.group(1))] = int(m.group(2))

last = {}
stack = collections.defaultdict(list)
steps_back = bad_leaves = 0
isend, irecv = collections.defaultdict(dict), collections.defaultdict(dict)
bad_requests = []
sends = collections.defaultdict(list)  # (comm, sender, receiver, tag) -> times
recvs = collections.defaultdict(list)
records = requests = 0
rx_peer = re.compile(r'(Receiver|Sender): (\d+) .*Communicator: "([^"]*)".*Tag: (\d+)')
rx_req = re.compile(r"Request: (\d+)")
rx_region = re.compile(r'Region: "([^"]*)"')
for line in run([otf2_print, anchor]).splitlines():
    f = line.split(None, 3)
    if len(f) < 3 or not f[1].isdigit() or not f[2].isdigit():
        continue
    what, loc, ts = f[0], int(f[1]), int(f[2])
    rest = f[3] if len(f) > 3 else ""
    records += 1
    if ts < last.get(loc, 0):
        steps_back += 1
    last[loc] = ts
    if what == "ENTER":
        stack[loc].append(rx_region.search(rest).group(1))
    elif what == "LEAVE":
        region = rx_region.search(rest).group(1)
        if not stack[loc] or stack[loc][-1] != region:
            bad_leaves += 1
        else:
            stack[loc].pop()
    elif what in ("MPI_ISEND", "MPI_ISEND_COMPLETE", "MPI_IRECV_REQUEST", "MPI_IRECV"):
        req = int(rx_req.search(rest).group(1))
        table = isend if what.startswith("MPI_ISEND") else irecv
        opening = what in ("MPI_ISEND", "MPI_IRECV_REQUEST")
        requests += opening
        if opening == (req in table[loc]):
            bad_requests.append((what, loc, req))  # started twice, or completed unstarted
        elif opening:
            table[loc][req] = ts
        else:
            del table[loc][req]
    if what in ("MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV"):
        m = rx_peer.search(rest)
        peer, comm, tag = int(m.group(2)), m.group(3), int(m.group(4))
        me = rank_of.get(loc, loc)
        if m.group(1) == "Receiver":
            sends[(comm, me, peer, tag)].append(ts)
        else:
            recvs[(comm, peer, me, tag)].append(ts)

check(records > 0, "%d records" % records, "none")
check(steps_back == 0, "time order per location", "%d steps back" % steps_back)
unclosed = sum(len(s) for s in stack.values())
check(bad_leaves == 0 and unclosed == 0, "regions nest",
      "%d LEAVEs of another region, %d regions never left" % (bad_leaves, unclosed))
open_reqs = sum(len(t) for t in list(isend.values()) + list(irecv.values()))
check(not bad_requests and open_reqs == 0, "every request started once and completed once",
      "%d out of turn (e.g. %s), %d never completed" % (len(bad_requests), bad_requests[:3],
                                                        open_reqs))
check(requests >= min_requests, "%d nonblocking requests (at least %d)" % (requests, min_requests),
      "too few")
keys = set(sends) | set(recvs)
# a send may stay unreceived (an eager message the program never took,
# as OpenCoarrays leaves one per pair at its end); a receive has a send
unmatched = [(k, len(sends[k]), len(recvs[k])) for k in keys if len(sends[k]) < len(recvs[k])]
unreceived = sum(len(sends[k]) - len(recvs[k]) for k in keys if len(sends[k]) > len(recvs[k]))
check(not unmatched, "%d messages: every receive has its send (%d sends not received)"
      % (sum(len(v) for v in recvs.values()), unreceived),
      "%d (communicator, sender, receiver, tag) with more receives than sends, e.g. %s"
      % (len(unmatched), unmatched[:3]))
backwards = [(k, s, r) for k in keys for s, r in zip(sends[k], recvs[k]) if r < s]
check(len(backwards) <= moved,
      "no receive before its send" + (" but those of the %d records moved" % moved if moved else ""),
      "%d, e.g. %s" % (len(backwards), backwards[:3]))
sys.exit(1 if failed else 0)
