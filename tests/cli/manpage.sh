#!/bin/sh
# manpage.sh - docs/cachepressure.1 formats without a groff warning, has
# a section for every command `cachepressure --help` lists, and mentions
# every option that each command's --help lists.
# Usage: sh manpage.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
MAN=$SRC/docs/cachepressure.1
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v groff >/dev/null || { echo "SKIP: groff not installed (scripts/install-deps.sh)"; exit 77; }
[ -f "$MAN" ] || fail "no $MAN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. no warnings, all warning categories on
groff -man -Tutf8 -z -ww "$MAN" 2>"$tmp/warn" || fail "groff failed: $(cat "$tmp/warn")"
[ ! -s "$tmp/warn" ] || fail "groff warnings:
$(cat "$tmp/warn")"
# the rendered page has the sections a man page needs
groff -man -Tascii -P-c -P-b -P-u "$MAN" 2>/dev/null >"$tmp/text"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
	grep -q "^$s\$" "$tmp/text" || fail "no section $s"
done
grep -q 'cachepressure compare seed$' "$tmp/text" || fail "no 'cachepressure compare seed' example (make run)"

# the source with \- as - and without font escapes, for plain greps
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$MAN" >"$tmp/src"

# 2. every command of --help has its own subsection (.SS COMMAND ...)
cmds=$("$CP" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$cmds" ] || fail "no commands in cachepressure --help"
for c in $cmds; do
	grep -Eq "^\\.SS \"?$c( |\"|\$)" "$tmp/src" || fail "command '$c' has no .SS section in $MAN"
done

# 3. every option in each command's --help (and the top-level one) is in
# the man page
options() {
	grep -oE -- '(^|[][ (,|])--?[a-zA-Z][a-zA-Z0-9-]*' | sed -E 's/^[][ (,|]//' | sort -u
}
"$CP" --help | options >"$tmp/opts.top"
for o in $(cat "$tmp/opts.top"); do
	grep -qF -- "$o" "$tmp/src" || fail "option $o of cachepressure --help is not in $MAN"
done
for c in $cmds; do
	"$CP" "$c" --help >"$tmp/help.$c" 2>&1 || fail "cachepressure $c --help exited $?"
	for o in $(options <"$tmp/help.$c"); do
		grep -qF -- "$o" "$tmp/src" || fail "option $o of '$c --help' is not in $MAN"
	done
done
echo PASS
