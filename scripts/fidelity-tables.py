#!/usr/bin/env python3
"""fidelity-tables.py - put a validate grid's tables into docs/fidelity.md.

    scripts/fidelity-tables.py [-d DOC] [-i INTRO] GRID_DIR

Replaces what lies between the heading "### The tables" and the next
"### " heading of DOC (default docs/fidelity.md) with INTRO (a file of
Markdown saying which runs and which model the tables are; without -i the
paragraph already there is kept) and, for each row of the grid in the
order memcg 1G, memcg 2G, global 1G, global 2G, global 16G, the table
`scripts/validate-grid.sh` wrote to GRID_DIR/seed-CONFINE-MEM.txt (from its
"# validate seed" line on), under "#### seed, CONFINE, MEM". Rows the grid
does not hold are left out. Exits 2 on a missing file or heading.
"""
import argparse
import os
import sys

ROWS = [("memcg", "1G"), ("memcg", "2G"), ("global", "1G"), ("global", "2G"),
        ("global", "16G")]
HEADING = "### The tables"


def fail(msg):
    print("fidelity-tables: " + msg, file=sys.stderr)
    sys.exit(2)


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))


def table(grid, confine, mem):
    path = os.path.join(grid, "seed-%s-%s.txt" % (confine, mem))
    if not os.path.exists(path):
        return None
    text = read(path)
    start = text.find("# validate seed")
    if start < 0:
        fail("%s: no '# validate seed' line (not a validate table)" % path)
    body = text[start:].rstrip("\n")
    return "#### seed, %s, %s\n\n```\n%s\n```\n" % (confine, mem, body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-d", "--doc", default="docs/fidelity.md")
    ap.add_argument("-i", "--intro", help="Markdown file: the paragraph under the heading")
    ap.add_argument("grid", help="a scripts/validate-grid.sh output directory")
    a = ap.parse_args()
    if not os.path.isdir(a.grid):
        fail("%s: not a directory" % a.grid)
    doc = read(a.doc)
    head = doc.find("\n" + HEADING + "\n")
    if head < 0:
        fail("%s: no '%s' heading" % (a.doc, HEADING))
    body = head + len(HEADING) + 2
    end = doc.find("\n### ", body)
    end = len(doc) if end < 0 else end + 1
    old = doc[body:end]
    if a.intro:
        intro = read(a.intro).strip("\n")
    else:
        first = old.find("\n#### ")
        intro = (old if first < 0 else old[:first]).strip("\n")
    tables = [t for t in (table(a.grid, c, m) for c, m in ROWS) if t]
    if not tables:
        fail("%s: no seed-CONFINE-MEM.txt of the grid's rows" % a.grid)
    new = "\n" + intro + "\n\n" + "\n".join(tables) + "\n"
    with open(a.doc, "w", encoding="utf-8") as f:
        f.write(doc[:body] + new + doc[end:])
    print("fidelity-tables: %d table(s) from %s into %s" % (len(tables), a.grid, a.doc))


if __name__ == "__main__":
    main()
