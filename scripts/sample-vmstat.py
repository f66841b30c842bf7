#!/usr/bin/env python3
"""sample-vmstat.py - /proc/vmstat finely, and /proc/slabinfo, while a command runs.

    scripts/sample-vmstat.py [--period-ms MS] [--slab-every N] OUT COMMAND [ARG...]

Runs COMMAND (a real run, as root: `build/cachepressure real seed --mem 1G`)
with its stdout to OUT.txt and its stderr to OUT.err, and every MS
milliseconds (default 10) reads /proc/vmstat; writes to OUT.vm a header
line, then one line per sample: seconds since the start, then
nr_free_pages, nr_inactive_file, nr_active_file, workingset_refault_file,
workingset_activate_file, pgsteal_kswapd, pgsteal_direct, pgscan_kswapd,
pgdeactivate, pgactivate, pageoutrun, nr_slab_reclaimable,
nr_slab_unreclaimable (cumulative counters as the kernel keeps them). Every
N-th sample (default 20; 0: never) it also reads /proc/slabinfo and writes
to OUT.slab one line per cache: the seconds, the cache's name and its
pages (num_slabs x pagesperslab). The sampler is one process that starts
no other (a sampler that forks per sample takes CPU from the run it
measures: scripts/sample-schedstat.sh).

scripts/vmstat-bursts.py OUT.vm prints the refaults, evictions and
deactivations in windows of 0.1 s. docs/fidelity.md, session 27: the
kernel's refault bursts against the model's, and the XFS CIL's kmalloc
memory at fs_mark's start. Exit status: COMMAND's.
"""
import argparse
import subprocess
import sys
import time

KEYS = ('nr_free_pages', 'nr_inactive_file', 'nr_active_file', 'workingset_refault_file',
        'workingset_activate_file', 'pgsteal_kswapd', 'pgsteal_direct', 'pgscan_kswapd',
        'pgdeactivate', 'pgactivate', 'pageoutrun', 'nr_slab_reclaimable',
        'nr_slab_unreclaimable')


def read_vmstat(wanted):
    v = {}
    with open('/proc/vmstat') as f:
        for line in f:
            k, _, x = line.partition(' ')
            if k in wanted:
                v[k] = x.strip()
    return v


def write_slabinfo(out, t):
    with open('/proc/slabinfo') as f:
        for line in f.readlines()[2:]:
            w = line.split()
            if len(w) >= 15:
                out.write('%.3f %s %d\n' % (t, w[0], int(w[14]) * int(w[5])))


def main():
    ap = argparse.ArgumentParser(
        prog='sample-vmstat.py',
        description='Sample /proc/vmstat (and /proc/slabinfo) while a command runs.')
    ap.add_argument('--period-ms', type=float, default=10.0,
                    help='sampling period in milliseconds (default 10)')
    ap.add_argument('--slab-every', type=int, default=20,
                    help='read /proc/slabinfo every N-th sample (default 20; 0: never)')
    ap.add_argument('out', help='output prefix: OUT.vm, OUT.slab, OUT.txt, OUT.err')
    ap.add_argument('command', nargs=argparse.REMAINDER, help='the command to run')
    a = ap.parse_args()
    if not a.command:
        ap.error('no COMMAND given')
    if a.period_ms <= 0:
        ap.error('--period-ms must be > 0: %s' % a.period_ms)
    if a.slab_every < 0:
        ap.error('--slab-every must be >= 0: %d' % a.slab_every)
    wanted = set(KEYS)
    with open(a.out + '.txt', 'w') as so, open(a.out + '.err', 'w') as se, \
            open(a.out + '.vm', 'w') as vm, open(a.out + '.slab', 'w') as slab:
        try:
            p = subprocess.Popen(a.command, stdout=so, stderr=se)
        except OSError as e:
            print('sample-vmstat: cannot run %s: %s' % (a.command[0], e), file=sys.stderr)
            return 127
        vm.write('t ' + ' '.join(KEYS) + '\n')
        t0 = time.monotonic()
        n = 0
        try:
            while p.poll() is None:
                t = time.monotonic() - t0
                v = read_vmstat(wanted)
                vm.write('%.3f %s\n' % (t, ' '.join(v.get(k, '0') for k in KEYS)))
                if a.slab_every and n % a.slab_every == 0:
                    write_slabinfo(slab, t)
                n += 1
                time.sleep(a.period_ms / 1000.0)
        except KeyboardInterrupt:
            p.terminate()
            p.wait()
            return 130
    return p.returncode


if __name__ == '__main__':
    sys.exit(main())
