#!/bin/sh
# profiles_have_sources.sh - every number in profiles/*.ini has its source.
# Called as: sh profiles_have_sources.sh path/to/cachepressure SOURCE_DIR
# Checks, for every profiles/*.ini:
#  - each "key = value" line has a comment line (";" or "#") directly above it
#    (docs/profiles.md and the brief: the source goes on the line(s) above);
#  - no line is longer than 199 characters (inih's default INI_MAX_LINE is 200;
#    a longer line would be split and misread);
#  - no value contains " ;" (inih strips inline comments, so the text after it
#    would silently vanish);
#  - a machine profile has every key of [machine] [cpu] [device] [readahead],
#    a filesystem profile every key of [fs] [objects] [create].
# The checker is first run on a bad file of its own to show that it can fail.
set -u
SRC=${2:?usage: profiles_have_sources.sh CLI SOURCE_DIR}

MACHINE_KEYS="machine.name machine.description machine.cpus machine.ram
machine.reserve machine.process machine.thp machine.nr_zones
machine.min_free_kbytes machine.watermark_scale_factor cpu.copy_bandwidth
cpu.read_syscall_ns cpu.page_cached_ns cpu.page_insert_ns cpu.page_insert_page_ns
cpu.lru_evict_ns
cpu.lru_evict_page_ns cpu.lru_move_ns cpu.lru_move_page_ns
cpu.slab_scan_ns cpu.object_free_ns device.model device.read_bandwidth
device.write_bandwidth device.read_latency device.write_latency
device.max_request device.queue_depth readahead.read_ahead_kb"
FS_KEYS="fs.name fs.description objects.dentry_size objects.dentry_per_slab
objects.dentry_slab_order objects.dname_inline_len objects.external_name_size
objects.external_name_per_slab objects.external_name_slab_order
objects.inode_size objects.inode_per_slab objects.inode_slab_order
objects.log_item_size objects.log_item_per_slab objects.log_item_slab_order
objects.second_stage objects.disk_inode_size objects.inode_cluster_size
objects.dir_block_size create.create_cpu_ns create.mkdir_lookup_ns create.stat_cpu_ns
create.inode_read_ns"

# check_file FILE: prints one line per problem, returns 1 if any
check_file() {
	awk -v file="$1" '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
	{
		line = $0
		if (length(line) > 199) { print file ":" NR ": line longer than 199 characters"; bad = 1 }
		t = trim(line)
		if (t ~ /^\[.*\]$/) { sect = substr(t, 2, length(t) - 2); prev = "section"; next }
		if (t == "") { prev = "blank"; next }
		if (t ~ /^[;#]/) { prev = "comment"; next }
		if (index(t, "=") == 0) { print file ":" NR ": not a key = value line: " t; bad = 1; prev = "other"; next }
		key = trim(substr(t, 1, index(t, "=") - 1))
		val = substr(t, index(t, "=") + 1)
		if (prev != "comment") { print file ":" NR ": key \"" key "\" has no source comment directly above it"; bad = 1 }
		if (val ~ /[ \t];/) { print file ":" NR ": value of \"" key "\" contains an inline \";\"" ; bad = 1 }
		if ((sect "." key) in seen) { print file ":" NR ": duplicate key " sect "." key; bad = 1 }
		seen[sect "." key] = 1
		prev = "key"
	}
	END {
		if ("machine.name" in seen) { kind = "machine"; n = split(mk, want, /[ \n]+/) }
		else if ("fs.name" in seen) { kind = "fs"; n = split(fk, want, /[ \n]+/) }
		else { print file ": neither [machine] name nor [fs] name"; exit 1 }
		for (i = 1; i <= n; i++)
			if (want[i] != "" && !(want[i] in seen)) { print file ": missing " kind " key " want[i]; bad = 1 }
		exit bad
	}' mk="$MACHINE_KEYS" fk="$FS_KEYS" "$1"
}

# 1. the checker must reject a profile with an unsourced number
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
printf '[fs]\n; name\nname = bad\ndescription = no comment above\n' > "$TMP/bad.ini"
if check_file "$TMP/bad.ini" > "$TMP/out" 2>&1; then
	echo "FAIL: checker accepted $TMP/bad.ini"; exit 1
fi
grep -q 'description.*no source comment' "$TMP/out" || {
	echo "FAIL: checker did not name the unsourced key:"; cat "$TMP/out"; exit 1; }

# 2. the real profiles
set -- "$SRC"/profiles/*.ini
[ -f "$1" ] || { echo "FAIL: no profiles in $SRC/profiles"; exit 1; }
status=0
for f in "$@"; do
	if check_file "$f"; then echo "ok: $f"; else status=1; fi
done
[ $status -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $status
