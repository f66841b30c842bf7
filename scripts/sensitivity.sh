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

# each line: the low end and the high end of one uncertain number, as
# --set assignments (comma-separated when a value forces another, e.g. an
# inode size that changes how many fit a slab); ranges from the comments
# in profiles/*.ini and docs/profiles.md
cat > /tmp/cachepressure-sensitivity.$$ <<'RANGES'
fs.create.create_cpu_ns=15000 fs.create.create_cpu_ns=75000
machine.cpu.copy_bandwidth=8G machine.cpu.copy_bandwidth=20G
machine.cpu.memory_bandwidth=17100M machine.cpu.memory_bandwidth=34100M
machine.cpu.page_insert_ns=300 machine.cpu.page_insert_ns=1500
machine.cpu.lru_evict_ns=660 machine.cpu.lru_evict_ns=800
machine.cpu.lru_move_ns=180 machine.cpu.lru_move_ns=280
machine.cpu.page_cached_ns=40 machine.cpu.page_cached_ns=200
machine.cpu.slab_scan_ns=40 machine.cpu.slab_scan_ns=300
machine.cpu.object_free_ns=600 machine.cpu.object_free_ns=1600
machine.machine.reserve=350M machine.machine.reserve=900M
machine.device.read_bandwidth=1700M machine.device.read_bandwidth=2800M
machine.device.read_latency=20us machine.device.read_latency=115us
fs.objects.log_item_size=152,fs.objects.log_item_per_slab=26 fs.objects.log_item_per_slab=19,fs.objects.log_item_size=208
fs.objects.inode_size=960 fs.objects.inode_per_slab=16,fs.objects.inode_size=1024
machine.machine.thp=no machine.machine.thp=yes
machine.machine.dma32=2800M machine.machine.dma32=3500M
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
while read -r low high; do
	for sets in "$low" "$high"; do
		label=$(echo "$sets" | sed 's/,/, /g')
		# shellcheck disable=SC2046
		row "$(run $(echo "$sets" | tr ',' '\n' | sed 's/^/--set /'))"
	done
done < /tmp/cachepressure-sensitivity.$$
