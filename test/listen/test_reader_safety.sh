#!/bin/sh
# The readers (ompi-evt-listen --read, ompi-evt-file-read) on what a shared
# or hostile folder may hold: a huge sparse recording (memory follows what
# its header locates, not its size), names with bytes >= 0x80 (the JSON
# stays valid UTF-8), FIFOs (never waited on), other users', unreadable
# and empty files (skipped and said, the rest read), and the modes of the OTF2
# archive under umask 000. Each case prints "ok" or "FAIL"; the last line is
# "N passed, M failed".
set -u
L=${LISTEN:?}
R=${FILE_READ:?}
W=$PWD/safety-work
rm -rf "$W" && mkdir -p "$W" && chmod 700 "$W" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# run SECONDS EXPECTED_STATUS CMD...: CMD within SECONDS (124: it hung)
run() {
    secs=$1 want=$2; shift 2
    timeout "$secs" "$@" >"$W/out.txt" 2>"$W/err.txt"
    st=$?
    test "$st" = "$want" && return 0
    echo "  $* exited $st, expected $want"; sed 's/^/  | /' "$W/err.txt" | head -5
    return 1
}
# valid JSON Lines in UTF-8 (a strict parser when there is one)
json_ok() {
    iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || return 1
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json, sys
for line in open(sys.argv[1], encoding="utf-8", errors="strict"):
    json.loads(line)' "$1" || return 1
    fi
    return 0
}

# 1. a recording whose header claims 1 GiB, sparse on disk: read with a
#    bounded peak memory (a whole-file read would hold the gigabyte)
mkdir -m 700 "$W/big" && ./gen_oevt "$W/big/r.oevt" --size 1073741824 || bad "gen_oevt --size"
if run 120 0 ./run_maxrss "$W/rss" "$R" "$W/big/r.oevt" && test "$(cat "$W/rss")" -lt 131072; then
    ok "file-read: 1 GiB sparse recording, peak $(cat "$W/rss") KiB"
else
    bad "file-read: 1 GiB sparse recording, peak $(cat "$W/rss" 2>/dev/null) KiB (limit 128 MiB; a whole-file read holds 1 GiB)"
fi
if run 120 0 ./run_maxrss "$W/rss" "$L" --read "$W/big" -o "$W/big.out" --quiet &&
    test "$(cat "$W/rss")" -lt 262144 && test 3 = "$(grep -c '"time_ns"' "$W/big.out/events.jsonl")"; then
    ok "listen: 1 GiB sparse recording, peak $(cat "$W/rss") KiB"
else
    bad "listen: 1 GiB sparse recording, peak $(cat "$W/rss" 2>/dev/null) KiB (limit 256 MiB; a whole-file read holds 1 GiB)"
fi
# an image whose size is a multiple of 8 but not of the page, then a 1 GiB
# hole: the next image would start off a page boundary; it is mapped like
# the others (from the page below), not read into memory whole
./gen_oevt "$W/skew.oevt" --size 1048584 && truncate -s 1073741824 "$W/skew.oevt" &&
    run 120 2 ./run_maxrss "$W/rss" "$R" "$W/skew.oevt" && grep -q '"records":3' "$W/out.txt" &&
    test "$(cat "$W/rss")" -lt 131072 &&
    ok "file-read: a hole after an image that ends off a page boundary, peak $(cat "$W/rss") KiB" ||
    bad "file-read: a hole after an image that ends off a page boundary, peak $(cat "$W/rss" 2>/dev/null) KiB (limit 128 MiB)"
# shorter than its header says: reported, what is there read
./gen_oevt "$W/short.oevt" --size 1073741824 && truncate -s 65536 "$W/short.oevt" &&
    run 60 2 "$R" "$W/short.oevt" && grep -q '"records":3' "$W/out.txt" &&
    grep -q "truncated: 65536 of 1073741824 bytes" "$W/err.txt" &&
    ok "file-read: a file shorter than its header: reported" || bad "file-read: short file"

# 2. bytes >= 0x80 (valid and invalid UTF-8): in the header's host name they
# come out as '?'; a dictionary entry forged to carry them in an event name
# is refused by the wire decoder, said, and the records come out unnamed
./gen_oevt "$W/host.oevt" --host "$(printf 'caf\303\251\377\200x')" &&
    run 60 0 "$R" "$W/host.oevt" && json_ok "$W/out.txt" &&
    grep -q '"host":"caf????x"' "$W/out.txt" &&
    ok "file-read: bytes >= 0x80 in the host name give valid JSON ('?')" || bad "file-read: host bytes >= 0x80"
./gen_oevt "$W/name.oevt" --forge-name "$(printf 'ompi.caf\303\251\377\200x')" &&
    run 60 2 "$R" "$W/name.oevt" && json_ok "$W/out.txt" &&
    grep -q "dictionary: invalid entry at offset 4096: types: bad event name" "$W/err.txt" &&
    grep -q '"records":3' "$W/out.txt" && ! grep -q 'caf' "$W/out.txt" &&
    ok "file-read: a forged event name: the entry refused, said, records kept" || bad "file-read: forged event name"

# 3. FIFOs: named, or planted as *.oevt / *.evt in a folder: never waited on
mkfifo -m 600 "$W/fifo" || bad "mkfifo"
run 60 2 "$L" --read "$W/fifo" -o "$W/fifo.out" && grep -q "FIFO, not a regular file" "$W/err.txt" &&
    ok "listen --read FIFO: exit 2, said" || bad "listen --read FIFO"
run 60 1 "$R" "$W/fifo" && grep -q "FIFO, not a regular file" "$W/err.txt" &&
    ok "file-read FIFO: exit 1, said" || bad "file-read FIFO"
mkdir -m 700 "$W/fdir" && ./gen_oevt "$W/fdir/a.oevt" && mkfifo -m 600 "$W/fdir/b.oevt" &&
    run 60 1 "$R" "$W/fdir" && grep -q '"type":"summary".*"records":3' "$W/out.txt" &&
    grep -q "fdir/b.oevt: skipped: a FIFO" "$W/err.txt" &&
    ok "file-read DIR with a FIFO *.oevt: the rest read, the FIFO skipped, exit 1" ||
    bad "file-read DIR with a FIFO"
mkdir -m 700 "$W/ldir" && ./gen_nodefiles "$W/ldir" "$W/ldir.exp" --ranks 2 --nodes 1 --iters 10 &&
    mkfifo -m 600 "$W/ldir/nodeZ.evt" && run 60 1 "$L" --read "$W/ldir" --quiet &&
    grep -q "SKIPPED .*nodeZ.evt: a FIFO" "$W/ldir/summary.txt" && grep -q "nodeZ.evt" "$W/err.txt" &&
    test "$(grep -c '"time_ns"' "$W/ldir/events.jsonl")" = "$(awk '$1 == "total" {print $2}' "$W/ldir.exp")" &&
    ok "listen DIR with a FIFO *.evt: every event read, the FIFO skipped, exit 1" ||
    bad "listen DIR with a FIFO"
# an empty *.evt / *.oevt (its writer ended before its header): skipped and
# said, the rest of the folder read; named alone, refused with the cause
rm -f "$W/ldir/nodeZ.evt"
: >"$W/ldir/nodeY.evt" && : >"$W/ldir/evt.1.3.h.9.oevt" && run 60 1 "$L" --read "$W/ldir" --quiet &&
    grep -q "SKIPPED .*nodeY.evt: empty" "$W/ldir/summary.txt" &&
    grep -q "SKIPPED .*evt.1.3.h.9.oevt: empty" "$W/ldir/summary.txt" &&
    test "$(grep -c '"time_ns"' "$W/ldir/events.jsonl")" = "$(awk '$1 == "total" {print $2}' "$W/ldir.exp")" &&
    ok "listen DIR with empty *.evt and *.oevt: every event read, the empty ones skipped, exit 1" ||
    bad "listen DIR with empty inputs"
run 60 2 "$L" --read "$W/ldir/nodeY.evt" -o "$W/empty.out" && grep -q "nodeY.evt: empty" "$W/err.txt" &&
    ok "listen --read an empty file: exit 2, said" || bad "listen --read an empty file"
rm -f "$W/ldir/nodeY.evt" "$W/ldir/evt.1.3.h.9.oevt"

# 4. OTF2 archive modes under umask 000
(umask 000 && run 120 0 "$L" --read "$W/ldir" -o "$W/u0" --quiet) &&
    test -d "$W/u0/trace.otf2" &&
    test -z "$(find "$W/u0" -type f ! -perm 600)" && test -z "$(find "$W/u0" -type d ! -perm 700)" &&
    ok "umask 000: every output file 0600, folder 0700" ||
    { bad "umask 000: modes"; find "$W/u0" ! -perm 600 ! -perm 700 -printf '  %m %p\n' | head -5; }

# 5. a sticky shared folder: another user's file is not read by default,
#    an unreadable one does not stop the read (needs root to make them)
if test "$(id -u)" != 0 || ! id nobody >/dev/null 2>&1; then
    echo "SKIP: the shared-folder cases need root and a user nobody"
else
    S=$W/shared
    mkdir "$S" && chmod 1777 "$S" && chmod 711 "$W"
    mkdir -m 700 "$W/mine" "$W/theirs" &&
        ./gen_nodefiles "$W/mine" "$W/mine.exp" --ranks 2 --nodes 1 --iters 10 &&
        ./gen_nodefiles "$W/theirs" "$W/theirs.exp" --ranks 2 --nodes 1 --iters 7 &&
        cp "$W/mine/nodeA.evt" "$S/mine.evt" && cp "$W/theirs/nodeA.evt" "$S/theirs.evt" &&
        chown nobody "$S/theirs.evt" || bad "shared folder setup"
    mine=$(awk '$1 == "total" {print $2}' "$W/mine.exp")
    theirs=$(awk '$1 == "total" {print $2}' "$W/theirs.exp")
    run 60 1 "$L" --read "$S" -o "$W/s1" --quiet &&
        test "$(grep -c '"time_ns"' "$W/s1/events.jsonl")" = "$mine" &&
        grep -q "SKIPPED .*theirs.evt: owned by uid 65534" "$W/s1/summary.txt" &&
        grep -q "skipped .*theirs.evt" "$W/err.txt" &&
        ok "another user's file skipped and said, exit 1" || bad "another user's file"
    # (both files hold the same job: the listener counts theirs as duplicates)
    run 60 0 "$L" --read "$S" -o "$W/s2" --quiet --all-owners &&
        grep -q "^  $S/theirs.evt (node" "$W/s2/summary.txt" && ! grep -q SKIPPED "$W/s2/summary.txt" &&
        ok "--all-owners reads it" || bad "--all-owners"
    # as nobody: its own readable file read, its own unreadable one (0000)
    # and root's skipped
    mkdir -m 700 "$W/s3" && chown nobody "$W/s3" && chmod 000 "$S/theirs.evt" &&
        cp "$W/theirs/nodeA.evt" "$S/zz.evt" && chown nobody "$S/zz.evt" || bad "setup as nobody"
    if ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$L"; then
        # a build tree in a folder only root may enter (mktemp -d): nobody
        # cannot run the tool at all
        echo "SKIP: as nobody: $L cannot be run by user nobody (a parent folder is closed)"
    else
        run 60 1 setpriv --reuid=nobody --regid=nogroup --clear-groups "$L" --read "$S" -o "$W/s3" --quiet &&
            test "$(grep -c '"time_ns"' "$W/s3/events.jsonl")" = "$theirs" &&
            grep -q "SKIPPED .*theirs.evt: Permission denied" "$W/s3/summary.txt" &&
            grep -q "SKIPPED .*mine.evt: owned by uid 0" "$W/s3/summary.txt" &&
            ok "as nobody: an unreadable file skipped, the rest read, exit 1" || bad "as nobody: unreadable"
    fi
    chmod 700 "$W"
fi

echo "$pass passed, $fail failed"
test "$fail" = 0
