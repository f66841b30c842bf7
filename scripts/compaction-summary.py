#!/usr/bin/env python3
"""compaction-summary.py - what a `scripts/trace-kswapd-orders.sh -c` trace says
about compaction: each compact_zone() run by who ran it (kcompactd or the
task in direct compaction), zone, order and how it ended, with the pages it
migrated; the suitability checks by zone, order and outcome; and who woke
kcompactd at which order (docs/fidelity.md, session 43: the kernel's
kcompactd makes DMA32's order-9 blocks during a global 1G run).

  scripts/compaction-summary.py [--last SECONDS] TRACE[.gz]

TRACE is a tracefs `trace` file (gzip or text) with the compaction events
trace-kswapd-orders.sh -c enables (its -o file): mm_compaction_begin,
mm_compaction_end, mm_compaction_migratepages, mm_compaction_finished,
mm_compaction_suitable, mm_compaction_wakeup_kcompactd and
mm_compaction_kcompactd_wake. A run is the events of one task between
its mm_compaction_begin and mm_compaction_end (compact_zone()); its zone
and order are those its mm_compaction_finished events name (order -1: a
proactive or manual compaction of the whole zone), its pages those its
mm_compaction_migratepages events migrated. --last keeps the last SECONDS
of the trace (the measured phase is the run's end; default: all).
"""
import argparse
import collections
import re
import signal

from tracefile import load

KV = re.compile(r'(\w+)=(\S+)')


def actor(comm):
    """kcompactd, or the kind of task that compacted directly."""
    for name in ('kcompactd', 'kswapd', 'cp-read', 'fs_mark'):
        if comm.startswith(name):
            return 'reader' if name == 'cp-read' else name
    return comm


def runs(evs):
    """compact_zone() runs: (actor, zone, order, status, migrated, failed)."""
    open_runs, out = {}, []
    for _t, comm, pid, ev, rest in evs:
        kv = dict(KV.findall(rest))
        if ev == 'mm_compaction_begin':
            open_runs[pid] = {'actor': actor(comm), 'zone': '?', 'order': '?',
                              'migrated': 0, 'failed': 0}
        elif pid not in open_runs:
            continue
        elif ev == 'mm_compaction_migratepages':
            open_runs[pid]['migrated'] += int(kv.get('nr_migrated', 0))
            open_runs[pid]['failed'] += int(kv.get('nr_failed', 0))
        elif ev == 'mm_compaction_finished':
            open_runs[pid]['zone'] = kv.get('zone', '?')
            open_runs[pid]['order'] = kv.get('order', '?')
        elif ev == 'mm_compaction_end':
            r = open_runs.pop(pid)
            r['status'] = kv.get('status', '?')
            out.append(r)
    return out


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader like head(1) may stop early
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--last', type=float, default=0, help='keep the last SECONDS only')
    ap.add_argument('trace')
    a = ap.parse_args()
    if a.last < 0:
        ap.error('--last must be 0 or more seconds, not %g' % a.last)
    evs = load(a.trace, 'compaction-summary', a.last)

    rs = runs(evs)
    agg = collections.defaultdict(lambda: [0, 0, 0])
    for r in rs:
        g = agg[(r['actor'], r['zone'], r['order'], r['status'])]
        g[0] += 1
        g[1] += r['migrated']
        g[2] += r['failed']
    print('compact_zone() runs: %d, pages migrated %d' % (len(rs), sum(r['migrated'] for r in rs)))
    print('  %-13s %-7s %5s %-16s %5s %9s %7s' % ('who', 'zone', 'order', 'status', 'runs',
                                                  'migrated', 'failed'))
    for k in sorted(agg):
        g = agg[k]
        print('  %-13s %-7s %5s %-16s %5d %9d %7d' % (k + tuple(g)))

    suit = collections.Counter()
    for _t, comm, _pid, ev, rest in evs:
        if ev == 'mm_compaction_suitable':
            kv = dict(KV.findall(rest))
            suit[(actor(comm), kv.get('zone', '?'), kv.get('order', '?'), kv.get('ret', '?'))] += 1
    if suit:
        print('suitability checks (mm_compaction_suitable: only after the zone failed the '
              "order's watermark):")
        for k in sorted(suit):
            print('  %-13s %-7s order %-3s %-18s %5d' % (k + (suit[k],)))

    wakers = collections.Counter()
    wakes = collections.Counter()
    for _t, comm, _pid, ev, rest in evs:
        kv = dict(KV.findall(rest))
        if ev == 'mm_compaction_wakeup_kcompactd':
            wakers[(actor(comm), kv.get('order', '?'))] += 1
        elif ev == 'mm_compaction_kcompactd_wake':
            wakes[kv.get('order', '?')] += 1
    print('kcompactd woken by: ' + (', '.join('%s at order %s %d' % (w, o, n)
                                              for (w, o), n in sorted(wakers.items())) or 'none'))
    print('kcompactd runs (kcompactd_do_work) by order: ' +
          (', '.join('%s: %d' % (o, n) for o, n in sorted(wakes.items())) or 'none'))


if __name__ == '__main__':
    main()
