#!/bin/sh
# make bench: bench_coll under mpirun -np 2 in every configuration,
# interleaved (one run of each per round), REPS rounds (default 9); per
# configuration and figure the median, its ratio to the plain binary's,
# and the spread (summarize_rounds.awk).
#   plain     bench_coll_plain (not linked with libompi_evt)
#   plain2    the same binary again: the A/A difference shows the noise
#   nolisten  bench_coll, nobody listens (the numbering still counts)
#   sync      bench_coll listen, --mca evt sync
#   ring      bench_coll listen, --mca evt ring (if mca_evt_ring.so is built)
: "${MPIRUN:=mpirun}"
REPS=${REPS:-9}
out=$(mktemp)
configs="plain nolisten plain2 sync"
[ -e "$EVT_TOP_BUILDDIR/components/mca_evt_ring.so" ] && configs="$configs ring"
for r in $(seq "$REPS"); do
    for c in $configs; do
        case $c in
            plain|plain2) cmd="./bench_coll_plain" ;;
            nolisten) cmd="./bench_coll" ;;
            sync) cmd="--mca evt sync ./bench_coll listen" ;;
            ring) cmd="--mca evt ring ./bench_coll listen" ;;
        esac
        # shellcheck disable=SC2086 # cmd: words on purpose
        $MPIRUN -np 2 --bind-to core $cmd 2>/dev/null | awk -v c=$c '/^RESULT/ {print c, $2, $3}' >>"$out"
    done
done
echo "bench_coll: $REPS interleaved rounds, mpirun -np 2 --bind-to core; $(nproc) cores; ns per call"
awk -f "$(dirname "$0")/summarize_rounds.awk" "$out" | sort -b -k2,2 -s
rm -f "$out"
