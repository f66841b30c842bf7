#!/bin/sh
# lint-determinism.sh - the model must not read a wall clock or use an
# unseeded PRNG (STYLE.md §5). Strips comments with the C preprocessor,
# then greps src/ for banned calls.
set -eu
cd "$(dirname "$0")/.."
banned='(^|[^A-Za-z0-9_.>])(time|clock_gettime|gettimeofday|clock|rand|srand|random|srandom|getpid)[[:space:]]*\('
bad=0
for f in $(find src -name '*.c' -o -name '*.h' | sort); do
	if gcc -fpreprocessed -dD -E -P "$f" 2>/dev/null | grep -nE "$banned"; then
		echo "lint-determinism: banned call in $f" >&2
		bad=1
	fi
done
[ "$bad" -eq 0 ] || exit 1
echo "lint-determinism: no wall-clock or unseeded PRNG calls in src/"
