#!/bin/sh
# make bench-record: bench_record plain (Debian's Open MPI alone) and
# recorded (ompi-evt-record: evt/pmix into the node sink), interleaved,
# REPS rounds (default 5); per figure the median of the rounds, its ratio
# to plain's, and the spread (min..max).
set -u
B=${EVT_TOP_BUILDDIR:?run from make bench-record}
: "${MPIRUN:=mpirun}"
REPS=${REPS:-5}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
for r in $(seq "$REPS"); do
    env -u OMPI_MCA_mca_base_component_path "$MPIRUN" -np 2 --bind-to core ./bench_record \
        2>/dev/null | awk '/^RESULT/ {print "plain", $2, $3}' >>"$W/out"
    rm -rf "$W/rec"
    "$B/tools/ompi-evt-record" -q --summary-only -o "$W/rec" -- "$MPIRUN" -np 2 --bind-to core \
        ./bench_record 2>/dev/null | awk '/^RESULT/ {print "recorded", $2, $3}' >>"$W/out"
done
echo "bench_record: $REPS interleaved rounds, mpirun -np 2 --bind-to core; $(nproc) cores"
awk '
{ v[$1 " " $2] = v[$1 " " $2] " " $3; figs[$2] = 1 }
function sort(s, a,   k, i, j, t) {
    k = split(s, a, " ");
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k
}
END {
    for (f in figs) {
        k = sort(v["plain " f], p); pm = p[int((k + 1) / 2)];
        k2 = sort(v["recorded " f], q); rm = q[int((k2 + 1) / 2)];
        if (k == 0 || k2 == 0) { print f ": no result"; continue }
        printf "%-9s plain %8.1f ns (%.1f..%.1f)  recorded %8.1f ns (%.1f..%.1f)  ratio %.2f\n",
            f, pm, p[1], p[k], rm, q[1], q[k2], rm / pm;
    }
}' "$W/out"
