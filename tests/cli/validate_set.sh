#!/bin/sh
# `cachepressure validate --set S.KEY=VALUE`: scenario keys reach the
# model (and the real runs' plan). The "real" runs here are a model run
# with the overrides, relabelled as real (as validate_real_file.sh): the
# model run again with the same --set's must match them on every row
# (error 0), and without them it must not - fs_mark makes a fifth of the
# files, so its time differs. Machine and filesystem keys are refused
# (exit 2, named): the real runs have no such profile.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

SETS="--set file.file1.size=8M --set file.file2.size=8M --set creator.fs_mark.files_per_loop=300"
# shellcheck disable=SC2086 # SETS is split on purpose
"$CP" run seed --mem 256M --confine memcg --policy patched --kernel linux-6.x \
	--set 'reader.*.random_phase=yes' $SETS --json "$T/model.json" --quiet ||
	fail "the model run with --set failed"
sed 's/"source":[[:space:]]*"model"/"source": "real"/' "$T/model.json" >"$T/real.json"
grep -q '"source":[[:space:]]*"real"' "$T/real.json" || fail "could not relabel the run"

# shellcheck disable=SC2086
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--profile-rates $SETS >"$T/same" 2>"$T/err" || fail "validate --real --set exited $?"
grep -q '^fs_mark ns ' "$T/same" || fail "no fs_mark ns row"
awk '/^#/ || /^row/ { next } $NF != "0.0" && $NF != "n/a" { bad = bad " " $1 }
     END { if (bad) { print "nonzero error on:" bad; exit 1 } }' "$T/same" ||
	fail "the model with the same --set's differs from its own run"

"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--profile-rates >"$T/unset" 2>"$T/err2" || fail "validate --real without --set exited $?"
awk '$1 == "fs_mark" && $2 == "ns" { e = $NF } END { exit !(e != "" && e != "0.0" && e != "n/a") }' \
	"$T/unset" || fail "the model without the --set's matched: --set did not reach it"

expect 2 "--set machine.cpu.copy_bandwidth=8G: scenario keys only" \
	"$CP" validate seed --mem 1G --set machine.cpu.copy_bandwidth=8G
expect 2 "--set fs.create.create_cpu_ns=1: scenario keys only" \
	"$CP" validate seed --mem 1G --set fs.create.create_cpu_ns=1
expect 2 "unknown section type 'bogus'" "$CP" validate seed --mem 1G --set bogus.x=1
expect 2 "loops = -3" "$CP" validate seed --mem 1G --set creator.fs_mark.loops=-3
expect 2 "option --set needs a value" "$CP" validate seed --mem 1G --set
expect 2 "loops = -3" "$CP" validate seed --mem 256M --confine memcg --real "$T/real.json" \
	--set creator.fs_mark.loops=-3
echo PASS
