# Sourced (not run) by the shell tests that check a staged install of the
# build tree and count their checks: test/kit/test_component_example.sh,
# test/mpi/test_pkgconfig_install.sh. Set evt_scratch (a name for the
# scratch folder) before sourcing. Gives:
#   $top, $src     the build and source trees (from make check's environment)
#   $tmp           a new scratch folder, removed at exit
#   ok, ko WHAT    count a check that passed / failed ("FAILED: WHAT" on stderr)
#   finish         print "N passed, M failed" and exit: 0 when nothing failed
#   stage_install  `make install DESTDIR=$tmp/root` of $top (counted; the
#                  log's tail on failure); its status. The staged libtool
#                  archives (*.la) are removed, as distributions do: one
#                  names another by its final path (libmca_common_evt.la
#                  names /usr/local/lib/libompi_evt.la), which a staged
#                  tree does not have, and libtool would follow it.
set -u
top="${EVT_TOP_BUILDDIR:?run from make check}"
src="${EVT_TOP_SRCDIR:?run from make check}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/${evt_scratch:-evt-test}.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

# A nested make of the same tree: keep the outer make's jobserver out of it.
stage_install() {
    if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$top" install DESTDIR="$tmp/root" \
            >"$tmp/install.log" 2>&1; then
        find "$tmp/root" -name '*.la' -type f -delete
        ok
    else
        ko "make install"
        tail -20 "$tmp/install.log" >&2
        return 1
    fi
}
