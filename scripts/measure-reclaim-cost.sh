#!/bin/bash
# measure-reclaim-cost.sh - the CPU cost of one page-cache eviction and of
# one deactivation, order-0 and large folios, on this machine's kernel
# (root). The source of the [cpu] reclaim costs in profiles/*.ini.
#
#   scripts/measure-reclaim-cost.sh [-r REPS] [-k] [-b BUILD_DIR]
#
# Three page caches on a tmpfs-backed loop image (so a device read is a copy
# by the loop worker on the other CPU, not by the reader): ext4 with
# data=journal (page cache in order-0 folios only, with buffer heads),
# xfs (large folios from readahead) and xfs0 (xfs read with
# POSIX_FADV_RANDOM: no readahead, order-0 folios). On each, a 2 GiB file
# G is read with 1 MiB read()s (BUILD_DIR/cp-read-file, default build/) inside a
# memory cgroup (v1), so memcg limit reclaim runs in the reader's context,
# under `perf record -e cpu-clock -g` (these VMs have no PMU: the
# sampling is hrtimer-driven, and time with interrupts off is charged to
# where they come back on, inside the same reclaim function) and
# `perf stat` counting folios added to and deleted from the page cache
# (filemap tracepoints). pgdeactivate is the /proc/vmstat delta (the
# machine is otherwise idle). Cases, REPS times each, caches dropped
# before each:
#   evict   G in a memcg limited to 256 MiB: every page charged beyond
#           the limit evicts one (shrink_folio_list, __remove_mapping)
#   deact   a 900 MiB file F read twice (active) in a memcg limited to
#           1 GiB, then G: reclaim deactivates F's folios
#           (shrink_active_list) as well as evicting. Whether F's folios
#           get deactivated varies from run to run; runs without any
#           give no deactivation cost.
# Per run: the sampled total, and the time in the call chains under
# try_to_free_mem_cgroup_pages (all of reclaim), shrink_active_list and
# shrink_folio_list. Derived (medians over the runs):
#   evict ns/folio = (reclaim - shrink_active_list) / folios deleted
#   deact ns/page  = shrink_active_list / pgdeactivate
# with F's pages per folio from the folios added when it was first read.
# -k keeps the image directory (for a look afterwards).
# Cleans up everything it made (mounts, loop devices, the cgroup, the
# images) on every exit path, signals included.
set -euo pipefail
reps=3
freq=5000
build=$(dirname "$0")/../build
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	-r) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null ||
		{ echo "measure-reclaim-cost: -r needs a positive count" >&2; exit 2; }
	    reps=$2; shift 2 ;;
	-k) keep=1; shift ;;
	-b) [ $# -ge 2 ] || { echo "measure-reclaim-cost: -b needs a directory" >&2; exit 2; }
	    build=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "measure-reclaim-cost: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
reader=$build/cp-read-file
[ -x "$reader" ] || { echo "measure-reclaim-cost: $reader not found (make build)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "measure-reclaim-cost: needs root" >&2; exit 2; }
for t in perf mkfs.xfs mkfs.ext4 losetup; do
	command -v $t >/dev/null || { echo "measure-reclaim-cost: $t not found" >&2; exit 2; }
done
CG=/sys/fs/cgroup/memory
[ -e $CG/memory.limit_in_bytes ] ||
	{ echo "measure-reclaim-cost: needs the cgroup v1 memory controller at $CG" >&2; exit 2; }

dir=$(mktemp -d /dev/shm/cachepressure-reclaim-cost.XXXXXX)
mnt=$dir/mnt
cg=$CG/cachepressure-reclaim-cost-$$
loop=
cleanup() {
	set +e
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$loop" ] && losetup -d "$loop"
	loop=
	[ -d "$cg" ] && rmdir "$cg"
	[ "$keep" = 1 ] || rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$mnt" "$cg"

EV=filemap:mm_filemap_add_to_page_cache,filemap:mm_filemap_delete_from_page_cache
vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# children share (ms) of one kernel function in a perf.data: the samples
# whose call chain holds it, times the sampling period
share_ms() {
	perf report -i "$1" --children --stdio --no-demangle -g none -F overhead_children,sym 2>/dev/null |
		awk -v f="$2" -v tot="$3" '$NF == f { sub(/%/, "", $1); print $1 * tot / 100; found = 1 }
			END { if (!found) print 0 }'
}

# run_case NAME LIMIT PRE: drop caches, set the limit, read F PRE times
# (counting the folios it adds), then G under perf record and perf stat;
# all inside the cgroup (the subshell joins it).
run_case() {
	local name=$1 limit=$2 pre=$3 st=$dir/stat fst=$dir/fstat data=$dir/perf.data
	local d0 d1 fadd=0 i ms rec act fl
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo "$limit" > "$cg/memory.limit_in_bytes"
	(
		echo $BASHPID > "$cg/cgroup.procs"
		for i in $(seq "$pre"); do
			perf stat -x, -e filemap:mm_filemap_add_to_page_cache -o "$fst.$i" \
				"$reader" --quiet --passes 1 $ra "$mnt/F"
		done
		d0=$(vm pgdeactivate)
		perf stat -x, -e $EV -o "$st" perf record -q -F "$freq" -e cpu-clock -g \
			-o "$data" "$reader" --quiet --passes 1 $ra "$mnt/G"
		d1=$(vm pgdeactivate)
		echo "$((d1 - d0))" > "$st.vm"
	)
	echo -1 > "$cg/memory.limit_in_bytes"
	[ "$pre" -ge 1 ] && fadd=$(awk -F, '$3 ~ /add_to_page_cache/ { print $1 }' "$fst.1")
	# the sampled total: samples x period (cpu-clock counts ns)
	ms=$(perf script -i "$data" -F period 2>/dev/null | awk '{ t += $1 } END { printf "%.1f", t / 1e6 }')
	rec=$(share_ms "$data" try_to_free_mem_cgroup_pages "$ms")
	act=$(share_ms "$data" shrink_active_list "$ms")
	fl=$(share_ms "$data" shrink_folio_list "$ms")
	# perf stat -x, lines: value,unit,event,...
	awk -F, -v name="$name" -v fs="$fs" '
		$3 ~ /add_to_page_cache/ { add = $1 }
		$3 ~ /delete_from_page_cache/ { del = $1 }
		END { printf "%s %s %d %d", fs, name, add, del }' "$st"
	echo " $(cat "$st.vm") $fadd $ms $rec $act $fl"
	rm -f "$st" "$st.vm" "$fst".* "$data" "$data.old"
}

echo "# fs case folios_added folios_deleted pgdeactivate F_folios sampled_ms reclaim_ms shrink_active_ms shrink_folio_list_ms"
for fs in ext4 xfs xfs0; do
	ra=
	[ $fs = xfs0 ] && ra=--random
	truncate -s 4G "$dir/img"
	loop=$(losetup --find --show "$dir/img")
	if [ $fs = ext4 ]; then
		mkfs.ext4 -q -F "$loop"
		mount -o noatime,data=journal "$loop" "$mnt"
	else
		mkfs.xfs -q -f "$loop" # xfs0: the same, read with --random
		mount -o noatime "$loop" "$mnt"
	fi
	dd if=/dev/zero of="$mnt/F" bs=1M count=900 status=none
	dd if=/dev/zero of="$mnt/G" bs=1M count=2048 status=none
	sync
	for _ in $(seq "$reps"); do
		run_case evict 256M 0 | tee -a "$dir/results"
		run_case deact 1G 2 | tee -a "$dir/results"
	done
	umount "$mnt"
	losetup -d "$loop"
	loop=
	rm -f "$dir/img"
done

# medians per fs and case of the per-unit costs, then the derived costs:
#   evict ns/folio  = (reclaim - shrink_active_list) ms / folios deleted
#   deact ns/page   = shrink_active_list ms / pgdeactivate
#   deact ns/folio  = deact ns/page x F's pages per folio (F_folios were
#                     added for F's 900 MiB on its first read)
awk '
	/^#/ { next }
	{ k = $1 " " $2; fss[$1] = 1; m = ++n[k]
	  ev[k, m] = $4 > 0 ? ($8 - $9) * 1e6 / $4 : 0
	  if ($5 > 0) { nd[k]++; dp[k, nd[k]] = $9 * 1e6 / $5; ppf[k, nd[k]] = 900 * 256 / $6 } }
	function med(a, k, m,   i, j, t, v) {
		for (i = 1; i <= m; i++) v[i] = a[k, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	END {
		for (f in fss) {
			e = f " evict"; d = f " deact"
			printf "%s: evict %.0f ns/folio (median of %d runs)", f, med(ev, e, n[e]), n[e]
			if (nd[d])
				printf "; deact %.0f ns/page, %.1f pages/folio (median of the %d runs that deactivated)",
					med(dp, d, nd[d]), med(ppf, d, nd[d]), nd[d]
			printf "\n"
		}
	}' "$dir/results"
