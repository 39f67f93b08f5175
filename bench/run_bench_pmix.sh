#!/bin/sh
# evt/pmix benchmark (make bench): bench_pmix under mpirun (EVT_RUN_ENV).
#   raise   np 1: ns per raise, ring and pmix alternated in one process
#   stages  np 1: encode, decode, node file append per record (no PMIx)
#   rate    np 2 + node sink: highest drop-free raise rate of one rank
#   e2e     np 2 and np 4 + node sink: the highest aggregate rate carried
#           into one sink without a drop (paced steps)
#   flood   np 2 and np 4 + node sink: every rank raising as fast as it can
#   latency np 2 + node sink, default flush interval: raise -> sink
# RATE_SECONDS (1), E2E_SECONDS (1), FLOOD_COUNT (2000000 per rank), LATENCY_MS (3000).
set -u
: "${MPIRUN:=mpirun}"
here=$(dirname "$0")
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_pmix.XXXXXX") || exit 1
chmod 0700 "$dir"
trap 'rm -rf "$dir"' EXIT
sink() { rm -rf "$dir/s" && mkdir -m 0700 "$dir/s" && echo "$dir/s"; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
timeout 300 "$MPIRUN" -np 1 ./bench_pmix raise || exit 1
timeout 300 "$MPIRUN" -np 1 ./bench_pmix stages || exit 1
timeout 300 "$MPIRUN" -np 2 --oversubscribe --mca evt_pmix_sink "$(sink)" \
    ./bench_pmix rate "${RATE_SECONDS:-1}" "$dir/rate_done" || exit 1
for np in 2 4; do
    timeout 300 "$MPIRUN" -np $np --oversubscribe --mca evt_pmix_sink "$(sink)" \
        ./bench_pmix e2e "${E2E_SECONDS:-1}" || exit 1
done
for np in 2 4; do
    timeout 300 "$MPIRUN" -np $np --oversubscribe --mca evt_pmix_sink "$(sink)" \
        ./bench_pmix flood "${FLOOD_COUNT:-2000000}" || exit 1
    ls -l "$dir"/s/*.evt | awk '{print "  node file: " $5 " bytes"}'
done
timeout 300 "$MPIRUN" -np 2 --oversubscribe --mca evt_pmix_sink "$(sink)" \
    ./bench_pmix latency "${LATENCY_MS:-3000}" || exit 1
