#!/bin/bash
# measure-read-cost.sh - the reader's CPU cost of a cached read() and of a
# page-cache miss, per folio and per page, on this machine's kernel
# (root). The source of [cpu] page_cached_ns, page_insert_ns and
# page_insert_page_ns in profiles/*.ini.
#
#   scripts/measure-read-cost.sh [-r REPS] [-b BUILD_DIR]
#
# One xfs on a tmpfs-backed loop image (so a device read is a copy done
# by the loop worker, on whichever CPU it runs, not by the reader) holds a
# 1 GiB file G. The reader is BUILD_DIR/cp-read-file (1 MiB read()s, one
# pass, default build/) under `perf stat -e task-clock` (the reader's own
# CPU time: waiting for the device is not in it) and the filemap
# tracepoint that counts the folios added to the page cache. The
# machine's free memory holds G, so no reclaim runs. Cases, REPS times
# each, G's pages dropped before each miss case with `dd iflag=nocache
# count=0` (POSIX_FADV_DONTNEED on G only):
#   miss0    G not cached, read with --random (POSIX_FADV_RANDOM: no
#            readahead, every page its own order-0 folio)
#   cached0  G read again, cached as order-0 folios
#   missL    G not cached, read with readahead (read_ahead_kb of the loop
#            device set to RA, default 2560 as on the grid's devices):
#            large folios
#   cachedL  G read again, cached as large folios
# Derived (medians over the runs; pages = 262144):
#   cached ns/page, order 0   = cached0 / pages
#   cached ns/page, large     = cachedL / pages
#   miss ns/folio, order 0    = (miss0 - cached0) / folios added
#   miss ns/page, large       = (missL - cachedL) / pages, and the part of
#                               it beyond the order-0 folio cost:
#   further ns/page           = ((missL - cachedL) - folios_L x order-0
#                               miss ns/folio) / (pages - folios_L)
# Cleans up everything it made (mount, loop device, image) and puts back
# the loop device's read_ahead_kb, on every exit path, signals included.
set -euo pipefail
reps=5
build=$(dirname "$0")/../build
ra_kb=${RA:-2560}
while [ $# -gt 0 ]; do
	case $1 in
	-r) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null ||
		{ echo "measure-read-cost: -r needs a positive count" >&2; exit 2; }
	    reps=$2; shift 2 ;;
	-b) [ $# -ge 2 ] || { echo "measure-read-cost: -b needs a directory" >&2; exit 2; }
	    build=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "measure-read-cost: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
case $ra_kb in ''|*[!0-9]*) echo "measure-read-cost: RA=$ra_kb is not a count of KiB" >&2; exit 2;; esac
reader=$build/cp-read-file
[ -x "$reader" ] || { echo "measure-read-cost: $reader not found (make build)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "measure-read-cost: needs root" >&2; exit 2; }
for t in perf mkfs.xfs losetup; do
	command -v $t >/dev/null || { echo "measure-read-cost: $t not found" >&2; exit 2; }
done

dir=$(mktemp -d /dev/shm/cachepressure-read-cost.XXXXXX)
mnt=$dir/mnt
loop=
ra_file=
ra_old=
cleanup() {
	set +e
	mountpoint -q "$mnt" && umount "$mnt"
	# a queue setting outlives losetup -d: put back what the device had
	[ -n "$ra_old" ] && echo "$ra_old" > "$ra_file"
	[ -n "$loop" ] && losetup -d "$loop"
	loop=
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$mnt"

# one_read NAME [--random]: prints "NAME task_ms folios_added"
one_read() {
	local name=$1 st=$dir/stat
	shift
	perf stat -x, -e task-clock,filemap:mm_filemap_add_to_page_cache -o "$st" \
		"$reader" --quiet --passes 1 "$@" "$mnt/G"
	awk -F, -v name="$name" '
		$3 ~ /task-clock/ { ms = $1 }
		$3 ~ /add_to_page_cache/ { add = $1 }
		END { printf "%s %.3f %d\n", name, ms, add }' "$st"
	rm -f "$st"
}

truncate -s 2G "$dir/img"
loop=$(losetup --find --show "$dir/img")
ra_file=/sys/block/${loop#/dev/}/queue/read_ahead_kb
ra_old=$(cat "$ra_file")
echo "$ra_kb" > "$ra_file"
mkfs.xfs -q -f "$loop"
mount -o noatime "$loop" "$mnt"
dd if=/dev/zero of="$mnt/G" bs=1M count=1024 status=none
sync
for _ in $(seq "$reps"); do
	dd if="$mnt/G" iflag=nocache count=0 status=none
	one_read miss0 --random
	one_read cached0 --random
	dd if="$mnt/G" iflag=nocache count=0 status=none
	one_read missL
	one_read cachedL
done | tee "$dir/results"

awk -v pages=262144 '
	{ m = ++n[$1]; ms[$1, m] = $2; fo[$1, m] = $3 }
	# median of a[k, 1..n[k]]
	function med(a, k,   i, j, t, v, c) {
		c = n[k]
		for (i = 1; i <= c; i++) v[i] = a[k, i]
		for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++)
			if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
	}
	END {
		c0 = med(ms, "cached0"); cl = med(ms, "cachedL")
		m0 = med(ms, "miss0"); ml = med(ms, "missL")
		f0 = med(fo, "miss0"); fl = med(fo, "missL")
		printf "cached: order 0 %.1f ns/page, large folios %.1f ns/page (medians of %d runs, ms: %.1f, %.1f)\n",
			c0 * 1e6 / pages, cl * 1e6 / pages, n["cached0"], c0, cl
		per0 = (f0 > 0) ? (m0 - c0) * 1e6 / f0 : 0
		printf "miss, order 0: %.0f ns/folio (%d folios; miss %.1f ms)\n", per0, f0, m0
		further = (pages > fl) ? ((ml - cl) * 1e6 - fl * per0) / (pages - fl) : 0
		printf "miss, large folios: %.0f ns/page, %.1f pages/folio (%d folios; miss %.1f ms); beyond %.0f ns a folio: %.1f ns per further page\n",
			(ml - cl) * 1e6 / pages, (fl > 0) ? pages / fl : 0, fl, ml, per0, further
	}' "$dir/results"
