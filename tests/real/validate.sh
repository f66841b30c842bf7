#!/bin/sh
# validate seed --mem 256M --confine memcg --repeat 1: both sides run (the
# stderr says so), the table has both readers, a total row and counter
# rows, the JSON holds the model run, the real run and the table, and
# nothing is left behind. --seeds 1: one model run from the real run's
# start, so the table's model is that run (tests/cli/validate_seeds.sh
# tests --seeds N).
set -u
. "$2/tests/real/common.inc"
need_real
grep -q memory /proc/self/mountinfo || skip "no memory cgroup controller mounted"
[ "$(mem_available_mib)" -ge 1024 ] || skip "less than 1 GiB available"
make_tmp

start_cp validate seed --mem 256M --confine memcg --repeat 1 --seeds 1 --workdir "$WORK" \
	--json "$JSON"
wait_cp
[ "$RC" = 0 ] || fail "exit status $RC"
grep -q '^cachepressure validate: model: seed, memcg, mem 256 MiB, kernel profile linux-' "$ERR" ||
	fail "no model line on stderr"
grep -q '^cachepressure validate: real run 1/1: seed, memcg, mem 256 MiB' "$ERR" ||
	fail "no real run line on stderr"
grep -q '^# validate seed: confine memcg, mem 256 MiB, policy patched$' "$OUT" || fail "no header"
grep -q '^# model: kernel profile linux-[0-9.x]* (' "$OUT" || fail "no model profile line"
# the model holds the running kernel's xfs objects, read from its
# /proc/slabinfo by the real run (counters cp_slab_*)
si=$(awk '$1 == "xfs_inode" { print $4 " B x " $5 " in " $6 }' /proc/slabinfo)
[ -n "$si" ] || fail "no xfs_inode line in /proc/slabinfo"
grep -q "^# slab: dentry .*, xfs_inode $si page.*, as the real runs' /proc/slabinfo gave them" \
	"$OUT" || fail "no '# slab:' line with this kernel's xfs_inode ($si)"
grep -q '^row  *n  *real mean  *real min  *real max  *real sd  *model  *err/sd  *err %$' "$OUT" ||
	fail "no table header"
for r in /mnt/btrfs-test/reads/file1 /mnt/btrfs-test/reads/file2 total slabs_scanned \
	workingset_refault_file; do
	# name, n = 1, mean/min/max equal (one run), sd "-", model, err/sd n/a
	grep -Eq "^$r +1 +([0-9]+) +\\1 +\\1 +- +-?[0-9]+ +n/a +" "$OUT" ||
		fail "no row for $r with one real run"
done
[ -s "$JSON" ] || fail "no JSON written"
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["runs"];
assert [x["source"] for x in r] == ["model", "real"], [x["source"] for x in r]
assert r[0]["policy"] == "patched" and r[0]["confine"] == "memcg" == r[1]["confine"]
rows = {x["name"]: x for x in d["validate"]["rows"]}
a = rows["/mnt/btrfs-test/reads/file1"]
assert a["n"] == 1 and a["mean"] == r[1]["readers"][0]["total_read_bytes"]
assert a["model"] == r[0]["readers"][0]["total_read_bytes"]
assert a["model_minus_mean_sd"] is None
assert r[1]["counters"]["cp_slab_inode_object_size"] > 0' "$JSON" || fail "JSON structure check"
fi
check_nothing_left
echo "PASS: validate seed memcg 256M"
