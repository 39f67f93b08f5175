#!/bin/sh
# make check: the libFuzzer targets of the wire decoder and of the node
# file reader, briefly (the reader's: its seeds and FUZZ_SECONDS / 2).
#   1. every regression input (test/fuzz/regressions: inputs that once
#      crashed or broke a promise) runs once and must pass;
#   2. every seed (test/fuzz/corpus) runs once;
#   3. a short fuzzing run (FUZZ_SECONDS, default 5) from the seeds, with a
#      fixed seed (FUZZ_SEED, default 1) so a failure can be replayed.
# The long run is `make fuzz-decoder` (FUZZ_DECODER_SECONDS).
# Exit 77 (skip) when configure found no libFuzzer (clang -fsanitize=fuzzer).
set -u
fz=./fuzz_decoder
src=${srcdir:-.}
if ! test -x "$fz"; then
    echo "SKIP: fuzz_decoder not built (configure found no clang with -fsanitize=fuzzer)"
    exit 77
fi
# fuzz TARGET WORK SEEDS SECONDS TAIL WHAT [HINT]: a fuzzing run of TARGET
# for SECONDS from the seeds in SEEDS (what it finds goes to WORK/corpus)
# with the fixed seed; the last TAIL lines of its log; fails on any input
# that breaks WHAT (listed, and HINT after them), else TARGET's status.
fuzz() {
    "$1" -seed="${FUZZ_SEED:-1}" -max_total_time="$4" -print_final_stats=1 \
        -artifact_prefix="$2/" "$2/corpus" "$3" >"$2/log" 2>&1
    fuzz_status=$?
    tail -"$5" "$2/log"
    # (ls lists what matches; its status is non-zero when any kind is absent)
    found=$(ls "$2"/crash-* "$2"/leak-* "$2"/timeout-* "$2"/oom-* 2>/dev/null)
    if [ -n "$found" ]; then
        echo "FAIL: the fuzzer found an input that breaks the $6:"
        echo "$found"
        [ -z "${7:-}" ] || echo "$7"
        return 1
    fi
    return $fuzz_status
}

work=fuzz-decoder-work
rm -rf "$work" && mkdir -p "$work/corpus" || exit 1
regs=$(ls "$src"/regressions/*.bin 2>/dev/null)
if test -n "$regs"; then
    echo "regression inputs: $(echo $regs | wc -w)"
    # shellcheck disable=SC2086
    "$fz" -artifact_prefix="$work/" $regs || { echo "FAIL: a regression input"; exit 1; }
fi
# shellcheck disable=SC2086
"$fz" -artifact_prefix="$work/" "$src"/corpus/*.bin || { echo "FAIL: a seed input"; exit 1; }
fuzz "$fz" "$work" "$src/corpus" "${FUZZ_SECONDS:-5}" 25 decoder \
    "(keep it in test/fuzz/regressions/ once fixed)" || exit $?

# the node file reader
nf=./fuzz_nodefile
work=fuzz-nodefile-work
rm -rf "$work" && mkdir -p "$work/corpus" || exit 1
"$nf" -artifact_prefix="$work/" "$src"/corpus_nodefile/*.bin || { echo "FAIL: a node file seed"; exit 1; }
fuzz "$nf" "$work" "$src/corpus_nodefile" $(( (${FUZZ_SECONDS:-5} + 1) / 2 )) 8 "node file reader"
