#!/bin/bash
# measure-create-cost.sh - the CPU one empty-file create costs the whole
# machine, as the seed's fs_mark makes them (root). The source of
# [create] create_cpu_ns in profiles/xfs.ini and profiles/ext4.ini.
#
#   scripts/measure-create-cost.sh [-r REPS] [-n FILES] [-w WORKERS] [-l LOOPS] [-t xfs|ext4]
#
# A fresh filesystem on a sparse 8 GiB image of its own (attached with
# `losetup --direct-io=on`, mounted noatime) each repetition, caches
# dropped, then
#   fs_mark -D 5000 -S0 -s 0 -L LOOPS -n FILES/WORKERS/LOOPS -d 0 [-d 1 ...]
# (the seed's flags, WORKERS directories: one fs_mark thread each;
# default 2, as the seed; LOOPS default 1, the seed makes 20: fs_mark
# forks new workers each loop, each starting in the subdirectory of the
# current second under -D 5000's time hash). Reported per run: the wall
# time, the busy time
# of all CPUs over the run (/proc/stat user + nice + system + irq +
# softirq, in USER_HZ ticks) and busy time / files, and the CPU time of
# the fs_mark process itself (with its workers: the user + system time
# wait4() reports for it, as the real harness's fs_mark_cpu_ns) / files.
# The busy time is everything a
# create costs: the open(O_CREAT) and close() system calls, fs_mark's own
# work between them (names, the failing mkdir() of an existing
# subdirectory, timing: its "App overhead"), and the kernel work the
# creates leave for other threads (the XFS log's CIL push and xfsaild
# kworkers, the loop device's worker), which runs on the other CPUs. The
# model charges a create create_cpu_ns + mkdir_lookup_ns of CPU; the rest
# of the machine must be idle.
# Cleans up what it made (mount, loop device, image) on every exit path,
# signals included; touches nothing else.
set -euo pipefail
reps=3
files=200000
workers=2
loops=1
fs=xfs
while [ $# -gt 0 ]; do
	case $1 in
	-r|-n|-w|-l) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null ||
		{ echo "measure-create-cost: $1 needs a positive count" >&2; exit 2; }
	    case $1 in -r) reps=$2 ;; -n) files=$2 ;; -w) workers=$2 ;; -l) loops=$2 ;; esac
	    shift 2 ;;
	-t) [ $# -ge 2 ] && { [ "$2" = xfs ] || [ "$2" = ext4 ]; } ||
		{ echo "measure-create-cost: -t needs xfs or ext4" >&2; exit 2; }
	    fs=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "measure-create-cost: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "measure-create-cost: needs root" >&2; exit 2; }
for t in fs_mark mkfs.$fs losetup; do
	command -v $t >/dev/null || { echo "measure-create-cost: $t not found" >&2; exit 2; }
done
per=$((files / workers / loops))
[ $per -ge 1 ] || { echo "measure-create-cost: fewer files than workers x loops" >&2; exit 2; }

dir=$(mktemp -d /var/tmp/cp-create-cost.XXXXXX)
loop=
cleanup() {
	cd /
	mountpoint -q "$dir/mnt" 2>/dev/null && umount "$dir/mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
hz=$(getconf CLK_TCK)
mkdir "$dir/mnt"
truncate -s 8G "$dir/img"
loop=$(losetup --direct-io=on --find --show "$dir/img")
dirs=
for ((i = 0; i < workers; i++)); do dirs="$dirs -d $i"; done
echo "# $fs, fs_mark -D 5000 -S0 -s 0 -L $loops -n $per$dirs; kernel $(uname -r), $(nproc) CPUs"
echo "# run wall_s busy_ticks us_per_file fs_mark_us_per_file"
for ((r = 1; r <= reps; r++)); do
	if [ $fs = xfs ]; then mkfs.xfs -f -q "$loop"; else mkfs.ext4 -F -q "$loop"; fi
	mount -o noatime "$loop" "$dir/mnt"
	for ((i = 0; i < workers; i++)); do mkdir "$dir/mnt/$i"; done
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cd "$dir/mnt"
	b0=$(busy)
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # $dirs is a list of options
	# a subshell of its own: its cutime + cstime (fields 16, 17 of
	# /proc/PID/stat) are then fs_mark's and its workers' CPU time
	own=$(fs_mark -D 5000 -S0 -s 0 -L $loops -n $per $dirs >/dev/null
	      awk '{ print $16 + $17 }' /proc/$BASHPID/stat)
	t1=$(date +%s%N)
	b1=$(busy)
	cd /
	umount "$dir/mnt"
	awk -v r=$r -v w=$((t1 - t0)) -v b=$((b1 - b0)) -v hz="$hz" -v n=$((per * workers * loops)) \
		-v o="$own" \
		'BEGIN { printf "%d %.3f %d %.2f %.2f\n", r, w / 1e9, b, b / hz / n * 1e6, o / hz / n * 1e6 }'
done
