#!/bin/sh
# scenarios.sh - `cachepressure scenarios` lists every built-in, one line
# each: name, then its description.
# Usage: sh scenarios.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$CP" scenarios) || fail "scenarios exited $?"
echo "$out" | grep -q '^seed  *the commit' || fail "no seed line in: $out"
echo "$out" | grep -q '^files-in-cache  *the reverse test' || fail "no files-in-cache line in: $out"
n=$(echo "$out" | wc -l)
m=$(ls "$SRC"/scenarios/*.ini | wc -l)
[ "$n" -eq "$m" ] || fail "$n lines for $m scenario files"
# sorted by name
[ "$(echo "$out" | head -1 | cut -d' ' -f1)" = files-in-cache ] || fail "not sorted: $out"

"$CP" scenarios --help | grep -q 'Usage: cachepressure scenarios' || fail "scenarios --help"
set +e
"$CP" scenarios extra >/dev/null 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "scenarios extra: exit $rc, want 2"

# another directory through the environment
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$SRC/scenarios/seed.ini" "$tmp/mine.ini"
out=$(CACHEPRESSURE_SCENARIOS_DIR=$tmp "$CP" scenarios)
[ "$(echo "$out" | cut -d' ' -f1)" = mine ] || fail "CACHEPRESSURE_SCENARIOS_DIR: $out"
echo PASS
