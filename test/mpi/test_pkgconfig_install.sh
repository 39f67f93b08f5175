#!/bin/sh
# An installed ompi-evt serves tools through pkg-config alone: `make install
# DESTDIR=tmp`, then (pkg-config --define-prefix relocates the .pc file)
#  - the cflags put include/ompi-evt first, holding mpi.h, mpi_t_events.h and
#    the producer header opal/mca/base/mca_base_event.h;
#  - an unmodified MPI-4 tool (mpi4_tool_compile.c) builds with
#    mpicc $(pkg-config --cflags ompi-evt) tool.c $(pkg-config --libs ompi-evt)
#    and runs (MPI_T only, no mpirun);
#  - a producer including "opal/mca/base/mca_base_event.h" builds too;
#  - a tool including "ompi/runtime/ompi_evt_payloads.h" (the built-in
#    payload structs) alone, without Open MPI's headers, builds as C and as
#    C++.
# Prints "N passed, M failed".
evt_scratch=evt-pc
. "${EVT_TOP_SRCDIR:?run from make check}/test/evt_test_install.sh"

stage_install

# In a sanitizer tree the library needs the sanitizer runtime: build with the
# tree's compiler (OMPI_CC) and flags (from EVT_RUN_ENV).
san="${EVT_SANITIZER_CFLAGS:-}"
if [ -n "${EVT_CC:-}" ]; then OMPI_CC="$EVT_CC"; export OMPI_CC; fi

pc=$(find "$tmp/root" -name ompi-evt.pc | head -n 1)
if [ -n "$pc" ]; then ok; else ko "ompi-evt.pc installed"; finish; fi
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
cflags=$(pkg-config --define-prefix --cflags ompi-evt) && ok || ko "pkg-config --cflags"
libs=$(pkg-config --define-prefix --libs ompi-evt) && ok || ko "pkg-config --libs"
first=$(printf '%s\n' $cflags | grep '^-I' | head -n 1 | sed 's/^-I//')
case "$first" in
    "$tmp"/root/*/include/ompi-evt) ok ;;
    *) ko "first -I is the installed include/ompi-evt (got '$first')" ;;
esac
for f in mpi.h mpi_t_events.h opal/mca/base/mca_base_event.h ompi/runtime/ompi_evt_payloads.h \
         opal/mca/memory/patcher/memory_patcher_event_payloads.h; do
    if [ -f "$first/$f" ]; then ok; else ko "installed $f"; fi
done

if mpicc $san $cflags "$src/test/mpi/mpi4_tool_compile.c" -o "$tmp/mpi4_tool" $libs \
        >"$tmp/cc.log" 2>&1; then ok; else ko "MPI-4 tool build"; cat "$tmp/cc.log" >&2; fi
if [ -x "$tmp/mpi4_tool" ]; then
    # No LD_LIBRARY_PATH: the rpath from --libs must find the installed library.
    if env -u LD_LIBRARY_PATH "$tmp/mpi4_tool" >"$tmp/run.log" 2>&1; then ok; else ko "MPI-4 tool run"; fi
    cat "$tmp/run.log"
    if env -u LD_LIBRARY_PATH ldd "$tmp/mpi4_tool" | grep -q "$tmp/root.*libompi_evt"; then ok; else ko "tool linked the installed libompi_evt"; fi
fi

cat >"$tmp/producer.c" <<'PRODUCER'
#include "opal_config.h"
#include "opal/mca/base/mca_base_event.h"
#include <mpi.h>
int produce(mca_base_event_t *event, const void *payload)
{
    return mca_base_event_raise(event, NULL, payload);
}
PRODUCER
if mpicc $san $cflags -c "$tmp/producer.c" -o "$tmp/producer.o" >"$tmp/pcc.log" 2>&1; then ok; else ko "producer build"; cat "$tmp/pcc.log" >&2; fi

# The payload header stands alone: only -I<include/ompi-evt>, no mpi.h, no
# Open MPI include folder. The offsets are checked by the header itself.
cat >"$tmp/payloads.c" <<'PAYLOADS'
#include "ompi/runtime/ompi_evt_payloads.h"
int payload_sizes(void)
{
    ompi_evt_p2p_payload_t p2p = {0};
    opal_memory_patcher_event_released_payload_t mem = {0};
    return (int) (sizeof(p2p) + sizeof(mem) + sizeof(ompi_evt_initialization_payload_t))
           + OMPI_EVT_ERRHANDLER_OBJECT_FILE + OMPI_EVT_P2P_MODE_PERSISTENT;
}
PAYLOADS
if "${EVT_CC:-cc}" -std=c11 -Wall -Werror -I"$first" -c "$tmp/payloads.c" -o "$tmp/payloads.o" \
        >"$tmp/plc.log" 2>&1; then ok; else ko "payload header, C"; cat "$tmp/plc.log" >&2; fi
if command -v "${CXX:-c++}" >/dev/null 2>&1; then
    cp "$tmp/payloads.c" "$tmp/payloads.cc"
    if "${CXX:-c++}" -std=c++11 -Wall -Werror -I"$first" -c "$tmp/payloads.cc" \
            -o "$tmp/payloads_cc.o" >"$tmp/plcc.log" 2>&1; then ok; else ko "payload header, C++"; cat "$tmp/plcc.log" >&2; fi
fi

finish
