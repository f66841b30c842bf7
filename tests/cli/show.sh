#!/bin/sh
# show.sh - `cachepressure show` prints the resolved scenario as INI that
# loads back to the same output; --mem and --set apply.
# Usage: sh show.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
SRC=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$CP" show seed > "$tmp/seed.ini" || fail "show seed exited $?"
for want in '^\[scenario\]$' '^ram = 16G$' '^fs = xfs$' '^mount = /mnt/btrfs-test$' \
	'^\[file file1\]$' '^size = 6500M$' '^cached = yes$' \
	'^\[reader file2\]$' '^read_size = 1M$' '^stop_with = fs_mark$' \
	'^\[creator fs_mark\]$' '^dirs = /mnt/btrfs-test/0, /mnt/btrfs-test/1$' \
	'^files_per_loop = 100000$' '^loops = 20$' '^subdirs = 5000$' '^sync = 0$' '^start = 5s$'; do
	grep -q "$want" "$tmp/seed.ini" || fail "show seed lacks $want"
done

# the output is a scenario file: showing it again gives the same bytes
"$CP" show "$tmp/seed.ini" > "$tmp/again.ini"
cmp -s "$tmp/seed.ini" "$tmp/again.ini" || fail "show of show differs"

# --mem 1G: 6500M / 16 = 406.25M = 416000K; -n 100000 / 16 = 6250
"$CP" show seed --mem 1G > "$tmp/1g.ini"
grep -q '^ram = 1G$' "$tmp/1g.ini" || fail "--mem 1G: ram"
grep -q '^size = 416000K$' "$tmp/1g.ini" || fail "--mem 1G: size"
grep -q '^files_per_loop = 6250$' "$tmp/1g.ini" || fail "--mem 1G: files_per_loop"

# --set, both spellings, after --mem
"$CP" show seed --mem=1G --set reader.file1.read_size=2M --set 'creator fs_mark.loops=3' \
	--set=scenario.seed=9 > "$tmp/set.ini"
grep -q '^read_size = 2M$' "$tmp/set.ini" || fail "--set read_size"
grep -q '^loops = 3$' "$tmp/set.ini" || fail "--set loops"
grep -q '^seed = 9$' "$tmp/set.ini" || fail "--set seed"
grep -q '^size = 416000K$' "$tmp/set.ini" || fail "--mem with --set"

"$CP" show files-in-cache | grep -q '^\[streamer cat\]$' || fail "show files-in-cache"
"$CP" show --help | grep -q 'Usage: cachepressure show' || fail "show --help"
"$CP" help show | grep -q 'Usage: cachepressure show' || fail "help show"
# --keys lists every section type, and the scaled keys are marked
keys=$("$CP" show --keys)
for sec in '[scenario]' '[file NAME]' '[reader NAME]' '[creator NAME]' '[walker NAME]' '[streamer NAME]'; do
	echo "$keys" | grep -qF "$sec" || fail "show --keys lacks $sec"
done
[ "$(echo "$keys" | grep -c 'scales with --mem')" -eq 2 ] || fail "show --keys: scaled keys"
echo PASS
