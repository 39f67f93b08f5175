#!/bin/sh
# report.html and report.csv of known programs, recorded with
# ompi-evt-record -np 4: a ring of sends (the matrix is a band: rank r sends
# to r + 1 only, every message counted), a gather by point-to-point (one
# column: every rank to rank 0), a late sender made on purpose (rank 1
# sleeps 300 ms before it sends to rank 0, whose receive is posted: one
# late receive, its wait within 10 % of the sleep). The page is parsed as
# HTML (every element closed in order, an svg per picture, no script, no
# external reference). Skipped (77) without python3.
. "$(dirname "$0")/evt_output_test.sh"

record() { # NAME ARGS...: record report_patterns ARGS into $tmp/NAME
    name=$1
    shift
    timeout 180 "$rec" -q -o "$tmp/$name" -- ${MPIRUN:-mpirun} -np 4 --oversubscribe \
        "$PWD/report_patterns" "$@" >"$tmp/$name.log" 2>&1 || {
        cat "$tmp/$name.log"
        ko "$name: ompi-evt-record exit status"
    }
    for f in report.html report.csv; do
        [ -s "$tmp/$name/$f" ] || ko "$name: no $f"
    done
}
record ring ring 50
record gather gather 30
record late late 300

python3 - "$tmp" >"$tmp/py.out" 2>&1 <<'PY'
import csv, html.parser, sys
d = sys.argv[1]
bad = []

def table(name, which):
    rows = []
    with open("%s/%s/report.csv" % (d, name)) as f:
        for row in csv.reader(f):
            if row and row[0] == which:
                rows.append(row[1:])
    return rows

# ring: rank r sends 50 messages of 1024 bytes to r + 1, nothing else
m = {(int(a), int(b)): (int(c), int(e)) for a, b, c, e in table("ring", "matrix")}
want = {(r, (r + 1) % 4): (50, 50 * 1024) for r in range(4)}
if m != want:
    bad.append("ring matrix %s, want the band %s" % (sorted(m.items()), sorted(want.items())))
# gather: a column
m = {(int(a), int(b)): (int(c), int(e)) for a, b, c, e in table("gather", "matrix")}
want = {(r, 0): (30, 30 * 2048) for r in range(1, 4)}
if m != want:
    bad.append("gather matrix %s, want column 0 %s" % (sorted(m.items()), sorted(want.items())))
# the sizes of the ring's sends: all in the bucket holding 1024
sizes = [r for r in table("ring", "sizes") if r[0] == "ompi.mpi.p2p_send_complete"]
if [(int(a), int(b), int(c)) for _, a, b, c in sizes] != [(1024, 2047, 200)]:
    bad.append("ring send sizes %s, want 200 in [1024, 2047]" % sizes)
# the late sender: 1 -> 0, one late receive, about 300 ms
late = table("late", "late_senders")
if len(late) != 1 or late[0][:3] != ["1", "0", "1"]:
    bad.append("late senders %s, want one late receive from 1 to 0" % late)
else:
    waited = int(late[0][3]) / 1e6
    print("late sender: waited %.3f ms for a 300 ms sleep" % waited)
    if not 270 <= waited <= 330:
        bad.append("late sender waited %.3f ms, want 300 ms within 10 %%" % waited)
# the ranks table: every rank ended normally, time inside MPI measured
for name in ("ring", "gather", "late"):
    ranks = table(name, "ranks")
    if len(ranks) != 4 or any(r[-1] != "1" for r in ranks):
        bad.append("%s: ranks %s, want 4 that ended normally" % (name, ranks))
late_ranks = {int(r[0]): int(r[3]) for r in table("late", "ranks")}
if not late_ranks.get(0, 0) >= 270e6:
    bad.append("late: rank 0 spent %s ns in point-to-point calls, want >= 270 ms" %
               late_ranks.get(0))

class Check(html.parser.HTMLParser):
    void = {"meta", "br", "img", "input", "link", "hr"}
    def __init__(self):
        super().__init__()
        self.stack, self.svgs, self.rects, self.problems = [], 0, 0, []
    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.problems.append("a script")
        for k, v in attrs:
            if k in ("src", "href") and v and not v.startswith("#"):
                self.problems.append("an external reference %s" % v)
        self.svgs += tag == "svg"
        self.rects += tag == "rect"
        if tag not in self.void:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.rects += tag == "rect"
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append("</%s> closes %s" % (tag, self.stack[-1:] or "nothing"))
        else:
            self.stack.pop()

for name in ("ring", "gather", "late"):
    c = Check()
    c.feed(open("%s/%s/report.html" % (d, name)).read())
    c.close()
    if c.stack:
        c.problems.append("unclosed %s" % c.stack)
    if c.svgs < 3:
        c.problems.append("%d pictures" % c.svgs)
    print("%s: report.html %d svg, %d rect" % (name, c.svgs, c.rects))
    for p in c.problems[:5]:
        bad.append("%s: report.html: %s" % (name, p))
for b in bad:
    print("BAD: " + b)
sys.exit(1 if bad else 0)
PY
prc=$?
cat "$tmp/py.out"
[ "$prc" -eq 0 ] || ko "report.csv / report.html"
[ $fail -eq 0 ] && echo "PASS: test_report"
exit $fail
