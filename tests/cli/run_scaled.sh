#!/bin/sh
# run_scaled.sh - `cachepressure run` and `compare` end to end on the
# seed scenario scaled down (memcg 256M, global 1G): the seed's lines add
# up, the text, the JSON and the CSV agree with each other, compare is
# the two single runs, options reach the result, and two runs give
# byte-identical output.
# Usage: sh run_scaled.sh path/to/cachepressure SOURCE_DIR
set -eu
CP=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed (scripts/install-deps.sh)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SMALL="--mem 256M --confine memcg"

# check_seed_lines FILE: the text before the first blank line is the seed's
# lines only; each reader's total is the sum of its loop lines; prints
# "PATH TOTAL" per reader to FILE.totals
check_seed_lines() {
	awk '/^$/ { exit } { print }' "$1" >"$1.seed"
	[ -s "$1.seed" ] || fail "$1: no seed lines"
	if grep -Ev '^[^ ]+: (loop [0-9]+ read bytes is [0-9]+|total read during loops [0-9]+)$' \
		"$1.seed" >"$1.bad"; then
		fail "$1: not a seed line: $(head -1 "$1.bad")"
	fi
	awk '
		/: loop / { p = $1; sub(/:$/, "", p); sum[p] += $NF; next }
		{ p = $1; sub(/:$/, "", p); tot[p] = $NF; order[n++] = p }
		END {
			for (i = 0; i < n; i++) {
				p = order[i]
				if (sum[p] + 0 != tot[p] + 0) {
					printf "%s: loops add up to %d, total line says %d\n", p, sum[p], tot[p] > "/dev/stderr"
					exit 1
				}
				print p, tot[p]
			}
		}' "$1.seed" >"$1.totals" || fail "$1: totals do not add up"
}

# ---- run -----------------------------------------------------------------
"$CP" run seed $SMALL --json "$tmp/run.json" --csv "$tmp/run.csv" >"$tmp/run.out" ||
	fail "run seed $SMALL exited $?"
check_seed_lines "$tmp/run.out"
[ "$(wc -l <"$tmp/run.out.totals")" -eq 2 ] || fail "run: want 2 readers: $(cat "$tmp/run.out.totals")"
grep -q '^/mnt/btrfs-test/reads/file1 ' "$tmp/run.out.totals" || fail "run: no file1 total"
grep -q '^/mnt/btrfs-test/reads/file2 ' "$tmp/run.out.totals" || fail "run: no file2 total"

J=$tmp/run.json
[ "$(jq '.runs | length' "$J")" -eq 1 ] || fail "run: JSON holds $(jq '.runs | length' "$J") runs"
[ "$(jq -r '.runs[0] | [.source, .policy, .kernel, .scenario, .confine] | join(" ")' "$J")" = \
	"model legacy linux-4.11 seed memcg" ] || fail "run: JSON header: $(jq -c '.runs[0] | del(.readers, .counters, .series)' "$J")"
# --mem 256M: the memcg limit
[ "$(jq '.runs[0].mem_bytes' "$J")" -eq 268435456 ] || fail "run: mem_bytes $(jq '.runs[0].mem_bytes' "$J")"
[ "$(jq '.runs[0].seed' "$J")" -eq 1 ] || fail "run: seed is not the scenario's (1)"
[ "$(jq '.runs[0].failed' "$J")" = false ] || fail "run: failed"
# each reader's total is the sum of its passes, and the text says the same
[ "$(jq '[.runs[0].readers[] | select(.total_read_bytes != ([.passes[].read_bytes] | add // 0))] | length' "$J")" -eq 0 ] ||
	fail "run: a JSON total is not the sum of its passes"
jq -r '.runs[0].readers[] | "\(.path) \(.total_read_bytes)"' "$J" | sort >"$tmp/json.totals"
sort "$tmp/run.out.totals" | cmp -s - "$tmp/json.totals" || fail "run: text totals $(cat "$tmp/run.out.totals") != JSON $(cat "$tmp/json.totals")"
# one loop line per pass that read from the device
n_lines=$(grep -c ': loop ' "$tmp/run.out.seed" || true)
n_passes=$(jq '[.runs[0].readers[].passes[] | select(.read_bytes > 0)] | length' "$J")
[ "$n_lines" -eq "$n_passes" ] || fail "run: $n_lines loop lines for $n_passes passes that read"
# CSV: the series, header first
head -1 "$tmp/run.csv" | grep -q '^t_ns,' || fail "run: CSV header: $(head -1 "$tmp/run.csv")"
rows=$(jq '.runs[0].series.rows | length' "$J")
[ "$rows" -gt 0 ] || fail "run: empty series"
[ $(($(wc -l <"$tmp/run.csv") - 1)) -eq "$rows" ] || fail "run: CSV rows != JSON series rows ($rows)"

# ---- compare ---------------------------------------------------------------
"$CP" compare seed $SMALL --json "$tmp/cmp.json" --csv "$tmp/cmp.csv" >"$tmp/cmp.out" ||
	fail "compare seed $SMALL exited $?"
grep -qx '== legacy (kernel linux-4.11, scenario seed) ==' "$tmp/cmp.out" || fail "compare: no legacy header"
grep -qx '== patched (kernel linux-4.11, scenario seed) ==' "$tmp/cmp.out" || fail "compare: no patched header"
[ "$(grep '^== ' "$tmp/cmp.out" | cut -d' ' -f2 | tr '\n' ' ')" = "legacy patched " ] ||
	fail "compare: headers not legacy then patched"
grep -Eq '^reader +legacy bytes +patched bytes +change %$' "$tmp/cmp.out" || fail "compare: no table header"
C=$tmp/cmp.json
[ "$(jq -r '[.runs[].policy] | join(" ")' "$C")" = "legacy patched" ] || fail "compare: JSON policies"
# table rows: the JSON totals of each policy; total row: their sums
for path in /mnt/btrfs-test/reads/file1 /mnt/btrfs-test/reads/file2; do
	l=$(jq --arg p "$path" '.runs[0].readers[] | select(.path == $p) | .total_read_bytes' "$C")
	p=$(jq --arg p "$path" '.runs[1].readers[] | select(.path == $p) | .total_read_bytes' "$C")
	grep -Eq "^$path +$l +$p +(n/a|[+-]?[0-9]+\\.[0-9][0-9])\$" "$tmp/cmp.out" ||
		fail "compare: no row '$path $l $p' in: $(cat "$tmp/cmp.out")"
done
lt=$(jq '[.runs[0].readers[].total_read_bytes] | add' "$C")
pt=$(jq '[.runs[1].readers[].total_read_bytes] | add' "$C")
grep -Eq "^total +$lt +$pt +" "$tmp/cmp.out" || fail "compare: no total row '$lt $pt'"
head -1 "$tmp/cmp.csv" | grep -q '^run,t_ns,' || fail "compare: CSV header: $(head -1 "$tmp/cmp.csv")"
cut -d, -f1 "$tmp/cmp.csv" | sed 1d | sort -u | tr '\n' ' ' | grep -qx 'legacy patched ' ||
	fail "compare: CSV run column"

# compare is the two single runs: legacy = run (default policy), patched = run --policy patched
"$CP" run seed $SMALL --policy patched --json "$tmp/patched.json" >/dev/null || fail "run --policy patched"
jq -S '.runs[0]' "$J" >"$tmp/a" && jq -S '.runs[0]' "$C" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "compare's legacy run differs from run"
jq -S '.runs[0]' "$tmp/patched.json" >"$tmp/a" && jq -S '.runs[1]' "$C" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "compare's patched run differs from run --policy patched"

# ---- determinism -------------------------------------------------------------
"$CP" compare seed $SMALL --json "$tmp/cmp2.json" --csv "$tmp/cmp2.csv" >"$tmp/cmp2.out" ||
	fail "second compare exited $?"
cmp -s "$tmp/cmp.out" "$tmp/cmp2.out" || fail "two compares: stdout differs"
cmp -s "$tmp/cmp.json" "$tmp/cmp2.json" || fail "two compares: JSON differs"
cmp -s "$tmp/cmp.csv" "$tmp/cmp2.csv" || fail "two compares: CSV differs"

# ---- options reach the result ------------------------------------------------
"$CP" run seed $SMALL --seed 7 --json - >"$tmp/s.json" || fail "run --seed 7"
[ "$(jq '.runs[0].seed' "$tmp/s.json")" -eq 7 ] || fail "--seed 7 not in the result"
"$CP" run seed $SMALL --set scenario.seed=9 --json - >"$tmp/s.json" || fail "run --set scenario.seed=9"
[ "$(jq '.runs[0].seed' "$tmp/s.json")" -eq 9 ] || fail "--set scenario.seed=9 not in the result"
"$CP" run seed $SMALL --set scenario.seed=9 --seed 7 --json - >"$tmp/s.json" || fail "run --seed with --set"
[ "$(jq '.runs[0].seed' "$tmp/s.json")" -eq 7 ] || fail "--seed does not win over --set scenario.seed"
"$CP" run seed $SMALL --kernel linux-6.1 --json - >"$tmp/k.json" || fail "run --kernel linux-6.1"
[ "$(jq -r '.runs[0].kernel' "$tmp/k.json")" = linux-6.1 ] || fail "--kernel linux-6.1 not in the result"
"$CP" run seed $SMALL --fs ext4 --json - >/dev/null || fail "run --fs ext4"
"$CP" run seed $SMALL --machine seed-box --vfs-cache-pressure 200 \
	--set machine.cpu.copy_bandwidth=8G --set fs.create.create_cpu_ns=30000 --json - >/dev/null ||
	fail "run with machine and fs options"
# --json - is the JSON only; --quiet prints nothing
jq -e '.runs | length == 1' "$tmp/k.json" >/dev/null || fail "--json - is not JSON alone"
out=$("$CP" run seed $SMALL --quiet --json "$tmp/q.json") || fail "run --quiet"
[ -z "$out" ] || fail "--quiet printed: $out"
jq -e '.runs | length == 1' "$tmp/q.json" >/dev/null || fail "--quiet --json: no JSON"

# ---- global reclaim, 1 GiB ------------------------------------------------------
"$CP" run seed --mem 1G --json "$tmp/g.json" >"$tmp/g.out" || fail "run seed --mem 1G exited $?"
check_seed_lines "$tmp/g.out"
[ "$(jq -r '.runs[0].confine' "$tmp/g.json")" = global ] || fail "global: confine"
[ "$(jq '.runs[0].mem_bytes' "$tmp/g.json")" -eq 1073741824 ] || fail "global: mem_bytes"

# ---- the reverse scenario runs too ------------------------------------------------
"$CP" run files-in-cache $SMALL --json "$tmp/fic.json" >/dev/null || fail "run files-in-cache exited $?"
[ "$(jq -r '.runs[0].scenario' "$tmp/fic.json")" = files-in-cache ] || fail "files-in-cache: scenario"
echo PASS
