#!/bin/sh
# calibrate_mean.sh - `cachepressure calibrate --mean`: two profiles as
# calibrate writes them give one whose rates are their mean in the same
# unit (16000M and 18000M -> 17000M; 74us and 80us -> 77us), whose
# settings are theirs; `--median` of three (16000M, 9000M, 18000M) gives
# the middle one, 16000M (the mean would be 14333M); with --from the keys
# none measured come from that profile;
# bad input exits 2 naming it: a missing file, one --mean, a measuring
# option with --mean, a setting that differs (ram), a hand-written
# profile. Needs no root.
# Usage: sh calibrate_mean.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
tmp=$CP_TEST_TMP

# profile FILE RAM COPY LATENCY: a profile in calibrate's format
profile() {
	cat >"$1" <<EOT
; Machine profile of testhost, written by \`cachepressure calibrate -o $1\` on
; 2026-12-01T20:00:00Z, kernel 6.18.44-test.
; Measured keys say how they were measured; the others are copied from
; profiles/seed-box.ini with their comments.

[machine]
; given with --name
name = calibrated
; measured: sysconf(_SC_NPROCESSORS_ONLN)
cpus = 2
; measured: online memory blocks
ram = $2

[cpu]
; measured: mean of 5 passes
; range: 15000M..19000M
copy_bandwidth = $3

[device]
; measured: mean of 2000 pread()s
; range: 60us..100us (p5..p95)
read_latency = $4
EOT
}

profile "$tmp/a.ini" 24576M 16000M 74us
profile "$tmp/b.ini" 24576M 18000M 80us
"$CP" calibrate --mean "$tmp/a.ini" --mean "$tmp/b.ini" --name avg -o "$tmp/m.ini" 2>"$tmp/err" ||
	fail "calibrate --mean exited $?"
grep -qx "copy_bandwidth = 17000M" "$tmp/m.ini" || fail "copy_bandwidth not the mean: $(grep copy_ "$tmp/m.ini")"
grep -qx "read_latency = 77us" "$tmp/m.ini" || fail "read_latency not the mean"
grep -qx "ram = 24576M" "$tmp/m.ini" || fail "ram not kept"
grep -qx "name = avg" "$tmp/m.ini" || fail "name not --name"
grep -q "the mean of 2 calibrations" "$tmp/m.ini" || fail "no source comment"
grep -q "kernel 6.18.44-test" "$tmp/m.ini" || fail "header lacks the inputs' kernel"

profile "$tmp/slow.ini" 24576M 9000M 160us
"$CP" calibrate --median "$tmp/a.ini" --median "$tmp/slow.ini" --median "$tmp/b.ini" \
	-o "$tmp/med.ini" 2>"$tmp/err" || fail "calibrate --median exited $?"
grep -qx "copy_bandwidth = 16000M" "$tmp/med.ini" || fail "copy_bandwidth not the median: $(grep copy_ "$tmp/med.ini")"
grep -qx "read_latency = 80us" "$tmp/med.ini" || fail "read_latency not the median"
grep -q "the median of 3 calibrations" "$tmp/med.ini" || fail "no median comment"
expect_error 2 "do not go together" -- calibrate --mean "$tmp/a.ini" --median "$tmp/b.ini"

# --from: the keys none of them measured come from that profile, with its
# comment (object_free_ns is in neither input); without it, from the first
cat >"$tmp/costs.ini" <<EOT
[cpu]
; measured elsewhere: a test value
object_free_ns = 521
EOT
"$CP" calibrate --median "$tmp/a.ini" --median "$tmp/b.ini" --from "$tmp/costs.ini" \
	-o "$tmp/from.ini" 2>"$tmp/err" || fail "calibrate --median --from exited $?"
grep -qx "object_free_ns = 521" "$tmp/from.ini" || fail "--from's key not copied"
grep -q "measured elsewhere: a test value" "$tmp/from.ini" || fail "--from's comment not copied"
grep -qx "copy_bandwidth = 17000M" "$tmp/from.ini" || fail "--from changed a measured key"
grep -qx "object_free_ns = 521" "$tmp/med.ini" && fail "object_free_ns without --from"
expect_error 2 "$tmp/nofile.ini" -- calibrate --median "$tmp/a.ini" --median "$tmp/b.ini" \
	--from "$tmp/nofile.ini"
expect_error 2 "--median needs two profiles" -- calibrate --median "$tmp/a.ini"

expect_error 2 "$tmp/none.ini" -- calibrate --mean "$tmp/none.ini" --mean "$tmp/b.ini"
expect_error 2 "two profiles" -- calibrate --mean "$tmp/a.ini"
expect_error 2 "--files" -- calibrate --mean "$tmp/a.ini" --mean "$tmp/b.ini" --files 10
profile "$tmp/c.ini" 16384M 18000M 80us
expect_error 2 "ram" "16384M" -- calibrate --mean "$tmp/a.ini" --mean "$tmp/c.ini"
expect_error 2 "not a profile calibrate wrote" -- calibrate --mean "$SRC/profiles/seed-box.ini" \
	--mean "$tmp/a.ini"
echo PASS
