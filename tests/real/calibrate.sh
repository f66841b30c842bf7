#!/bin/sh
# cachepressure calibrate: a machine profile whose measured keys each have
# the command, date and kernel above them; keys it cannot measure copied
# from --from with their comments; nothing left behind.
set -u
. "$2/tests/real/common.inc"
need_real
make_tmp
PID=none

cat >"$T/src.ini" <<'INI'
[machine]
name = src
; anonymous memory of the processes running the test
process = 64M
[cpu]
; per cached page touched by read()
page_cached_ns = 50
INI
start_cp calibrate --workdir "$WORK" --from "$T/src.ini" --name test-vm -o "$T/p.ini"
wait_cp
[ "$RC" = 0 ] || fail "exit status $RC"
P=$T/p.ini
kernel=$(uname -r)
for key in cpus ram thp nr_zones min_free_kbytes copy_bandwidth memory_bandwidth \
	buffered_write_bandwidth read_syscall_ns \
	read_bandwidth write_bandwidth read_latency write_latency max_request read_ahead_kb \
	fs_mark_cpus_beside_readers readers_cpus_beside_fs_mark; do
	grep -q "^$key = ." "$P" || fail "no value for $key"
	# the comment block right above the key names the kernel and the date
	above=$(awk -v k="$key" '/^;/ { b = b $0 "\n"; next }
		index($0, k " = ") == 1 { printf "%s", b; exit } { b = "" }' "$P")
	echo "$above" | grep -q "measured" || fail "$key: no 'measured' comment"
	echo "$above" | tr -d '\n;' | tr -s ' ' | grep -q "$kernel" || fail "$key: kernel not named"
	echo "$above" | grep -q '20[0-9][0-9]-[01][0-9]-[0-3][0-9]T' || fail "$key: no date"
done
grep -q '^name = test-vm$' "$P" || fail "name not set"
grep -q '^process = 64M$' "$P" || fail "process not copied from the source profile"
grep -B2 '^page_cached_ns = 50$' "$P" | grep -q 'per cached page touched' ||
	fail "the source's comment was not copied"
grep -q 'fs_mark create rate for empty files on xfs, one worker: [0-9]* files/s' "$P" ||
	fail "no fs_mark create rate"
grep -q '^copy_bandwidth = [0-9][0-9]*M$' "$P" || fail "copy_bandwidth not a size"
grep -q '^read_latency = [0-9][0-9]*us$' "$P" || fail "read_latency not a duration"
if grep -F " $T/" /proc/mounts; then fail "mount left"; fi
if losetup -a | grep -F "$T/"; then fail "loop device left"; fi
[ ! -e "$WORK" ] || fail "work directory left"
echo "PASS: $(grep -E '^(copy_bandwidth|read_bandwidth|read_latency) =' "$P" | tr '\n' ' ')"
