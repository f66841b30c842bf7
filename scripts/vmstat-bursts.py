#!/usr/bin/env python3
"""vmstat-bursts.py - refaults, evictions and deactivations in windows of time.

    scripts/vmstat-bursts.py [--window S] [--from S] FILE

FILE is either OUT.vm of scripts/sample-vmstat.py (a real run: cumulative
/proc/vmstat counters) or a model run's series as CSV (`cachepressure run
... --csv FILE`: its workingset_refault_file and pgdeactivate columns,
counted from the measured phase on, every 100 ms). Prints one line per
window of S seconds (default 0.1) in which something was refaulted or
deactivated: the window's end, the inactive and active file pages then,
and in the window the pages refaulted, evicted by kswapd (real runs
only), deactivated and - real runs only - activated; then the largest
refault count of a window and how many windows held half the refaults.
A real run's refaults come in windows of a few thousand pages, a burst
of tens of thousands being the exception; docs/fidelity.md, session 27,
compares the two. Exit status: 0, 2 on a bad argument or file.
"""
import argparse
import csv
import sys


def load_vm(path):
    with open(path) as f:
        head = f.readline().split()
        rows = []
        for line in f:
            w = line.split()
            if len(w) != len(head):
                continue
            rows.append(dict(zip(head, map(float, w))))
    return [{'t': r['t'], 'inact': r['nr_inactive_file'], 'act': r['nr_active_file'],
             'refault': r['workingset_refault_file'], 'evict': r['pgsteal_kswapd'],
             'deact': r['pgdeactivate'], 'activate': r['pgactivate']} for r in rows]


def load_csv(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            rows.append({'t': int(r['t_ns']) / 1e9, 'inact': float(r['inactive_file']),
                         'act': float(r['active_file']),
                         'refault': float(r['workingset_refault_file']), 'evict': None,
                         'deact': float(r['pgdeactivate']), 'activate': None})
    return rows


def main():
    ap = argparse.ArgumentParser(prog='vmstat-bursts.py',
                                 description='Refaults and deactivations per window of time.')
    ap.add_argument('--window', type=float, default=0.1, help='window in seconds (default 0.1)')
    ap.add_argument('--from', dest='start', type=float, default=0.0,
                    help='ignore samples before this many seconds (default 0)')
    ap.add_argument('file', help="OUT.vm of sample-vmstat.py or a model run's --csv")
    a = ap.parse_args()
    if a.window <= 0:
        ap.error('--window must be > 0: %s' % a.window)
    try:
        with open(a.file) as f:
            first = f.readline()
        rows = load_csv(a.file) if first.startswith('t_ns,') else load_vm(a.file)
    except (OSError, KeyError, ValueError) as e:
        print('vmstat-bursts: %s: %s' % (a.file, e), file=sys.stderr)
        return 2
    rows = [r for r in rows if r['t'] >= a.start]
    if len(rows) < 2:
        print('vmstat-bursts: %s: fewer than two samples' % a.file, file=sys.stderr)
        return 2
    prev = rows[0]
    nxt = prev['t'] + a.window
    per = []
    for r in rows[1:]:
        if r['t'] < nxt:
            continue
        d = {k: (r[k] - prev[k]) if r[k] is not None else None
             for k in ('refault', 'evict', 'deact', 'activate')}
        if d['refault'] > 0 or d['deact'] > 0:
            print('%8.2f inactive %7d active %7d | refault %7d evict %7s deactivate %7d activate %7s'
                  % (r['t'], r['inact'], r['act'], d['refault'],
                     '-' if d['evict'] is None else '%d' % d['evict'], d['deact'],
                     '-' if d['activate'] is None else '%d' % d['activate']))
        per.append(d['refault'])
        prev = r
        nxt = r['t'] + a.window
    total = sum(per)
    if total > 0:
        acc, k = 0, 0
        for v in sorted(per, reverse=True):
            acc += v
            k += 1
            if acc >= total / 2:
                break
        print('# refaults %d in %d windows of %.2f s; the largest %d; half of them in %d window(s)'
              % (total, len(per), a.window, max(per), k))
    return 0


if __name__ == '__main__':
    sys.exit(main())
