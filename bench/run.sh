#!/bin/sh
# bench/run.sh - `make bench`: how fast and how big the model is on the
# seed's experiment at full scale, both policies (`cachepressure compare
# seed`). Prints the wall time, the peak RSS, and the simulated page
# accesses per second of wall time (the sum over both runs of the JSON
# counter cp_pages_accessed; n/a when the model does not emit it).
# With BENCH_CALLGRIND=1 it also counts the instructions of a scaled run
# (`compare seed --mem 1G`) under valgrind's callgrind.
#
# A benchmark, not a test: it asserts nothing. The targets for
# both policies together are printed next to the numbers.
# Usage: bench/run.sh [BUILD_DIR]     (default: build)
set -eu
BUILD=${1:-build}
CP=$BUILD/cachepressure
TIME=/usr/bin/time
die() { echo "bench: $*" >&2; exit 1; }

[ -x "$CP" ] || die "no $CP (run 'make build' first)"
[ -x "$TIME" ] || die "no $TIME: install the Debian package 'time' (scripts/install-deps.sh)"
command -v jq >/dev/null || die "no jq: install the Debian package 'jq' (scripts/install-deps.sh)"

tmp=$(mktemp -d /tmp/cachepressure-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "bench: cachepressure compare seed (full scale, legacy then patched)"
set +e
"$TIME" -v -o "$tmp/time" "$CP" compare seed --json "$tmp/seed.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
	cat "$tmp/err" >&2
	cat "$tmp/time" >&2
	die "compare seed exited $rc"
fi

# GNU time -v: "Elapsed (wall clock) time (h:mm:ss or m:ss): 1:02.34"
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
	n = split($2, p, ":"); s = 0
	for (i = 1; i <= n; i++) s = s * 60 + p[i]
	printf "%.2f", s }' "$tmp/time")
user=$(awk -F': ' '/User time \(seconds\)/ { print $2 }' "$tmp/time")
sys=$(awk -F': ' '/System time \(seconds\)/ { print $2 }' "$tmp/time")
rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
rss_mib=$(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')
pages=$(jq '[.runs[].counters.cp_pages_accessed // empty] |
	if length == 0 then "n/a" else add end' "$tmp/seed.json" | tr -d '"')
if [ "$pages" = n/a ]; then
	rate=n/a
else
	rate=$(awk -v p="$pages" -v w="$wall" 'BEGIN {
		if (w > 0) printf "%.0f", p / w; else print "n/a" }')
fi

printf '  %-34s %s s (user %s s, sys %s s)   [target: < 30 s]\n' "wall time" "$wall" "$user" "$sys"
printf '  %-34s %s MiB   [target: < 2048 MiB]\n' "peak RSS" "$rss_mib"
printf '  %-34s %s\n' "simulated page accesses" "$pages"
printf '  %-34s %s\n' "simulated page accesses per second" "$rate"
# the result itself, for the record: the compare table
echo
awk 'found { print "  " $0 } /^$/ { found = 1 }' "$tmp/out"

if [ "${BENCH_CALLGRIND:-0}" = 1 ]; then
	command -v valgrind >/dev/null ||
		die "BENCH_CALLGRIND=1 needs valgrind (apt-get install valgrind)"
	echo
	echo "bench: callgrind, cachepressure compare seed --mem 1G"
	set +e
	valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" \
		"$CP" compare seed --mem 1G --quiet 2>"$tmp/cg.err"
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || { cat "$tmp/cg.err" >&2; die "callgrind run exited $rc"; }
	# "==PID== Collected : N" (events: Ir, instructions executed)
	ir=$(awk '/Collected :/ { print $NF }' "$tmp/cg.err")
	printf '  %-34s %s\n' "instructions (Ir)" "${ir:-n/a}"
fi
