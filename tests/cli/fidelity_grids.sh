#!/bin/sh
# fidelity_grids.sh - scripts/fidelity-grids.sh with REUSE pools the
# grids it is given and models every row against all their real runs
# with one profile, the median of every calibration: grid 1 with one
# real run at memcg 256M (calibrated 16000M before, 9000M after) and grid
# 2 with two (18000M) give a pooled row of three runs, the profile's
# copy_bandwidth 16000M, and the row's total line. Refused (exit 2,
# naming the input): GRIDS=0, a build without the program, a REUSE entry
# that is not a directory, INTRO that is not a file; without REUSE and
# not root, the real runs. No root: the model only. Needs python3.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
T=$CP_TEST_TMP
S="$SRC/scripts/fidelity-grids.sh"
B=$(dirname "$CP")
mkdir -p "$T/g1" "$T/g2"

seed_model_run "$T/model.json"
real_runs "$T/g1/seed-memcg-256M.json" a
real_runs "$T/g2/seed-memcg-256M.json" ab
calibration "$T/g1/machine-memcg-256M.before.ini" calibrated 16000M
calibration "$T/g1/machine-memcg-256M.after.ini" calibrated 9000M
calibration "$T/g2/machine-memcg-256M.before.ini" calibrated 18000M

REUSE="$T/g1 $T/g2" SEEDS=1 sh "$S" "$B" "$T/fg" memcg:256M >"$T/o" 2>"$T/e" ||
	fail "fidelity-grids exited $?: $(cat "$T/e")"
grep -q '^memcg:256M: total  *3 ' "$T/o" || fail "no pooled total line of 3 runs: $(cat "$T/o")"
grep -qx "copy_bandwidth = 16000M" "$T/fg/pooled/machine.ini" ||
	fail "the profile is not the median: $(grep '^copy_bandwidth' "$T/fg/pooled/machine.ini")"
grep -q "the median of 3 calibrations" "$T/fg/pooled/machine.ini" || fail "not the median of 3"

expect 2 "GRIDS=0" env GRIDS=0 sh "$S" "$B" "$T/x"
expect 2 "no $T/nobuild/cachepressure" sh "$S" "$T/nobuild" "$T/x"
expect 2 "REUSE: $T/nosuch is not a directory" env REUSE="$T/g1 $T/nosuch" sh "$S" "$B" "$T/x"
expect 2 "INTRO=$T/nointro: no such file" env INTRO="$T/nointro" REUSE="$T/g1" sh "$S" "$B" "$T/x"
expect 0 "REUSE=" sh "$S" --help x
if [ "$(id -u)" != 0 ]; then
	expect 2 "need root" sh "$S" "$B" "$T/x"
fi
echo PASS
