#!/bin/sh
# lint-determinism.sh - the model must not read a wall clock or use an
# unseeded PRNG (STYLE.md §5). Greps src/ for banned calls.
set -eu
cd "$(dirname "$0")/.."
banned='\b(time|clock_gettime|gettimeofday|clock|rand|srand|random|srandom|getpid)[[:space:]]*\('
if grep -rnE "$banned" src/ --include='*.c' --include='*.h'; then
	echo "lint-determinism: banned call in src/ (see above)" >&2
	exit 1
fi
echo "lint-determinism: 0 banned calls in src/"
