#!/bin/sh
# The test kit against every in-tree component, each with the optional
# properties it declares (a component losing one fails here); then its
# command line: --mca K V reaches the component (evt/file told to record
# into a folder that does not exist cannot be selected), --help, a bad
# parameter name.
set -u
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for spec in sync:none ring:deferred,async-signal file:deferred,exports,async-signal; do
    name=${spec%%:*}
    props=${spec#*:}
    echo "=== $name ($props)"
    OMPI_MCA_evt_file_dir=$dir timeout 300 "$EVT_KIT_CHECK" "$name" --expect "$props" \
        || { echo "FAIL: $name"; fail=1; }
done
echo "=== --mca"
timeout 300 "$EVT_KIT_CHECK" file --expect deferred,exports,async-signal --mca evt_file_dir "$dir" \
    >"$dir/mca.out" 2>&1 || { echo "FAIL: file with --mca evt_file_dir"; fail=1; }
timeout 300 "$EVT_KIT_CHECK" file --mca evt_file_dir "$dir/missing" >"$dir/missing.out" 2>&1 &&
    { echo "FAIL: --mca evt_file_dir <missing folder> did not reach evt/file"; fail=1; }
grep -q "component none selected, file asked\|component .* selected, file asked" "$dir/missing.out" ||
    { echo "FAIL: no selection failure reported:"; tail -3 "$dir/missing.out"; fail=1; }
"$EVT_KIT_CHECK" --help | grep -q "^usage: ompi-evt-check-component NAME" ||
    { echo "FAIL: --help"; fail=1; }
"$EVT_KIT_CHECK" file --mca "a=b" c >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: --mca with a bad name: not a usage error"; fail=1; }
exit $fail
