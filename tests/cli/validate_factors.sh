#!/bin/sh
# validate_factors.sh - scripts/validate-factors.py on a validate JSON
# written by hand. Real run: measured phase 10 s, fs_mark the last 4 s
# (6 - 10 s); reader A's passes end at 5 s (100 MB, before fs_mark: not
# counted), 7 (0), 8 (50 MB), 9 (0); reader B's at 6.5 (10 MB), 9.5 (0):
# 5 passes in 4 s = 1.25 a second, 60 MB / 5 = 12 MB a pass, 2 of 5
# re-reading (0.4). Model run: 8 s, fs_mark the last 2 s; passes at 6.5
# (20 MB), 7 (0), 7.5 (20 MB), 8 (0): 2 a second, 10 MB a pass, 0.5.
# Ratios model / real: 1.6, 0.833, 1.25, fs_mark 0.5, totals 40 / 60 =
# 0.667 = 1.6 x 0.833 x 0.5. Curves at 10 % steps of fs_mark's time:
# real 0 10 10 10 60 60 ... (the 50 MB pass ends at exactly 50 %), model
# 0 0 20 20 20 20 20 40 40 40. Allocations (K pages): real pgalloc 1000 +
# 500, refaults 400, page-cache reclaim 450 + 50, free memory 2000 ->
# 1800 pages: other frees 1500 - 500 - 200 = 800; model 800, 300, 300,
# free 1000 -> 900: 400. Free blocks at the readers' start, Normal
# RECLAIMABLE (the only zone and type with all eleven orders; DMA32's one
# order is not enough to print): real 10 order-0 + 5 order-1 blocks = 20
# pages in orders 0-1; model 3 order-2 blocks = 12 pages in 2-3 and one
# order-8 block = 256 in 8-10. A failed run is left out. Bad input: a missing
# file, a file that is not JSON, a JSON without runs and one whose runs
# lack fs_mark's time exit 2 naming the problem. No root.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP
S="$SRC/scripts/validate-factors.py"
cat >"$T/v.json" <<'JSON'
{"runs": [
 {"source": "real", "duration_ns": 10000000000,
  "counters": {"fs_mark_ns": 4000000000, "pgalloc_normal": 1000, "pgalloc_dma32": 500,
               "workingset_refault_file": 400, "pgsteal_kswapd": 450, "pgsteal_direct": 50,
               "measured_free_normal_reclaimable_order_0": 10, "measured_free_normal_reclaimable_order_1": 5,
               "measured_free_normal_reclaimable_order_2": 0, "measured_free_normal_reclaimable_order_3": 0,
               "measured_free_normal_reclaimable_order_4": 0, "measured_free_normal_reclaimable_order_5": 0,
               "measured_free_normal_reclaimable_order_6": 0, "measured_free_normal_reclaimable_order_7": 0,
               "measured_free_normal_reclaimable_order_8": 0, "measured_free_normal_reclaimable_order_9": 0,
               "measured_free_normal_reclaimable_order_10": 0,
               "measured_free_dma32_movable_order_0": 1},
  "readers": [{"passes": [{"end_ns": 5000000000, "read_bytes": 100000000},
                          {"end_ns": 7000000000, "read_bytes": 0},
                          {"end_ns": 8000000000, "read_bytes": 50000000},
                          {"end_ns": 9000000000, "read_bytes": 0}]},
              {"passes": [{"end_ns": 6500000000, "read_bytes": 10000000},
                          {"end_ns": 9500000000, "read_bytes": 0}]}],
  "series": {"columns": ["t_ns", "mem_free_bytes"], "rows": [[0, 8192000], [1, 7372800]]}},
 {"source": "real", "failed": true, "duration_ns": 10000000000,
  "counters": {"fs_mark_ns": 1000000000},
  "readers": [{"passes": [{"end_ns": 9500000000, "read_bytes": 999000000}]}]},
 {"source": "model", "duration_ns": 8000000000,
  "counters": {"fs_mark_ns": 2000000000, "pgalloc_normal": 800, "pgalloc_dma32": 0,
               "workingset_refault_file": 300, "pgsteal_kswapd": 300,
               "measured_free_normal_reclaimable_order_0": 0, "measured_free_normal_reclaimable_order_1": 0,
               "measured_free_normal_reclaimable_order_2": 3, "measured_free_normal_reclaimable_order_3": 0,
               "measured_free_normal_reclaimable_order_4": 0, "measured_free_normal_reclaimable_order_5": 0,
               "measured_free_normal_reclaimable_order_6": 0, "measured_free_normal_reclaimable_order_7": 0,
               "measured_free_normal_reclaimable_order_8": 1, "measured_free_normal_reclaimable_order_9": 0,
               "measured_free_normal_reclaimable_order_10": 0},
  "readers": [{"passes": [{"end_ns": 6500000000, "read_bytes": 20000000},
                          {"end_ns": 7000000000, "read_bytes": 0},
                          {"end_ns": 7500000000, "read_bytes": 20000000},
                          {"end_ns": 8000000000, "read_bytes": 0}]}],
  "series": {"columns": ["t_ns", "free_pages"], "rows": [[0, 1000], [1, 900]]}}
]}
JSON
python3 "$S" "$T/v.json" >"$T/out" 2>"$T/err" || fail "exited $?: $(cat "$T/err")"
grep -Eq "^passes a second +1\.250 +2\.000 +1\.600$" "$T/out" || fail "passes: $(cat "$T/out")"
grep -Eq "^MB re-read a pass +12\.000 +10\.000 +0\.833$" "$T/out" || fail "a pass: $(cat "$T/out")"
grep -Eq "^share of passes re-reading +0\.400 +0\.500 +1\.250$" "$T/out" || fail "share: $(cat "$T/out")"
grep -Eq "^fs_mark s +4\.000 +2\.000 +0\.500$" "$T/out" || fail "fs_mark: $(cat "$T/out")"
grep -Eq "^MB re-read during fs_mark +60\.000 +40\.000 +0\.667$" "$T/out" || fail "total: $(cat "$T/out")"
grep -Eq "^product of the factors +0\.667$" "$T/out" || fail "product: $(cat "$T/out")"
grep -Eq "^  real +0 +10 +10 +10 +60 +60 +60 +60 +60 +60$" "$T/out" || fail "real curve: $(cat "$T/out")"
grep -Eq "^  model +0 +0 +20 +20 +20 +20 +20 +40 +40 +40$" "$T/out" || fail "model curve: $(cat "$T/out")"
grep -Eq "^  real +1\.5 +0\.4 +1\.1 +0\.5 +0\.8 +-0\.2 \(1 runs\)$" "$T/out" || fail "real flows: $(cat "$T/out")"
grep -Eq "^  model +0\.8 +0\.3 +0\.5 +0\.3 +0\.4 +-0\.1 \(1 runs\)$" "$T/out" || fail "model flows: $(cat "$T/out")"
grep -Eq "^  normal real +reclaimable +20 +0 +0 +0 \(1 runs\)$" "$T/out" || fail "real blocks: $(cat "$T/out")"
grep -Eq "^  normal model +reclaimable +0 +12 +0 +256 \(1 runs\)$" "$T/out" || fail "model blocks: $(cat "$T/out")"
grep -q "dma32" "$T/out" && fail "a zone and type without all eleven orders printed: $(cat "$T/out")"
python3 "$S" "$T/none" >/dev/null 2>"$T/err" && fail "a missing file passed"
grep -q "$T/none" "$T/err" || fail "the missing file not named: $(cat "$T/err")"
echo "not json" >"$T/bad"
python3 "$S" "$T/bad" >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "text passed"
grep -q "not JSON" "$T/err" || fail "text: $(cat "$T/err")"
echo '{"validate": {}}' >"$T/noruns"
python3 "$S" "$T/noruns" >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "no runs passed"
grep -q "not a validate JSON" "$T/err" || fail "no runs: $(cat "$T/err")"
echo '{"runs": [{"source": "real", "counters": {}, "readers": []}]}' >"$T/nofm"
python3 "$S" "$T/nofm" >/dev/null 2>"$T/err"; [ $? -eq 2 ] || fail "no fs_mark passed"
grep -q "no run with fs_mark" "$T/err" || fail "no fs_mark: $(cat "$T/err")"
echo PASS
