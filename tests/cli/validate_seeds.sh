#!/bin/sh
# `cachepressure validate --seeds N`: with real runs that recorded their
# start layout the model runs N times from each run's own layout, model
# run m (from 0) from real run m / N at seed 1 + m, and the table's model
# is the mean of all of them. Two "real" runs here (a model run
# relabelled, as in validate_paired.sh: one with its free memory in 2900
# order-10 blocks, one with 2800 and 200 order-9 blocks, 512 single pages
# and 64 order-3 blocks). Each model run is checked against `run
# --start-free` of its real run at its seed; --seeds 1 gives the runs
# validate made before --seeds (run k from real run k's start, seed k).
# Bad --seeds exits 2 naming the option and the value, before anything
# runs.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

seed_model_run "$T/model.json"
real_runs "$T/real.json" ab
real_runs "$T/a.json" a
real_runs "$T/b.json" b

validate() { # validate ARGS...: the model against $T/real.json unless --real is given
	"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --profile-rates "$@"
}
# one L SEED: `run` from $T/L.json's start at SEED, as validate runs its
# model, into $T/r-L-SEED.json; prints the total bytes re-read. (The
# total alone may not tell the layouts apart - a and b at one seed can
# re-read the same -, the counters do: same_runs compares them.)
one() {
	"$CP" run seed --mem 256M --confine memcg --policy patched --kernel linux-6.x \
		--set 'reader.*.random_phase=yes' --start-free "$T/$1.json" --seed "$2" \
		--json "$T/r-$1-$2.json" --quiet || fail "run --start-free $1.json --seed $2 failed"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(sum(x["total_read_bytes"] for x in d["runs"][0]["readers"]))' "$T/r-$1-$2.json"
}
A1=$(one a 1)
A2=$(one a 2)
B2=$(one b 2)
B3=$(one b 3)
B4=$(one b 4)
# same_runs V.json L-SEED...: V's model runs are those `run`s, in that
# order (seed, readers' totals and every counter)
same_runs() {
	python3 - "$T" "$@" <<'EOF'
import json, sys
tmp, v, want = sys.argv[1], sys.argv[2], sys.argv[3:]
models = [r for r in json.load(open(v))["runs"] if r["source"] == "model"]
assert len(models) == len(want), (len(models), want)
for m, w in zip(models, want):
    r = json.load(open("%s/r-%s.json" % (tmp, w)))["runs"][0]
    assert m["seed"] == r["seed"] == int(w.split("-")[1]), (m["seed"], w)
    assert [x["total_read_bytes"] for x in m["readers"]] == \
        [x["total_read_bytes"] for x in r["readers"]], w
    assert m["counters"] == r["counters"], "model run %s: other counters" % w
EOF
}

# check_spread TABLE N K TOTALS...: TABLE's lines name N runs from each of
# K real runs, seeds 1..N*K, list TOTALS grouped per real run, and their
# mean, sd, min and max; the table's model total is their mean, rounded
check_spread() {
	python3 - "$@" <<'EOF'
import re, statistics, sys
text = open(sys.argv[1]).read()
n, k = int(sys.argv[2]), int(sys.argv[3])
want = [int(x) for x in sys.argv[4:]]
nk = n * k
assert re.search(r"^# model start: each real run's own \(%d model runs, %d from each real "
                 r"run's start \(--seeds\), seeds 1\.\.%d in the real runs' order; the "
                 r"table's model is their mean" % (nk, n, nk), text, re.M), "no '# model start:'"
m = re.search(r"^# model total from each real run's start, %d run\(s\) each, in the real "
              r"runs' order \(seeds 1\.\.%d\): (.*); mean ([0-9]+), sd ([0-9]+), min ([0-9]+), "
              r"max ([0-9]+); the table's model is their mean$" % (n, nk), text, re.M)
assert m, "no spread line"
groups = m.group(1).split("; ")
assert len(groups) == k, groups
got = []
for j, g in enumerate(groups):
    head, vals = g.split(": ")
    assert head == "run %d" % (j + 1), g
    got.append([int(x) for x in vals.split(", ")])
    assert len(got[-1]) == n, g
flat = [x for g in got for x in g]
assert flat == want, (flat, want)
mean, sd, lo, hi = (int(m.group(i)) for i in range(2, 6))
assert abs(mean - sum(flat) / nk) <= 0.5, (mean, flat)
assert abs(sd - statistics.stdev(flat)) <= 0.5, (sd, flat)
assert (lo, hi) == (min(flat), max(flat)), (lo, hi, flat)
model = int(re.search(r"^total +\S+ +\S+ +\S+ +\S+ +\S+ +([0-9]+)", text, re.M).group(1))
assert abs(model - sum(flat) / nk) <= 1.0, (model, flat)  # per-reader means rounded
sb = re.search(r"^# model superblock shrinker frees at those runs: (.*)$", text, re.M).group(1)
assert [g.split(":")[0] for g in sb.split("; ")] == ["run %d" % (j + 1) for j in range(k)], sb
EOF
}

# --seeds 2, two real runs: four model runs, real run 1's at seeds 1 and
# 2, real run 2's at 3 and 4
validate --real "$T/real.json" --seeds 2 --json "$T/v2.json" >"$T/t2" 2>"$T/err" ||
	fail "validate --seeds 2 exited $?"
check_spread "$T/t2" 2 2 "$A1" "$A2" "$B3" "$B4" || fail "--seeds 2: wrong runs or mean"
same_runs "$T/v2.json" a-1 a-2 b-3 b-4 ||
	fail "--seeds 2: not real run 1's start at seeds 1, 2, then real run 2's at 3, 4"
grep -q "model run 4/4: real run 2's start, seed 4" "$T/err" || fail "--seeds 2: no progress line"
python3 - "$T/v2.json" "$A1" "$A2" "$B3" "$B4" <<'EOF' || fail "--seeds 2: the JSON lacks a model run"
import json, sys
d = json.load(open(sys.argv[1]))
want = [int(x) for x in sys.argv[2:]]
models = [r for r in d["runs"] if r["source"] == "model"]
assert [r["seed"] for r in models] == [1, 2, 3, 4], [r["seed"] for r in models]
assert [sum(x["total_read_bytes"] for x in r["readers"]) for r in models] == want
assert len([r for r in d["runs"] if r["source"] == "real"]) == 2
p = d["validate"]["model_phases"]
assert p["paired"] is True and p["seeds_per_run"] == 2 and p["first_seed"] == 1, p
assert p["totals"] == want, p
EOF
# its JSON reads back: the two real runs only, and the same table
validate --real "$T/v2.json" --seeds 2 >"$T/t2-again" 2>"$T/err" ||
	fail "validate --real on its --seeds 2 JSON exited $?"
grep -q "^# real: 2 run(s)" "$T/t2-again" || fail "read back: not two real runs"
diff "$T/t2" "$T/t2-again" >/dev/null || fail "read back: a different table"

# --seeds 1: one model run from each real run's start, run k at seed k,
# as validate ran them before --seeds
validate --real "$T/real.json" --seeds 1 --json "$T/v1.json" >"$T/t1" 2>"$T/err" ||
	fail "validate --seeds 1 exited $?"
check_spread "$T/t1" 1 2 "$A1" "$B2" || fail "--seeds 1: not one run a real run at seeds 1, 2"
same_runs "$T/v1.json" a-1 b-2 || fail "--seeds 1: not real run k's start at seed k"

# the default: four from each
validate --real "$T/real.json" >"$T/t4" 2>"$T/err" || fail "validate (default --seeds) exited $?"
grep -q "^# model total from each real run's start, 4 run(s) each, in the real runs' order (seeds 1\.\.8): run 1: $A1, $A2, [0-9]*, [0-9]*; run 2: [0-9]*, [0-9]*, [0-9]*, [0-9]*; mean" \
	"$T/t4" || fail "default: not 4 runs from each real run"

# runs without a layout: one model run at 5 reader phases, whatever --seeds
python3 - "$T/real.json" "$T/nolayout.json" <<'EOF' || fail "could not strip the layout"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    r["counters"] = {k: v for k, v in r["counters"].items() if not k.startswith("start_free_")}
json.dump(d, open(sys.argv[2], "w"))
EOF
validate --real "$T/nolayout.json" --seeds 2 >"$T/n2" 2>"$T/err" || fail "no layout, --seeds 2 exited $?"
validate --real "$T/nolayout.json" --seeds 7 >"$T/n7" 2>"$T/err" || fail "no layout, --seeds 7 exited $?"
grep -q "^# model total over 5 reader phases (seeds 1\.\.5)" "$T/n2" || fail "no layout: no phase line"
diff "$T/n2" "$T/n7" >/dev/null || fail "no layout: --seeds changed the output"

# bad --seeds: exit 2, the option and the value named, nothing on stdout
for v in 0 -1 x 1.5 65 4M; do
	expect_error 2 "--seeds '$v'" "from 1 to 64" -- validate seed --mem 256M --confine memcg \
		--real "$T/real.json" --seeds "$v"
done
expect_error 2 "option --seeds needs a value" -- validate seed --mem 256M --confine memcg \
	--real "$T/real.json" --seeds
# too many model runs for the real runs: 33 x 2 > 64, before the model runs
expect_error 2 "--seeds 33 with 2 real runs (--real $T/real.json): 66 model runs, at most 64" -- \
	validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" --seeds 33
grep -q "model run 1/" "$T/err" && fail "--seeds 33: the model ran"
# and for --repeat, before anything runs (as root: as nobody, who would
# be refused anyway, so no real run can start)
if [ "$(id -u)" != 0 ]; then
	expect_error 2 "--seeds 4 with 17 real runs (--repeat): 68 model runs" -- \
		validate seed --mem 256M --repeat 17
	expect_error 2 "--seeds 2 with 40 real runs (--repeat)" -- \
		validate seed --mem 256M --repeat 40 --seeds 2
elif command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$T"
	for args in "--repeat 17" "--repeat 40 --seeds 2"; do
		rc=0
		# shellcheck disable=SC2086 # the words of $args
		setpriv --reuid=65534 --regid=65534 --clear-groups "$CP" validate seed --mem 256M \
			--workdir "$T/nobody" $args >"$T/out" 2>"$T/err" || rc=$?
		[ "$rc" = 2 ] || fail "validate $args as nobody exited $rc"
		grep -q -- "--seeds [0-9]* with [0-9]* real runs (--repeat)" "$T/err" ||
			fail "validate $args: no --seeds message"
	done
	[ ! -e "$T/nobody" ] || fail "a refused run created its work directory"
fi
echo PASS
