#!/bin/sh
# measured_boost.sh - the zones' watermark boost when the measured phase
# starts (measured_boost_ZONE_pages, the real harness's /proc/zoneinfo
# "boost" then) is what the model's zones hold at that moment: the same
# value as the series' first sample (t_ns 0, taken as the measured phase
# starts) shows in boost_normal / boost_dma32. From a measured start
# (tests/data/start-free-global-1G-6.18.json: the start_* and zone_*
# counters of the session-28 grid's first real global 1G run on 6.18.44,
# /var/tmp/cp-validate-s28/seed-global-1G.json) the model's set-up leaves
# Normal boosted, so the comparison is of a non-zero value. Needs python3.
# Usage: sh measured_boost.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$CP_TEST_TMP

"$CP" run seed --mem 1G --kernel linux-6.x --policy patched \
	--start-free "$SRC/tests/data/start-free-global-1G-6.18.json" \
	--set "reader.*.random_phase=yes" --seed 1 --json "$tmp/run.json" -q ||
	fail "run exited $?"
python3 - "$tmp/run.json" <<'PY' || fail "measured_boost does not match the first sample"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0] if "runs" in d else d
cols = r["series"]["columns"]
row = r["series"]["rows"][0]
assert row[0] == 0, row[0]
for zone in ("normal", "dma32"):
    v = r["counters"]["measured_boost_%s_pages" % zone]
    s = row[cols.index("boost_" + zone)]
    assert v == s, (zone, v, s)
    print("measured_boost_%s_pages %d" % (zone, v))
PY
echo "measured_boost: ok"
