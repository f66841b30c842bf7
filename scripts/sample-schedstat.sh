#!/bin/bash
# sample-schedstat.sh - how the scheduler shares the CPUs during a real
# run: every 0.1 s, /proc/PID/schedstat (ns on a CPU, ns runnable but
# waiting, times run) of the readers (cp-read-file), fs_mark and its
# workers, kswapd0 and kcompactd0, while a command runs.
#
#   scripts/sample-schedstat.sh OUT COMMAND [ARG...]
#
# Runs COMMAND with stdout to OUT.txt and stderr to OUT.err and writes one
# line per task and sample to OUT.schedstat: the time (s, $EPOCHREALTIME),
# PID, comm and the three schedstat numbers. The PIDs are looked up once a
# second (pgrep); the samples are read with bash builtins, no process
# started per sample, so that the sampler takes next to no CPU from the
# run it measures (one that started a process per task and sample, every
# 0.2 s, took enough to raise a global 1G run's re-read fivefold).
# scripts/schedstat-shares.py OUT.schedstat prints each kind of task's
# share of a CPU while it was runnable over fs_mark's run. Used for
# docs/fidelity.md, session 26 (autogroup on and off).
# Exit status: COMMAND's.
set -u
case ${1:-} in
-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -ge 2 ] || { echo "sample-schedstat: usage: sample-schedstat.sh OUT COMMAND [ARG...]" >&2; exit 2; }
out=$1
shift
: >"$out.schedstat"
"$@" >"$out.txt" 2>"$out.err" &
pid=$!
trap 'kill $pid 2>/dev/null' INT TERM HUP
declare -A comm
n=0
while kill -0 $pid 2>/dev/null; do
	if ((n % 10 == 0)); then
		comm=()
		for p in $(pgrep -x 'cp-read-file|fs_mark|kswapd0|kcompactd0'); do
			read -r c </proc/$p/comm 2>/dev/null && comm[$p]=$c
		done
	fi
	t=$EPOCHREALTIME
	for p in "${!comm[@]}"; do
		read -r s </proc/$p/schedstat 2>/dev/null && echo "$t $p ${comm[$p]} $s"
	done >>"$out.schedstat"
	n=$((n + 1))
	sleep 0.1
done
wait $pid
