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
"$fz" -seed="${FUZZ_SEED:-1}" -max_total_time="${FUZZ_SECONDS:-5}" -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" "$src/corpus" >"$work/log" 2>&1
status=$?
tail -25 "$work/log"
if ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1; then
    echo "FAIL: the fuzzer found an input that breaks the decoder:"
    ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null
    echo "(keep it in test/fuzz/regressions/ once fixed)"
    exit 1
fi
test "$status" = 0 || exit "$status"

# the node file reader
nf=./fuzz_nodefile
work=fuzz-nodefile-work
rm -rf "$work" && mkdir -p "$work/corpus" || exit 1
"$nf" -artifact_prefix="$work/" "$src"/corpus_nodefile/*.bin || { echo "FAIL: a node file seed"; exit 1; }
"$nf" -seed="${FUZZ_SEED:-1}" -max_total_time=$(( (${FUZZ_SECONDS:-5} + 1) / 2 )) -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" "$src/corpus_nodefile" >"$work/log" 2>&1
status=$?
tail -8 "$work/log"
if ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >/dev/null 2>&1; then
    echo "FAIL: the fuzzer found an input that breaks the node file reader:"
    ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null
    exit 1
fi
exit $status
