#!/bin/sh
# `cachepressure validate` with a machine profile that measured the CPUs
# fs_mark and two readers get side by side ([cpu]
# fs_mark_cpus_beside_readers, readers_cpus_beside_fs_mark): the model's
# fs_mark workers run at that worker-to-reader ratio (engine.h
# cp_engine_set_light_share), so the header says so and fs_mark has fewer
# CPUs per mille than with the same profile without the keys, where every
# task shares alike. One key without the other is refused, naming both.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

seed_model_run "$T/model.json"
real_runs "$T/real.json" -
# grid-vm: 2 CPUs, so the two workers and two readers share them
PROFILE=$SRC/profiles/grid-vm.ini
sed 's/^\[cpu\]$/[cpu]\nfs_mark_cpus_beside_readers = 700\nreaders_cpus_beside_fs_mark = 1000/' \
	"$PROFILE" >"$T/light.ini"
grep -q '^fs_mark_cpus_beside_readers = 700$' "$T/light.ini" || fail "no [cpu] section to add to"
sed 's/^\[cpu\]$/[cpu]\nfs_mark_cpus_beside_readers = 700/' "$PROFILE" >"$T/half.ini"

# fs_mark CPUs per mille (the model's column) from a table
cpus() {
	awk '/^fs_mark CPUs per mille/ { print $(NF - 2) }' "$1"
}

"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--seeds 1 --machine "$PROFILE" >"$T/alike" 2>"$T/err" || fail "validate (alike) exited $?"
grep -q '^# model CPUs: every task shares alike (the machine profile has no fs_mark_cpus_beside_readers)$' \
	"$T/alike" || fail "no 'shares alike' line: $(grep 'model CPUs' "$T/alike")"
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--seeds 1 --machine "$T/light.ini" >"$T/light" 2>"$T/err" || fail "validate (light) exited $?"
grep -q "^# model CPUs: fs_mark's workers at 700/1000 of another task's rate while both run" \
	"$T/light" || fail "no light share line: $(grep 'model CPUs' "$T/light")"
A=$(cpus "$T/alike")
L=$(cpus "$T/light")
[ -n "$A" ] && [ -n "$L" ] || fail "no 'fs_mark CPUs per mille' row: '$A' '$L'"
[ "$L" -lt "$A" ] || fail "fs_mark had $L per mille of the CPUs light, $A alike: want fewer"

expect_error 2 "fs_mark_cpus_beside_readers" "readers_cpus_beside_fs_mark" -- \
	validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--seeds 1 --machine "$T/half.ini"
echo "PASS: fs_mark CPUs per mille $A alike, $L at 700/1000"
