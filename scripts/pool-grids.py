#!/usr/bin/env python3
"""pool-grids.py - several validate grids as one, for MODEL_ONLY=1.

    scripts/pool-grids.py OUT_DIR GRID_DIR GRID_DIR...

The kernel's runs spread wide (docs/fidelity.md: a row's real mean moves
by a third between two grids taken an hour apart), so a row's real side
is steadier over more runs. For each row CONFINE-MEM that any GRID_DIR
holds (seed-CONFINE-MEM.json, written by scripts/validate-grid.sh), this
writes OUT_DIR/seed-CONFINE-MEM.json with the real runs of every grid
that has the row, in the order of the grids given (the model runs of the
grids are dropped), and copies every grid's calibrations
(machine-CONFINE-MEM.before.ini, .after.ini) as
OUT_DIR/machine-CONFINE-MEM.gK.before.ini and .gK.after.ini, K the
grid's place on the command line from 1. Then

    MODEL_ONLY=1 scripts/validate-grid.sh BUILD OUT_DIR ROWS...

runs the model against the pooled runs with one profile, the median of
all the grids' calibrations. OUT_DIR must not exist or be empty. Exits 2
on a bad argument, an unreadable or foreign JSON (no "runs"), or no row.
"""
import glob
import json
import os
import re
import shutil
import sys

import validatejson

ROW = re.compile(r"^seed-([a-z]+)-([0-9]+[KMGT]?)\.json$")


def fail(msg):
    print("pool-grids: " + msg, file=sys.stderr)
    sys.exit(2)


def real_runs(path):
    return [r for r in validatejson.runs(path, "pool-grids")
            if isinstance(r, dict) and r.get("source") == "real"]


def main():
    if len(sys.argv) < 4 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip("\n"), file=sys.stderr if len(sys.argv) < 4 else sys.stdout)
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    out, grids = sys.argv[1], sys.argv[2:]
    for g in grids:
        if not os.path.isdir(g):
            fail("%s: not a directory" % g)
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        fail("%s: exists and is not an empty directory" % out)
    rows = {}
    for k, g in enumerate(grids, 1):
        for path in sorted(glob.glob(os.path.join(g, "seed-*.json"))):
            m = ROW.match(os.path.basename(path))
            if not m:
                continue
            name = "%s-%s" % m.groups()
            rows.setdefault(name, []).extend(real_runs(path))
            for when in ("before", "after"):
                cal = os.path.join(g, "machine-%s.%s.ini" % (name, when))
                if os.path.exists(cal):
                    os.makedirs(out, exist_ok=True)
                    shutil.copyfile(cal, os.path.join(out, "machine-%s.g%d.%s.ini" % (name, k, when)))
    rows = {n: r for n, r in rows.items() if r}
    if not rows:
        fail("no real runs in seed-CONFINE-MEM.json of %s" % ", ".join(grids))
    os.makedirs(out, exist_ok=True)
    for name, runs in sorted(rows.items()):
        with open(os.path.join(out, "seed-%s.json" % name), "w", encoding="utf-8") as f:
            json.dump({"runs": runs}, f)
        print("pool-grids: %s: %d real runs" % (name, len(runs)))


if __name__ == "__main__":
    main()
