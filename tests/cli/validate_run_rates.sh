#!/bin/sh
# `cachepressure validate`'s copy rates from the real runs themselves
# (report/cachedrate.c): each real run's readers' cached passes before
# fs_mark started (5 s), the median of file bytes / pass time over both
# readers, set the model's memory_bandwidth to twice that (two readers)
# and its copy_bandwidth to at least that; --profile-rates keeps the
# machine profile's. The "real" runs are a model run relabelled
# (seed-box: copy 11.4 GB/s, memory 27.7 GB/s), the second one's passes
# stretched by 5/4 so that it measures a lower rate. Expected rates are
# computed here from the runs' passes; the model run with them must be
# `run --set machine.cpu.memory_bandwidth=... --set
# machine.cpu.copy_bandwidth=...` from the same start at the same seed.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

seed_model_run "$T/model.json"
real_runs "$T/ab.json" ab
python3 - "$T/ab.json" "$T/real.json" <<'EOF2' || fail "could not stretch run 2's passes"
import json, sys
d = json.load(open(sys.argv[1]))
for rd in d["runs"][1]["readers"]:
    for p in rd["passes"]:
        p["end_ns"] = p["end_ns"] * 5 // 4
json.dump(d, open(sys.argv[2], "w"))
EOF2
# rates.py FILE: each run's expected rate (bytes/s a reader), one a line
cat >"$T/rates.py" <<'EOF2'
import json, sys
size = 6500 * 2**20 * 256 // (16 * 1024)  # seed's 6500M files at --mem 256M (ram 16G)
for r in json.load(open(sys.argv[1]))["runs"]:
    if r["source"] != "real":
        continue
    v = []
    for rd in r["readers"]:
        ps = rd["passes"]
        for prev, p in zip(ps, ps[1:]):
            if p["read_bytes"] == 0 and p["end_ns"] <= 5 * 10**9 and p["end_ns"] > prev["end_ns"]:
                v.append(int(size * 1e9 / (p["end_ns"] - prev["end_ns"])))
    v.sort()
    n = len(v)
    assert n >= 5, n
    print(v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) // 2)
EOF2
python3 "$T/rates.py" "$T/real.json" >"$T/rates" || fail "could not compute the expected rates"
R1=$(sed -n 1p "$T/rates")
R2=$(sed -n 2p "$T/rates")
[ "$R2" -lt "$R1" ] || fail "the stretched run should measure less: $R1 $R2"

"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--seeds 1 --json "$T/v.json" >"$T/table" 2>"$T/err" || fail "validate --real exited $?"
python3 - "$T/table" "$T/v.json" "$R1" "$R2" <<'EOF2' || fail "wrong rates line or model rates"
import json, re, sys
text = open(sys.argv[1]).read()
r = [int(x) for x in sys.argv[3:5]]
want = "# model copy rates: each real run's own, its readers' median cached pass before " \
       "fs_mark started, GB/s a reader: run 1 %.2f, run 2 %.2f; memory_bandwidth that times " \
       "the readers, copy_bandwidth at least that (the profile: copy_bandwidth 11.40, " \
       "memory_bandwidth 27.70 GB/s; --profile-rates keeps them)" % (r[0] / 1e9, r[1] / 1e9)
assert want in text.splitlines(), [l for l in text.splitlines() if "copy rates" in l]
models = [m for m in json.load(open(sys.argv[2]))["runs"] if m["source"] == "model"]
assert len(models) == 2
for m, rate in zip(models, r):
    c = m["counters"]
    assert c["cp_machine_memory_bandwidth_bps"] == 2 * rate, (c["cp_machine_memory_bandwidth_bps"], rate)
    assert c["cp_machine_copy_bandwidth_bps"] == max(11400000000, rate), c["cp_machine_copy_bandwidth_bps"]
EOF2

# run 2's model is `run` from its start (layout b) at seed 2 with those rates
python3 - "$T/real.json" "$T/b.json" <<'EOF2' || fail "could not extract run 2"
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"] = d["runs"][1:2]
json.dump(d, open(sys.argv[2], "w"))
EOF2
"$CP" run seed --mem 256M --confine memcg --policy patched --kernel linux-6.x \
	--set 'reader.*.random_phase=yes' --start-free "$T/b.json" --seed 2 \
	--set "machine.cpu.memory_bandwidth=$((2 * R2))" \
	--set "machine.cpu.copy_bandwidth=$([ "$R2" -gt 11400000000 ] && echo "$R2" || echo 11400000000)" \
	--json "$T/r2.json" --quiet || fail "run with the rates failed"
python3 - "$T/v.json" "$T/r2.json" <<'EOF2' || fail "validate's model run 2 is not run with its rates"
import json, sys
m = [r for r in json.load(open(sys.argv[1]))["runs"] if r["source"] == "model"][1]
r = json.load(open(sys.argv[2]))["runs"][0]
assert [x["total_read_bytes"] for x in m["readers"]] == [x["total_read_bytes"] for x in r["readers"]]
mc = {k: v for k, v in m["counters"].items() if not k.startswith("cp_machine_")}
assert mc == r["counters"], "other counters"
EOF2

# --profile-rates: the profile's, no rate counters
"$CP" validate seed --mem 256M --confine memcg --kernel linux-6.x --real "$T/real.json" \
	--seeds 1 --profile-rates --json "$T/vp.json" >"$T/tablep" 2>"$T/errp" ||
	fail "validate --profile-rates exited $?"
grep -q "^# model copy rates: the machine profile's (--profile-rates): copy_bandwidth 11.40 GB/s, memory_bandwidth 27.70 GB/s$" \
	"$T/tablep" || fail "no profile rates line"
grep -q cp_machine_ "$T/vp.json" && fail "--profile-rates: rate counters in the JSON"
# the runs' rates change the model here (seed-box's copy is faster than
# the model's own passes measure)
cmp -s "$T/table" "$T/tablep" && fail "the runs' rates changed nothing"
echo PASS
