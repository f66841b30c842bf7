#!/bin/sh
# `cachepressure real compare`: help, every refusal of bad input (exit 2,
# the option and value named, nothing on stdout), and - until the kernel
# lab (harness/lib/lab.h) is in the tree - the refusal to run without it:
# exit 2, no table, never a made-up result. Boots nothing.
set -u
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
T=$CP_TEST_TMP

# two stand-in "images": readable files (the lab would reject them; the
# option checks do not look inside)
echo a >"$T/a.bzImage"
echo b >"$T/b.bzImage"
A="stock=$T/a.bzImage"
B="legacy=$T/b.bzImage"

expect 0 "--kernel NAME=BZIMAGE" "$CP" real compare --help
expect 0 "Mann-Whitney U" "$CP" real compare -h
expect 0 "real compare SCENARIO" "$CP" real --help

expect_error 2 "--kernel 'stock'" "NAME=BZIMAGE" -- real compare seed --kernel stock --kernel "$B" --repeat 5
expect_error 2 "already A's" -- real compare seed --kernel "x=$T/a.bzImage" --kernel "x=$T/b.bzImage" --repeat 5
expect_error 2 "exactly two" -- real compare seed --kernel "$A" --kernel "$B" --kernel "c=$T/a.bzImage" --repeat 5
expect_error 2 "needs two" "(got 1)" -- real compare seed --kernel "$A" --repeat 5
expect_error 2 "--repeat '1'" "at least 2" -- real compare seed --kernel "$A" --kernel "$B" --repeat 1
expect_error 2 "missing --repeat" -- real compare seed --kernel "$A" --kernel "$B"
expect_error 2 "--vm-cpus '0'" -- real compare seed --kernel "$A" --kernel "$B" --repeat 2 --vm-cpus 0
expect_error 2 "--mem '12Q'" -- real compare seed --kernel "$A" --kernel "$B" --repeat 2 --mem 12Q
expect_error 2 "unknown option '--keep'" -- real compare seed --kernel "$A" --kernel "$B" --repeat 2 --keep
expect_error 2 "--kernel nope=$T/missing" "not a readable file" -- \
	real compare seed --kernel "nope=$T/missing" --kernel "$B" --repeat 2
expect_error 2 "--kernel dir=$T" "not a readable file" -- \
	real compare seed --kernel "dir=$T" --kernel "$B" --repeat 2
expect_error 2 "unknown scenario 'bogus'" -- real compare bogus --kernel "$A" --kernel "$B" --repeat 2

echo PASS
