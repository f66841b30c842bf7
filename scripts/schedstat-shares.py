#!/usr/bin/env python3
"""schedstat-shares.py - each kind of task's share of a CPU while it was
runnable, from scripts/sample-schedstat.sh's OUT.schedstat, over the
span in which fs_mark's workers were seen (the measured phase):

    scripts/schedstat-shares.py OUT.schedstat

Per comm (fs_mark's parent apart from its workers): seconds on a CPU,
seconds runnable but waiting (schedstat's run_delay), their ratio
on / (on + waiting), the times it ran, and the mean stint and wait per
time run. A task seen in fewer than two samples of the span is left out.
"""
import collections
import sys


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    by = collections.defaultdict(list)
    try:
        with open(sys.argv[1]) as f:
            for line in f:
                v = line.split()
                if len(v) == 6:
                    by[(v[1], v[2])].append((float(v[0]), int(v[3]), int(v[4]), int(v[5])))
    except OSError as e:
        print(f'schedstat-shares: {e}', file=sys.stderr)
        return 1
    fs_mark = [s for (pid, c), s in by.items() if c == 'fs_mark']
    if not fs_mark:
        print(f'schedstat-shares: {sys.argv[1]}: no fs_mark samples', file=sys.stderr)
        return 1
    t0 = min(s[0][0] for s in fs_mark)
    t1 = max(s[-1][0] for s in fs_mark)
    span = t1 - t0
    total = collections.defaultdict(lambda: [0, 0, 0])
    for (pid, c), samples in by.items():
        a = [x for x in samples if t0 - 0.15 <= x[0] <= t1 + 0.15]
        if len(a) < 2:
            continue
        kind = c
        if c == 'fs_mark' and a[-1][0] - a[0][0] > span / 2 and len(fs_mark) > 1:
            kind = 'fs_mark (parent)'
        for i in range(3):
            total[kind][i] += a[-1][i + 1] - a[0][i + 1]
    print(f'fs_mark seen over {span:.2f} s')
    print(f'{"task":18s} {"on CPU s":>9s} {"waiting s":>9s} {"share":>6s} {"runs":>6s} '
          f'{"stint ms":>8s} {"wait ms":>8s}')
    for kind, (on, wait, runs) in sorted(total.items()):
        share = on / (on + wait) if on + wait else 0
        print(f'{kind:18s} {on / 1e9:9.3f} {wait / 1e9:9.3f} {share:6.2f} {runs:6d} '
              f'{on / runs / 1e6 if runs else 0:8.2f} {wait / runs / 1e6 if runs else 0:8.2f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
