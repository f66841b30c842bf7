#!/bin/sh
# sensitivity.sh - how `cachepressure compare seed` moves when each
# uncertain profile number moves across the range docs/profiles.md gives
# for it. Prints a Markdown table (the one in docs/fidelity.md).
#
# Usage: scripts/sensitivity.sh [path/to/cachepressure] [scenario]
# Each line runs both policies once (about 15 s); nothing is tuned: the
# values are the ends of the published or measured ranges.
set -eu
cp=${1:-build/cachepressure}
scenario=${2:-seed}

# key, low end, high end (ranges from profiles/*.ini comments)
cat > /tmp/cachepressure-sensitivity.$$ <<'RANGES'
fs.create.create_cpu_ns 15000 75000
machine.cpu.copy_bandwidth 8G 20G
machine.cpu.page_insert_ns 300 1500
machine.cpu.lru_scan_ns 200 1500
machine.cpu.page_cached_ns 40 200
machine.cpu.slab_scan_ns 40 300
machine.cpu.object_free_ns 600 1600
machine.machine.reserve 350M 900M
machine.device.read_bandwidth 1700M 2800M
machine.device.read_latency 20us 115us
fs.objects.log_item_size 152 208
machine.machine.thp no yes
RANGES
trap 'rm -f /tmp/cachepressure-sensitivity.$$' EXIT

# "file1 file2 total" legacy and patched bytes from the compare table
run() {
	"$cp" compare "$scenario" "$@" 2>/dev/null |
		awk '/^reader +legacy/ { t = 1; next }
		     t && NF >= 4 { printf "%s %s ", $2, $3 }
		     END { print "" }'
}

gb() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1e9 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b / a }'; }

row() {
	set -- $1
	printf '| %s | %s + %s = %s | %s + %s = %s | %s |\n' "$label" \
		"$(gb "$1")" "$(gb "$3")" "$(gb "$5")" \
		"$(gb "$2")" "$(gb "$4")" "$(gb "$6")" "$(ratio "$5" "$6")"
}

echo '| setting | legacy GB (file1 + file2 = total) | patched GB (file1 + file2 = total) | patched/legacy |'
echo '|---|---|---|---|'
label="profiles as shipped"
row "$(run)"
while read -r key low high; do
	for v in "$low" "$high"; do
		label="$key = $v"
		row "$(run --set "$key=$v")"
	done
done < /tmp/cachepressure-sensitivity.$$
