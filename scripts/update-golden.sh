#!/bin/sh
# update-golden.sh - regenerate tests/scenarios/*.out from the .scn files
# (each holds the arguments of one cachepressure command). Review the
# diff before committing: a golden changes only when the model does.
#
# Usage: scripts/update-golden.sh [path/to/cachepressure]
set -eu
cd "$(dirname "$0")/.."
cp=${1:-build/cachepressure}
for scn in tests/scenarios/*.scn; do
	# shellcheck disable=SC2046
	"$cp" $(cat "$scn") > "${scn%.scn}.out"
	echo "updated ${scn%.scn}.out"
done
