#!/bin/sh
# evt/file builds its file under a hidden name and gives it its name only
# once the header is written: a rank killed while its file is being built
# leaves no *.oevt that a reader would find without a header. The rank is
# killed (SIGKILL) at a step of the build by a preloaded library
# (test_file_die.c), however fast the machine builds the file:
#   size     at the sizing of the hidden file, before any header;
#   publish  at the call that would give the built file its name.
# Either way no *.oevt exists, and the hidden file is what is left. A rank
# left alone (with the same library preloaded, told nothing) publishes its
# file, which reads back, and leaves nothing hidden.
set -u
: "${MPIRUN:=mpirun}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 0700 "$dir"
fail=0
ko() { echo "FAIL: $*"; fail=1; }
die="$PWD/.libs/libtest_file_die.so"
[ -f "$die" ] || { echo "FAIL: $die not built"; exit 1; }
preload="$die${LD_PRELOAD:+:$LD_PRELOAD}"
hidden() { ls -A "$1" | grep -c '^\.evt\..*\.oevt\.part$'; }

for step in size publish; do
    mkdir -m 0700 "$dir/$step"
    TEST_FILE_DIE=$step timeout 120 "$MPIRUN" -np 1 -x TEST_FILE_DIE -x LD_PRELOAD="$preload" \
        --mca evt file --mca evt_file_dir "$dir/$step" --mca evt_file_size 16777216 \
        ./test_record_app ok 10 >"$dir/$step.out" 2>&1; rc=$?
    echo "=== killed at $step (mpirun exit $rc): $(ls -A "$dir/$step" | tr '\n' ' ')"
    [ "$rc" -ne 0 ] || ko "$step: the job succeeded: the rank was not killed"
    grep -q 'signal 9' "$dir/$step.out" || ko "$step: no rank killed by signal 9: $(tail -5 "$dir/$step.out")"
    n=$(find "$dir/$step" -name '*.oevt' | wc -l)
    [ "$n" -eq 0 ] || ko "$step: $n file(s) published by a rank killed before its header was written"
    [ "$(hidden "$dir/$step")" -eq 1 ] || ko "$step: not one hidden file left: $(ls -A "$dir/$step")"
done

# left alone, the file is published and nothing hidden stays behind
mkdir -m 0700 "$dir/ok"
timeout 120 "$MPIRUN" -np 1 -x LD_PRELOAD="$preload" --mca evt file --mca evt_file_dir "$dir/ok" \
    --mca evt_file_size 16777216 ./test_record_app ok 10 >"$dir/ok.out" 2>&1 ||
    ko "job exit $? ($(tail -3 "$dir/ok.out"))"
n=$(find "$dir/ok" -name '*.oevt' | wc -l)
[ "$n" -eq 1 ] || ko "$n published files, want 1"
[ "$(hidden "$dir/ok")" -eq 0 ] || ko "a hidden .part file stayed behind"
f=$(find "$dir/ok" -name '*.oevt' | head -1)
[ -n "$f" ] && ../../tools/ompi-evt-file-read "$f" >/dev/null || ko "$f does not read back"
[ "$fail" -eq 0 ] && echo "PASS" || exit 1
