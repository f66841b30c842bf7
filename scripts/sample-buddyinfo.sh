#!/bin/bash
# sample-buddyinfo.sh - the free blocks of each order in ZONE_DMA32 and
# ZONE_NORMAL (/proc/buddyinfo), every 0.5 s, while a command runs (a real
# run, as root: reading /proc needs no root, the real harness does).
#
#   scripts/sample-buddyinfo.sh OUT COMMAND [ARG...]
#
# Runs COMMAND with stdout to OUT.txt and stderr to OUT.err and writes one
# line per sample to OUT.buddy: milliseconds since the start, "DMA32" and
# its 11 counts of free blocks of order 0 - 10, "Normal" and its 11, then
# pgscan_kswapd and workingset_refault_file of /proc/vmstat (cumulative).
# What it shows (docs/fidelity.md, session 15): during the global 16G
# row's worst reclaim the kernel's Normal zone holds hundreds of free
# blocks of order 8 and none of order 9 - half pageblocks whose other half
# is still allocated - for a second or two. Exit status: COMMAND's.
set -u
case ${1:-} in
-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -ge 2 ] || { echo "sample-buddyinfo: usage: sample-buddyinfo.sh OUT COMMAND [ARG...]" >&2; exit 2; }
out=$1
shift
"$@" >"$out.txt" 2>"$out.err" &
pid=$!
trap 'kill $pid 2>/dev/null' INT TERM HUP
t0=$(date +%s%N)
while kill -0 $pid 2>/dev/null; do
	t=$((($(date +%s%N) - t0) / 1000000))
	{ cat /proc/buddyinfo; echo VMSTAT; cat /proc/vmstat; } | awk -v t=$t '
	/^VMSTAT/ { v = 1; next }
	!v && $1 == "Node" && $2 == "0," && ($4 == "DMA32" || $4 == "Normal") {
		s = $4; for (i = 5; i <= 15; i++) s = s " " $i; z[$4] = s }
	v && ($1 == "pgscan_kswapd" || $1 == "workingset_refault_file") { vm[$1] = $2 }
	END { print t, z["DMA32"], z["Normal"], vm["pgscan_kswapd"], vm["workingset_refault_file"] }'
	sleep 0.5
done >"$out.buddy"
wait $pid
