#!/bin/sh
# The documentation cannot drift from the code:
#  - docs/events-catalogue.md is exactly what ompi-evt-info --markdown prints;
#  - every man page renders with man -l without a warning, and names every
#    option its tool's --help lists;
#  - the README stays a front door (under 200 lines), and every relative link
#    of the Markdown pages reaches a file and a heading.
: "${TOOLS:?}" "${SRCDIR:?}"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT

# 1. the catalogue
if [ -n "${EVT_DOCS_SANITIZED:-}" ]; then
    echo "skip: the catalogue is compared in the plain build (this is a sanitizer build)"
elif "$TOOLS/ompi-evt-info" --markdown >"$work/catalogue.md" 2>"$work/info.err"; then
    if cmp -s "$work/catalogue.md" "$SRCDIR/docs/events-catalogue.md"; then
        ok "docs/events-catalogue.md is ompi-evt-info --markdown ($(grep -c '^### ' "$work/catalogue.md") event types)"
    else
        diff -u "$SRCDIR/docs/events-catalogue.md" "$work/catalogue.md" | head -40
        bad "docs/events-catalogue.md differs from ompi-evt-info --markdown (regenerate it: tools/ompi-evt-info --markdown > docs/events-catalogue.md)"
    fi
else
    cat "$work/info.err"
    bad "ompi-evt-info --markdown failed"
fi

# 2. the man pages
for tool in ompi-evt-info ompi-evt-record ompi-evt-listen ompi-evt-file-read ompi-evt-check-component; do
    page="$SRCDIR/docs/man/$tool.1"
    if [ ! -f "$page" ]; then
        bad "$tool: no man page"
        continue
    fi
    LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >"$work/man.txt" 2>"$work/man.err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$work/man.err" ]; then
        cat "$work/man.err"
        bad "$tool.1: man -l exit $rc or warnings"
    elif ! grep -q "^NAME" "$work/man.txt" || ! grep -q "$tool" "$work/man.txt"; then
        bad "$tool.1: rendered without a NAME section naming $tool"
    else
        ok "$tool.1 renders ($(wc -l <"$work/man.txt") lines)"
    fi
    # every long option of --help is in the page
    "$TOOLS/$tool" --help >"$work/help.txt" 2>&1
    missing=
    for opt in $(grep -o -- '--[a-z][a-z-]*' "$work/help.txt" | sort -u); do
        grep -q -- "$opt" "$work/man.txt" || missing="$missing $opt"
    done
    if [ -n "$missing" ]; then
        bad "$tool.1 does not describe:$missing"
    else
        ok "$tool.1 names every option of $tool --help"
    fi
done

# 3. the README and the links
lines=$(wc -l <"$SRCDIR/README.md")
if [ "$lines" -lt 200 ]; then
    ok "README.md: $lines lines"
else
    bad "README.md: $lines lines (keep it under 200; move details into docs/)"
fi
if python3 "$SRCDIR/test/docs/check_links.py" "$SRCDIR/README.md" "$SRCDIR"/docs/*.md; then
    ok "links of README.md and docs/*.md"
else
    bad "broken links"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
