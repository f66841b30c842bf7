#!/bin/sh
# scripts/trace-kswapd-orders.sh: the command's exit status comes back,
# the table is printed, and its tracing instance is gone afterwards,
# also when it is stopped by a signal (it must leave the machine's
# tracing as it found it).
set -u
. "$2/tests/real/common.inc"
. "$2/scripts/tracefs.sh"
[ "$(id -u)" = 0 ] || skip "needs root"
# tracefs mounted for the whole test (and unmounted again if we mounted
# it), so that the script's instances can be counted after it exits
tracefs_mount
trap 'tracefs_umount' EXIT
TR=$TRACEFS
[ -d "$TR/instances" ] || TR=/sys/kernel/debug/tracing
[ -d "$TR/instances" ] || skip "no tracefs with instances"
[ -d "$TR/events/vmscan/mm_vmscan_kswapd_wake" ] || skip "no vmscan tracepoints"
S=$2/scripts/trace-kswapd-orders.sh
make_tmp
trap 'rm -rf "$T"; tracefs_umount' EXIT

left() {
	n=0
	for d in "$TR"/instances/cachepressure-trace-*; do
		[ -d "$d" ] && n=$((n + 1))
	done
	echo "$n"
}

sh "$S" -o "$T/raw" -- sh -c 'exit 3' >"$OUT" 2>"$ERR"
RC=$?
[ "$RC" = 3 ] || fail "exit status $RC, expected the command's 3"
grep -q '^order  *wake-ups  *kswapd runs' "$OUT" || fail "no table header"
grep -q '^kswapd reclaimed [0-9]* pages in all' "$OUT" || fail "no total line"
grep -q '^inactive  *scanned  *reclaimed  *activated  *ref_keep' "$OUT" || fail "no inactive-list table"
[ -s "$T/raw" ] || fail "-o kept no raw trace"
[ "$(left)" = 0 ] || fail "a tracing instance was left behind"
echo "ok: status passed through, instance removed"

# -s: kswapd's scheduling and the shrinkers' calls too, summarised
# (scripts/trace-reclaim-summary.py); the command's status still stands
sh "$S" -s -o "$T/raw-s" -- sh -c 'exit 4' >"$OUT" 2>"$ERR"
RC=$?
[ "$RC" = 4 ] || fail "-s: exit status $RC, expected the command's 4"
grep -q "sched_switch" "$T/raw-s" || grep -q "kswapd" "$OUT" "$ERR" ||
	fail "-s: neither kswapd's sched events nor a summary"
grep -q '^# .*s of trace, [0-9]* events$' "$OUT" ||
	grep -q "no summary" "$ERR" || fail "-s: no summary and no word why"
[ "$(left)" = 0 ] || fail "-s: a tracing instance was left behind"
echo "ok: -s summarises, status passed through, instance removed"

sh "$S" -- sleep 30 >"$OUT" 2>"$ERR" &
PID=$!
i=0
while [ "$(left)" = 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(left)" = 1 ] || fail "the instance never appeared"
kill -TERM "$PID"   # (a background sh ignores SIGINT; the trap is the same)
RC=0
wait "$PID" || RC=$?
[ "$RC" = 130 ] || fail "exit status $RC after SIGTERM, expected 130"
[ "$(left)" = 0 ] || fail "a tracing instance was left behind after SIGTERM"
echo "ok: SIGTERM stops it and removes the instance"

sh "$S" --bogus >"$OUT" 2>"$ERR"
RC=$?
[ "$RC" = 2 ] || fail "exit status $RC for an unknown option, expected 2"
grep -q "unknown option '--bogus'" "$ERR" || fail "no message naming the option"
echo "PASS"
