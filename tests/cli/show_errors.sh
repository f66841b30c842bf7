#!/bin/sh
# show_errors.sh - bad input to `cachepressure show` exits 2 with a
# message naming the input: unknown scenario, bad --set value, unknown
# key (in --set and in a file), missing file, bad --mem, bad usage.
# Usage: sh show_errors.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_error WORDS... -- ARGS...: exit 2, stderr holds every word
expect_error() {
	words=""
	while [ "$1" != "--" ]; do words="$words
$1"; shift; done
	shift
	set +e
	"$CP" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	[ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2"
	[ ! -s "$tmp/out" ] || fail "$*: printed to stdout: $(cat "$tmp/out")"
	echo "$words" | while IFS= read -r w; do
		[ -z "$w" ] && continue
		grep -qF -- "$w" "$tmp/err" || fail "$*: stderr lacks '$w': $(cat "$tmp/err")"
	done
}

expect_error "unknown scenario 'nosuch'" -- show nosuch
expect_error "reader.file1.read_size=lots" "read_size = lots" "not a size" -- \
	show seed --set reader.file1.read_size=lots
expect_error "unknown key 'colour'" "reader.file1.colour=red" -- show seed --set reader.file1.colour=red
expect_error "no [reader file7]" -- show seed --set reader.file7.start=1s
expect_error "SECTION.KEY=VALUE" "justtext" -- show seed --set justtext
expect_error "$tmp/none.ini" "cannot open" -- show "$tmp/none.ini"
expect_error "--mem" "lots" -- show seed --mem lots
expect_error "missing SCENARIO" -- show
expect_error "unknown option '--frobnicate'" -- show seed --frobnicate
expect_error "needs a value" -- show seed --set

D=$SRC/tests/data/scenarios
expect_error "bad-unknown-key.ini:13:" "colour = blue" "unknown key 'colour'" -- show "$D/bad-unknown-key.ini"
expect_error "bad-size.ini:10:" "[file f]" "size = 12Q" -- show "$D/bad-size.ini"
expect_error "bad-reader-file.ini:13:" "file = nosuchfile" -- show "$D/bad-reader-file.ini"
echo PASS
