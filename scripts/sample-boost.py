#!/usr/bin/env python3
"""sample-boost.py - the zones' watermark boost, finely, while a command runs.

    scripts/sample-boost.py [--period-ms MS] OUT COMMAND [ARG...]

Runs COMMAND (a real run, as root: `build/cachepressure real seed --mem 1G
--confine global`) with its stdout and stderr passed through, and every
MS milliseconds (default 5) reads /proc/zoneinfo and /proc/vmstat; writes
to OUT one line per sample that differs from the previous one: seconds
since the start, then DMA32's free pages and watermark boost, Normal's
free pages and boost ("pages free", "boost" of node 0), then the
cumulative allocstall (movable + normal), pageoutrun,
compact_daemon_wake, pgsteal_kswapd and pgsteal_direct. The session-19
measurement of docs/fidelity.md (how long and how far the kernel's
Normal zone stays boosted) came from it. scripts/sample-zones.sh samples
more columns every 0.25 s. Exit status: COMMAND's.
"""
import argparse
import subprocess
import sys
import time

VMSTAT = ('allocstall_movable', 'allocstall_normal', 'pageoutrun', 'compact_daemon_wake',
          'pgsteal_kswapd', 'pgsteal_direct')


def sample():
    zone = None
    z = {}
    with open('/proc/zoneinfo') as f:
        for line in f:
            w = line.split()
            if line.startswith('Node'):
                zone = w[-1] if w[1] == '0,' else None
            elif zone in ('DMA32', 'Normal') and w:
                if w[0] == 'boost' or (w[0] == 'pages' and len(w) > 2 and w[1] == 'free'):
                    z[(zone, 'boost' if w[0] == 'boost' else 'free')] = int(w[-1])
    v = dict.fromkeys(VMSTAT, 0)
    with open('/proc/vmstat') as f:
        for line in f:
            k, n = line.split()
            if k in v:
                v[k] = int(n)
    return (z.get(('DMA32', 'free')), z.get(('DMA32', 'boost')), z.get(('Normal', 'free')),
            z.get(('Normal', 'boost')), v['allocstall_movable'] + v['allocstall_normal'],
            v['pageoutrun'], v['compact_daemon_wake'], v['pgsteal_kswapd'], v['pgsteal_direct'])


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n', 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--period-ms', type=float, default=5.0, help='sampling period (default 5)')
    p.add_argument('out', help='file the samples go to')
    p.add_argument('command', nargs=argparse.REMAINDER, help='the command to run')
    a = p.parse_args()
    if not a.command:
        p.error('no COMMAND given')
    if a.period_ms <= 0:
        p.error('--period-ms %s is not a positive number' % a.period_ms)
    try:
        out = open(a.out, 'w')
    except OSError as e:
        p.error('%s: %s' % (a.out, e.strerror))
    try:
        child = subprocess.Popen(a.command)
    except OSError as e:
        p.error('%s: %s' % (a.command[0], e.strerror))
    t0 = time.monotonic()
    last = None
    try:
        while child.poll() is None:
            cur = sample()
            if cur != last:
                out.write('%.4f %s\n' % (time.monotonic() - t0, ' '.join(str(x) for x in cur)))
                last = cur
            time.sleep(a.period_ms / 1000)
    except KeyboardInterrupt:
        child.terminate()
    out.close()
    return child.wait()


if __name__ == '__main__':
    sys.exit(main())
