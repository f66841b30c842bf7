#!/bin/sh
# `cachepressure validate --real FILE` with real runs that each recorded
# their start layout (the start_free_<type>_order_<o> counters of
# /proc/pagetypeinfo after the balloon): the model runs --seeds times
# (default 4) from each run's own layout, in the runs' order with seeds 1,
# 2, ..., and the table's model is their mean (a mean of the layouts would
# be a start no run had); tests/cli/validate_seeds.sh tests --seeds. Six
# "real" runs here (more than the five reader phases of a single model
# run): a model run relabelled, every other one with its free
# memory in 2900 order-10 blocks, the others with 2800 and 200 order-9
# blocks, 512 single pages and 64 order-3 blocks.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

seed_model_run "$T/model.json"
real_runs "$T/real.json" ababab
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--json "$T/v.json" >"$T/table" 2>"$T/err" || fail "validate --real exited $?"
grep -q "^# model start: each real run's own (24 model runs, 4 from each real run's start (--seeds), seeds 1\.\.24 in the real runs' order; the table's model is their mean" \
	"$T/table" || fail "no paired '# model start:' line"
# the spread line lists the 24 runs' totals, four a real run; the table's
# model total is their mean, rounded; the JSON holds the 24 model runs with
# those totals and seeds 1..24
python3 - "$T/table" "$T/v.json" <<'EOF' || fail "no paired spread line, or the table's model is not the mean of its runs"
import json, re, sys
text = open(sys.argv[1]).read()
m = re.search(r"^# model total from each real run's start, 4 run\(s\) each, in the real "
              r"runs' order \(seeds 1\.\.24\): (run 1: [0-9, ]+(?:; run [0-9]+: [0-9, ]+)*); mean",
              text, re.M)
groups = m.group(1).split("; ")
assert [g.split(":")[0] for g in groups] == ["run %d" % k for k in range(1, 7)], groups
tot = [int(x) for g in groups for x in g.split(": ")[1].split(", ")]
model = int(re.search(r"^total +\S+ +\S+ +\S+ +\S+ +\S+ +([0-9]+)", text, re.M).group(1))
# each reader's mean is rounded, so their total is within a byte of the mean total
assert len(tot) == 24 and abs(model - sum(tot) / 24) <= 1.0, (tot, model)
d = json.load(open(sys.argv[2]))
p = d["validate"]["model_phases"]
runs = [r for r in d["runs"] if r["source"] == "model"]
assert p["paired"] is True and p["first_seed"] == 1 and p["seeds_per_run"] == 4, p
assert p["totals"] == tot, p
assert [sum(x["total_read_bytes"] for x in r["readers"]) for r in runs] == tot
assert [r["seed"] for r in runs] == list(range(1, 25)), [r["seed"] for r in runs]
EOF
# the JSON reads back (each model run whole), and the model again gives
# the same table
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/v.json" \
	>"$T/table-again" 2>"$T/err" || fail "validate --real on its own --json exited $?"
diff "$T/table" "$T/table-again" >/dev/null || fail "the model against the same runs differs"

# runs without a layout keep the single model run at seeds 1..5
python3 - "$T/real.json" "$T/real-nolayout.json" <<'EOF' || fail "could not strip the layout"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    r["counters"] = {k: v for k, v in r["counters"].items() if not k.startswith("start_free_")}
json.dump(d, open(sys.argv[2], "w"))
EOF
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x \
	--real "$T/real-nolayout.json" >"$T/table2" 2>"$T/err2" ||
	fail "validate --real (no layout) exited $?"
grep -q "^# model total over 5 reader phases (seeds 1\.\.5)" "$T/table2" ||
	fail "runs without a layout: no reader phase line"
grep -q "each real run's own" "$T/table2" && fail "runs without a layout: paired anyway"
echo PASS
