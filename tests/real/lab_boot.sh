#!/bin/sh
# Kernel lab: `real seed --mem 256M --kernel BZIMAGE` boots the lab kernel
# under qemu (KVM or TCG), runs the seed in the guest, prints the seed's
# lines and writes the JSON with the guest's kernel name and the bzImage;
# afterwards no qemu process, no image and no per-run file is left (only
# the cached initramfs). The kernel is $CP_LAB_KERNEL, else
# /var/tmp/cp-kbuild-stock/bzImage (scripts/build-kernel.sh; `make
# test-lab` builds it); SKIP when there is none. No root needed.
set -u
. "$2/tests/real/common.inc"
K=${CP_LAB_KERNEL:-/var/tmp/cp-kbuild-stock/bzImage}
need_lab "$K" "scripts/build-kernel.sh /var/tmp/cp-kbuild-stock, or make test-lab"
make_tmp

start_cp real seed --mem 256M --repeat 1 --kernel "$K" --workdir "$WORK" --json "$JSON"
QEMU_SEEN=$(pgrep -f "qemu-system-x86_64 .*$WORK" 2>/dev/null | head -n 1)
wait_cp
[ "$RC" = 0 ] || fail "exit status $RC"
# 256M = 16G/64: fs_mark -n floor(100000/64) = 1562 per loop
check_seed_run 1562 global mem_free_bytes
grep -q 'qemu accelerator: \(KVM\|TCG\)' "$ERR" || fail "did not say KVM or TCG"
grep -q 'guest: .*fs_mark started' "$ERR" || fail "no progress from the guest"
grep -q "\"policy\":[[:space:]]*\"$K\"" "$JSON" || fail "JSON policy is not the bzImage $K"
grep -q '"kernel":[[:space:]]*"[0-9][0-9.]*' "$JSON" || fail "JSON kernel is not the guest's uname -r"
[ "$(json_counter lab_guest_ns)" -gt 0 ] || fail "no lab_guest_ns"
# nothing left: no qemu on our work directory, no image, console or initrd
sleep 1
for p in $(pgrep -f "qemu-system-x86_64 .*$WORK" 2>/dev/null); do
	fail "qemu $p is still running"
done
[ -n "$QEMU_SEEN" ] || echo "note: qemu was not caught running (the guest ended quickly)"
left=$(ls -A "$WORK" | grep -v '^cachepressure-initramfs-[0-9a-f]*\.cpio$' || true)
[ -z "$left" ] || fail "left in $WORK: $left"
echo "PASS: lab seed at 256M on $(sed -n 's/.*"kernel":[[:space:]]*"\([^"]*\)".*/\1/p' "$JSON" | head -n 1):" \
	"$(text_totals | tr '\n' ' ')$(grep -o 'qemu accelerator: [A-Z]*' "$ERR")"
