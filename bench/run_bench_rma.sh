#!/bin/sh
# make bench: bench_rma in every configuration, REPS rounds (default 9),
# ns per call: medians, ratios to the plain binary, spreads (run_rounds.sh).
exec "$(dirname "$0")/run_rounds.sh" bench_rma "${REPS:-9}"
