#!/bin/sh
# init.sh - pid 1 of a cachepressure kernel-lab guest (busybox sh).
#
# Built into the lab's initramfs as /init (harness/lib/initramfs.c). Mounts
# proc, sys, devtmpfs and cgroup2 (memory enabled for children), runs
# `cachepressure ARGS` (`real ...` or `calibrate ...`) on the disk the
# host made (/dev/vda) with the arguments the host wrote to
# /cachepressure/args (one per line), and prints the file those arguments
# make it write (named in /cachepressure/result: the run's JSON, the
# calibrated profile) between marker lines on the second serial port
# (ttyS1), which the host reads from a file: kernel messages on ttyS0
# cannot interleave with it. Then `reboot -f`: with qemu -no-reboot the
# guest ends.
export PATH=/bin:/usr/bin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
export CACHEPRESSURE_SCENARIOS_DIR=/cachepressure/scenarios
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /sys/fs/cgroup /tmp
if mount -t cgroup2 cgroup2 /sys/fs/cgroup; then
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
fi
out=/dev/ttyS1

case " $(cat /proc/cmdline) " in
*" cachepressure.probe=1 "*)
	# the host asks only whether this kernel boots under this accelerator
	echo "@@cachepressure-probe-ok@@" >$out
	sync
	reboot -f
	;;
esac

echo "cachepressure guest: kernel $(uname -r), $(grep MemTotal /proc/meminfo)," \
	"$(grep MemAvailable /proc/meminfo)"
set --
while IFS= read -r a; do
	set -- "$@" "$a"
done </cachepressure/args
result=/tmp/result.json
[ -f /cachepressure/result ] && read -r result </cachepressure/result
/bin/cachepressure "$@" --guest-disk /dev/vda --workdir /cachepressure-work 2>&1
rc=$?
{
	echo "@@cachepressure-result-begin@@"
	[ -f "$result" ] && cat "$result"
	echo "@@cachepressure-result-end exit=$rc@@"
} >$out
sync
reboot -f
