#!/bin/bash
# measure-device-beside-cpus.sh - how a VM's virtual disk and its vCPUs
# share the host (root): the device's read rate, and the CPU time the
# guest accounts, with 0 .. nproc CPU-bound tasks beside two readers.
# What it prints as share_beside_busy_cpus is that [device] key of a
# machine profile; on this project's VM it moved from 0.27 to 0.66
# between runs (docs/fidelity.md, session 48), so no profile sets it.
#
#   scripts/measure-device-beside-cpus.sh [-r REPS] [-s SECONDS] [-d DIR]
#
# One xfs on a direct-I/O loop device over a sparse image in DIR (default
# /var/tmp/cachepressure, as the real runs'; refused on tmpfs, which
# would measure memory, not the disk) holds two 2 GiB files. Two readers
# read them in a loop with 1 MiB read()s (dd, buffered: readahead as the
# seed's readers have it), each file's pages dropped before each pass
# (dd iflag=nocache count=0, POSIX_FADV_DONTNEED on that file only).
# Beside them K shell loops spin, K = 0 .. nproc, each case REPS times
# (default 2) over SECONDS (default 4) after half a second of warm-up.
# Per case it prints
#   busy      /proc/stat user+nice+system+irq+softirq, in CPUs
#   accounted busy + idle + iowait + steal, in CPUs: below nproc when the
#             host ran something else on the vCPUs' host CPUs and the
#             guest was not told (no steal clock)
#   device    the loop device's bytes read per second (/sys/block/loopN/stat)
#   per busy  the same per second of io_ticks (time with a request in flight)
# and at the end the medians:
#   share_beside_busy_cpus = device(K = nproc) / device(K = 0), per mille
#   host CPU per GB        = (nproc - accounted(K = nproc)) / device(K = nproc)
# On this project's VM (docs/fidelity.md, session 48) the guest accounts
# 1.6 - 1.8 of 2 CPUs with both spinners and the device busy: the disk's
# emulation runs on the host CPUs the vCPUs run on.
# Cleans up what it made (spinners, readers, mount, loop device, image)
# on every exit path, signals included.
set -euo pipefail
reps=2
secs=4
dir=/var/tmp/cachepressure
while [ $# -gt 0 ]; do
	case $1 in
	-r) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null ||
		{ echo "measure-device-beside-cpus: -r needs a positive count" >&2; exit 2; }
	    reps=$2; shift 2 ;;
	-s) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null ||
		{ echo "measure-device-beside-cpus: -s needs a positive count of seconds" >&2; exit 2; }
	    secs=$2; shift 2 ;;
	-d) [ $# -ge 2 ] || { echo "measure-device-beside-cpus: -d needs a directory" >&2; exit 2; }
	    dir=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "measure-device-beside-cpus: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "measure-device-beside-cpus: needs root" >&2; exit 2; }
for t in mkfs.xfs losetup dd setsid pgrep python3; do
	command -v $t >/dev/null || { echo "measure-device-beside-cpus: $t not found" >&2; exit 2; }
done
mkdir -p "$dir"
[ "$(stat -f -c %T "$dir")" != tmpfs ] ||
	{ echo "measure-device-beside-cpus: $dir is on tmpfs: the disk is not in the measurement" >&2; exit 2; }

work=$(mktemp -d "$dir/cachepressure-devcpu.XXXXXX")
img=$work/img
mnt=$work/mnt
loop=
pids=()
# each task is a session of its own (setsid: its pid is its process
# group), so that its dd goes with it
stop_tasks() {
	local p n
	for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null || true
		for ((n = 0; n < 100; n++)); do
			pgrep -g "$p" >/dev/null || break
			sleep 0.05
		done
	done
	pids=()
}
cleanup() {
	set +e
	stop_tasks
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	loop=
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$mnt"
truncate -s 8G "$img"
loop=$(losetup --direct-io=on --find --show "$img")
mkfs.xfs -q "$loop"
mount -o noatime "$loop" "$mnt"
for i in 1 2; do dd if=/dev/zero of="$mnt/f$i" bs=1M count=2048 status=none; done
sync
dev=$(basename "$loop")
ncpu=$(nproc)

cpu_stat() { awk '/^cpu /{print $2+$3+$4+$7+$8, $5+$6+$9}' /proc/stat; }
dev_stat() { awk '{print $3, $10}' "/sys/block/$dev/stat"; }
# reader F: read F over and over, its pages dropped before each pass
reader() {
	setsid bash -c 'while :; do
		dd if="$1" iflag=nocache count=0 status=none
		dd if="$1" of=/dev/null bs=1M status=none
	done' reader "$1" &
	pids+=($!)
}
spinner() {
	setsid bash -c 'while :; do :; done' &
	pids+=($!)
}

results=$work/results
: > "$results"
for ((r = 1; r <= reps; r++)); do
	for ((k = 0; k <= ncpu; k++)); do
		reader "$mnt/f1"
		reader "$mnt/f2"
		for ((j = 0; j < k; j++)); do spinner; done
		sleep 0.5
		read -r b0 i0 < <(cpu_stat)
		read -r s0 t0 < <(dev_stat)
		w0=$(date +%s.%N)
		sleep "$secs"
		read -r b1 i1 < <(cpu_stat)
		read -r s1 t1 < <(dev_stat)
		w1=$(date +%s.%N)
		stop_tasks
		hz=$(getconf CLK_TCK)
		python3 - "$k" "$b0" "$i0" "$s0" "$t0" "$w0" "$b1" "$i1" "$s1" "$t1" "$w1" "$hz" \
			>> "$results" <<'EOF'
import sys
k = int(sys.argv[1])
b0, i0, s0, t0, w0, b1, i1, s1, t1, w1, hz = map(float, sys.argv[2:])
wall = w1 - w0
busy = (b1 - b0) / hz / wall
acc = busy + (i1 - i0) / hz / wall
rate = (s1 - s0) * 512 / wall
per_busy = (s1 - s0) * 512 / ((t1 - t0) / 1e3) if t1 > t0 else 0.0
print(k, busy, acc, rate, per_busy)
EOF
		tail -n 1 "$results" | awk -v r=$r '{printf "rep %d spinners %d: busy %.2f accounted %.2f CPUs; device %.2f GB/s, %.2f GB/s busy\n", r, $1, $2, $3, $4/1e9, $5/1e9}'
	done
done
python3 - "$results" "$ncpu" <<'EOF'
import sys, statistics
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
n = int(sys.argv[2])
def med(k, col):
    return statistics.median(r[col] for r in rows if int(r[0]) == k)
idle, busy_rate, acc = med(0, 3), med(n, 3), med(n, 2)
print('median device rate: %.2f GB/s beside 0 spinners, %.2f beside %d' % (idle / 1e9, busy_rate / 1e9, n))
print('share_beside_busy_cpus = %d' % round(1000 * busy_rate / idle))
print('host CPU per GB = %.3f s (accounted %.2f of %d CPUs beside %d spinners)' % ((n - acc) / (busy_rate / 1e9), acc, n, n))
print('accounted + device x host CPU per GB beside k spinners (k = 1 .. %d):' % n,
      ' '.join('%.2f' % (med(k, 2) + med(k, 3) / 1e9 * (n - acc) / (busy_rate / 1e9)) for k in range(1, n + 1)))
EOF
