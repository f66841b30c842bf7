#!/bin/sh
# pool_grids.sh - scripts/pool-grids.py pools the real runs of two grids
# row by row, in the grids' order, dropping their model runs, and copies
# each grid's calibrations under names the grid's profile (validate-grid.sh
# MODEL_ONLY=1: the median of OUT/machine-*.before.ini and .after.ini)
# still finds: grid 1 with one real run (and a model run) and grid 2 with
# two give a pooled row of three real runs, grid 1's first; a row only
# grid 2 has is pooled alone. Refused (exit 2, naming the input): a grid
# that is not a directory, an OUT that holds files, a row's JSON that is
# not a validate JSON, grids without real runs. Needs python3.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
T=$CP_TEST_TMP
P="$SRC/scripts/pool-grids.py"
mkdir -p "$T/g1" "$T/g2" "$T/bad" "$T/empty"

seed_model_run "$T/model.json"
real_runs "$T/one.json" a
real_runs "$T/two.json" ab
# grid 1's row holds its real run and the model run validate added
python3 -c 'import json, sys
real = json.load(open(sys.argv[1]))["runs"]
model = json.load(open(sys.argv[2]))["runs"][:1]
json.dump({"runs": real + model, "validate": {}}, open(sys.argv[3], "w"))' \
	"$T/one.json" "$T/model.json" "$T/g1/seed-memcg-256M.json"
cp "$T/two.json" "$T/g2/seed-memcg-256M.json"
cp "$T/two.json" "$T/g2/seed-global-256M.json"
echo "; grid 1 before" >"$T/g1/machine-memcg-256M.before.ini"
echo "; grid 1 after" >"$T/g1/machine-memcg-256M.after.ini"
echo "; grid 2 before" >"$T/g2/machine-memcg-256M.before.ini"

python3 "$P" "$T/pool" "$T/g1" "$T/g2" >"$T/out" 2>"$T/err" || fail "pool-grids exited $?"
python3 -c 'import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert [r["source"] for r in runs] == ["real"] * 3, [r["source"] for r in runs]
first = runs[0]["counters"]["start_free_movable_order_9"]
second = runs[1]["counters"]["start_free_movable_order_9"]
assert (first, second) == (0, 0), (first, second)  # layouts a, a: grid 1 first
assert runs[2]["counters"]["start_free_movable_order_9"] == 200  # layout b
assert len(json.load(open(sys.argv[2]))["runs"]) == 2' \
	"$T/pool/seed-memcg-256M.json" "$T/pool/seed-global-256M.json" ||
	fail "pooled runs: not grid 1's then grid 2's"
grep -qx "; grid 1 before" "$T/pool/machine-memcg-256M.g1.before.ini" || fail "no g1 before"
grep -qx "; grid 1 after" "$T/pool/machine-memcg-256M.g1.after.ini" || fail "no g1 after"
grep -qx "; grid 2 before" "$T/pool/machine-memcg-256M.g2.before.ini" || fail "no g2 before"
grep -q "memcg-256M: 3 real runs" "$T/out" || fail "no count: $(cat "$T/out")"

expect 2 "$T/nosuch: not a directory" python3 "$P" "$T/p2" "$T/g1" "$T/nosuch"
expect 2 "exists and is not an empty directory" python3 "$P" "$T/pool" "$T/g1" "$T/g2"
echo '{"rows": []}' >"$T/bad/seed-memcg-1G.json"
expect 2 "seed-memcg-1G.json: no \"runs\" list" python3 "$P" "$T/p3" "$T/g1" "$T/bad"
expect 2 "no real runs" python3 "$P" "$T/p4" "$T/empty" "$T/empty"
echo PASS
