#!/bin/sh
# run_errors.sh - bad input to `cachepressure run` and `compare` exits 2
# with a message naming the input, before any simulation: unknown option,
# missing value, bad size or number (negative too), unknown policy,
# kernel, confinement, machine or filesystem, missing files, bad --set.
# An output file that cannot be written is an I/O error: exit 1, also
# before the simulation.
# Usage: sh run_errors.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
tmp=$CP_TEST_TMP

for cmd in run compare; do
	expect_error 2 "missing SCENARIO" -- $cmd
	expect_error 2 "unknown option '--frobnicate'" -- $cmd seed --frobnicate
	expect_error 2 "unexpected argument 'other'" -- $cmd seed other
	expect_error 2 "--mem" "needs a value" -- $cmd seed --mem
	expect_error 2 "--set" "needs a value" -- $cmd seed --set
	expect_error 2 "--json" "needs a value" -- $cmd seed --json
	expect_error 2 "--mem lots" "not a memory size" -- $cmd seed --mem lots
	expect_error 2 "--mem -1G" "not a memory size" -- $cmd seed --mem -1G
	expect_error 2 "--mem 0" "not a memory size" -- $cmd seed --mem 0
	expect_error 2 "--seed -3" "not a non-negative integer" -- $cmd seed --seed -3
	expect_error 2 "--seed seven" "not a non-negative integer" -- $cmd seed --seed seven
	expect_error 2 "--vfs-cache-pressure -1" -- $cmd seed --vfs-cache-pressure -1
	expect_error 2 "--vfs-cache-pressure lots" -- $cmd seed --vfs-cache-pressure lots
	expect_error 2 "--vfs-cache-pressure 0" -- $cmd seed --vfs-cache-pressure 0
	expect_error 2 "--start-free $tmp/none.json" -- $cmd seed --start-free "$tmp/none.json"
	# a model run's JSON has no start_free_* counters (only real runs do)
	[ -e "$tmp/nostart.json" ] || "$CP" run seed --mem 128M --quiet \
		--json "$tmp/nostart.json" >/dev/null
	expect_error 2 "--start-free $tmp/nostart.json" "start_free_" -- \
		$cmd seed --start-free "$tmp/nostart.json"
	expect_error 2 "--kernel linux-9.9" "unknown kernel profile" "linux-4.11" -- \
		$cmd seed --kernel linux-9.9
	expect_error 2 "--confine cgroup" "global or memcg" -- $cmd seed --confine cgroup
	expect_error 2 "random_phase = maybe" "not a boolean" -- \
		$cmd seed --set 'reader.*.random_phase=maybe'
	expect_error 2 "--machine nosuch" "nosuch.ini" -- $cmd seed --machine nosuch
	expect_error 2 "--machine $tmp/none.ini" "not found" -- $cmd seed --machine "$tmp/none.ini"
	expect_error 2 "machine-bad-size.ini:" -- $cmd seed --machine "$SRC/tests/data/machine-bad-size.ini"
	expect_error 2 "--fs zfs" "not found" "zfs.ini" -- $cmd seed --fs zfs
	expect_error 2 "--fs $tmp/none.ini" "not found" -- $cmd seed --fs "$tmp/none.ini"
	printf '[fs]\nname = xfs\ncolour = red\n' >"$tmp/badfs.ini"
	expect_error 2 "--fs $tmp/badfs.ini" "badfs.ini:3" "colour" -- $cmd seed --fs "$tmp/badfs.ini"
	expect_error 2 "--fs x y" "bad filesystem profile name" -- $cmd seed --fs 'x y'
	expect_error 2 "unknown scenario 'nosuch'" -- $cmd nosuch
	expect_error 2 "$tmp/none.ini" "cannot open" -- $cmd "$tmp/none.ini"
	expect_error 2 "reader.file1.read_size=lots" "not a size" -- \
		$cmd seed --set reader.file1.read_size=lots
	expect_error 2 "unknown key 'colour'" -- $cmd seed --set reader.file1.colour=red
	# machine.* --set goes to the machine profile
	expect_error 2 "machine.cpu.copy_bandwidth=8Q" "copy_bandwidth" "8Q" -- \
		$cmd seed --set machine.cpu.copy_bandwidth=8Q
	expect_error 2 "machine.cpu.colour=1" "unknown key 'colour'" -- \
		$cmd seed --set machine.cpu.colour=1
	expect_error 2 "machine.cpu" "machine.SECTION.KEY=VALUE" -- $cmd seed --set machine.cpu
	# fs.* --set goes to the filesystem profile
	expect_error 2 "fs.objects.inode_size=960Q" "inode_size" "960Q" -- \
		$cmd seed --set fs.objects.inode_size=960Q
	expect_error 2 "fs.create.colour=1" "colour" -- $cmd seed --set fs.create.colour=1
	expect_error 2 "fs.create" "fs.SECTION.KEY=VALUE" -- $cmd seed --set fs.create
	# a reserve larger than the machine is a contradiction in the profile
	expect_error 2 "reserve" -- $cmd seed --set machine.machine.reserve=17G
	expect_error 2 "only one can go to stdout" -- $cmd seed --json - --csv -
	# outputs are checked before the run: I/O error, exit 1
	expect_error 1 "--json $tmp/nodir/x.json" "cannot write" -- $cmd seed --json "$tmp/nodir/x.json"
	expect_error 1 "--csv $tmp/nodir/x.csv" "cannot write" -- $cmd seed --csv "$tmp/nodir/x.csv"
done
expect_error 2 "--policy both" "unknown policy" -- run seed --policy both
expect_error 2 "unknown option '--policy'" -- compare seed --policy legacy

# defaults named by a scenario file are checked too, naming file and key
sed 's/^kernel = .*/kernel = linux-2.6/' "$SRC/scenarios/seed.ini" >"$tmp/k.ini"
expect_error 2 "$tmp/k.ini" "kernel = linux-2.6" "unknown kernel profile" -- run "$tmp/k.ini"
sed 's/^machine = .*/machine = nobox/' "$SRC/scenarios/seed.ini" >"$tmp/m.ini"
expect_error 2 "$tmp/m.ini" "machine = nobox" "nobox.ini" -- run "$tmp/m.ini"
sed 's/^fs = .*/fs = zfs/' "$SRC/scenarios/seed.ini" >"$tmp/f.ini"
expect_error 2 "$tmp/f.ini" "fs = zfs" "zfs.ini" -- run "$tmp/f.ini"

# CACHEPRESSURE_PROFILES_DIR is where bare machine and fs names are looked up
mkdir "$tmp/profiles"
set +e
CACHEPRESSURE_PROFILES_DIR=$tmp/profiles "$CP" run seed >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "empty CACHEPRESSURE_PROFILES_DIR: exit $rc, want 2"
grep -qF "$tmp/profiles/seed-box.ini" "$tmp/err" || fail "profiles dir not used: $(cat "$tmp/err")"

# a failed check leaves no output file behind
[ ! -e "$tmp/nodir" ] || fail "created $tmp/nodir"
echo PASS
