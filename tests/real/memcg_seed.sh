#!/bin/sh
# real seed --mem 256M --confine memcg: the seed's lines and JSON, the
# superblock shrinker's count, and nothing left behind (mounts, loop
# device, cgroup, processes, work dir).
set -u
. "$2/tests/real/common.inc"
need_real
grep -q memory /proc/self/mountinfo || skip "no memory cgroup controller mounted"
[ "$(mem_available_mib)" -ge 1024 ] || skip "less than 1 GiB available"
make_tmp

start_cp real seed --mem 256M --confine memcg --workdir "$WORK" --json "$JSON"
wait_cp
[ "$RC" = 0 ] || fail "exit status $RC"
# 256M = 16G/64: fs_mark -n floor(100000/64) = 1562 per loop
check_seed_run 1562 memcg usage_bytes
# The superblock shrinker's frees are counted whether or not the machine
# has tracefs mounted: without a mount (these VMs boot so) the run mounts
# a tracefs of its own under its work directory, and check_nothing_left
# below sees that it went.
if grep -q 'tracefs$' /proc/filesystems; then
	grep -q '"sb_shrinker_freed"' "$JSON" ||
		fail "no sb_shrinker_freed in the JSON (tracefs at /sys/kernel/tracing: $(mountpoint -q /sys/kernel/tracing && echo mounted || echo not mounted))"
fi
# The loop device's I/O over the measured phase (/sys/block/loopN/stat):
# the readers read back what the cgroup's reclaim took, and fs_mark's
# creates write the log, so both byte counts are above zero.
for c in device_read_bytes device_write_bytes device_read_ios device_busy_ns; do
	grep -Eq "\"$c\":[[:space:]]*[1-9]" "$JSON" || fail "no $c above zero in the JSON"
done
grep -q 'memory cgroup v[12] .*cachepressure-' "$ERR" || fail "no cgroup message"
check_nothing_left
echo "PASS: memcg seed at 256M: $(text_totals | tr '\n' ' ')"
