#!/bin/sh
# A stop signal in the middle of a run: SIGINT while fs_mark runs (memcg),
# SIGTERM while the balloon inflates (global). Exit 1, a message, and
# nothing left behind.
set -u
. "$2/tests/real/common.inc"
need_real
make_tmp

# $1: pattern in stderr to wait for; $2: signal
interrupt_when() {
	i=0
	while ! grep -q "$1" "$ERR" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -le 600 ] || { kill -KILL "$PID"; fail "never saw '$1'"; }
		kill -0 "$PID" 2>/dev/null || fail "the run ended before '$1'"
		sleep 0.1
	done
	sleep 0.5
	kill "-$2" "$PID"
	wait_cp
	[ "$RC" = 1 ] || fail "exit status $RC after SIG$2, expected 1"
	grep -q "interrupted by signal" "$ERR" || fail "no 'interrupted' message"
	check_nothing_left
}

if grep -q memory /proc/self/mountinfo; then
	start_cp real seed --mem 256M --confine memcg --workdir "$WORK"
	interrupt_when "fs_mark started" INT
	echo "ok: SIGINT during fs_mark (memcg) cleaned up"
fi
if [ "$(mem_available_mib)" -ge 3072 ]; then
	start_cp real seed --mem 1G --workdir "$WORK"
	interrupt_when "balloon locking" TERM
	echo "ok: SIGTERM during the balloon (global) cleaned up"
fi
echo "PASS"
