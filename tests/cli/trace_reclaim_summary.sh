#!/bin/sh
# trace_reclaim_summary.sh - scripts/trace-reclaim-summary.py on a trace
# written by hand: kswapd (PID 45) woken at 100.000, on a CPU 100.001 -
# 100.003 (preempted), waiting until 100.004, on until 100.005 (asleep):
# 3 ms on a CPU, 2 ms waiting, a share of 0.60 while runnable; one
# wake-up to CPU of 1 ms; its one wake-up reclaimed 30 pages at priority
# 6 and its superblock shrinker call (1000 items, total_scan 62) freed 50
# objects. Bad input: a missing file, a negative --last, a file without
# events each exit non-zero naming it. No root.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP
S="$SRC/scripts/trace-reclaim-summary.py"
cat >"$T/trace" <<'EOT'
# tracer: nop
     kswapd0-45      [000] d..2. 100.000000: sched_wakeup: comm=kswapd0 pid=45 prio=120 target_cpu=000
         cat-1       [000] d..2. 100.001000: sched_switch: prev_comm=cat prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=kswapd0 next_pid=45 next_prio=120
     kswapd0-45      [000] ..... 100.001100: mm_vmscan_kswapd_wake: nid=0 order=0
     kswapd0-45      [000] ..... 100.001200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=2 nr_ref_keep=0 nr_unmap_fail=0 priority=6 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
     kswapd0-45      [000] ..... 100.001300: mm_shrink_slab_start: super_cache_scan+0x0/0x210 00000000aaaa0001: nid: 0 objects to shrink 10 gfp_flags GFP_KERNEL cache items 1000 delta 62 total_scan 62 priority 6
     kswapd0-45      [000] ..... 100.001400: mm_shrink_slab_end: super_cache_scan+0x0/0x210 00000000aaaa0001: nid: 0 unused scan count 10 new scan count 0 total_scan 0 last shrinker return val 50
     kswapd0-45      [000] d..2. 100.003000: sched_switch: prev_comm=kswapd0 prev_pid=45 prev_prio=120 prev_state=R+ ==> next_comm=cat next_pid=1 next_prio=120
         cat-1       [000] d..2. 100.004000: sched_switch: prev_comm=cat prev_pid=1 prev_prio=120 prev_state=R ==> next_comm=kswapd0 next_pid=45 next_prio=120
     kswapd0-45      [000] d..2. 100.005000: sched_switch: prev_comm=kswapd0 prev_pid=45 prev_prio=120 prev_state=S ==> next_comm=cat next_pid=1 next_prio=120
EOT
python3 "$S" --kswapd-pid 45 "$T/trace" >"$T/out" 2>"$T/err" || fail "summary exited $?: $(cat "$T/err")"
grep -q "on a CPU 0.003 s, runnable and waiting 0.002 s: share while runnable 0.60" "$T/out" ||
	fail "share: $(cat "$T/out")"
grep -q "wake-up to CPU: n 1, mean 1.000 ms" "$T/out" || fail "latency: $(cat "$T/out")"
grep -q "stints on a CPU: n 2, mean 1.500 ms, max 2.000 ms, 1 ended by preemption" "$T/out" ||
	fail "stints: $(cat "$T/out")"
grep -q "kswapd wake-ups 1, 1 of them" "$T/out" || fail "wake-ups: $(cat "$T/out")"
grep -q "mean 30, max 30; superblock objects freed: mean 50, max 50" "$T/out" ||
	fail "per wake-up: $(cat "$T/out")"
grep -q "lowest priority of a wake-up: 6: 1" "$T/out" || fail "priority: $(cat "$T/out")"
grep -Eq "^  kswapd +6 +1 +1000 +62 +50$" "$T/out" || fail "superblock row: $(cat "$T/out")"
gzip -c "$T/trace" >"$T/trace.gz"
python3 "$S" --kswapd-pid 45 "$T/trace.gz" | grep -q "share while runnable 0.60" || fail "gzip trace not read"

python3 "$S" --kswapd-pid 45 "$T/none" >/dev/null 2>"$T/err" && fail "a missing file passed"
grep -q "$T/none" "$T/err" || fail "the missing file not named: $(cat "$T/err")"
python3 "$S" --kswapd-pid 45 --last -1 "$T/trace" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "--last -1 did not exit 2"
grep -q -- "--last" "$T/err" || fail "--last not named"
echo "# tracer: nop" >"$T/empty"
python3 "$S" --kswapd-pid 45 "$T/empty" >/dev/null 2>"$T/err" && fail "a trace without events passed"
grep -q "no trace events" "$T/err" || fail "empty trace: $(cat "$T/err")"
echo PASS
