#!/bin/sh
# compaction_summary.sh - scripts/compaction-summary.py on a trace written
# by hand: kswapd wakes kcompactd at order 9; kcompactd's compact_zone()
# of DMA32 at order 9 migrates 256 + 255 pages (1 failed) and ends in
# success; a reader's direct compaction of DMA32 at order 9 migrates
# nothing and ends complete; the suitability checks are one continue for
# kcompactd and one skipped for the reader. A migratepages event of a task
# with no open run counts for nothing. --last 0.5 keeps the reader's run
# alone. Bad input: a missing file, a negative --last, a file without
# events each exit non-zero naming it. No root.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP
S="$SRC/scripts/compaction-summary.py"
cat >"$T/trace" <<'EOT'
# tracer: nop
         kswapd0-47      [000] ..... 100.000000: mm_compaction_wakeup_kcompactd: nid=0 order=9 classzone_idx=Movable
      kcompactd0-38      [000] ..... 100.001000: mm_compaction_kcompactd_wake: nid=0 order=9 classzone_idx=Normal
      kcompactd0-38      [000] ..... 100.001100: mm_compaction_suitable: node=0 zone=DMA32    order=9 ret=continue
      kcompactd0-38      [000] ..... 100.001200: mm_compaction_begin: zone_start=0x1000 migrate_pfn=0x1000 free_pfn=0xffe00 zone_end=0x100000, mode=sync
      kcompactd0-38      [000] ..... 100.001300: mm_compaction_migratepages: nr_migrated=256 nr_failed=0
    cp-read-file-900     [001] ..... 100.001350: mm_compaction_migratepages: nr_migrated=7 nr_failed=0
      kcompactd0-38      [000] ..... 100.001400: mm_compaction_finished: node=0 zone=DMA32    order=9 ret=continue
      kcompactd0-38      [000] ..... 100.001500: mm_compaction_migratepages: nr_migrated=255 nr_failed=1
      kcompactd0-38      [000] ..... 100.001600: mm_compaction_finished: node=0 zone=DMA32    order=9 ret=success
      kcompactd0-38      [000] ..... 100.001700: mm_compaction_end: zone_start=0x1000 migrate_pfn=0x16800 free_pfn=0xbe1ff zone_end=0x100000, mode=sync status=success
    cp-read-file-900     [001] ..... 100.600000: mm_compaction_suitable: node=0 zone=DMA32    order=9 ret=skipped
    cp-read-file-900     [001] ..... 100.600100: mm_compaction_begin: zone_start=0x1000 migrate_pfn=0x1000 free_pfn=0xffe00 zone_end=0x100000, mode=async
    cp-read-file-900     [001] ..... 100.600200: mm_compaction_finished: node=0 zone=DMA32    order=9 ret=complete
    cp-read-file-900     [001] ..... 100.600300: mm_compaction_end: zone_start=0x1000 migrate_pfn=0xffe00 free_pfn=0xffe00 zone_end=0x100000, mode=async status=complete
EOT
python3 "$S" "$T/trace" >"$T/out" 2>"$T/err" || fail "summary exited $?: $(cat "$T/err")"
grep -q "compact_zone() runs: 2, pages migrated 511" "$T/out" || fail "totals: $(cat "$T/out")"
grep -Eq "^  kcompactd +DMA32 +9 +success +1 +511 +1$" "$T/out" || fail "kcompactd row: $(cat "$T/out")"
grep -Eq "^  reader +DMA32 +9 +complete +1 +0 +0$" "$T/out" || fail "reader row: $(cat "$T/out")"
grep -Eq "^  kcompactd +DMA32 +order 9 +continue +1$" "$T/out" || fail "suitable row: $(cat "$T/out")"
grep -Eq "^  reader +DMA32 +order 9 +skipped +1$" "$T/out" || fail "reader's suitable row: $(cat "$T/out")"
grep -q "kcompactd woken by: kswapd at order 9 1" "$T/out" || fail "wakers: $(cat "$T/out")"
grep -q "kcompactd runs (kcompactd_do_work) by order: 9: 1" "$T/out" || fail "wakes: $(cat "$T/out")"
python3 "$S" --last 0.5 "$T/trace" >"$T/out" 2>"$T/err" || fail "--last exited $?: $(cat "$T/err")"
grep -q "compact_zone() runs: 1, pages migrated 0" "$T/out" || fail "--last 0.5: $(cat "$T/out")"
gzip -c "$T/trace" >"$T/trace.gz"
python3 "$S" "$T/trace.gz" | grep -q "pages migrated 511" || fail "gzip trace not read"

python3 "$S" "$T/none" >/dev/null 2>"$T/err" && fail "a missing file passed"
grep -q "$T/none" "$T/err" || fail "the missing file not named: $(cat "$T/err")"
python3 "$S" --last -1 "$T/trace" >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "--last -1 did not exit 2"
grep -q -- "--last" "$T/err" || fail "--last not named"
echo "# tracer: nop" >"$T/empty"
python3 "$S" "$T/empty" >/dev/null 2>"$T/err" && fail "a trace without events passed"
grep -q "no trace events" "$T/err" || fail "empty trace: $(cat "$T/err")"
echo PASS
