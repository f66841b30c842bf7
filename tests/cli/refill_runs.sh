#!/bin/sh
# refill_runs.sh - scripts/refill-runs.py on a hand-made trace (6.18
# formats): two reader files (ino 0x54, 0x55 on 254:0) and a library a
# reader loaded (8:1, left out). kswapd evicts A 0-3 and 4-7 (one run of 8:
# B's eviction in between does not break A's run), B 0 (a run of 1) and
# A 100 (a run of 1): 10 pages in 3 runs, mean 3. The reader reads back A
# 0-7 in two order-2 folios (a run of 8), B 0 and A 100 (order 0): folios
# "0: 2, 2, 2: 2, 8"; one sync and one async call. Counting the reader's
# added pages as the clock: A 0-3 come back at 0, A 4-7 at 4, B 0 at 8,
# A 100 at 9, so p10 0, p50 4, p90 9. Bad input: a missing file exits
# non-zero naming it; a trace without reader events says so. Needs python3.
# Usage: sh refill_runs.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$CP_TEST_TMP
S="$SRC/scripts/refill-runs.py"

ev() { # TASK TIME EVENT REST
	printf '    %s [000] ..... %s: %s: %s\n' "$1" "$2" "$3" "$4"
}
{
	echo "# tracer: nop"
	ev cp-read-file-7 100.000001 mm_filemap_add_to_page_cache "dev 8:1 ino 63 pfn=0x1 ofs=0 order=0"
	ev kswapd0-94 100.000002 mm_filemap_delete_from_page_cache "dev 254:0 ino 54 pfn=0x10 ofs=0 order=2"
	ev kswapd0-94 100.000003 mm_filemap_delete_from_page_cache "dev 254:0 ino 55 pfn=0x20 ofs=0 order=0"
	ev kswapd0-94 100.000004 mm_filemap_delete_from_page_cache "dev 254:0 ino 54 pfn=0x14 ofs=16384 order=2"
	ev kswapd0-94 100.000005 mm_filemap_delete_from_page_cache "dev 254:0 ino 54 pfn=0x30 ofs=409600 order=0"
	ev cp-read-file-7 100.000006 page_cache_sync_ra "dev=254:0 ino=54 index=0 req_count=256 order=0 size=0 async_size=0 ra_pages=640 mmap_miss=0 prev_pos=-1"
	ev cp-read-file-7 100.000007 mm_filemap_add_to_page_cache "dev 254:0 ino 54 pfn=0x40 ofs=0 order=2"
	ev cp-read-file-7 100.000008 mm_filemap_add_to_page_cache "dev 254:0 ino 54 pfn=0x44 ofs=16384 order=2"
	ev cp-read-file-7 100.000009 page_cache_async_ra "dev=254:0 ino=54 index=4 req_count=256 order=0 size=640 async_size=384 ra_pages=640 mmap_miss=0 prev_pos=0"
	ev cp-read-file-8 100.000010 mm_filemap_add_to_page_cache "dev 254:0 ino 55 pfn=0x50 ofs=0 order=0"
	ev cp-read-file-7 100.000011 mm_filemap_add_to_page_cache "dev 254:0 ino 54 pfn=0x51 ofs=409600 order=0"
} >"$tmp/raw"

python3 "$S" "$tmp/raw" >"$tmp/out" 2>"$tmp/err" || fail "refill-runs.py exited $?"
grep -q "^readers' files: 2; read back 10 pages$" "$tmp/out" || fail "files/pages: $(cat "$tmp/out")"
grep -q "^folios by order (folios, pages): 0: 2, 2, 2: 2, 8$" "$tmp/out" || fail "orders: $(cat "$tmp/out")"
grep -q "^readahead calls: sync 1, async 1$" "$tmp/out" || fail "calls: $(cat "$tmp/out")"
grep -q "^evicted: 10 pages in 3 runs, mean 3, 0 % in runs over 4096 pages$" "$tmp/out" ||
	fail "eviction runs: $(cat "$tmp/out")"
grep -q "^read back: 10 pages in 3 runs, mean 3, 0 % in runs over 4096 pages$" "$tmp/out" ||
	fail "read-back runs: $(cat "$tmp/out")"
grep -q "^refault after (pages read back meanwhile): p10 0 p50 4 p90 9; never 0$" "$tmp/out" ||
	fail "refault delays: $(cat "$tmp/out")"

# bad input
expect 1 "$tmp/missing" python3 "$S" "$tmp/missing"
echo "# tracer: nop" >"$tmp/empty"
expect 1 "no cp-read-file events" python3 "$S" "$tmp/empty"
expect 2 "RAW_TRACE" python3 "$S"
echo "refill_runs: ok"
