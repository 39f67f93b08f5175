#!/bin/sh
# make bench-spool: the shared-memory transport's cost to the ranks and its
# rate. bench_spool (2 ranks, --bind-to core) in three configurations,
# REPS interleaved rounds (default 3), each once as a flood (WORK 0: every
# rank raising as fast as it can) and once with compute between the
# raises (WORK iterations of a multiply-add chain after every 64 raises):
#   plain     nobody listening: a raise is the empty call (the compute alone)
#   rings     evt/file rings in /dev/shm that nobody reads (the raises' cost)
#   recorded  ompi-evt-record: the same rings, copied out by the recorder
# Per configuration the median job rate and time; for recorded the records
# lost (must be 0) and the CPU the recorder's copy took, and the ratios to
# rings (what the copying costs the ranks) and to plain.
set -u
B=${EVT_TOP_BUILDDIR:?run from make bench-spool}
: "${MPIRUN:=mpirun}"
REPS=${REPS:-3}
EVENTS=${EVENTS:-5000000}
WORK=${WORK:-400}
W=$(mktemp -d)
L=$(mktemp -d /dev/shm/bench-spool.XXXXXX)
trap 'rm -rf "$W" "$L"' EXIT
run() { # config work -> "config work seconds rate cpu lost"
    case $1 in
    plain)
        env -u OMPI_MCA_evt "$MPIRUN" -np 2 --bind-to core ./bench_spool "$EVENTS" "$2" 2>&1 \
            | awk -v c=plain -v w="$2" '/^RESULT/ {print c, w, $8, $14, 0, 0}' ;;
    rings)
        rm -f "$L"/*
        "$MPIRUN" -np 2 --bind-to core --mca evt file --mca evt_file_dir "$L" \
            --mca evt_file_size 34603008 --mca evt_file_rings 4 ./bench_spool "$EVENTS" "$2" 2>&1 \
            | awk -v c=rings -v w="$2" '/^RESULT/ {print c, w, $8, $14, 0, 0}' ;;
    recorded)
        rm -rf "$W/rec"
        "$B/tools/ompi-evt-record" --transport shm --summary-only -o "$W/rec" -- "$MPIRUN" -np 2 \
            --bind-to core \
            ./bench_spool "$EVENTS" "$2" >"$W/rec.out" 2>&1
        lost=$(sed -n 's/.*: \([0-9]*\) records were overwritten.*/\1/p' "$W/rec.out" \
            | awk '{s += $1} END {print s + 0}')
        cpu=$(sed -n 's/.* records copied from the ranks. rings in \([0-9.]*\) s of CPU.*/\1/p' \
            "$W/rec.out")
        awk -v c=recorded -v w="$2" -v cpu="${cpu:-nan}" -v lost="$lost" \
            '/^RESULT/ {print c, w, $8, $14, cpu, lost}' "$W/rec.out" ;;
    esac
}
for r in $(seq "$REPS"); do
    for w in 0 "$WORK"; do
        for c in plain rings recorded; do
            run $c "$w" >>"$W/out"
        done
    done
done
echo "bench_spool: $REPS interleaved rounds, $EVENTS events per rank, mpirun -np 2 --bind-to core;" \
    "$(nproc) cores; medians"
awk '
function med(s,   a, k, i, j, t) {
    k = split(s, a, " ");
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k ? a[int((k + 1) / 2)] : -1
}
{ k = $1 " " $2; secs[k] = secs[k] " " $3; rate[k] = rate[k] " " $4; cpu[k] = cpu[k] " " $5;
  lost[k] = lost[k] " " $6; works[$2] = 1 }
END {
    for (w in works) {
        p = med(secs["plain " w]); g = med(secs["rings " w]); rc = med(secs["recorded " w]);
        printf "work %s: plain %.3f s (%.2f M ev/s)  rings %.3f s (%.2f M ev/s)  recorded %.3f s (%.2f M ev/s)\n",
            w, p, med(rate["plain " w]), g, med(rate["rings " w]), rc, med(rate["recorded " w]);
        printf "work %s: recorded/rings %.3f  recorded/plain %.3f  recorder copy CPU %s s (median; %.1f %% of the job)  lost%s\n",
            w, rc / g, rc / p, med(cpu["recorded " w]), 100 * med(cpu["recorded " w]) / rc, lost["recorded " w];
    }
}' "$W/out"
