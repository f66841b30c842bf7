#!/bin/sh
# validate_grid_profile.sh - scripts/validate-grid.sh MODEL_ONLY=1 models
# every row with one machine profile: the median of all the grid's
# calibrations (OUT/machine-*.before.ini and .after.ini; issue "one
# machine profile from calibrate for all rows"). Three calibrations with
# copy_bandwidth 16000M, 9000M (a disturbed minute) and 18000M give
# OUT/machine.ini with 16000M; a row's old per-row profile
# (machine-CONFINE-MEM.ini, named "perrow" here) is not used: the table
# names the grid's profile. A bad SEEDS exits 2. No root: the model only.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP
G=$T/grid
mkdir -p "$G"

# a "real" run: a model run relabelled, as in validate_paired.sh
seed_model_run "$T/model.json"
real_runs "$G/seed-memcg-256M.json" -

calibration "$G/machine-memcg-256M.before.ini" calibrated 16000M
calibration "$G/machine-memcg-256M.after.ini" calibrated 9000M
calibration "$G/machine-global-256M.before.ini" calibrated 18000M
calibration "$G/machine-memcg-256M.ini" perrow 5000M

MODEL_ONLY=1 SEEDS=1 sh "$SRC/scripts/validate-grid.sh" "$(dirname "$CP")" "$G" memcg:256M \
	>"$T/out" 2>"$T/err" || fail "validate-grid MODEL_ONLY exited $?: $(cat "$T/err")"
grep -qx "copy_bandwidth = 16000M" "$G/machine.ini" ||
	fail "the grid's profile is not the median: $(grep '^copy_bandwidth' "$G/machine.ini")"
grep -q "the median of 3 calibrations" "$G/machine.ini" || fail "machine.ini does not say median of 3"
grep -q "machine calibrated" "$G/seed-memcg-256M.txt" ||
	fail "the row's table does not name the grid's profile: $(grep '^# model:' "$G/seed-memcg-256M.txt")"
grep -q "perrow" "$G/seed-memcg-256M.txt" && fail "the row used its per-row profile"
grep -q '^total ' "$G/seed-memcg-256M.txt" || fail "no table for the row"

SEEDS=0 MODEL_ONLY=1 sh "$SRC/scripts/validate-grid.sh" "$(dirname "$CP")" "$G" memcg:256M \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || fail "SEEDS=0 exited $rc, not 2"
grep -q "SEEDS=0" "$T/err" || fail "SEEDS=0 not named: $(cat "$T/err")"
echo PASS
