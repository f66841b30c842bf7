#!/bin/sh
# `cachepressure real --kernel`: bad input named and exit 2 before any
# guest boots (a missing bzImage, sizes that do not parse, --vm-mem too
# small, lab options without --kernel), and the hidden guest mode refused
# on a host. Boots nothing.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

expect 0 "--kernel BZIMAGE" "$CP" real --help
expect 0 "--vm-mem SIZE" "$CP" real --help
expect_error 2 "--kernel $T/no-such-bzImage" -- real seed --mem 256M \
	--kernel "$T/no-such-bzImage" --workdir "$T/work"
[ ! -e "$T/work" ] || fail "a refused --kernel run created its work directory"
expect_error 2 "--vm-mem '12Q'" -- real seed --mem 256M --kernel "$T/k" --vm-mem 12Q
expect_error 2 "--vm-mem 300 MiB is too small for --mem 256 MiB" -- \
	real seed --mem 256M --kernel "$T/k" --vm-mem 300M
expect_error 2 "--vm-cpus '0'" -- real seed --mem 256M --kernel "$T/k" --vm-cpus 0
expect_error 2 "--timeout 'soon'" -- real seed --mem 256M --kernel "$T/k" --timeout soon
expect_error 2 "--accel 'xen'" -- real seed --mem 256M --kernel "$T/k" --accel xen
expect_error 2 "--vm-mem needs --kernel" -- real seed --mem 256M --vm-mem 1G
# the guest mode is refused on a host before anything else happens
expect_error 2 "only honoured inside a cachepressure lab guest" -- \
	real seed --mem 256M --guest-disk /dev/vda --workdir "$T/guest"
[ ! -e "$T/guest" ] || fail "a refused --guest-disk run created its work directory"
echo "PASS"
