#!/bin/sh
# The installed kit builds a component: `make install
# DESTDIR=tmp`, then examples/component (evt/count) is configured with the
# installed m4 and pkg-config file alone, built, and
#   - loaded by a real mpirun -np 2 through the component path, where it
#     counts the events of examples/evt_demo_app and prints them at
#     finalize (each rank: one ompi.mpi.initialization, the app's own
#     events, nothing dropped);
#   - run through the test kit (ompi-evt-check-component count --path DIR).
# Prints "N passed, M failed".
evt_scratch=evt-comp
. "${EVT_TOP_SRCDIR:?run from make check}/test/evt_test_install.sh"

stage_install || finish
pc=$(find "$tmp/root" -name ompi-evt-component.pc | head -n 1)
m4=$(find "$tmp/root" -name ompi-evt.m4 | head -n 1)
lib=$(find "$tmp/root" -name libompi_evt.so | head -n 1)
hook=$(find "$tmp/root" -name mca_hook_evt.so | head -n 1)
for f in "$pc" "$m4" "$lib" "$hook"; do
    if [ -n "$f" ]; then ok; else ko "installed: pc, m4, library, hook ($pc $m4 $lib $hook)"; finish; fi
done
for h in ompi/mca/evt/evt.h ompi/mca/evt/base/evt_base_kit.h ompi/mca/evt/base/evt_base_ring.h \
         ompi/mca/evt/base/base.h; do
    if [ -n "$(find "$tmp/root" -path "*/include/ompi-evt/$h")" ]; then ok; else ko "installed $h"; fi
done

cp -R "$src/examples/component" "$tmp/ex"
chmod -R u+w "$tmp/ex"
PKG_CONFIG_PATH=$(dirname "$pc")
PKG_CONFIG="pkg-config --define-prefix"
ACLOCAL_PATH=$(dirname "$m4")
export PKG_CONFIG_PATH PKG_CONFIG ACLOCAL_PATH
# In a sanitizer tree the component needs the same runtime as the library.
cc="${EVT_CC:-cc}"
if (cd "$tmp/ex" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 600 sh -c \
        "autoreconf -i && ./configure CC='$cc' CFLAGS='-g -O2 ${EVT_SANITIZER_CFLAGS:-}' LDFLAGS='${EVT_SANITIZER_CFLAGS:-}' && make") \
        >"$tmp/build.log" 2>&1; then ok; else ko "build of examples/component"; tail -30 "$tmp/build.log"; finish; fi
so="$tmp/ex/.libs/mca_evt_count.so"
if [ -f "$so" ]; then ok; else ko "mca_evt_count.so built"; finish; fi
if nm -D "$so" | grep -q ' mca_evt_count_component$'; then ok; else ko "symbol mca_evt_count_component"; fi

# The staged library and components, then Open MPI's own folder.
LD_LIBRARY_PATH="$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OMPI_MCA_mca_base_component_path="$tmp/ex/.libs:$(dirname "$hook"):${OMPI_MCA_mca_base_component_path#*:}"
export LD_LIBRARY_PATH OMPI_MCA_mca_base_component_path
echo "component path: $OMPI_MCA_mca_base_component_path"
timeout 120 "${MPIRUN:-mpirun}" -np 2 --mca evt count --mca evt_base_verbose 10 \
    -x LD_LIBRARY_PATH "$top/examples/evt_demo_app" >"$tmp/run.log" 2>&1
rc=$?
grep -E 'evt/count|selected' "$tmp/run.log"
if [ $rc -eq 0 ]; then ok; else ko "mpirun exit $rc"; tail -20 "$tmp/run.log"; fi
n=$(grep -c 'selected component count' "$tmp/run.log")
if [ "$n" -ge 2 ]; then ok; else ko "count selected by $n ranks"; fi
n=$(grep -Ec '^evt/count \[[0-9]+\]: ompi.mpi.initialization 1 \(dropped 0\)$' "$tmp/run.log")
if [ "$n" -eq 2 ]; then ok; else ko "$n ranks counted one ompi.mpi.initialization"; fi
n=$(grep -E '^evt/count \[[0-9]+\]: ' "$tmp/run.log" | grep -vc '(dropped 0)$')
if [ "$n" -eq 0 ]; then ok; else ko "$n counts with drops"; fi

# The test kit against the out-of-tree component
if timeout 300 "$EVT_KIT_CHECK" count --expect deferred,exports,async-signal \
        --path "$tmp/ex/.libs" >"$tmp/kit.log" 2>&1; then ok; else ko "test kit"; fi
tail -3 "$tmp/kit.log"
finish
