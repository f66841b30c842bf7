#!/bin/sh
# validate-grid.sh - the model against the live kernel over the grid of
# docs/fidelity.md ("The model against the real kernel"), as root:
#
#   scripts/validate-grid.sh [BUILD_DIR [OUT_DIR [CONFINE:MEM ...]]]
#
# (defaults: build, /var/tmp/cp-validate-grid, memcg:1G global:2G memcg:2G
# global:1G global:16G; the 16G row, the seed's full scale, needs about
# 17.5 GiB available and some 18 GB of disk for its image, and is refused
# otherwise). For each row it calibrates this machine right before the
# row's runs (OUT_DIR/machine-CONFINE-MEM.before.ini) and right after
# them (.after.ini), since its rates drift within minutes, and runs
#   cachepressure validate seed --mem MEM --confine CONFINE --repeat N --seeds 1 \
#       --machine OUT_DIR/machine-CONFINE-MEM.before.ini --json OUT_DIR/seed-CONFINE-MEM.json
# (N: $REPEAT, default 3; the model's run there is only a first look).
# When every row is done, the grid's one machine profile is the median of
# all its calibrations,
#   cachepressure calibrate --median OUT_DIR/machine-*.before.ini --median ... \
#       -o OUT_DIR/machine.ini
# (a calibration taken while the VM was disturbed moves a mean, not a
# median), and the model runs again against every row's real runs with it
# (as MODEL_ONLY=1 below): one machine profile for all rows, nothing tuned
# per row. The tables go to OUT_DIR/seed-CONFINE-MEM.txt. (Each real run
# counts the superblock shrinker's frees and the readahead in a tracefs
# instance of its own, mounting a tracefs in its work directory when the
# machine has none: docs/real.md.) Before each real run it waits while
# another real run (fs_mark, cachepressure real/validate/calibrate) is on.
#
# MODEL_ONLY=1 runs nothing on the kernel (no root needed): it writes the
# grid's profile anew from the calibrations in OUT_DIR (OUT_DIR/machine.ini
# as it is for grids with none), and for each row whose
# OUT_DIR/seed-CONFINE-MEM.json exists it runs the model again against the
# real runs stored there (validate --real) and rewrites the table and the
# JSON (the real runs are kept; the model runs are replaced).
#
# FROM=PROFILE: every calibration (and the grid's median profile) takes
# the keys calibrate cannot measure - the per-operation CPU costs - from
# PROFILE instead of profiles/seed-box.ini: profiles/grid-vm.ini holds
# them as measured on the grid's VM (scripts/measure-read-cost.sh,
# measure-reclaim-cost.sh, measure-slab-cost.sh).
#
# The model runs --seeds S times from each real run's start (S: $SEEDS,
# default 4): the model is chaotic in its readers' phase, and the mean of
# more runs is steadier; N x S at most 64.
set -eu
REPEAT=${REPEAT:-3}
case $REPEAT in ''|*[!0-9]*|0) echo "validate-grid: REPEAT=$REPEAT is not a count >= 1" >&2; exit 2;; esac
SEEDS=${SEEDS:-4}
case $SEEDS in ''|*[!0-9]*|0) echo "validate-grid: SEEDS=$SEEDS is not a count >= 1" >&2; exit 2;; esac
BUILD=${1:-build}
OUT=${2:-/var/tmp/cp-validate-grid}
[ $# -gt 2 ] && shift 2 || set -- memcg:1G global:2G memcg:2G global:1G global:16G
CP=$BUILD/cachepressure
# FROM: the profile the keys calibrate cannot measure (the per-operation
# CPU costs of profiles/*.ini) are copied from, in every calibration and in
# the grid's median profile; default: calibrate's own (profiles/seed-box.ini)
FROM=${FROM:-}
[ -z "$FROM" ] || [ -r "$FROM" ] ||
	{ echo "validate-grid: FROM=$FROM: no such profile" >&2; exit 2; }
[ -x "$CP" ] || { echo "validate-grid: no $CP (make build)" >&2; exit 2; }
# The grid's one machine profile, OUT/machine.ini: the median of every
# calibration in OUT (none: the machine.ini already there, from grids
# made before per-row calibration).
grid_profile() {
	n=0
	for f in "$OUT"/machine-*.before.ini "$OUT"/machine-*.after.ini; do
		[ -s "$f" ] || continue
		[ $n = 0 ] && set --
		set -- "$@" --median "$f"
		n=$((n + 1))
	done
	case $n in
	0) [ -s "$OUT/machine.ini" ] ||
		{ echo "validate-grid: no calibration and no machine.ini in $OUT" >&2; return 1; } ;;
	1) [ -z "$FROM" ] || { echo "validate-grid: FROM needs two calibrations or more" >&2; return 1; }
	   cp "$2" "$OUT/machine.ini" ;;
	*) "$CP" calibrate "$@" ${FROM:+--from "$FROM"} --name calibrated -o "$OUT/machine.ini" ;;
	esac
}

# The model again against the real runs in OUT/seed-CONFINE-MEM.json,
# with the grid's profile; the table and JSON rewritten.
model_again() {
	confine=${1%%:*}
	mem=${1#*:}
	f=$OUT/seed-$confine-$mem
	[ -s "$f.json" ] || { echo "validate-grid: no $f.json; row skipped" >&2; return 0; }
	echo "validate-grid: seed, $confine, $mem: the model against $f.json" >&2
	if "$CP" validate seed --mem "$mem" --confine "$confine" --real "$f.json" \
		--seeds "$SEEDS" --machine "$OUT/machine.ini" --json "$f.json.new" >"$f.txt.new"; then
		mv "$f.json.new" "$f.json"
		mv "$f.txt.new" "$f.txt"
		cat "$f.txt"
	else
		echo "validate-grid: $1 exited $?" >&2
		rm -f "$f.json.new" "$f.txt.new"
	fi
}

if [ "${MODEL_ONLY:-0}" = 1 ]; then
	grid_profile
	for row in "$@"; do
		model_again "$row"
	done
	exit 0
fi
[ "$(id -u)" = 0 ] || { echo "validate-grid: needs root" >&2; exit 2; }
mkdir -p "$OUT"
trap 'exit 130' INT TERM

# Waits while another real experiment runs (this script's own children
# have ended before it is called).
wait_quiet() {
	while pgrep -x fs_mark >/dev/null ||
		pgrep -f 'cachepressure (real|validate|calibrate)' >/dev/null; do
		echo "validate-grid: another real run is going on; waiting" >&2
		sleep 30
	done
}

for row in "$@"; do
	confine=${row%%:*}
	mem=${row#*:}
	wait_quiet
	# calibrated right before and right after the row's runs: this VM's
	# rates drift by a third within minutes (device reads 1.73 - 2.18 GB/s
	# in six calibrations over 20 minutes on 2026-12-01), and a disturbed
	# minute halves them (grid s24: copy 9.8 GB/s, device 1.0 GB/s, the
	# others 18.5 - 22.5 and 1.5 - 2.9; docs/fidelity.md, session 25)
	m=$OUT/machine-$confine-$mem
	"$CP" calibrate -o "$m.before.ini" ${FROM:+--from "$FROM"} --name calibrated
	echo "validate-grid: seed, $confine, $mem" >&2
	rc=0
	"$CP" validate seed --mem "$mem" --confine "$confine" --repeat "$REPEAT" \
		--seeds 1 --machine "$m.before.ini" --json "$OUT/seed-$confine-$mem.json" \
		>"$OUT/seed-$confine-$mem.txt" || rc=$?
	if [ $rc != 0 ]; then
		echo "validate-grid: $row exited $rc" >&2
		cat "$OUT/seed-$confine-$mem.txt"
		continue
	fi
	wait_quiet
	"$CP" calibrate -o "$m.after.ini" ${FROM:+--from "$FROM"} --name calibrated
done
# one machine profile for all rows: the median of the grid's calibrations
grid_profile
for row in "$@"; do
	model_again "$row"
done
