#!/bin/sh
# fidelity-grids.sh - docs/fidelity.md's table of the model against the
# live kernel in one command, as root:
#
#   scripts/fidelity-grids.sh BUILD_DIR OUT_DIR [CONFINE:MEM ...]
#
# (rows default: memcg:1G memcg:2G global:1G global:2G global:16G). It
# takes GRIDS (default 3) grids one after the other,
#   scripts/validate-grid.sh BUILD_DIR OUT_DIR/gK ROWS      K = 1 .. GRIDS
# (three real runs a row, REPEAT to change it, each row calibrated right
# before and after its runs), pools their real runs row by row with
# their calibrations,
#   scripts/pool-grids.py OUT_DIR/pooled OUT_DIR/g1 ... OUT_DIR/gGRIDS
# and runs the model against all of them with one machine profile, the
# median of every calibration,
#   MODEL_ONLY=1 scripts/validate-grid.sh BUILD_DIR OUT_DIR/pooled ROWS
# then prints each row's total line. The kernel's runs of one row move
# between spells of the VM as much as the model's error (docs/fidelity.md
# sessions 47 and 48): grids taken one after another sample more of
# them than one grid of as many runs. With INTRO=FILE it also puts the
# pooled tables into docs/fidelity.md (scripts/fidelity-tables.py -i FILE).
#
# REUSE="DIR ..." pools grids taken before instead of taking new ones (no
# root needed: the model only). FROM, SEEDS and REPEAT are passed on to
# validate-grid.sh. OUT_DIR must not hold files yet (REUSE: OUT_DIR/pooled
# must not). Exits 2 on bad input, naming it.
set -eu
SRC=$(dirname "$0")
GRIDS=${GRIDS:-3}
case $GRIDS in ''|*[!0-9]*|0) echo "fidelity-grids: GRIDS=$GRIDS is not a count >= 1" >&2; exit 2;; esac
[ $# -ge 2 ] || { echo "usage: fidelity-grids.sh BUILD_DIR OUT_DIR [CONFINE:MEM ...] (see the header)" >&2; exit 2; }
case $1 in -h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0;; esac
BUILD=$1
OUT=$2
shift 2
[ $# -gt 0 ] || set -- memcg:1G memcg:2G global:1G global:2G global:16G
[ -x "$BUILD/cachepressure" ] || { echo "fidelity-grids: no $BUILD/cachepressure (make build)" >&2; exit 2; }
REUSE=${REUSE:-}
INTRO=${INTRO:-}
[ -z "$INTRO" ] || [ -r "$INTRO" ] || { echo "fidelity-grids: INTRO=$INTRO: no such file" >&2; exit 2; }
if [ -n "$REUSE" ]; then
	for g in $REUSE; do
		[ -d "$g" ] || { echo "fidelity-grids: REUSE: $g is not a directory" >&2; exit 2; }
	done
	grids=$REUSE
else
	[ "$(id -u)" = 0 ] || { echo "fidelity-grids: the real runs need root (REUSE=... for the model only)" >&2; exit 2; }
	[ ! -e "$OUT" ] || [ -z "$(ls -A "$OUT")" ] ||
		{ echo "fidelity-grids: $OUT holds files already" >&2; exit 2; }
	grids=
	k=1
	while [ "$k" -le "$GRIDS" ]; do
		echo "fidelity-grids: grid $k of $GRIDS: $OUT/g$k" >&2
		sh "$SRC/validate-grid.sh" "$BUILD" "$OUT/g$k" "$@"
		grids="$grids $OUT/g$k"
		k=$((k + 1))
	done
fi
# shellcheck disable=SC2086 # the grids are separate words
python3 "$SRC/pool-grids.py" "$OUT/pooled" $grids
MODEL_ONLY=1 sh "$SRC/validate-grid.sh" "$BUILD" "$OUT/pooled" "$@"
for row in "$@"; do
	f=$OUT/pooled/seed-${row%%:*}-${row#*:}.txt
	[ -f "$f" ] || continue
	printf '%s: ' "$row"
	grep '^total ' "$f"
done
[ -z "$INTRO" ] || python3 "$SRC/fidelity-tables.py" -i "$INTRO" "$OUT/pooled"
