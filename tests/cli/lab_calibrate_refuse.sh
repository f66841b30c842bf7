#!/bin/sh
# `cachepressure calibrate --kernel`: bad input named and exit 2 before any
# guest boots (a missing bzImage, sizes that do not parse, a guest too
# small for the data file, lab options without --kernel, a missing
# --from), and the hidden guest mode refused on a host. Boots nothing.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

expect 0 "--kernel BZIMAGE" "$CP" calibrate --help
expect 0 "--file-size SIZE" "$CP" calibrate --help
expect_error 2 "--kernel $T/no-such-bzImage" -- calibrate --kernel "$T/no-such-bzImage" \
	--workdir "$T/work" --from "$SRC/profiles/seed-box.ini"
[ ! -e "$T/work" ] || fail "a refused --kernel calibration created its work directory"
expect_error 2 "--vm-mem '12Q'" -- calibrate --kernel "$T/k" --vm-mem 12Q
expect_error 2 "--vm-mem 1024 MiB is too small for --file-size 1024 MiB" -- \
	calibrate --kernel "$T/k" --vm-mem 1G
expect_error 2 "--vm-mem needs --kernel" -- calibrate --vm-mem 1G
expect_error 2 "--file-size '8M'" -- calibrate --kernel "$T/k" --file-size 8M
expect_error 2 "--files 'many'" -- calibrate --kernel "$T/k" --files many
: >"$T/bzImage"
expect_error 2 "$T/no-such.ini" -- calibrate --kernel "$T/bzImage" --from "$T/no-such.ini" \
	--workdir "$T/work"
[ ! -e "$T/work" ] || fail "a calibration with a missing --from created its work directory"
# the guest mode is refused on a host before anything else happens
expect_error 2 "only honoured inside a cachepressure lab guest" -- \
	calibrate --guest-disk /dev/vda --workdir "$T/guest"
[ ! -e "$T/guest" ] || fail "a refused --guest-disk calibration created its work directory"
echo "PASS"
