#!/bin/sh
# show_errors.sh - bad input to `cachepressure show` exits 2 with a
# message naming the input: unknown scenario, bad --set value, unknown
# key (in --set and in a file), missing file, bad --mem, bad usage.
# Usage: sh show_errors.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
. "$SRC/tests/cli/lib/expect.sh"
tmp=$CP_TEST_TMP

expect_error 2 "unknown scenario 'nosuch'" -- show nosuch
expect_error 2 "reader.file1.read_size=lots" "read_size = lots" "not a size" -- \
	show seed --set reader.file1.read_size=lots
expect_error 2 "unknown key 'colour'" "reader.file1.colour=red" -- show seed --set reader.file1.colour=red
expect_error 2 "no [reader file7]" -- show seed --set reader.file7.start=1s
expect_error 2 "SECTION.KEY=VALUE" "justtext" -- show seed --set justtext
expect_error 2 "$tmp/none.ini" "cannot open" -- show "$tmp/none.ini"
expect_error 2 "--mem" "lots" -- show seed --mem lots
expect_error 2 "missing SCENARIO" -- show
expect_error 2 "unknown option '--frobnicate'" -- show seed --frobnicate
expect_error 2 "needs a value" -- show seed --set

D=$SRC/tests/data/scenarios
expect_error 2 "bad-unknown-key.ini:13:" "colour = blue" "unknown key 'colour'" -- show "$D/bad-unknown-key.ini"
expect_error 2 "bad-size.ini:10:" "[file f]" "size = 12Q" -- show "$D/bad-size.ini"
expect_error 2 "bad-reader-file.ini:13:" "file = nosuchfile" -- show "$D/bad-reader-file.ini"
echo PASS
