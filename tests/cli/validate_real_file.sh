#!/bin/sh
# `cachepressure validate --real FILE`: the model against real runs
# measured before, without root. The "real" runs here are a model run
# relabelled (source "model" -> "real"), so the model, run again with the
# same inputs, must match them exactly: every error 0. Bad --real input
# exits 2 naming the file and what is wrong.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

# (validate's model readers start at a seeded random phase: random_phase)
seed_model_run "$T/model.json"
sed 's/"source":[[:space:]]*"model"/"source": "real"/' "$T/model.json" >"$T/real.json"
grep -q '"source":[[:space:]]*"real"' "$T/real.json" || fail "could not relabel the run"

"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" --profile-rates \
	--json "$T/v.json" >"$T/table" 2>"$T/err" || fail "validate --real exited $?"
grep -q '^# real: 1 run(s) on kernel linux-6.x' "$T/table" || fail "no '# real:' line"
grep -q '^# model: kernel profile linux-6.x (--kernel' "$T/table" || fail "no '# model:' line"
grep -q '^total ' "$T/table" || fail "no total row"
grep -q '^# model readers: each starts at a random phase within one cached pass of its file (random_phase, seed 1)' \
	"$T/table" || fail "no '# model readers:' line"
# the model at 5 reader phases (seeds 1..5); the first is the table's
# model, so its total lies between their min and max, and the JSON has
# all five with seed 1 first
awk '/^# model total over 5 reader phases \(seeds 1\.\.5\): mean [0-9]+, sd [0-9]+, min [0-9]+, max [0-9]+; the table.s model is seed 1$/ {
	gsub(",", ""); lo = $15 + 0; hi = $17 + 0; seen = 1 }
     /^total / { t = $7 }
     END { exit !(seen && t >= lo && t <= hi) }' "$T/table" ||
	fail "no phase spread line, or the table's model outside it"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["validate"]["model_phases"]
t=sum(r["total_read_bytes"] for r in d["runs"][0]["readers"])
assert p["first_seed"] == 1 and len(p["totals"]) == 5 and p["totals"][0] == t, p' "$T/v.json" ||
	fail "--json lacks model_phases"
# the model is deterministic and was the "real" run: err % is 0.0 on every row
awk '/^#/ || /^row/ { next } $NF != "0.0" && $NF != "n/a" { bad = bad " " $1 }
     END { if (bad) { print "nonzero error on:" bad; exit 1 } }' "$T/table" ||
	fail "model and its own run differ"
grep -q '"source":[[:space:]]*"real"' "$T/v.json" || fail "--json lacks the real run"

# the real readers' readahead window (counter cp_device_read_ahead_kb)
# is printed beside the model's (seed-box: read_ahead_kb 128); a
# different one gets a WARNING line and a warning on stderr, exit 0
ra_json() {
	sed "s/\"counters\":[[:space:]]*{/\"counters\": {\"cp_device_read_ahead_kb\": $1, /" \
		"$T/real.json" >"$T/real-ra$1.json"
	grep -q "\"cp_device_read_ahead_kb\": $1" "$T/real-ra$1.json" || fail "could not add the counter"
}
ra_json 128
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real-ra128.json" \
	>"$T/table128" 2>"$T/err128" || fail "validate --real (read_ahead_kb 128) exited $?"
grep -q "^# readahead: model read_ahead_kb 128, real runs' loop device 128$" "$T/table128" ||
	fail "no readahead line"
grep -q "WARNING" "$T/table128" && fail "a WARNING for equal windows"
ra_json 2560
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real-ra2560.json" \
	>"$T/table2560" 2>"$T/err2560" || fail "validate --real (read_ahead_kb 2560) exited $?"
grep -q "^# readahead: model read_ahead_kb 128, real runs' loop device 2560$" "$T/table2560" ||
	fail "no readahead line for 2560"
grep -q "^# WARNING: the real readers' readahead window differs" "$T/table2560" ||
	fail "no WARNING line"
grep -q "warning: real runs' read_ahead_kb 2560..2560 is not the machine profile's 128" \
	"$T/err2560" || fail "no warning on stderr"
grep -q "^# readahead: " "$T/table" && fail "a readahead line without the counter"

# the slab objects: without cp_slab_* counters the fs profile's (said so);
# with them the model takes the running kernel's, says both, and differs
# from its own run with the profile's (6.18's xfs_inode is 1024 B a slot
# where profiles/xfs.ini has 960); geometry no slab has (3 pages) exits 2
grep -q "^# slab: the fs profile's dentry 192 B x 21 in 1 page, xfs_inode 960 B x 17 in 4 pages, xfs_ili 168 B x 24 in 1 page (the real runs recorded no /proc/slabinfo)$" \
	"$T/table" || fail "no '# slab:' line for runs without /proc/slabinfo"
slab_json() { # $1 name, $2 inode pages a slab
	sed "s/\"counters\":[[:space:]]*{/\"counters\": {\"cp_slab_dentry_object_size\": 192, \"cp_slab_dentry_objects_per_slab\": 21, \"cp_slab_dentry_pages_per_slab\": 1, \"cp_slab_inode_object_size\": 1024, \"cp_slab_inode_objects_per_slab\": 16, \"cp_slab_inode_pages_per_slab\": $2, \"cp_slab_log_item_object_size\": 208, \"cp_slab_log_item_objects_per_slab\": 19, \"cp_slab_log_item_pages_per_slab\": 1, /" \
		"$T/real.json" >"$T/real-$1.json"
	grep -q '"cp_slab_inode_pages_per_slab"' "$T/real-$1.json" || fail "could not add the slab counters"
}
slab_json slab618 4
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real-slab618.json" \
	>"$T/table-slab" 2>"$T/err-slab" || fail "validate --real (slab counters) exited $?"
grep -q "^# slab: dentry 192 B x 21 in 1 page, xfs_inode 1024 B x 16 in 4 pages, xfs_ili 208 B x 19 in 1 page, as the real runs' /proc/slabinfo gave them (fs profile xfs: dentry 192 B x 21 in 1 page, xfs_inode 960 B x 17 in 4 pages, xfs_ili 168 B x 24 in 1 page)$" \
	"$T/table-slab" || fail "no '# slab:' line with the runs' geometry"
awk '/^total / { if ($NF == "0.0") bad = 1 } END { exit bad }' "$T/table-slab" ||
	fail "the model with 6.18's objects re-read exactly what it did with the profile's"
slab_json slab3 3
expect 2 "--real $T/real-slab3.json: the real runs' /proc/slabinfo: key 'inode_slab_order'" \
	"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x \
	--real "$T/real-slab3.json"

# bad input: exit 2, the message names the file and what is wrong
expect 2 "--real $T/none.json" "$CP" validate seed --mem 256M --confine memcg --real "$T/none.json"
expect 2 "not seed, memcg, 512 MiB" "$CP" validate seed --mem 512M --confine memcg \
	--real "$T/real.json"
expect 2 "no real run in it" "$CP" validate seed --mem 256M --confine memcg \
	--real "$T/model.json"
echo '{"runs": [' >"$T/broken.json"
expect 2 "--real $T/broken.json" "$CP" validate seed --mem 256M --confine memcg \
	--real "$T/broken.json"
expect 2 "--repeat and --workdir do not apply" "$CP" validate seed --mem 256M \
	--confine memcg --real "$T/real.json" --repeat 2
echo PASS
