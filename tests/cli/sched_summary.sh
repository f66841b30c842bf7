#!/bin/sh
# sched_summary.sh - scripts/sched-summary.py on a trace written by hand,
# 2 CPUs: fs_mark (PID 100) forks workers 101 and 102 at 10.000; 101 runs
# 100 ms on CPU 1 and exits at 10.100; 102 runs on CPU 0 from 10.000 to
# 10.050 (the reader it preempted waits 50 ms), waits 20 ms while the
# reader runs, runs 40 ms while the reader is blocked (D) 40 ms, waits
# 15 ms, runs its last 15 ms on CPU 1 (idle 10.100 - 10.125) and exits at
# 10.140. Over the span 10.000 - 10.140 (0.140 s), worked by hand: the
# workers 205 ms on a CPU = 1.464 (CPU 0 90 ms 0.643, CPU 1 115 ms
# 0.821), 35 ms waiting = 0.250, 205 / 240 of their runnable time = 0.85;
# the reader 50 ms on CPU 0 (its last stint cut at the span's end) = 0.357,
# waiting 0.357, blocked 0.286, half its runnable time; CPU 1 idle 25 ms =
# 0.179; loop 1: 0/100 and 90/15 ms, exits 40 ms apart, one worker alone
# 40 ms = 28.6 % of the span. Where they were queued (w workers, r
# readers a CPU; running there, or switched out in R there): 10.000 -
# 10.070 1w+1r | 1w+0r (70 ms = 0.500; workers on CPUs 50 x 2 + 20 x 1
# ms = 1.71, the reader 20 ms = 0.29), 10.070 - 10.100 1w+0r | 1w+0r
# (the reader asleep; 0.214, workers 2.00), 10.100 - 10.110 1w+0r |
# 0w+0r (0.071, workers 1.00), 10.110 - 10.125 1w+1r | 0w+0r (the reader
# back, 102 waiting; 0.107, readers 1.00) - the only time the CPUs'
# counts stood 2 apart, once, 15 ms = 10.7 % - and 10.125 - 10.140 1w+0r
# | 0w+1r (0.107, workers 1.00, readers 1.00). No migration events, no
# moves line; a second trace with them is described where it is built.
# Bad input: a missing file and a trace
# without fs_mark's workers exit non-zero naming the problem. No root.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP
S="$SRC/scripts/sched-summary.py"
sw() { # TIME CPU PREV_COMM PREV_PID STATE NEXT_COMM NEXT_PID
	echo "  $3-$4 [$2] d..2. $1: sched_switch: prev_comm=$3 prev_pid=$4 prev_prio=120 prev_state=$5 ==> next_comm=$6 next_pid=$7 next_prio=120"
}
{
	sw 9.990000 000 swapper/0 0 R cp-read-file 50
	sw 9.990000 001 swapper/1 0 R fs_mark 100
	echo "  fs_mark-100 [001] ..... 10.000000: sched_process_fork: comm=fs_mark pid=100 child_comm=fs_mark child_pid=101"
	echo "  fs_mark-100 [001] ..... 10.000000: sched_process_fork: comm=fs_mark pid=100 child_comm=fs_mark child_pid=102"
	sw 10.000000 001 fs_mark 100 S fs_mark 101
	sw 10.000000 000 cp-read-file 50 R fs_mark 102
	sw 10.050000 000 fs_mark 102 R cp-read-file 50
	sw 10.070000 000 cp-read-file 50 D fs_mark 102
	echo "  fs_mark-101 [001] ..... 10.100000: sched_process_exit: comm=fs_mark pid=101 prio=120 group_dead=true"
	sw 10.100000 001 fs_mark 101 X swapper/1 0
	sw 10.110000 000 fs_mark 102 R cp-read-file 50
	sw 10.125000 001 swapper/1 0 R fs_mark 102
	echo "  fs_mark-102 [001] ..... 10.140000: sched_process_exit: comm=fs_mark pid=102 prio=120 group_dead=true"
	sw 10.140000 001 fs_mark 102 X fs_mark 100
	sw 10.150000 000 cp-read-file 50 S swapper/0 0
} >"$T/trace"
python3 "$S" "$T/trace" >"$T/out" 2>"$T/err" || fail "exited $?: $(cat "$T/err")"
grep -q "fs_mark workers lived 0.140 s (2 workers, 1 loops)" "$T/out" || fail "span: $(cat "$T/out")"
grep -Eq "^fs_mark worker +1.464 +0.643 +0.821 +0.250 +0.000 +0.000 +0.85$" "$T/out" ||
	fail "workers' row: $(cat "$T/out")"
grep -Eq "^cp-read-file +0.357 +0.357 +0.000 +0.357 +0.286 +0.000 +0.50$" "$T/out" ||
	fail "reader's row: $(cat "$T/out")"
grep -Eq "^idle +0.179 +0.000 +0.179$" "$T/out" || fail "idle row: $(cat "$T/out")"
grep -Eq "^  loop  1: 0/100  90/15  gap 40$" "$T/out" || fail "loop row: $(cat "$T/out")"
grep -q "one worker alive alone 0.040 s, 28.6 % of the span; exit gaps: mean 40 ms, max 40 ms" \
	"$T/out" || fail "alone: $(cat "$T/out")"
place() { # PLACEMENT SHARE WORKERS READERS
	grep -Eq "^  $1 +$2 of the span  workers $3  readers $4$" "$T/out" ||
		fail "placement $1: $(cat "$T/out")"
}
place "1w\+1r \| 1w\+0r" 0.500 1.71 0.29
place "1w\+0r \| 1w\+0r" 0.214 2.00 0.00
place "1w\+1r \| 0w\+0r" 0.107 0.00 1.00
place "1w\+0r \| 0w\+1r" 0.107 1.00 1.00
place "1w\+0r \| 0w\+0r" 0.071 1.00 0.00
[ "$(grep -c ' of the span  workers ' "$T/out")" = 5 ] || fail "not five placements: $(cat "$T/out")"
grep -q "^counts 2 or more apart 0.015 s, 10.7 % of the span, 1 times: median 15.0 ms, max 15.0 ms$" \
	"$T/out" || fail "apart: $(cat "$T/out")"
grep -q "^moves between CPUs" "$T/out" && fail "moves counted without migration events"

# With trace-sched.sh -m's events: 102, queued on CPU 0 after the reader
# preempted it, is moved to CPU 1 where its partner 101 runs (by
# balancing, onto its partner's CPU), and back to CPU 0 while 101 still
# runs on CPU 1 (by balancing, away from its partner); the reader goes to
# sleep and is moved as it wakes (at a wake-up).
ev() { # TIME CPU EVENT FIELDS
	echo "  x-1 [$2] d..3. $1: $3: $4"
}
{
	sw 9.990000 000 swapper/0 0 R cp-read-file 50
	sw 9.990000 001 swapper/1 0 R fs_mark 100
	echo "  fs_mark-100 [001] ..... 10.000000: sched_process_fork: comm=fs_mark pid=100 child_comm=fs_mark child_pid=101"
	echo "  fs_mark-100 [001] ..... 10.000000: sched_process_fork: comm=fs_mark pid=100 child_comm=fs_mark child_pid=102"
	ev 10.000000 001 sched_wakeup_new "comm=fs_mark pid=101 prio=120 target_cpu=001"
	ev 10.000000 001 sched_wakeup_new "comm=fs_mark pid=102 prio=120 target_cpu=000"
	sw 10.000000 001 fs_mark 100 S fs_mark 101
	sw 10.000000 000 cp-read-file 50 R fs_mark 102
	sw 10.010000 000 fs_mark 102 R cp-read-file 50
	ev 10.020000 001 sched_migrate_task "comm=fs_mark pid=102 prio=120 orig_cpu=0 dest_cpu=1"
	sw 10.030000 000 cp-read-file 50 S swapper/0 0
	ev 10.040000 001 sched_migrate_task "comm=cp-read-file pid=50 prio=120 orig_cpu=0 dest_cpu=1"
	ev 10.040000 001 sched_wakeup "comm=cp-read-file pid=50 prio=120 target_cpu=001"
	ev 10.045000 000 sched_migrate_task "comm=fs_mark pid=102 prio=120 orig_cpu=1 dest_cpu=0"
	sw 10.045000 000 swapper/0 0 R fs_mark 102
	echo "  fs_mark-101 [001] ..... 10.050000: sched_process_exit: comm=fs_mark pid=101 prio=120 group_dead=true"
	sw 10.050000 001 fs_mark 101 X cp-read-file 50
	echo "  fs_mark-102 [000] ..... 10.060000: sched_process_exit: comm=fs_mark pid=102 prio=120 group_dead=true"
	sw 10.060000 000 fs_mark 102 X swapper/0 0
} >"$T/moves"
python3 "$S" "$T/moves" >"$T/out" 2>"$T/err" || fail "exited $? on the moves: $(cat "$T/err")"
grep -q "^moves between CPUs: workers 2 (0 at a wake-up, 2 by balancing, 1 onto their partner's CPU), readers 1 (1 at a wake-up, 0 by balancing)$" \
	"$T/out" || fail "moves: $(cat "$T/out")"

python3 "$S" "$T/none" >/dev/null 2>"$T/err" && fail "a missing file passed"
grep -q "$T/none" "$T/err" || fail "the missing file not named: $(cat "$T/err")"
grep -v sched_process "$T/trace" >"$T/noforks"
python3 "$S" "$T/noforks" >/dev/null 2>"$T/err" && fail "a trace without workers passed"
grep -q "no fs_mark worker" "$T/err" || fail "no workers: $(cat "$T/err")"
echo PASS
