#!/bin/sh
# A stop signal in the middle of a run: SIGINT while fs_mark runs (memcg),
# SIGTERM while the balloon inflates (global), SIGINT while validate's
# first model run runs. Exit 1, a message, and nothing left behind.
set -u
. "$2/tests/real/common.inc"
need_real
make_tmp

# $1: pattern in stderr to wait for (a minute at most), then half a
# second more; $2: signal to send then; sets RC
signal_when() {
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
}

# the same for real: its message, and nothing left
interrupt_when() {
	signal_when "$1" "$2"
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
# validate installs its handlers before its first model run: SIGINT
# there abandons the model run (the engine's cancel question) instead of
# waiting for it, and no real run starts. fs_mark 100 times as long as
# the 256M scenario's keeps the model busy for many seconds.
start_cp validate seed --mem 256M --confine memcg --repeat 1 \
	--set creator.fs_mark.loops=2000 --workdir "$WORK"
signal_when "validate: model: seed" INT
grep -q "the run was cancelled" "$ERR" || fail "validate: the model run was not cancelled"
grep -q "stopped by signal 2" "$ERR" || fail "validate: no 'stopped by signal' message"
if grep -q "real run 1/" "$ERR"; then fail "validate: a real run started after SIGINT"; fi
check_nothing_left
echo "ok: SIGINT during validate's model run stopped it"
echo "PASS"
