#!/bin/sh
# kswapd_run_delay.sh - the model's cp_kswapd_run_delay_ns, kswapd's time
# runnable but not running (its steps' wall time less their CPU time; the
# real harness's /proc/PID/schedstat run_delay). The engine shares the
# CPUs as a fluid (engine.c): with more CPUs than actors nothing waits, so
# at 64 CPUs the delay is 0 while kswapd works; on one CPU, fs_mark's two
# workers (CPU-bound until the run ends with them) are runnable whenever
# kswapd works, so each progresses at a third or less and kswapd's delay
# is at least twice its CPU time - asked here: at least once.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP
counters() { # counters CPUS: "run_delay cpu" of a global 256M patched run
	"$CP" run seed --mem 256M --confine global --policy patched --kernel linux-6.x \
		--set "machine.machine.cpus=$1" --json "$T/r$1.json" --quiet ||
		fail "run with $1 CPUs failed"
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["runs"][0]["counters"]
print(c["cp_kswapd_run_delay_ns"], c["cp_kswapd_cpu_ns"])' "$T/r$1.json"
}
set -- $(counters 64)
[ "$2" -gt 0 ] || fail "kswapd did no work at 64 CPUs (cpu $2)"
[ "$1" = 0 ] || fail "kswapd waited $1 ns with 64 CPUs"
set -- $(counters 1)
[ "$2" -gt 0 ] || fail "kswapd did no work on one CPU"
[ "$1" -ge "$2" ] || fail "kswapd on one CPU waited $1 ns, less than its CPU time $2 ns"
echo PASS
