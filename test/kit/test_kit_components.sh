#!/bin/sh
# The test kit against every in-tree component, each with the optional
# properties it declares (a component losing one fails here).
set -u
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for spec in sync:none ring:deferred,async-signal file:deferred,exports,async-signal; do
    name=${spec%%:*}
    props=${spec#*:}
    echo "=== $name ($props)"
    OMPI_MCA_evt_file_dir=$dir timeout 300 ./evt_kit_check "$name" --expect "$props" \
        || { echo "FAIL: $name"; fail=1; }
done
exit $fail
