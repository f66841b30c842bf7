#!/bin/bash
# measure-fsmark-workers.sh - how far apart fs_mark's workers finish each
# loop on this machine (root), and what else ran on the CPUs meanwhile.
#
#   scripts/measure-fsmark-workers.sh [-n FILES] [-L LOOPS] [-r REPS]
#
# fs_mark 3.3 forks one worker per -d directory each loop and waits for
# all of them before the next; a worker that finishes first waits (its
# CPU goes idle, or to whatever else is runnable). The seed scenario at
# --mem 1G runs `fs_mark -d 0 -d 1 -n 6250 -L 20 -s 0 -S 0 -D 5000`
# (the defaults here). Each repetition makes a fresh xfs on a sparse 8
# GiB image of its own (`losetup --direct-io=on`, mounted noatime, as the
# real harness does) and runs that fs_mark twice, under a tracefs
# instance of its own recording sched_process_fork/exit and sched_switch:
#   free     the workers placed by the scheduler on all CPUs;
#   one-cpu  the same, all of fs_mark pinned to CPU 0 (taskset): the
#            workers share one CPU, whatever else runs goes elsewhere.
# Per case it prints each loop's two finish times (ms from the fork) with
# the CPU each worker exited on, the share of fs_mark's time with only one
# worker alive, the slower worker's loop time over the faster's, and the
# CPU time of everything else (by command, kworker numbers folded) while
# fs_mark ran.
# Cleans up what it made (tracing instance, mount, loop device, image,
# and tracefs if it mounted it) on every exit path, signals included.
set -euo pipefail
files=6250
loops=20
reps=1
while [ $# -gt 0 ]; do
	case $1 in
	-n|-L|-r)
		[ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null ||
			{ echo "measure-fsmark-workers: $1 needs a positive count" >&2; exit 2; }
		case $1 in -n) files=$2 ;; -L) loops=$2 ;; -r) reps=$2 ;; esac
		shift 2 ;;
	-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "measure-fsmark-workers: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "measure-fsmark-workers: needs root" >&2; exit 2; }
for t in fs_mark mkfs.xfs losetup taskset python3; do
	command -v $t >/dev/null || { echo "measure-fsmark-workers: $t not found" >&2; exit 2; }
done
. "$(dirname "$0")/tracefs.sh"

dir=$(mktemp -d /var/tmp/cp-fsmark-workers.XXXXXX)
loop=
inst=
cleanup() {
	set +e
	cd /
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		echo 0 >"$inst/tracing_on"
		rmdir "$inst"
	fi
	mountpoint -q "$dir/mnt" 2>/dev/null && umount "$dir/mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$dir"
	tracefs_umount
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
tracefs_mount
[ -d "$TRACEFS/instances" ] || { echo "measure-fsmark-workers: no tracefs" >&2; exit 2; }
inst=$TRACEFS/instances/cp-fsmark-workers-$$
mkdir "$inst"
echo 65536 >"$inst/buffer_size_kb"
for e in sched_switch sched_process_fork sched_process_exit; do
	echo 1 >"$inst/events/sched/$e/enable"
done

mkdir "$dir/mnt"
truncate -s 8G "$dir/img"
loop=$(losetup --direct-io=on --find --show "$dir/img")
echo "# fs_mark -d 0 -d 1 -n $files -L $loops -s 0 -S 0 -D 5000 on xfs; kernel $(uname -r), $(nproc) CPUs"
for ((r = 1; r <= reps; r++)); do
	mkfs.xfs -f -q "$loop"
	mount -o noatime "$loop" "$dir/mnt"
	for c in free one-cpu; do
		mkdir "$dir/mnt/$c"
		pin=()
		[ $c = one-cpu ] && pin=(taskset -c 0)
		echo >"$inst/trace"
		echo 1 >"$inst/tracing_on"
		(cd "$dir/mnt/$c" && "${pin[@]}" fs_mark -d 0 -d 1 -n "$files" -L "$loops" -s 0 -S 0 \
			-D 5000 >"$dir/fs_mark.out")
		echo 0 >"$inst/tracing_on"
		cat "$inst/trace" >"$dir/trace"
		if grep -q overrun:.[1-9] "$inst"/per_cpu/cpu*/stats; then
			echo "measure-fsmark-workers: the trace lost events; not counted" >&2
			continue
		fi
		echo "## repetition $r, $c"
		python3 - "$dir/trace" <<'EOF'
import os, re, statistics, sys
from collections import defaultdict

ev = []
for line in open(sys.argv[1]):
    m = re.search(r"\[(\d+)\]\s+\S+\s+(\d+\.\d+):\s+(sched_\w+):\s+(.*)", line)
    if m:
        ev.append((int(m.group(1)), float(m.group(2)), m.group(3), m.group(4)))
main = None
loops, cur, alive = [], None, set()
one = both = 0.0
last = None
t_first = t_end = None
on_cpu, since, other = {}, {}, defaultdict(float)
for cpu, t, name, rest in ev:
    if name == "sched_process_fork" and "comm=fs_mark" in rest:
        parent = int(re.search(r" pid=(\d+)", rest).group(1))
        child = int(re.search(r"child_pid=(\d+)", rest).group(1))
        if main is None:
            main = parent
        if parent != main:
            continue
        if t_first is None:
            t_first = t
        if not alive:
            cur = {"start": t, "ends": []}
            loops.append(cur)
        else:
            one += t - last  # the first worker forked, not yet the second
        alive.add(child)
        last = t
    elif name == "sched_process_exit":
        pid = int(re.search(r" pid=(\d+)", rest).group(1))
        if pid in alive:
            d = t - last
            if len(alive) == 1:
                one += d
            else:
                both += d
            alive.discard(pid)
            last = t
            cur["ends"].append((1000 * (t - cur["start"]), cpu))
            t_end = t
    elif name == "sched_switch" and t_first is not None and (t_end is None or alive):
        m = re.search(r"prev_comm=(.*?) prev_pid=.*==> next_comm=(.*?) next_pid=", rest)
        if not m:
            continue
        if cpu in on_cpu:
            comm = on_cpu[cpu]
            if comm != "fs_mark":
                other[re.sub(r"\d+", "N", comm) if comm.startswith("kworker") else comm] += t - since[cpu]
        on_cpu[cpu], since[cpu] = m.group(2), t
ratios = []
for k, lp in enumerate(loops, 1):
    e = sorted(lp["ends"])
    if len(e) == 2:
        ratios.append(e[1][0] / e[0][0])
        print("loop %2d: %4.0f ms (cpu %d), %4.0f ms (cpu %d)" % (k, e[0][0], e[0][1], e[1][0], e[1][1]))
if not loops or one + both == 0:
    sys.exit("no fs_mark workers in the trace")
print("one worker alone %.1f %% of %.2f s; slower/faster loop time: median %.2f, mean %.2f"
      % (100 * one / (one + both), one + both, statistics.median(ratios), statistics.mean(ratios)))
span = t_end - t_first
print("other CPU time while fs_mark ran (%.2f s, %% of all CPUs):" % span)
for comm, s in sorted(other.items(), key=lambda x: -x[1])[:8]:
    print("  %-24s %.3f s  %.1f %%" % (comm, s, 100 * s / (span * os.cpu_count())))
EOF
	done
	umount "$dir/mnt"
done
