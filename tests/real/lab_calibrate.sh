#!/bin/sh
# Kernel lab: `calibrate --kernel BZIMAGE` boots the lab kernel under qemu,
# runs calibrate inside the guest on a fresh xfs disk image (a small data
# file and fs_mark run: --file-size 128M --files 5000 in a 512 MiB guest),
# and writes a machine profile whose measured keys say they were measured
# inside a qemu guest of that kernel, with the guest's CPUs and RAM, the
# rest copied from --from; the model accepts it (`run seed --mem 256M
# --machine FILE`); nothing is left but the cached initramfs. The kernel
# is $CP_LAB_KERNEL, else /var/tmp/cp-kbuild-stock/bzImage; SKIP when
# there is none. No root needed.
set -u
. "$2/tests/real/common.inc"
K=${CP_LAB_KERNEL:-/var/tmp/cp-kbuild-stock/bzImage}
need_lab "$K" "scripts/build-kernel.sh /var/tmp/cp-kbuild-stock, or make test-lab"
make_tmp

start_cp calibrate --kernel "$K" --vm-mem 512M --file-size 128M --files 5000 \
	--workdir "$WORK" --name lab-test --from "$SRC/profiles/seed-box.ini" -o "$T/p.ini"
wait_cp
[ "$RC" = 0 ] || fail "exit status $RC"
P=$T/p.ini
grep -q 'qemu accelerator: \(KVM\|TCG\)' "$ERR" || fail "did not say KVM or TCG"
grep -q 'guest: .*fs_mark create rate' "$ERR" || fail "no progress from the guest"
grep -q '^name = lab-test$' "$P" || fail "name not set"
grep -q '^cpus = 2$' "$P" || fail "cpus is not the guest's 2"
for key in cpus ram copy_bandwidth read_syscall_ns read_bandwidth write_bandwidth \
	read_latency write_latency; do
	grep -q "^$key = ." "$P" || fail "no value for $key"
	above=$(awk -v k="$key" '/^;/ { b = b $0 "\n"; next }
		index($0, k " = ") == 1 { printf "%s", b; exit } { b = "" }' "$P" | tr -d '\n;' | tr -s ' ')
	echo "$above" | grep -q "measured inside a qemu \(TCG\|KVM\) guest of $K (kernel [0-9]" ||
		fail "$key: no note saying it was measured inside the guest"
	echo "$above" | grep -q "with 512 MiB, 2 CPUs, virtio disk" || fail "$key: guest not described"
	echo "$above" | grep -q '20[0-9][0-9]-[01][0-9]-[0-3][0-9]T' || fail "$key: no date"
done
# 512 MiB given to qemu, reported as the guest's RAM
grep -q '^ram = 512M$' "$P" || fail "ram is not the guest's 512M: $(grep '^ram' "$P")"
# keys a guest cannot measure come from --from with its comments
grep -q '^lru_evict_ns = 720$' "$P" || fail "lru_evict_ns not copied from seed-box.ini"
awk '/^;/ { b = b $0 "\n"; next } /^lru_evict_ns = / { printf "%s", b; exit } { b = "" }' "$P" |
	grep -q 'copied from' || fail "copied key not marked"
# a measured key's comment holds only its own lines (not the unmeasured key above)
above_thp=$(awk '/^;/ { b = b $0 "\n"; next } /^thp = / { printf "%s", b; exit } { b = "" }' "$P")
case "$above_thp" in
"; measured: "*) ;;
*) fail "thp's comment does not start with 'measured:': $above_thp" ;;
esac
# the model takes it as a machine profile
"$CP" run seed --mem 256M --machine "$P" --quiet >"$T/model.out" 2>&1 ||
	fail "the model refused the profile: $(cat "$T/model.out")"
sleep 1
for p in $(pgrep -f "qemu-system-x86_64 .*$WORK" 2>/dev/null); do
	fail "qemu $p is still running"
done
left=$(ls -A "$WORK" | grep -v '^cachepressure-initramfs-[0-9a-f]*\.cpio$' || true)
[ -z "$left" ] || fail "left in $WORK: $left"
echo "PASS: $(grep -E '^(cpus|ram|copy_bandwidth|read_bandwidth|read_latency) =' "$P" | tr '\n' ' ')"
