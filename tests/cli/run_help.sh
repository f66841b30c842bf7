#!/bin/sh
# run_help.sh - `run --help` and `compare --help` exit 0 and list every
# option with its default; `help run` is the same text; `policies` lists
# every policy and kernel profile with a description.
# Usage: sh run_help.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

for cmd in run compare; do
	out=$("$CP" $cmd --help) || fail "$cmd --help exited $?"
	echo "$out" | grep -q "^Usage: cachepressure $cmd SCENARIO" || fail "$cmd --help: no usage line"
	for opt in --kernel --machine --fs --confine --mem --set --seed --vfs-cache-pressure \
		--json --csv --quiet --help; do
		echo "$out" | grep -qE -- "^ *(-[a-zA-Z], )?$opt\\>" || fail "$cmd --help does not list $opt"
	done
	# each default is stated: policy (run), kernel, machine, fs, confine,
	# mem, seed, vfs_cache_pressure
	for d in "else linux-4.11" "else seed-box" "else xfs" "global (default)" \
		"default: the scenario's seed" "default: 100" "default: the scenario's"; do
		echo "$out" | grep -qF -- "$d" || fail "$cmd --help lacks the default '$d'"
	done
	# -h is the same, and so is `help CMD`
	[ "$("$CP" $cmd -h)" = "$out" ] || fail "$cmd -h differs from --help"
	[ "$("$CP" help $cmd)" = "$out" ] || fail "help $cmd differs from $cmd --help"
	# --help wins over bad arguments
	"$CP" $cmd nosuch --frobnicate --help >/dev/null || fail "$cmd nosuch --frobnicate --help"
done
"$CP" run --help | grep -q -- '^ *--policy P .*default: legacy' || fail "run --help: --policy default"
if "$CP" compare --help | grep -q -- '^ *--policy'; then
	fail "compare --help lists --policy"
fi

# policies: every policy and kernel profile, each with a description
out=$("$CP" policies) || fail "policies exited $?"
for name in legacy patched linux-4.11 linux-6.1; do
	echo "$out" | grep -q "^  $name  *[^ ]" || fail "policies: no line for $name: $out"
done
# the kernel profiles listed are the ones --kernel accepts, and vice versa
"$CP" run --help | grep -q 'kernel profile: linux-4.11, linux-6.1' || fail "run --help kernel list"
"$CP" policies --help | grep -q '^Usage: cachepressure policies' || fail "policies --help"
set +e
"$CP" policies extra >/dev/null 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "policies extra: exit $rc, want 2"

# the top-level help lists the new commands, in alphabetical order
cmds=$("$CP" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
for c in compare policies run; do
	echo "$cmds" | grep -qx "$c" || fail "--help does not list $c"
done
[ "$cmds" = "$(echo "$cmds" | LC_ALL=C sort)" ] || fail "commands not sorted: $cmds"
echo PASS
