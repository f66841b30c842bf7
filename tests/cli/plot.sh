#!/bin/sh
# `cachepressure plot`: a small model run's JSON drawn to SVG is a valid
# SVG with the three panel titles and the run's legend; bad input exits 2
# naming it; the temporary files are removed. SKIP without gnuplot.
set -u
CP=$1
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot not installed (gnuplot-nox)"; exit 77; }
T=$(mktemp -d /var/tmp/cp-plottest.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() {
	echo "FAIL: $*"
	[ -f "$T/err" ] && cat "$T/err"
	exit 1
}
mkdir "$T/tmp"

"$CP" run seed --mem 256M --confine memcg --policy patched --kernel linux-6.1 -q \
	--json "$T/m.json" || fail "model run"
TMPDIR=$T/tmp "$CP" plot "$T/m.json" -o "$T/m.svg" 2>"$T/err" || fail "plot exited $?"
[ -s "$T/m.svg" ] || fail "no SVG written"
[ -z "$(ls -A "$T/tmp")" ] || fail "temporary files left: $(ls -A "$T/tmp")"
head -c 200 "$T/m.svg" | grep -q '<svg\|<?xml' || fail "not an SVG"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
text = " ".join(t for t in root.itertext())
for s in ["Page cache over time", "Reclaimable slab over time", "Bytes re-read per pass",
          "model (patched, linux-6.1)", "file1", "seed: confine memcg, mem 256 MiB"]:
    assert s in text, s' "$T/m.svg" || fail "SVG does not parse or lacks a title"
else
	for s in "Page cache over time" "Reclaimable slab over time" "Bytes re-read per pass"; do
		grep -q "$s" "$T/m.svg" || fail "no '$s' in the SVG"
	done
fi

expect2() {
	pat=$1
	shift
	rc=0
	"$CP" "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" = 2 ] || fail "'$*' exited $rc, expected 2"
	grep -q -- "$pat" "$T/err" || fail "'$*' did not say '$pat'"
}
"$CP" plot --help | grep -q -- "-o, --output" || fail "no --help"
expect2 "must end in .svg or .png" plot "$T/m.json" -o "$T/m.pdf"
expect2 "missing -o" plot "$T/m.json"
expect2 "missing FILE.json" plot -o "$T/x.svg"
expect2 "$T/none.json" plot "$T/none.json" -o "$T/x.svg"
echo '{"runs": 3}' >"$T/bad.json"
expect2 "bad.json" plot "$T/bad.json" -o "$T/x.svg"
[ ! -e "$T/x.svg" ] || fail "an output was written for bad input"
echo PASS
