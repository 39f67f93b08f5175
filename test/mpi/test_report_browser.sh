#!/bin/sh
# report.html in a real browser: Chromium, headless, opens the report of a
# recorded ring (report_patterns under ompi-evt-record -np 4) from the
# file system with the network cut off, takes a screenshot, and prints the
# page's console. Passes when the screenshot is a PNG of the page's size
# that is not blank (enough pixels that are not the background, in more
# than a few colours), and the console shows no message (the page has no
# script: any message is a failed load or a rendering error).
# Exit 77 (skipped) without chromium or python3: `make check-report-browser`
# runs it, and CI installs chromium for it.
. "$(dirname "$0")/evt_output_test.sh"
browser=
for c in chromium chromium-browser google-chrome; do
    command -v "$c" >/dev/null 2>&1 && { browser=$c; break; }
done
[ -n "$browser" ] || { echo "SKIP: no chromium (apt-get install chromium)"; exit 77; }

timeout 180 "$rec" -q -o "$tmp/rec" -- ${MPIRUN:-mpirun} -np 4 --oversubscribe \
    "$PWD/report_patterns" ring 20 >"$tmp/rec.log" 2>&1 || {
    cat "$tmp/rec.log"
    ko "ompi-evt-record exit status"
}
[ -s "$tmp/rec/report.html" ] || { ko "no report.html"; exit 1; }
# no sandbox: it needs user namespaces that containers (and root) often
# lack, and the page is our own, opened with the network cut off; its own
# profile folder
timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$tmp/profile" --proxy-server=127.0.0.1:9 --proxy-bypass-list="<-loopback>" \
    --enable-logging=stderr --v=0 --window-size=1280,1600 --hide-scrollbars \
    --screenshot="$tmp/shot.png" "file://$tmp/rec/report.html" >"$tmp/browser.out" 2>"$tmp/browser.err"
brc=$?
[ "$brc" -eq 0 ] || { tail -20 "$tmp/browser.err"; ko "$browser exit status $brc"; }
if grep -q "CONSOLE" "$tmp/browser.err"; then
    grep "CONSOLE" "$tmp/browser.err" | head -5
    ko "the page's console is not empty"
else
    echo "console: no message"
fi
python3 - "$tmp/shot.png" <<'PY' || ko "the screenshot"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG")
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
if depth != 8 or ctype not in (2, 6) or interlace:
    sys.exit("PNG kind %d/%d/%d not read here" % (depth, ctype, interlace))
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, i = bytearray(stride), [], 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1:
            line[x] = (line[x] + a) & 255
        elif f == 2:
            line[x] = (line[x] + b) & 255
        elif f == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
background = tuple(rows[0][0:3])
colours, inked = set(), 0
for line in rows[::4]:
    for x in range(0, stride, bpp * 4):
        px = tuple(line[x:x + 3])
        colours.add(px)
        inked += px != background
print("screenshot %dx%d: %d sampled pixels not background, %d colours" % (w, h, inked, len(colours)))
if w != 1280 or inked < 2000 or len(colours) < 8:
    sys.exit("blank or too plain")
PY
[ $fail -eq 0 ] && echo "PASS: test_report_browser"
exit $fail
