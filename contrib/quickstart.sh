#!/bin/sh
# ompi-evt quick start on a fresh Debian 12 machine.
#   contrib/quickstart.sh demo   set up, build, record a job's events (ompi-evt-record --
#                                mpirun -np 4 ./evt_demo_app), show the summary and outputs
#   contrib/quickstart.sh test   set up, build, run every test (make check, check-apps,
#                                check-sanitize)
# Set-up: installs the Debian packages when missing (as root, apt-get update
# first; otherwise prints the apt-get line), then autogen/configure/make in
# _build/ beside the sources.
set -eu
what=${1:-}
case "$what" in
demo|test) ;;
*) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
packages="libopenmpi-dev openmpi-bin libpmix-dev libpmix-bin libucx-dev libhwloc-dev libevent-dev
 libcriterion-dev libjson-c-dev autoconf automake libtool flex pkg-config make gcc
 clang libclang-rt-14-dev libopen-trace-format2-dev otf2-tools
 netpipe-openmpi python3-mpi4py meep-openmpi libcoarrays-openmpi-dev hpcc scalapack-mpi-test mumps-test lammps man-db groff-base python3"
# the tests also open report.html in a real browser
[ "$what" = test ] && packages="$packages chromium"
missing=
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "quickstart: installing$missing"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
    else
        echo "quickstart: missing Debian packages; run as root:" >&2
        echo "  apt-get update && apt-get install -y$missing" >&2
        exit 1
    fi
fi
cd "$top"
[ -x configure ] || ./autogen.sh
mkdir -p _build
cd _build
[ -f Makefile ] || ../configure
make -j"$(nproc)"
# A failing test's own log, printed last: a log shown by its tail alone
# (CI) then says which check failed and why, not only the test's name.
check() {
    stamp=$(mktemp)
    make "$1" && rm -f "$stamp" && return 0
    rc=$?
    find . -name '*.trs' -newer "$stamp" -exec grep -l ':test-result: \(FAIL\|ERROR\)' {} + \
        | while read -r trs; do
            echo "=== ${trs%.trs}.log (last 60 lines)"
            tail -n 60 "${trs%.trs}.log"
        done
    rm -f "$stamp"
    echo "quickstart: make $1 failed (exit $rc)" >&2
    exit "$rc"
}
if [ "$what" = demo ]; then
    make demo
else
    check check
    check check-apps
    check check-report-browser
    check check-sanitize
fi
