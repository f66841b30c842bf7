#!/bin/sh
# A machine profile whose [device] share_beside_busy_cpus is set (a VM's
# disk emulated on the host CPUs its vCPUs run on, engine.h
# cp_engine_set_host_io_share): `cachepressure validate`'s header says
# so (without the key there is no such line), and a model run's device
# moves fewer bytes per second it is busy than with the same profile
# without the key (requests submitted while both CPUs are busy transfer
# at 400/1000 of the bandwidth). A share of 1000 is refused, naming the
# key. Needs python3.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
T=$CP_TEST_TMP

seed_model_run "$T/model.json"
real_runs "$T/real.json" -
PROFILE=$SRC/profiles/grid-vm.ini
sed 's/^\[device\]$/[device]\nshare_beside_busy_cpus = 400/' "$PROFILE" >"$T/share.ini"
grep -q '^share_beside_busy_cpus = 400$' "$T/share.ini" || fail "no [device] section to add to"
sed 's/^\[device\]$/[device]\nshare_beside_busy_cpus = 1000/' "$PROFILE" >"$T/whole.ini"

for p in none share; do
	prof=$PROFILE
	[ $p = share ] && prof=$T/share.ini
	"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
		--seeds 1 --machine "$prof" >"$T/$p" 2>"$T/err" || fail "validate ($p) exited $?"
	"$CP" run seed --mem 256M --confine memcg --policy patched --kernel linux-6.x \
		--machine "$prof" --json "$T/$p.json" --quiet || fail "run ($p) failed"
done
grep -q '^# model device: ' "$T/none" && fail "a device line without the key"
grep -q '^# model device: .* at 400/1000 of its rate' "$T/share" ||
	fail "no device line: $(grep '^# model' "$T/share")"
# the device's bytes per busy second
rate() {
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["runs"][0]["counters"]
print(int(c["cp_device_read_bytes"] * 1e9 // c["cp_device_busy_ns"]))' "$1"
}
N=$(rate "$T/none.json")
S=$(rate "$T/share.json")
[ -n "$N" ] && [ -n "$S" ] || fail "no device counters: '$N' '$S'"
[ "$S" -lt "$N" ] || fail "the device moved $S B/s busy with the share, $N without: want less"

expect_error 2 "share_beside_busy_cpus" -- \
	validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--seeds 1 --machine "$T/whole.ini"
echo "PASS: device $N B/s busy without the share, $S with 400/1000"
