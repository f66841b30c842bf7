#!/usr/bin/env python3
"""validate-factors.py - take a validate JSON's re-reads apart, real
against model:

    scripts/validate-factors.py FILE.json

FILE is what `cachepressure validate --json` (or scripts/validate-grid.sh)
wrote: real and model runs side by side. The bytes the readers re-read
while fs_mark runs are (their passes a second) x (bytes re-read a pass)
x (fs_mark's time); for each side it prints the mean of each factor over
its runs (a pass counts when it ended while fs_mark ran: fs_mark is taken
to run at the end of the measured phase, from duration_ns - fs_mark_ns
on), the share of passes that re-read anything, and each factor's ratio
model / real with their product beside the ratio of the totals. Then
when the re-reads came: the MB re-read by the time fs_mark had run 10,
20, ... 100 % of its time. Then, where the runs' counters and series
allow it (global runs: /proc/vmstat's pgalloc and pgsteal, the series'
free memory), the page allocations split by what they refill, in
thousands of pages: all (pgalloc_normal + pgalloc_dma32), the readers'
refaults (workingset_refault_file), the rest, the pages reclaim took
from the page cache (pgsteal_*), the frees other than that (all
allocations less page-cache reclaim plus the change in free pages) and
the change in free pages (docs/fidelity.md, session 36). Last, where
the runs recorded them (measured_free_ZONE_TYPE_order_N), the free pages
at the readers' start by zone, pageblock type and block order - orders
0-1, 2-3, 4-7, 8-10 - the mean over each side's runs: the block sizes
the set-up left, which decide whether fs_mark's slabs find room of their
own type or fall back (docs/fidelity.md, session 37). Failed runs
are left out. Exits 2 on a missing or unreadable file, or one that is
not a validate JSON.
"""
import sys

import validatejson

STEPS = 10
FLOWS = ("all", "refaults", "rest", "pc reclaim", "other frees", "free change")
ZONES = ("normal", "dma32")
TYPES = ("unmovable", "movable", "reclaimable")
ORDER_GROUPS = ((0, 1), (2, 3), (4, 7), (8, 10))


def fail(msg):
    print("validate-factors: " + msg, file=sys.stderr)
    sys.exit(2)


def passes(run):
    """(passes during fs_mark, bytes re-read in them, passes re-reading,
    fs_mark's start and time in ns) of one run."""
    fm = run.get("counters", {}).get("fs_mark_ns")
    end = run.get("duration_ns")
    if not fm or not end:
        return None
    start = end - fm
    n = rr = hit = 0
    for reader in run.get("readers", []):
        for p in reader.get("passes", []):
            if start <= p["end_ns"] <= end:
                n += 1
                rr += p["read_bytes"]
                hit += p["read_bytes"] > 0
    return n, rr, hit, start, fm


def curve(run, start, fm):
    ends = [(p["end_ns"], p["read_bytes"]) for r in run.get("readers", [])
            for p in r.get("passes", []) if p["read_bytes"] > 0]
    return [sum(b for t, b in ends if start <= t <= start + fm * k / STEPS) / 1e6
            for k in range(1, STEPS + 1)]


def free_change(run):
    """Free pages at the series' end less at its start, or None."""
    series = run.get("series") or {}
    cols, rows = series.get("columns"), series.get("rows")
    if not cols or not rows:
        return None
    if "free_pages" in cols:
        i = cols.index("free_pages")
        return rows[-1][i] - rows[0][i]
    if "mem_free_bytes" in cols:
        i = cols.index("mem_free_bytes")
        return (rows[-1][i] - rows[0][i]) / 4096
    return None


def flows(run):
    c = run.get("counters", {})
    if "pgalloc_normal" not in c or "workingset_refault_file" not in c:
        return None
    dfree = free_change(run)
    if dfree is None:
        return None
    alloc = c.get("pgalloc_normal", 0) + c.get("pgalloc_dma32", 0)
    refault = c["workingset_refault_file"]
    steal = (c.get("pgsteal_kswapd", 0) + c.get("pgsteal_direct", 0) +
             c.get("cp_pgsteal_memcg", 0))
    return [v / 1e3 for v in (alloc, refault, alloc - refault, steal,
                              alloc - steal + dfree, dfree)]


def free_blocks(run):
    """{(zone, type): pages by ORDER_GROUPS} at the readers' start, or None."""
    c = run.get("counters", {})
    out = {}
    for z in ZONES:
        for t in TYPES:
            names = ["measured_free_%s_%s_order_%d" % (z, t, o) for o in range(11)]
            if not all(n in c for n in names):
                continue
            out[(z, t)] = [sum(c[names[o]] << o for o in range(lo, hi + 1))
                           for lo, hi in ORDER_GROUPS]
    return out or None


def mean(xs):
    return sum(xs) / len(xs) if xs else None


def side(runs):
    rows = []
    for run in runs:
        p = passes(run)
        if p is None:
            continue
        n, rr, hit, start, fm = p
        secs = fm / 1e9
        rows.append({
            "passes_s": n / secs, "mb_pass": rr / n / 1e6 if n else 0.0,
            "hit": hit / n if n else 0.0, "fm_s": secs, "total": rr / 1e6,
            "curve": curve(run, start, fm), "flows": flows(run),
            "blocks": free_blocks(run)})
    return rows


def fmt(v, spec="%.3f"):
    return "n/a" if v is None else spec % v


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    runs = [r for r in validatejson.runs(sys.argv[1], "validate-factors") if not r.get("failed")]
    sides = {s: side([r for r in runs if r.get("source") == s]) for s in ("real", "model")}
    if not sides["real"] and not sides["model"]:
        fail("%s: no run with fs_mark's time and reader passes" % sys.argv[1])
    keys = (("passes_s", "passes a second"), ("mb_pass", "MB re-read a pass"),
            ("hit", "share of passes re-reading"), ("fm_s", "fs_mark s"),
            ("total", "MB re-read during fs_mark"))
    means = {s: {k: mean([r[k] for r in rows]) for k, _ in keys} for s, rows in sides.items()}
    print("%-28s %12s %12s %12s" % ("", "real", "model", "model/real"))
    for k, label in keys:
        a, b = means["real"][k], means["model"][k]
        ratio = b / a if a and b is not None else None
        print("%-28s %12s %12s %12s" % (label, fmt(a), fmt(b), fmt(ratio)))
    r, m = means["real"], means["model"]
    if all(r[k] and m[k] is not None for k in ("passes_s", "mb_pass", "fm_s", "total")):
        product = (m["passes_s"] / r["passes_s"]) * (m["mb_pass"] / r["mb_pass"]) * \
            (m["fm_s"] / r["fm_s"])
        print("%-28s %12s %12s %12s" % ("product of the factors", "", "", fmt(product)))
    print("MB re-read by the time fs_mark had run 10 .. 100 % of its time:")
    for s, rows in sides.items():
        if rows:
            c = [mean([row["curve"][i] for row in rows]) for i in range(STEPS)]
            print("  %-6s %s" % (s, " ".join("%7.0f" % v for v in c)))
    print("page allocations split (K pages): " + ", ".join(FLOWS))
    for s, rows in sides.items():
        fl = [row["flows"] for row in rows if row["flows"] is not None]
        if fl:
            print("  %-6s %s (%d runs)" % (s, " ".join("%8.1f" % mean([f[i] for f in fl])
                                                      for i in range(len(FLOWS))), len(fl)))
        elif rows:
            print("  %-6s n/a (no pgalloc counters or free-memory series)" % s)
    print_free_blocks(sides)
    return 0


def print_free_blocks(sides):
    have = {s: [row["blocks"] for row in rows if row["blocks"]] for s, rows in sides.items()}
    if not any(have.values()):
        return
    print("free pages at the readers' start by block order (%s):" %
          ", ".join("%d-%d" % g for g in ORDER_GROUPS))
    for z in ZONES:
        for t in TYPES:
            for s in ("real", "model"):
                runs = [b[(z, t)] for b in have[s] if (z, t) in b]
                if runs:
                    print("  %-6s %-6s %-11s %s (%d runs)" % (
                        z, s, t, " ".join("%8.0f" % mean([r[i] for r in runs])
                                          for i in range(len(ORDER_GROUPS))), len(runs)))


if __name__ == "__main__":
    sys.exit(main())
