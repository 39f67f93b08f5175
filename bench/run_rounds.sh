#!/bin/sh
# run_rounds.sh BENCH REPS: BENCH (a program built twice, ./BENCH linked
# with libompi_evt and ./BENCH_plain not) under mpirun -np 2 in every
# configuration, interleaved (one run of each configuration per round,
# ABCD ABCD ...), REPS rounds; then per configuration and figure the
# median, its ratio to the plain binary's median, and the spread of the
# runs (summarize_rounds.awk).
#   plain     BENCH_plain (not linked with libompi_evt)
#   plain2    the same binary again: the A/A difference shows the noise
#   nolisten  BENCH, nobody listens
#   sync      BENCH listen, --mca evt sync
#   ring      BENCH listen, --mca evt ring (if mca_evt_ring.so is built)
# Run from the build folder (make bench does), where the binaries are.
: "${MPIRUN:=mpirun}"
bench=$1
reps=$2
out=$(mktemp)
configs="plain nolisten plain2 sync"
[ -e "$EVT_TOP_BUILDDIR/components/mca_evt_ring.so" ] && configs="$configs ring"
for r in $(seq "$reps"); do
    for c in $configs; do
        case $c in
            plain|plain2) cmd="./${bench}_plain" ;;
            nolisten) cmd="./$bench" ;;
            sync) cmd="--mca evt sync ./$bench listen" ;;
            ring) cmd="--mca evt ring ./$bench listen" ;;
        esac
        # shellcheck disable=SC2086 # cmd: words on purpose
        $MPIRUN -np 2 --bind-to core $cmd 2>/dev/null | awk -v c=$c '/^RESULT/ {print c, $2, $3}' >>"$out"
    done
done
echo "$bench: $reps interleaved rounds, mpirun -np 2 --bind-to core; $(nproc) cores"
awk -f "$(dirname "$0")/summarize_rounds.awk" "$out" | sort -b -k2,2 -s
rm -f "$out"
