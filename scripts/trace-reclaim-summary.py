#!/usr/bin/env python3
"""trace-reclaim-summary.py - what a `scripts/trace-kswapd-orders.sh -s` trace says
about kswapd: how the scheduler ran it, what each of its wake-ups
reclaimed and how deep it went, and the superblock shrinker's calls by
priority (docs/fidelity.md, session 25).

  scripts/trace-reclaim-summary.py --kswapd-pid PID [--last SECONDS] TRACE[.gz]

TRACE is a tracefs `trace` file (gzip or text) with the events
trace-kswapd-orders.sh -s enables (its -o file). --last keeps the last SECONDS of it (the
measured phase is the run's end: fs_mark's files; default: all).
"""
import argparse
import collections
import re

import tracefile

SWITCH = re.compile(r'prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)')
KV = re.compile(r'(\w+)=(\S+)')


def number(rest, name):
    m = re.search(r'\b' + name + r' (-?\d+)', rest)
    return int(m.group(1)) if m else 0


def scheduling(evs, kpid):
    """kswapd's time on a CPU and waiting for one, from sched_switch and
    sched_wakeup (the trace's own start state: asleep)."""
    state, since, woke = 'S', None, None
    on = wait = 0.0
    stints, latencies, preempted = [], [], 0
    for t, _pid, ev, rest in evs:
        if ev == 'sched_wakeup':
            if state == 'S':
                state, since, woke = 'R', t, t
        elif ev == 'sched_switch':
            m = SWITCH.search(rest)
            if not m:
                continue
            prev, prev_state, nxt = m.groups()
            if nxt == kpid:
                if state == 'R' and since is not None:
                    wait += t - since
                    if woke is not None:
                        latencies.append(t - woke)
                state, since, woke = 'C', t, None
            elif prev == kpid:
                if state == 'C' and since is not None:
                    on += t - since
                    stints.append(t - since)
                if prev_state.startswith('R'):
                    state = 'R'
                    preempted += 1
                else:
                    state = 'S'
                since = t
    return on, wait, stints, latencies, preempted


def wakes(evs, kpid, sb):
    """Each kswapd wake-up (mm_vmscan_kswapd_wake) to the next: pages its
    inactive-list passes reclaimed, the lowest priority they ran at, the
    objects superblock sb's shrinker freed in kswapd's calls."""
    out, cur, last_start = [], None, None
    for t, pid, ev, rest in evs:
        if pid != kpid:
            continue
        if ev == 'mm_vmscan_kswapd_wake':
            cur = {'t': t, 'reclaimed': 0, 'prio': 12, 'sb_freed': 0}
            out.append(cur)
        elif cur is None:
            continue
        elif ev == 'mm_vmscan_lru_shrink_inactive':
            kv = dict(KV.findall(rest))
            cur['reclaimed'] += int(kv.get('nr_reclaimed', 0))
            cur['prio'] = min(cur['prio'], int(kv.get('priority', 12)))
        elif ev == 'mm_shrink_slab_start':
            last_start = sb in rest
        elif ev == 'mm_shrink_slab_end' and last_start:
            cur['sb_freed'] += max(0, number(rest, 'last shrinker return val'))
    return out


def busiest_superblock(evs):
    """The superblock shrinker (its address) whose calls freed most."""
    freed, pending = collections.Counter(), {}
    for _t, pid, ev, rest in evs:
        if not rest.startswith('super_cache_scan'):
            continue
        addr = rest.split()[1].rstrip(':')
        if ev == 'mm_shrink_slab_start':
            pending[pid] = addr
        elif ev == 'mm_shrink_slab_end' and pid in pending:
            freed[pending.pop(pid)] += max(0, number(rest, 'last shrinker return val'))
    return freed.most_common(1)[0][0] if freed else None


def sb_by_priority(evs, kpid, sb):
    rows = collections.defaultdict(lambda: [0, 0, 0, 0])  # calls, items, total_scan, freed
    pending = {}
    for _t, pid, ev, rest in evs:
        if sb not in rest:
            continue
        if ev == 'mm_shrink_slab_start':
            key = ('kswapd' if pid == kpid else 'other', number(rest, 'priority'))
            r = rows[key]
            r[0] += 1
            r[1] += number(rest, 'cache items')
            r[2] += number(rest, 'total_scan')
            pending[pid] = key
        elif ev == 'mm_shrink_slab_end' and pid in pending:
            rows[pending.pop(pid)][3] += max(0, number(rest, 'last shrinker return val'))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kswapd-pid', required=True, help="kswapd0's PID when the trace was taken")
    ap.add_argument('--last', type=float, default=0, help='keep the last SECONDS only')
    ap.add_argument('trace')
    a = ap.parse_args()
    if a.last < 0:
        ap.error('--last %g: not a duration' % a.last)
    evs = [(t, pid, ev, rest) for t, _comm, pid, ev, rest in
           tracefile.load(a.trace, 'trace-reclaim-summary', a.last)]

    on, wait, stints, lat, preempted = scheduling(evs, a.kswapd_pid)
    if on + wait:
        print('kswapd on a CPU %.3f s, runnable and waiting %.3f s: share while runnable %.2f'
              % (on, wait, on / (on + wait)))
        print('kswapd wake-up to CPU: n %d, mean %.3f ms, max %.3f ms; stints on a CPU: n %d, '
              'mean %.3f ms, max %.3f ms, %d ended by preemption'
              % (len(lat), 1e3 * sum(lat) / max(1, len(lat)), 1e3 * max(lat, default=0),
                 len(stints), 1e3 * sum(stints) / max(1, len(stints)),
                 1e3 * max(stints, default=0), preempted))
    else:
        print('kswapd: no sched_switch events of it')

    sb = busiest_superblock(evs)
    ws = wakes(evs, a.kswapd_pid, sb or '-')
    work = [w for w in ws if w['reclaimed'] or w['sb_freed']]
    print('kswapd wake-ups %d, %d of them reclaiming pages or objects' % (len(ws), len(work)))
    if work:
        deepest = collections.Counter(w['prio'] for w in work)
        print('  pages reclaimed a wake-up: mean %.0f, max %d; superblock objects freed: '
              'mean %.0f, max %d' % (sum(w['reclaimed'] for w in work) / len(work),
                                     max(w['reclaimed'] for w in work),
                                     sum(w['sb_freed'] for w in work) / len(work),
                                     max(w['sb_freed'] for w in work)))
        print('  lowest priority of a wake-up: ' +
              ', '.join('%d: %d' % (p, deepest[p]) for p in sorted(deepest)))
    directs = sum(1 for e in evs if e[2] == 'mm_vmscan_direct_reclaim_begin')
    print('direct reclaims %d' % directs)
    if sb:
        print('superblock shrinker %s (the one that freed most), by caller and priority:' % sb)
        print('  %-7s %4s %6s %10s %10s %10s' % ('caller', 'prio', 'calls', 'mean items',
                                              'total_scan', 'freed'))
        for (who, prio), r in sorted(sb_by_priority(evs, a.kswapd_pid, sb).items()):
            print('  %-7s %4d %6d %10d %10d %10d' % (who, prio, r[0], r[1] // r[0], r[2], r[3]))


if __name__ == '__main__':
    main()
