#!/bin/sh
# Kernel lab A/B: `real compare seed --mem 256M --repeat 2` boots the
# stock and the legacy lab kernel alternately (A B A B), prints the
# table with both kernels' runs, the ratio and a Mann-Whitney U p-value,
# writes the JSON with both kernels, and leaves no qemu process and no
# per-run file. The kernels are $CP_LAB_KERNEL and $CP_LAB_LEGACY, else
# /var/tmp/cp-kbuild-{stock,legacy}/bzImage (`make test-lab` builds
# them); SKIP when either is missing. No root needed. About 2.5 minutes
# (four guests) under TCG on two CPUs.
set -u
. "$2/tests/real/common.inc"
A=${CP_LAB_KERNEL:-/var/tmp/cp-kbuild-stock/bzImage}
B=${CP_LAB_LEGACY:-/var/tmp/cp-kbuild-legacy/bzImage}
need_lab "$A" "the stock kernel; make test-lab builds it"
need_lab "$B" "the legacy kernel; make test-lab builds it"
make_tmp

start_cp real compare seed --mem 256M --repeat 2 --kernel "stock=$A" --kernel "legacy=$B" \
	--json "$JSON"
wait_cp
[ "$RC" = 0 ] || fail "exit status $RC"
# the alternation A B A B, as the progress lines say
order=$(sed -n 's/.*run \([0-9]*\)\/4: \([AB]\) .*repetition.*/\2/p' "$ERR" | tr -d '\n')
[ "$order" = ABAB ] || fail "runs in the order '$order', not ABAB"
grep -q '^# A = stock' "$OUT" || fail "table does not name A"
grep -q '^# B = legacy' "$OUT" || fail "table does not name B"
grep -q '^total .* U exact ' "$OUT" || fail "no total row with the exact U test"
for c in slabs_scanned pgscan_kswapd workingset_refault_file; do
	grep -q "^$c " "$OUT" || fail "no $c row"
done
# two kernels, two runs each, the runs' policy is the kernel's name
[ "$(grep -o '"name":[[:space:]]*"\(stock\|legacy\)"' "$JSON" | wc -l)" -ge 2 ] ||
	fail "JSON does not hold both kernels"
[ "$(grep -o '"policy":[[:space:]]*"legacy"' "$JSON" | wc -l)" = 2 ] ||
	fail "JSON does not hold two legacy runs"
sleep 1
for p in $(pgrep -f "qemu-system-x86_64 .*cachepressure-$PID-" 2>/dev/null); do
	fail "qemu $p is still running"
done
ls /var/tmp/cachepressure 2>/dev/null | grep -q "^cachepressure-$PID-" &&
	fail "per-run files of $PID left in /var/tmp/cachepressure"
echo "PASS: $(grep '^total ' "$OUT")"
