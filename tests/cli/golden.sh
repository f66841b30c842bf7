#!/bin/sh
# golden.sh - scaled-down scenarios through the CLI must print exactly
# tests/scenarios/NAME.out (regenerate with scripts/update-golden.sh).
# Usage: sh golden.sh path/to/cachepressure SOURCE_DIR
set -u
cp=$1
src=$2
fail=0
n=0
for scn in "$src"/tests/scenarios/*.scn; do
	n=$((n + 1))
	out=${scn%.scn}.out
	# shellcheck disable=SC2046
	if ! "$cp" $(cat "$scn") 2>/dev/null | diff -u "$out" - > /tmp/cachepressure-golden.$$; then
		echo "FAIL: $(basename "$scn"): output differs from $(basename "$out"):"
		head -40 /tmp/cachepressure-golden.$$
		fail=1
	fi
done
rm -f /tmp/cachepressure-golden.$$
[ "$n" -gt 0 ] || { echo "FAIL: no .scn files"; exit 1; }
[ "$fail" -eq 0 ] && echo "golden: $n scenarios match"
exit "$fail"
