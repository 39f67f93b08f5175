#!/bin/sh
# make bench-record: bench_record plain (Debian's Open MPI alone), into
# evt/file's rings with nobody copying them (rings: what the ranks pay
# themselves), and recorded by ompi-evt-record with each transport (shm:
# the same rings in shared memory, copied out by the recorder; pmix:
# evt/pmix into the node sink), interleaved, REPS rounds (default 5); per figure the median
# of the rounds, its ratio to plain's, and the spread (min..max); and the
# records the shm recorder lost (must be 0), the CPU its copy took and how
# long the ranks waited for it. Then one process messaging itself, layer by
# layer (below).
set -u
B=${EVT_TOP_BUILDDIR:?run from make bench-record}
: "${MPIRUN:=mpirun}"
REPS=${REPS:-5}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
S=$(mktemp -d /dev/shm/bench-record.XXXXXX)
trap 'rm -rf "$W" "$S"' EXIT
lib="$B/.libs/libompi_evt.so"
for r in $(seq "$REPS"); do
    env -u OMPI_MCA_mca_base_component_path "$MPIRUN" -np 2 --bind-to core ./bench_record \
        2>/dev/null | awk '/^RESULT/ {print "plain", $2, $3}' >>"$W/out"
    # the events recorded into evt/file's rings in /dev/shm as the recorder
    # sets them up, with nobody copying them: the ranks' own share
    rm -rf "$S/f" && mkdir -m 700 "$S/f"
    "$MPIRUN" -np 2 --bind-to core --mca evt file --mca evt_file_dir "$S/f" \
        --mca evt_file_size 34603008 --mca evt_file_rings 4 -x LD_PRELOAD="$lib" ./bench_record \
        2>/dev/null | awk '/^RESULT/ {print "rings", $2, $3}' >>"$W/out"
    for t in shm pmix; do
        rm -rf "$W/rec"
        "$B/tools/ompi-evt-record" --transport $t --summary-only -o "$W/rec" -- "$MPIRUN" -np 2 \
            --bind-to core ./bench_record >"$W/rec.out" 2>&1
        awk -v t=$t '/^RESULT/ {print t, $2, $3}' "$W/rec.out" >>"$W/out"
        sed -n 's/.* records copied from the ranks. rings in \([0-9.]*\) s of CPU (\([0-9.]*\) %.* the ranks waited \([0-9.]*\) s.*/copy cpu \1 s, \2 % of the job, the ranks waited \3 s/p' \
            "$W/rec.out" >>"$W/copy"
        grep 'records were overwritten' "$W/rec.out" >>"$W/copy"
    done
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
        if (k == 0) { print f ": no result"; continue }
        printf "%-9s plain %8.1f ns (%.1f..%.1f)", f, pm, p[1], p[k];
        for (ti = 1; ti <= 3; ti++) {
            t = ti == 1 ? "rings" : ti == 2 ? "shm" : "pmix";
            k2 = sort(v[t " " f], q); rm = q[int((k2 + 1) / 2)];
            if (k2 == 0) { printf "  %s: no result", t; continue }
            printf "  %s %8.1f ns (%.1f..%.1f) x%.2f", t, rm, q[1], q[k2], rm / pm;
        }
        printf "\n";
    }
}' "$W/out"
echo "shm recorder, per run:"
cat "$W/copy"

# One process talking to itself (bench_record self): what each layer of a
# recording adds to the messages' own path, without a second busy-polling
# rank on the other core. Per round, interleaved: plain; libompi_evt in
# evt/file with the point-to-point events left out (the wrappers, their
# gates closed); the events recorded into evt/file's rings in /dev/shm with
# nobody copying them; recorded by ompi-evt-record --transport shm; and
# --transport pmix, with the rank bound to its core as mpirun binds it (the
# rank is its node's sink, and PMIx's threads and the sink's work share
# that core) and unbound (the other core free for them, as on a node with
# cores to spare).
for r in $(seq "$REPS"); do
    env -u OMPI_MCA_mca_base_component_path "$MPIRUN" -np 1 --bind-to core ./bench_record self \
        2>/dev/null | awk '/^RESULT/ {print "plain", $3}' >>"$W/self"
    for cfg in wrappers rings; do
        rm -rf "$S/f" && mkdir -m 700 "$S/f"
        ev='*'
        [ $cfg = wrappers ] && ev='ompi.mpi.*,^ompi.mpi.p2p_*'
        "$MPIRUN" -np 1 --bind-to core --mca evt file --mca evt_file_dir "$S/f" \
            --mca evt_file_size 34603008 --mca evt_file_rings 4 --mca evt_file_events "$ev" \
            -x LD_PRELOAD="$lib" ./bench_record self 2>/dev/null |
            awk -v c=$cfg '/^RESULT/ {print c, $3}' >>"$W/self"
    done
    rm -rf "$W/rec"
    "$B/tools/ompi-evt-record" --transport shm --summary-only -o "$W/rec" -- "$MPIRUN" -np 1 \
        --bind-to core ./bench_record self 2>/dev/null | awk '/^RESULT/ {print "shm", $3}' >>"$W/self"
    for bind in core none; do
        rm -rf "$W/rec"
        "$B/tools/ompi-evt-record" --transport pmix --summary-only -o "$W/rec" -- "$MPIRUN" -np 1 \
            --bind-to $bind ./bench_record self 2>/dev/null |
            awk -v c="pmix-bind-$bind" '/^RESULT/ {print c, $3}' >>"$W/self"
    done
done
echo "bench_record self: one process, messages to itself (Irecv/Isend windows of 64, Waitall), $REPS interleaved rounds, ns a message"
awk '
{ v[$1] = v[$1] " " $2 }
function med(s,   a, k, i, j, t) {
    k = split(s, a, " ");
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k ? a[int((k + 1) / 2)] : -1
}
END {
    p = med(v["plain"]); prev = p;
    printf "  %-9s %7.1f\n", "plain", p;
    n = split("wrappers rings shm", c, " ");
    for (i = 1; i <= n; i++) {
        m = med(v[c[i]]);
        if (m < 0 || p <= 0) { printf "  %-9s no result\n", c[i]; continue }
        printf "  %-9s %7.1f  x%.2f  (+%.1f over the line above)\n", c[i], m, m / p, m - prev;
        prev = m;
    }
    # pmix against shm: what the transport adds
    s = med(v["shm"]);
    n = split("pmix-bind-core pmix-bind-none", c, " ");
    for (i = 1; i <= n; i++) {
        m = med(v[c[i]]);
        if (m < 0 || p <= 0 || s <= 0) { printf "  %-14s no result\n", c[i]; continue }
        printf "  %-14s %7.1f  x%.2f  (+%.1f over shm)\n", c[i], m, m / p, m - s;
    }
}' "$W/self"
