#!/bin/bash
# trace-sched.sh - who ran on which CPU, and who waited, while a command
# runs (root): a tracefs instance of its own records sched_switch,
# sched_process_fork and sched_process_exit on every CPU.
#
#   scripts/trace-sched.sh [-m] OUT COMMAND [ARG...]
#
# -m also records sched_wakeup, sched_wakeup_new and sched_migrate_task:
# sched-summary.py then counts the workers' and readers' moves between
# CPUs, at a wake-up or by load balancing (session 37).
#
# e.g. scripts/trace-sched.sh /var/tmp/m1 build/cachepressure real seed
# --mem 1G --confine memcg. COMMAND's stdout goes to OUT.txt, its stderr to
# OUT.err, the trace to OUT.trace; then scripts/sched-summary.py OUT.trace
# prints, over the span in which fs_mark's workers lived, each kind of
# task's CPU time (per CPU), its time runnable but waiting and blocked,
# the CPUs' idle time, and each fs_mark loop's two workers: the CPUs they
# ran on and how far apart they finished. Used for docs/fidelity.md,
# session 33. A trace that lost events (a per-CPU buffer overran) is
# kept, and the script says so and exits 1.
# Cleans up its tracing instance (and tracefs, if it mounted it) on every
# exit path, signals included; kills only COMMAND, which it started.
# Exit status: COMMAND's, or 1 (lost events), or 2 (usage, no tracefs).
set -u
case ${1:-} in
-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
events="sched_switch sched_process_fork sched_process_exit"
if [ "${1:-}" = -m ]; then
	events="$events sched_wakeup sched_wakeup_new sched_migrate_task"
	shift
fi
[ $# -ge 2 ] || { echo "trace-sched: usage: trace-sched.sh [-m] OUT COMMAND [ARG...]" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "trace-sched: needs root" >&2; exit 2; }
out=$1
shift
. "$(dirname "$0")/tracefs.sh"

inst=
pid=
cleanup() {
	set +e
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		echo 0 >"$inst/tracing_on"
		rmdir "$inst"
	fi
	tracefs_umount
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
tracefs_mount
[ -d "$TRACEFS/instances" ] || { echo "trace-sched: no tracefs at $TRACEFS" >&2; exit 2; }
inst=$TRACEFS/instances/cp-trace-sched-$$
mkdir "$inst" || exit 2
# a real global 16G run switches about 10^6 times: 128 MiB a CPU holds it
echo 131072 >"$inst/buffer_size_kb"
for e in $events; do
	echo 1 >"$inst/events/sched/$e/enable"
done
echo 1 >"$inst/tracing_on"
"$@" >"$out.txt" 2>"$out.err" &
pid=$!
wait "$pid"
rc=$?
pid=
echo 0 >"$inst/tracing_on"
cat "$inst/trace" >"$out.trace"
if grep -q 'overrun: [1-9]' "$inst"/per_cpu/cpu*/stats; then
	echo "trace-sched: $out.trace lost events (a per-CPU buffer overran)" >&2
	exit 1
fi
exit "$rc"
