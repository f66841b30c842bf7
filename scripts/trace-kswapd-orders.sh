#!/bin/sh
# trace-kswapd-orders.sh - which allocations wake kswapd, at which order,
# and how much kswapd reclaims for each, while one command runs (root).
#
#   scripts/trace-kswapd-orders.sh [-o TRACE_FILE] [-f] [-s] [-c] -- COMMAND [ARG...]
#
# e.g. scripts/trace-kswapd-orders.sh -- build/cachepressure real seed \
#          --mem 2G --confine global
#
# Uses a tracing instance of its own (/sys/kernel/tracing/instances/
# cachepressure-trace-PID), created here and removed on every exit path,
# so the machine's main trace buffer and its settings are left alone
# (tracefs is mounted first if it is not, and unmounted again at exit).
# Events: vmscan:mm_vmscan_wakeup_kswapd (order, gfp of the allocation
# that woke it: wakeup_kswapd() in mm/vmscan.c), vmscan:mm_vmscan_kswapd_wake
# (balance_pgdat() starting at an order), vmscan:mm_vmscan_lru_shrink_inactive
# (pages scanned and reclaimed per batch, with the priority),
# compaction:mm_compaction_begin and kmem:mm_page_alloc_extfrag (fallbacks
# to another migratetype's pageblock: what boosts the watermarks).
# Prints: kswapd runs and reclaimed pages by the order kswapd was woken
# at, reclaimed pages by priority, what became of the pages isolated from
# the inactive lists (kswapd's and everyone else's: scanned, reclaimed,
# activated, kept referenced, unmap failures, dirty, under writeback,
# immediate), the gfp masks of high-order wake-ups,
# the counts of compactions and fallbacks, and how long kswapd took to
# run after a wake-up (mm_vmscan_wakeup_kswapd to the next
# mm_vmscan_kswapd_wake: percentiles, microseconds). The raw trace is kept
# with -o. -f also records every page-cache insertion and deletion
# (filemap:mm_filemap_add_to_page_cache, mm_filemap_delete_from_page_cache)
# and the readahead calls (readahead:page_cache_sync_ra,
# page_cache_async_ra) for scripts/refill-runs.py to read from the -o
# file (some 200 K events in a global 1G seed run: meant for 1G - 2G).
# -s also records how the scheduler runs kswapd0 (sched:sched_switch and
# sched_wakeup, filtered on its PID), the shrinkers' calls
# (vmscan:mm_shrink_slab_start/_end), active-list passes and direct
# reclaim entries, and prints scripts/trace-reclaim-summary.py's view:
# kswapd's share of a CPU while runnable, each wake-up's reclaimed pages,
# freed objects and lowest priority, and the superblock shrinker's calls
# by priority (docs/fidelity.md, session 25; a global 1G run: some 35 K
# events).
# -c also records compaction's runs (compaction:mm_compaction_end,
# _migratepages, _finished, _suitable, _wakeup_kcompactd, _kcompactd_wake)
# and prints scripts/compaction-summary.py's view: each compact_zone() run
# by who ran it, zone, order and outcome with the pages it migrated, the
# suitability checks, and who woke kcompactd (docs/fidelity.md, session
# 43: a global 1G run, some 5 K events).
# Exits with the command's status (130 on SIGINT/SIGTERM, after stopping it).
set -eu
out=
files=
sched=
compact=
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || { echo "trace-kswapd-orders: -o needs a file" >&2; exit 2; }
	    out=$2; shift 2 ;;
	-f) files=1; shift ;;
	-s) sched=1; shift ;;
	-c) compact=1; shift ;;
	--) shift; break ;;
	-h|--help) sed -n '2,47p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "trace-kswapd-orders: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "trace-kswapd-orders: no command given (see --help)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "trace-kswapd-orders: needs root" >&2; exit 2; }
. "$(dirname "$0")/tracefs.sh"
tracefs_mount
T=$TRACEFS
[ -d "$T/instances" ] || T=/sys/kernel/debug/tracing
[ -d "$T/instances" ] || { echo "trace-kswapd-orders: no tracefs with instances" >&2; exit 2; }
I=$T/instances/cachepressure-trace-$$
raw=$(mktemp /tmp/cachepressure-trace.XXXXXX)
cleanup() {
	[ -d "$I" ] && { echo 0 > "$I/tracing_on"; rmdir "$I"; }
	tracefs_umount
	if [ -n "$out" ]; then mv "$raw" "$out"; else rm -f "$raw"; fi
}
child=
trap cleanup EXIT
trap '[ -n "$child" ] && kill -TERM "$child" 2>/dev/null; exit 130' INT TERM
mkdir "$I"
echo 65536 > "$I/buffer_size_kb"
for e in vmscan/mm_vmscan_wakeup_kswapd vmscan/mm_vmscan_kswapd_wake \
	 vmscan/mm_vmscan_lru_shrink_inactive compaction/mm_compaction_begin \
	 kmem/mm_page_alloc_extfrag; do
	echo 1 > "$I/events/$e/enable"
done
if [ -n "$files" ]; then
	[ -n "$out" ] || { echo "trace-kswapd-orders: -f needs -o" >&2; exit 2; }
	echo 204800 > "$I/buffer_size_kb"
	for e in filemap/mm_filemap_add_to_page_cache filemap/mm_filemap_delete_from_page_cache \
		 readahead/page_cache_sync_ra readahead/page_cache_async_ra; do
		echo 1 > "$I/events/$e/enable"
	done
fi
if [ -n "$sched" ]; then
	kswapd=$(pgrep -x kswapd0) || { echo "trace-kswapd-orders: -s: no kswapd0 thread" >&2; exit 2; }
	for e in vmscan/mm_vmscan_kswapd_sleep vmscan/mm_vmscan_lru_shrink_active \
		 vmscan/mm_vmscan_direct_reclaim_begin vmscan/mm_shrink_slab_start \
		 vmscan/mm_shrink_slab_end; do
		echo 1 > "$I/events/$e/enable"
	done
	echo "prev_pid == $kswapd || next_pid == $kswapd" > "$I/events/sched/sched_switch/filter"
	echo "pid == $kswapd" > "$I/events/sched/sched_wakeup/filter"
	echo 1 > "$I/events/sched/sched_switch/enable"
	echo 1 > "$I/events/sched/sched_wakeup/enable"
fi
if [ -n "$compact" ]; then
	for e in compaction/mm_compaction_end compaction/mm_compaction_migratepages \
		 compaction/mm_compaction_finished compaction/mm_compaction_suitable \
		 compaction/mm_compaction_wakeup_kcompactd compaction/mm_compaction_kcompactd_wake; do
		echo 1 > "$I/events/$e/enable"
	done
fi
echo 1 > "$I/tracing_on"
rc=0
# in the background so that a stop signal is handled at once; the child
# (ours) is stopped with SIGTERM by the trap
"$@" &
child=$!
wait "$child" || rc=$?
child=
echo 0 > "$I/tracing_on"
cat "$I/trace" > "$raw"
lost=$(cat "$I"/per_cpu/cpu*/stats | awk '/^overrun/ { n += $2 } END { print n + 0 }')
awk -v lost="$lost" '
function field(name,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, name "=") == 1)
			return substr($i, length(name) + 2);
	return "";
}
# the timestamp field ("54143.123456:"), seconds
function stamp(   i) {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/)
			return substr($i, 1, length($i) - 1) + 0;
	return -1;
}
/mm_vmscan_wakeup_kswapd:/ {
	o = field("order"); wakeups[o]++
	if (o > 0) gfp[field("gfp_flags")]++
	if (!pending) { pending = 1; woke = stamp() }
}
/mm_vmscan_kswapd_wake:/ {
	cur = field("order"); runs[cur]++
	if (pending) { lat[nlat++] = (stamp() - woke) * 1e6; pending = 0 }
}
/mm_vmscan_lru_shrink_inactive:/ {
	# every inactive-list batch (kswapd, direct and memcg reclaim): why
	# isolated pages were not reclaimed (the outcomes of shrink_folio_list)
	who = ($1 ~ /^kswapd/) ? "kswapd" : "others"
	s_scan[who] += field("nr_scanned"); s_recl[who] += field("nr_reclaimed")
	s_act[who] += field("nr_activate_file"); s_keep[who] += field("nr_ref_keep")
	s_unmap[who] += field("nr_unmap_fail"); s_dirty[who] += field("nr_dirty")
	s_wb[who] += field("nr_writeback"); s_imm[who] += field("nr_immediate")
}
/mm_vmscan_lru_shrink_inactive:/ && $1 ~ /^kswapd/ {
	r = field("nr_reclaimed"); reclaimed[cur] += r; total += r
	by_prio[field("priority")] += r
}
/mm_compaction_begin:/ { compactions++ }
/mm_page_alloc_extfrag:/ { fallbacks++ }
END {
	printf "%-6s %10s %12s %16s %10s\n", "order", "wake-ups", "kswapd runs", "kswapd reclaimed", "per run"
	for (o = 0; o <= 10; o++)
		if (wakeups[o] || runs[o])
			printf "%-6d %10d %12d %16d %10.0f\n", o, wakeups[o], runs[o],
			       reclaimed[o], runs[o] ? reclaimed[o] / runs[o] : 0
	printf "kswapd reclaimed %d pages in all\n", total
	printf "by priority:"
	for (p = 12; p >= 0; p--)
		if (by_prio[p]) printf " %d:%d", p, by_prio[p]
	printf "\n"
	printf "%-7s %10s %10s %10s %10s %10s %10s %10s %10s\n", "inactive", "scanned",
	       "reclaimed", "activated", "ref_keep", "unmap_fail", "dirty", "writeback", "immediate"
	for (w in s_scan)
		printf "%-7s %10d %10d %10d %10d %10d %10d %10d %10d\n", w, s_scan[w], s_recl[w],
		       s_act[w], s_keep[w], s_unmap[w], s_dirty[w], s_wb[w], s_imm[w]
	print "gfp of the high-order wake-ups:"
	for (g in gfp) printf "  %6d %s\n", gfp[g], g
	printf "compactions begun %d, migratetype fallbacks %d, trace events lost %d\n",
	       compactions, fallbacks, lost
	if (nlat) {
		# insertion sort: a few hundred wake-ups
		for (i = 1; i < nlat; i++) {
			v = lat[i]
			for (j = i - 1; j >= 0 && lat[j] > v; j--) lat[j + 1] = lat[j]
			lat[j + 1] = v
		}
		printf "kswapd wake-up to run, us (%d): p10 %.0f p50 %.0f p90 %.0f max %.0f\n", nlat,
		       lat[int(nlat * 0.1)], lat[int(nlat * 0.5)], lat[int(nlat * 0.9)], lat[nlat - 1]
	}
}' "$raw"
if [ -n "$sched" ]; then
	python3 "$(dirname "$0")/trace-reclaim-summary.py" --kswapd-pid "$kswapd" "$raw" ||
		echo "trace-kswapd-orders: -s: no summary (above); the command's status stands" >&2
fi
if [ -n "$compact" ]; then
	python3 "$(dirname "$0")/compaction-summary.py" "$raw" ||
		echo "trace-kswapd-orders: -c: no summary (above); the command's status stands" >&2
fi
exit "$rc"
