#!/bin/sh
# The MPI_T tool-API fuzzer (fuzz_mpit.c) through evt/sync and evt/ring, then
# the regression seeds (sequences that once failed). FUZZ_SEED (default: a
# fixed seed, so that make check is reproducible; `make fuzz-long` draws time
# seeds), FUZZ_STEPS (default 20000) per delivery.
# "N passed, M failed" counts the runs.
seed=${FUZZ_SEED:-5}
steps=${FUZZ_STEPS:-20000}
pass=0
fail=0
run() {
    # $1 delivery, $2 seed, $3 steps
    if OMPI_MCA_evt=$1 ./fuzz_mpit "$2" "$3"; then
        pass=$((pass + 1))
    else
        echo "FAILED: OMPI_MCA_evt=$1 ./fuzz_mpit $2 $3"
        fail=$((fail + 1))
    fi
}
for evt in sync ring; do
    run $evt "$seed" "$steps"
done
# Regression seeds: "delivery seed steps" per line.
while read -r evt s n; do
    case "$evt" in ''|\#*) continue ;; esac
    run "$evt" "$s" "$n"
done <<'SEEDS'
# MPI_T_event_callback_set_info(MPI_INFO_NULL) without a callback (step 22)
sync 1 200
# sync: a registration freed by its own nested callback before the outer
# dispatch reached it: neither delivered nor dropped (step 11121)
sync 1 20000
# sync: a callback cleared by its own nested callback still called by the
# outer dispatch (step 651)
sync 2 20000
# ring: self-frees and callback changes during drains and set_dropped_handler
ring 1 20000
ring 3 20000
# sync: MPI_T_event_set_dropped_handler updated the bindings' table before the
# engine's flush, so drops pending at a removal or replacement went to no
# handler (the trampoline found the new one, or none) (step 15112, 8825)
sync 44 20000
sync 1796165893 20000
SEEDS
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
