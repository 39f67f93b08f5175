#!/bin/sh
# Real programs (Debian's NetPIPE, mpi4py's ringtest demo, meep) plain and
# recorded with ompi-evt-record through each transport (auto, the default,
# which takes shm for these one-host jobs; shm; pmix), REPS interleaved
# runs of each (default 3), medians; the records the shm recorder lost,
# which must be none.
# Plain: Debian's Open MPI alone (none of this build's components in the
# path). Recorded: the recorder's own figures, "job X s" (the job with the
# recording in its ranks) and "outputs Y s" (events.jsonl, trace.json,
# trace.otf2/ written after it). Ratios to the plain median of the same
# run. A program whose package is absent is skipped with a line.
set -u
B=${EVT_TOP_BUILDDIR:?run from make bench-apps}
rec="$B/tools/ompi-evt-record"
mpirun=${MPIRUN:-mpirun}
reps=${REPS:-3}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-16s %-5s %8s %8s %8s %8s %8s %s\n' program via plain_s job_s outputs_s job/plain \
    all/plain lost
bench() { # NAME NP CMD...
    name=$1 np=$2
    shift 2
    : >"$W/plain"
    for t in auto shm pmix; do : >"$W/job.$t" && : >"$W/out.$t" && : >"$W/lost.$t"; done
    for i in $(seq 1 "$reps"); do
        t0=$(now)
        env -u OMPI_MCA_mca_base_component_path "$mpirun" -np "$np" "$@" >/dev/null 2>&1 ||
            { echo "$name: the plain run failed"; return; }
        t1=$(now)
        awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$W/plain"
        for t in auto shm pmix; do
            rm -rf "$W/rec"
            "$rec" --transport $t -o "$W/rec" -- "$mpirun" -np "$np" "$@" >/dev/null \
                2>"$W/rec.err" || [ $t != pmix ] && grep -q 'records were overwritten' "$W/rec.err" ||
                { [ -s "$W/rec.err" ] && grep -q ': job ' "$W/rec.err"; } ||
                { echo "$name: the recorded run ($t) failed:"; tail -5 "$W/rec.err"; return; }
            sed -n 's/.*: job \([0-9.]*\) s, outputs \([0-9.]*\) s$/\1 \2/p' "$W/rec.err" >"$W/t"
            [ -s "$W/t" ] || { echo "$name: no timing line from the recorder ($t)"; return; }
            cut -d' ' -f1 "$W/t" >>"$W/job.$t"
            cut -d' ' -f2 "$W/t" >>"$W/out.$t"
            sed -n 's/.*: \([0-9]*\) records were overwritten.*/\1/p' "$W/rec.err" \
                | awk '{ s += $1 } END { print s + 0 }' >>"$W/lost.$t"
        done
    done
    p=$(median <"$W/plain")
    for t in auto shm pmix; do
        j=$(median <"$W/job.$t") o=$(median <"$W/out.$t") l=$(tr '\n' ' ' <"$W/lost.$t")
        awk -v n="$name" -v t=$t -v p="$p" -v j="$j" -v o="$o" -v l="$l" \
            'BEGIN { printf "%-16s %-5s %8.2f %8.2f %8.2f %8.2f %8.2f %s\n", n, t, p, j, o, j / p, (j + o) / p, l }'
    done
}

if command -v NPopenmpi >/dev/null 2>&1; then
    bench netpipe-256B 2 NPopenmpi -u 256 -n 500 -o /dev/null
else
    echo "netpipe: NPopenmpi not installed (apt-get install netpipe-openmpi)"
fi
if /usr/bin/python3 -c 'import mpi4py.MPI' >/dev/null 2>&1; then
    bench mpi4py-ringtest 2 /usr/bin/python3 -m mpi4py.bench ringtest -n 4096 -l 2000
else
    echo "mpi4py: not installed (apt-get install python3-mpi4py)"
fi
if command -v meep >/dev/null 2>&1 && ldd "$(command -v meep)" | grep -q libmpi; then
    cat >"$W/wg.ctl" <<'CTL'
(set! geometry-lattice (make lattice (size 16 8 no-size)))
(set! geometry (list (make block (center 0 0) (size infinity 1 infinity)
                      (material (make dielectric (epsilon 12))))))
(set! sources (list (make source (src (make continuous-src (frequency 0.15)))
                     (component Ez) (center -7 0))))
(set! pml-layers (list (make pml (thickness 1.0))))
(set! resolution 10)
(run-until 400)
CTL
    bench meep-waveguide 2 meep "$W/wg.ctl"
else
    echo "meep: meep with MPI not installed (apt-get install meep-openmpi)"
fi
echo "($reps runs each, medians; $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1))"
