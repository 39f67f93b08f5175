#!/bin/sh
# make bench: bench_p2p under mpirun -np 2 in every configuration, interleaved,
# REPS times (default 7); prints the median of each figure per configuration
# and its ratio to the plain binary (not linked with libompi_evt), and the
# best run of each (least disturbed by other load on the machine).
#   plain     bench_p2p_plain
#   nolisten  bench_p2p, nobody listens
#   sync      bench_p2p listen, --mca evt sync
#   ring      bench_p2p listen, --mca evt ring (if mca_evt_ring.so is built)
: "${MPIRUN:=mpirun}"
REPS=${REPS:-7}
# run from the build folder (make bench does), where the binaries are
out=$(mktemp)
configs="plain nolisten sync"
[ -e "$EVT_TOP_BUILDDIR/components/mca_evt_ring.so" ] && configs="$configs ring"
for r in $(seq "$REPS"); do
    for c in $configs; do
        case $c in
            plain) cmd="./bench_p2p_plain" ;;
            nolisten) cmd="./bench_p2p" ;;
            sync) cmd="--mca evt sync ./bench_p2p listen" ;;
            ring) cmd="--mca evt ring ./bench_p2p listen" ;;
        esac
        $MPIRUN -np 2 --bind-to core $cmd 2>/dev/null | awk -v c=$c '/^RESULT/ {print c, $2, $3}' >>"$out"
    done
done
awk '
{ v[$1 " " $2] = v[$1 " " $2] " " $3; if (!(($1) in seen)) { seen[$1]=1; order[n++]=$1 } tests[$2]=1 }
function median(s,   a, k, i, j, t) {
    k = split(s, a, " ");
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
# best run: lowest latency, highest rate
function best(s, t,   a, k, i, b) {
    k = split(s, a, " "); b = a[1] + 0;
    for (i = 2; i <= k; i++) { if ((t ~ /_ns$/) ? (a[i] + 0 < b) : (a[i] + 0 > b)) b = a[i] + 0 }
    return b
}
END {
    for (t in tests) {
        if (t == "events") continue;
        base = median(v["plain " t]);
        for (i = 0; i < n; i++) {
            c = order[i]; m = median(v[c " " t]);
            lo = best(v[c " " t], t); blo = best(v["plain " t], t);
            printf "%-9s %-14s median %12.1f ratio %.4f | best %12.1f ratio %.4f | runs:%s\n", c, t, m, m / base, lo, lo / blo, v[c " " t];
        }
    }
}' "$out"
rm -f "$out"
