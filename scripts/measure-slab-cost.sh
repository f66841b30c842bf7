#!/bin/bash
# measure-slab-cost.sh - the CPU cost of the superblock shrinker's work per
# object, on this machine's kernel (root). The source of [cpu] slab_scan_ns
# (one object looked at and rotated, its REFERENCED flag cleared) and
# object_free_ns (one dentry or inode freed) in profiles/*.ini.
#
#   scripts/measure-slab-cost.sh [-r REPS] [-n FILES]
#
# A fresh xfs on a sparse 8 GiB image of its own (attached with
# `losetup --direct-io=on`, mounted noatime) holds FILES empty files
# (default 200000), made by fs_mark as the seed makes them (-D 5000 -S0
# -s 0 -L 1, two directories). Each repetition, REPS times each case:
# the dentries and inodes dropped (drop_caches 2), then
#   once    every file looked up once (find -printf %s: a stat each), so
#           its dentry and inode are in the caches, unused and
#           unreferenced (the patched kernel's rule for a dentry used
#           once), then `perf stat -e task-clock` of echo 2 >
#           /proc/sys/vm/drop_caches, which frees them all
#           (drop_slab -> shrink_slab -> super_cache_scan);
#   twice   the same after two lookups: the second dput() sets
#           DCACHE_REFERENCED (and the inode's I_REFERENCED), so the
#           shrinker rotates each once before it frees it.
# The dentries and inodes freed are the drops of /proc/sys/fs/dentry-state
# and inode-nr across the echo. Derived (medians over the runs):
#   slab_scan_ns   = (twice - once) / dentries freed (the extra visit of
#                    each referenced dentry and inode, counted per dentry
#                    as the model charges a scanned object)
#   object_free_ns = once / (dentries + inodes freed) - slab_scan_ns
# XFS frees its inodes' own memory later, in its background reclaim
# worker; that part is not in the echo's time (nor in the model's
# object_free_ns: the model's XFS inode reclaim is xfs_icache.c). The rest
# of the machine must be idle.
# Cleans up what it made (mount, loop device, image) on every exit path,
# signals included; touches nothing else.
set -euo pipefail
reps=3
files=200000
while [ $# -gt 0 ]; do
	case $1 in
	-r|-n) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null ||
		{ echo "measure-slab-cost: $1 needs a positive count" >&2; exit 2; }
	    case $1 in -r) reps=$2 ;; -n) files=$2 ;; esac
	    shift 2 ;;
	-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "measure-slab-cost: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "measure-slab-cost: needs root" >&2; exit 2; }
for t in fs_mark mkfs.xfs losetup perf; do
	command -v $t >/dev/null || { echo "measure-slab-cost: $t not found" >&2; exit 2; }
done
[ $((files / 2)) -ge 1 ] || { echo "measure-slab-cost: -n needs 2 files or more" >&2; exit 2; }

dir=$(mktemp -d /var/tmp/cp-slab-cost.XXXXXX)
loop=
cleanup() {
	cd /
	mountpoint -q "$dir/mnt" 2>/dev/null && umount "$dir/mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkdir "$dir/mnt"
truncate -s 8G "$dir/img"
loop=$(losetup --direct-io=on --find --show "$dir/img")
mkfs.xfs -f -q "$loop"
mount -o noatime "$loop" "$dir/mnt"
mkdir "$dir/mnt/0" "$dir/mnt/1"
(cd "$dir/mnt" && fs_mark -D 5000 -S0 -s 0 -L 1 -n $((files / 2)) -d 0 -d 1 >/dev/null)
sync

dentries() { awk '{ print $1 }' /proc/sys/fs/dentry-state; }
inodes() { awk '{ print $1 }' /proc/sys/fs/inode-nr; }
lookup() { find "$dir/mnt" -type f -printf '%s\n' >/dev/null; }
# task-clock of the echo, in ns
drop_ns() {
	perf stat -x, -e task-clock -- sh -c 'echo 2 > /proc/sys/vm/drop_caches' 2>&1 >/dev/null |
		awk -F, '$3 == "task-clock" || $3 ~ /^task-clock/ { printf "%.0f\n", $1 * 1e6 }'
}

echo "# xfs, $files files by fs_mark -D 5000 -S0 -s 0 -L 1, two directories; kernel $(uname -r), $(nproc) CPUs"
echo "# case run echo_ms dentries_freed inodes_freed"
out=$(mktemp "$dir/out.XXXXXX")
for ((r = 1; r <= reps; r++)); do
	for c in once twice; do
		echo 2 >/proc/sys/vm/drop_caches
		lookup
		[ $c = twice ] && lookup
		d0=$(dentries) i0=$(inodes)
		ns=$(drop_ns)
		d1=$(dentries) i1=$(inodes)
		echo "$c $r $ns $((d0 - d1)) $((i0 - i1))" | tee -a "$out" |
			awk '{ printf "%s %d %.1f %d %d\n", $1, $2, $3 / 1e6, $4, $5 }'
	done
done
awk '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "once" { no++; once[no] = $3; od[no] = $4; oi[no] = $5 }
$1 == "twice" { nt++; twice[nt] = $3 }
END {
	o = median(once, no); t = median(twice, nt); d = median(od, no); i = median(oi, no)
	scan = (t - o) / d
	printf "slab_scan_ns = %.0f ((median twice %.1f ms - once %.1f ms) / %d dentries)\n", scan, t / 1e6, o / 1e6, d
	printf "object_free_ns = %.0f (once %.1f ms / (%d dentries + %d inodes) - slab_scan_ns)\n", o / (d + i) - scan, o / 1e6, d, i
}' "$out"
