#!/bin/sh
# Sourced by the tests of a job's outputs (a recording read back and
# checked): the build's tools, a scratch folder removed at exit, and the
# verdict. Skips (77) without python3, which reads the outputs.
#   ok TEXT / ko TEXT   one check passed / failed (ko sets fail=1)
set -u
B=${EVT_TOP_BUILDDIR:?run from make check}
rec="$B/tools/ompi-evt-record"
listen="$B/tools/ompi-evt-listen"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
ko() { echo "FAIL: $*"; fail=1; }
