#!/usr/bin/env python3
"""sched-summary.py - how the CPUs were shared while fs_mark's workers
lived, from scripts/trace-sched.sh's OUT.trace (sched_switch,
sched_process_fork, sched_process_exit):

    scripts/sched-summary.py OUT.trace

Over the span from fs_mark's first worker fork to its last worker exit
it prints, per kind of task (fs_mark's workers, fs_mark itself, the
readers cp-read-file, kswapd, kworkers folded, every other command):
its CPU time as a share of one CPU, per CPU; the time it was runnable
but waiting (switched out in state R or R+), blocked (D) and asleep (S)
as a share of one CPU; and the share it had of the time it was
runnable, on / (on + waiting). Then the CPUs' idle share, and per fs_mark
loop the two workers' CPU time on each CPU and how far apart they
exited; and how long one worker was alive alone. Last, where the
workers and the readers were queued: the span split by how many of each
each CPU held (running there, or switched out in state R there until
they next ran), with the CPUs the workers and the readers had in each
placement, and how long the CPUs' counts of them stood 2 or more apart
(a task woken from sleep counts from its first run, unless the trace
has wake-up events: trace-sched.sh -m). With -m's migration events, the
workers' and readers' moves between CPUs over the span: at a wake-up (the
task was asleep) or by load balancing (it was queued or running), and
how many of the workers' moves put a worker where its loop's partner was
queued.
"""
import collections
import re
import sys

LINE = re.compile(r'\[(\d+)\]\s+\S+\s+(\d+\.\d+):\s+(sched_\w+):\s+(.*)')
# sched_wakeup(_new): comm= pid= prio= target_cpu=; sched_migrate_task:
# comm= pid= prio= orig_cpu= dest_cpu=
WAKE_MOVE = re.compile(r'comm=(.*?) pid=(\d+) prio=\d+ (target_cpu=(\d+)|orig_cpu=\d+ dest_cpu=(\d+))')
SWITCH = re.compile(r'prev_comm=(.*?) prev_pid=(\d+) .*?prev_state=(\S+) ==> '
                    r'next_comm=(.*?) next_pid=(\d+)')


def switch_fields(name, rest):
    """A sched_switch's (prev_comm, prev_pid, prev_state, next_comm,
    next_pid); None for another event."""
    m = SWITCH.search(rest) if name == 'sched_switch' else None
    if not m:
        return None
    return m.group(1), int(m.group(2)), m.group(3), m.group(4), int(m.group(5))


def kind_of(comm, pid, main, workers):
    if pid in workers:
        return 'fs_mark worker'
    if pid == main:
        return 'fs_mark'
    if comm.startswith('kworker'):
        return 'kworker'
    return comm


def read(path):
    ev = []
    with open(path) as f:
        for line in f:
            m = LINE.search(line)
            if m:
                ev.append((float(m.group(2)), int(m.group(1)), m.group(3), m.group(4)))
    return ev


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    try:
        ev = read(sys.argv[1])
    except OSError as e:
        print(f'sched-summary: {e}', file=sys.stderr)
        return 1
    main_pid, workers, loops, alive = None, {}, [], set()
    alone = 0.0
    last = None
    for t, cpu, name, rest in ev:
        if name == 'sched_process_fork' and 'comm=fs_mark' in rest:
            parent = int(re.search(r' pid=(\d+)', rest).group(1))
            child = int(re.search(r'child_pid=(\d+)', rest).group(1))
            if main_pid is None:
                main_pid = parent
            if parent != main_pid:
                continue
            if not alive:
                loops.append({'start': t, 'workers': []})
            elif len(alive) == 1:
                alone += t - last
            workers[child] = {'loop': len(loops) - 1, 'fork': t, 'exit': None}
            loops[-1]['workers'].append(child)
            alive.add(child)
            last = t
        elif name == 'sched_process_exit':
            pid = int(re.search(r' pid=(\d+)', rest).group(1))
            if pid in alive:
                if len(alive) == 1:
                    alone += t - last
                alive.discard(pid)
                workers[pid]['exit'] = t
                last = t
    done = [w for w in workers.values() if w['exit'] is not None]
    if not done:
        print(f'sched-summary: {sys.argv[1]}: no fs_mark worker forked and exited',
              file=sys.stderr)
        return 1
    t0 = min(w['fork'] for w in workers.values())
    t1 = max(w['exit'] for w in done)
    span = t1 - t0

    on = collections.defaultdict(lambda: collections.defaultdict(float))
    off = collections.defaultdict(lambda: collections.defaultdict(float))
    wcpu = collections.defaultdict(lambda: collections.defaultdict(float))
    running = {}   # cpu -> (pid, comm, since)
    out_since = {}  # pid -> (state, since)
    comm_of = {}

    def clip(a, b):
        return max(0.0, min(b, t1) - max(a, t0))

    for t, cpu, name, rest in ev:
        sw = switch_fields(name, rest)
        if not sw:
            continue
        pcomm, ppid, state, ncomm, npid = sw
        comm_of[ppid], comm_of[npid] = pcomm, ncomm
        if cpu in running:
            pid, comm, since = running[cpu]
            k = 'idle' if pid == 0 else kind_of(comm, pid, main_pid, workers)
            on[k][cpu] += clip(since, t)
            if pid in workers:
                wcpu[pid][cpu] += clip(since, t)
        if ppid:
            out_since[ppid] = (state, t)
        if npid and npid in out_since:
            st, since = out_since.pop(npid)
            off[kind_of(ncomm, npid, main_pid, workers)][st.rstrip('+')] += clip(since, t)
        running[cpu] = (npid, ncomm, t)

    cpus = sorted({c for d in on.values() for c in d})
    print(f'fs_mark workers lived {span:.3f} s ({len(done)} workers, {len(loops)} loops); '
          f'shares of one CPU over that span')
    print(f'{"kind":18s} {"on CPU":>7s} ' + ' '.join(f'{"cpu" + str(c):>6s}' for c in cpus) +
          f' {"waiting":>7s} {"blocked":>7s} {"asleep":>7s} {"of runnable":>11s}')
    for k, d in sorted(on.items(), key=lambda x: -sum(x[1].values())):
        tot = sum(d.values())
        if tot < 0.001 * span:
            continue
        o = off.get(k, {})
        wait = o.get('R', 0.0)
        share = tot / (tot + wait) if tot + wait else 0.0
        row = f'{k:18s} {tot / span:7.3f} ' + ' '.join(f'{d.get(c, 0) / span:6.3f}' for c in cpus)
        if k == 'idle':
            print(row)
            continue
        print(row + f' {wait / span:7.3f} {o.get("D", 0.0) / span:7.3f} '
              f'{o.get("S", 0.0) / span:7.3f} {share:11.2f}')
    print('loop: each worker\'s CPU time (ms) on each CPU; exit gap (ms)')
    gaps = []
    for i, lp in enumerate(loops, 1):
        ws = [w for w in lp['workers'] if workers[w]['exit'] is not None]
        parts = []
        for w in ws:
            parts.append('/'.join(f'{1e3 * wcpu[w].get(c, 0):.0f}' for c in cpus))
        gap = 1e3 * (max(workers[w]['exit'] for w in ws) - min(workers[w]['exit'] for w in ws)) \
            if len(ws) > 1 else 0.0
        gaps.append(gap)
        print(f'  loop {i:2d}: ' + '  '.join(parts) + f'  gap {gap:.0f}')
    print(f'one worker alive alone {alone:.3f} s, {100 * alone / span:.1f} % of the span; '
          f'exit gaps: mean {sum(gaps) / len(gaps):.0f} ms, max {max(gaps):.0f} ms')
    placements(ev, t0, t1, workers, cpus)
    return 0


def placements(ev, t0, t1, workers, cpus):
    """The span by how many workers (w) and readers (r) each CPU held."""
    where, queued, running = {}, set(), {}
    by = collections.defaultdict(lambda: [0.0, 0.0, 0.0])  # time, workers on, readers on
    apart, runs, start = 0.0, [], None
    readers = set()
    last = t0
    # moves: [at a wake-up, by balancing, onto the partner's CPU]
    moves = {'workers': [0, 0, 0], 'readers': [0, 0, 0]}
    seen_moves = False
    by_loop = collections.defaultdict(list)
    for w, info in workers.items():
        by_loop[info['loop']].append(w)
    partner = {w: v for ws in by_loop.values() if len(ws) == 2 for w, v in (ws, ws[::-1])}

    def note_reader(comm, pid):
        if comm.startswith('cp-read-file'):
            readers.add(pid)

    def tracked(pid):
        return pid in workers or pid in readers

    def counts():
        n = {c: [0, 0] for c in cpus}
        for pid in queued:
            n[where[pid]][0 if pid in workers else 1] += 1
        return n

    def advance(t):
        nonlocal last, start, apart
        a, b = max(last, t0), min(t, t1)
        if b > a:
            n = counts()
            key = tuple(sorted((tuple(v) for v in n.values()), reverse=True))
            rec = by[key]
            rec[0] += b - a
            rec[1] += (b - a) * sum(1 for p in running.values() if p in workers)
            rec[2] += (b - a) * sum(1 for p in running.values() if p in readers)
            tot = [sum(v) for v in n.values()]
            if max(tot) - min(tot) >= 2:
                apart += b - a
                start = a if start is None else start
            elif start is not None:
                runs.append(a - start)
                start = None
        last = max(last, t)

    for t, cpu, name, rest in ev:
        advance(t)
        if name == 'sched_process_exit':
            pid = int(re.search(r' pid=(\d+)', rest).group(1))
            queued.discard(pid)
            for c in [c for c, p in running.items() if p == pid]:
                del running[c]
            continue
        if name in ('sched_wakeup', 'sched_wakeup_new', 'sched_migrate_task'):
            m = WAKE_MOVE.search(rest)
            if not m:
                continue
            pid, cpu_to = int(m.group(2)), int(m.group(4) or m.group(5))
            note_reader(m.group(1), pid)
            if not tracked(pid):
                continue
            if name == 'sched_migrate_task':
                seen_moves = True
                if t0 <= t <= t1:
                    rec = moves['workers' if pid in workers else 'readers']
                    rec[0 if pid not in queued else 1] += 1
                    mate = partner.get(pid)
                    if mate in queued and where.get(mate) == cpu_to:
                        rec[2] += 1
            else:
                queued.add(pid)
            where[pid] = cpu_to
            continue
        sw = switch_fields(name, rest)
        if not sw:
            continue
        pcomm, ppid, state, ncomm, npid = sw
        note_reader(pcomm, ppid)
        note_reader(ncomm, npid)
        running.pop(cpu, None)
        if tracked(ppid):
            if state.startswith('R'):
                where[ppid] = cpu
            else:
                queued.discard(ppid)
        if tracked(npid):
            where[npid] = cpu
            queued.add(npid)
            running[cpu] = npid
    advance(t1)
    if start is not None:
        runs.append(t1 - start)
    span = t1 - t0
    print('where the workers (w) and readers (r) were queued, CPU by CPU; the CPUs '
          'the workers and the readers had meanwhile')
    for key, (t, won, ron) in sorted(by.items(), key=lambda x: -x[1][0]):
        place = ' | '.join(f'{w}w+{r}r' for w, r in key)
        print(f'  {place:20s} {t / span:6.3f} of the span  workers {won / t:.2f}  '
              f'readers {ron / t:.2f}')
    runs.sort()
    if runs:
        print(f'counts 2 or more apart {apart:.3f} s, {100 * apart / span:.1f} % of the span, '
              f'{len(runs)} times: median {1e3 * runs[len(runs) // 2]:.1f} ms, '
              f'max {1e3 * runs[-1]:.1f} ms')
    else:
        print('counts 2 or more apart: never')
    if seen_moves:
        w, r = moves['workers'], moves['readers']
        print(f'moves between CPUs: workers {w[0] + w[1]} ({w[0]} at a wake-up, {w[1]} by '
              f'balancing, {w[2]} onto their partner\'s CPU), readers {r[0] + r[1]} ({r[0]} at '
              f'a wake-up, {r[1]} by balancing)')


if __name__ == '__main__':
    sys.exit(main())
