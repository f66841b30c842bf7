#!/bin/bash
# sample-zones.sh - per-zone free and file pages and the memory budget of
# /proc/meminfo, every 0.25 s, while a command runs (a real run, as root:
# reading /proc needs no root, the real harness does).
#
#   scripts/sample-zones.sh OUT COMMAND [ARG...]
#
# Runs COMMAND with stdout to OUT.txt and stderr to OUT.err and writes one
# line per sample to OUT.zones: milliseconds since the start, then for
# ZONE_DMA32 and ZONE_NORMAL of node 0 (/proc/zoneinfo) the free pages,
# the file LRU pages (nr_zone_active_file + nr_zone_inactive_file) and
# Normal's watermark boost, each zone's pages on the per-CPU lists (the
# pagesets' count: lines, summed over CPUs; not in "pages free"), then from /proc/meminfo MemFree, Cached,
# SReclaimable, SUnreclaim, AnonPages and "other" = MemTotal less those,
# Buffers, PageTables, KernelStack and Percpu (memory no counter names:
# XFS buffers' folios among it), in MiB. The model's series has the same
# per-zone columns (free_dma32, free_normal, file_dma32, boost_normal).
# And to OUT.buddy, per sample: the milliseconds, "DMA32" and its free
# blocks of order 0 - 10 (/proc/buddyinfo), "Normal" and its 11, then
# pgscan_kswapd and workingset_refault_file of /proc/vmstat (cumulative):
# during the global 16G row's worst reclaim the kernel's Normal zone holds
# hundreds of free order-8 blocks and none of order 9 for a second or two
# (docs/fidelity.md, session 15).
# And to OUT.pagetypes, a header line then one line per sample: the
# milliseconds, then the free pages and the pageblocks by migratetype of
# DMA32 and Normal (/proc/pagetypeinfo: free blocks times their size, and
# "Number of blocks type"; per-CPU list pages not included), then
# workingset_refault_file and pgdeactivate of /proc/vmstat (cumulative):
# the model's series columns of the same names (free_normal_movable, ...,
# pageblocks_normal_unmovable, ...) differ in that theirs count from the
# measured phase on (docs/fidelity.md, session 27).
# Exit status: COMMAND's.
set -u
case ${1:-} in
-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -ge 2 ] || { echo "sample-zones: usage: sample-zones.sh OUT COMMAND [ARG...]" >&2; exit 2; }
out=$1
shift
: >"$out.buddy"
echo "ms free_dma32_unmovable free_dma32_movable free_dma32_reclaimable free_normal_unmovable free_normal_movable free_normal_reclaimable pageblocks_dma32_unmovable pageblocks_dma32_movable pageblocks_dma32_reclaimable pageblocks_normal_unmovable pageblocks_normal_movable pageblocks_normal_reclaimable workingset_refault_file pgdeactivate" >"$out.pagetypes"
"$@" >"$out.txt" 2>"$out.err" &
pid=$!
trap 'kill $pid 2>/dev/null' INT TERM HUP
t0=$(date +%s%N)
while kill -0 $pid 2>/dev/null; do
	t=$((($(date +%s%N) - t0) / 1000000))
	{ cat /proc/zoneinfo; echo MEMINFO; cat /proc/meminfo; } | awk -v t=$t '
	/^MEMINFO/ { m = 1 }
	m && /^(MemTotal|MemFree|Cached|Buffers|SReclaimable|SUnreclaim|AnonPages|PageTables|KernelStack|Percpu):/ {
		sub(":", "", $1); mi[$1] = $2 }
	!m && /^Node 0, zone/ { z = $4 }
	!m && z != "" && $1 == "pages" && $2 == "free" { f[z] = $3 }
	!m && z != "" && $1 == "nr_zone_inactive_file" { fl[z] += $2 }
	!m && z != "" && $1 == "nr_zone_active_file" { fl[z] += $2 }
	!m && z != "" && $1 == "boost" { b[z] = $2 }
	!m && z != "" && $1 == "count:" { pc[z] += $2 }
	END {
		other = mi["MemTotal"] - mi["MemFree"] - mi["Cached"] - mi["Buffers"] - \
			mi["SReclaimable"] - mi["SUnreclaim"] - mi["AnonPages"] - \
			mi["PageTables"] - mi["KernelStack"] - mi["Percpu"]
		printf "%d dma32_free=%d normal_free=%d dma32_file=%d normal_file=%d boost_normal=%d", \
			t, f["DMA32"], f["Normal"], fl["DMA32"], fl["Normal"], b["Normal"]
		printf " dma32_pcp=%d normal_pcp=%d", pc["DMA32"], pc["Normal"]
		printf " free=%d cached=%d sreclaimable=%d sunreclaim=%d anon=%d other=%d\n", \
			mi["MemFree"] / 1024, mi["Cached"] / 1024, mi["SReclaimable"] / 1024, \
			mi["SUnreclaim"] / 1024, mi["AnonPages"] / 1024, other / 1024 }'
	{ cat /proc/buddyinfo; echo VMSTAT; cat /proc/vmstat; } | awk -v t=$t '
	/^VMSTAT/ { v = 1; next }
	!v && $1 == "Node" && $2 == "0," && ($4 == "DMA32" || $4 == "Normal") {
		s = $4; for (i = 5; i <= 15; i++) s = s " " $i; z[$4] = s }
	v && ($1 == "pgscan_kswapd" || $1 == "workingset_refault_file") { vm[$1] = $2 }
	END { print t, z["DMA32"], z["Normal"], vm["pgscan_kswapd"], vm["workingset_refault_file"] }' >>"$out.buddy"
	{ cat /proc/pagetypeinfo; echo VMSTAT; cat /proc/vmstat; } | awk -v t=$t '
	/^VMSTAT/ { v = 1; next }
	/^Number of blocks type/ { nb = 1; next }
	!v && !nb && $1 == "Node" && $5 == "type" && ($4 == "DMA32," || $4 == "Normal,") {
		z = substr($4, 1, length($4) - 1); s = 0; o = 1
		for (i = 7; i <= NF; i++) { s += $i * o; o *= 2 }
		f[z, $6] = s }
	!v && nb && $1 == "Node" && ($4 == "DMA32" || $4 == "Normal") {
		b[$4, "Unmovable"] = $5; b[$4, "Movable"] = $6; b[$4, "Reclaimable"] = $7 }
	v && ($1 == "workingset_refault_file" || $1 == "pgdeactivate") { vm[$1] = $2 }
	END {
		printf "%d", t
		printf " %d %d %d", f["DMA32", "Unmovable"], f["DMA32", "Movable"], f["DMA32", "Reclaimable"]
		printf " %d %d %d", f["Normal", "Unmovable"], f["Normal", "Movable"], f["Normal", "Reclaimable"]
		printf " %d %d %d", b["DMA32", "Unmovable"], b["DMA32", "Movable"], b["DMA32", "Reclaimable"]
		printf " %d %d %d", b["Normal", "Unmovable"], b["Normal", "Movable"], b["Normal", "Reclaimable"]
		printf " %d %d\n", vm["workingset_refault_file"], vm["pgdeactivate"] }' >>"$out.pagetypes"
	sleep 0.25
done >"$out.zones"
wait $pid
