#!/usr/bin/env python3
# refill-runs.py - how the readers' page cache is taken and read back, from
# a raw trace of `scripts/trace-kswapd-orders.sh -f -o RAW -- cachepressure
# real seed ...` (filemap:mm_filemap_add_to_page_cache,
# mm_filemap_delete_from_page_cache, readahead:page_cache_sync_ra,
# page_cache_async_ra). The readers are the tasks named cp-read-file, their
# files the inodes they add pages to; the measured phase runs from the
# readers' first event to their last. Prints, for the readers' files:
#  - the folios they read back by order (folios, pages) and the
#    readahead calls (sync: a read() that missed; async: a PG_readahead hit);
#  - the eviction runs: in eviction order, each file's evicted pages that
#    continue the file's previous eviction (the next or the previous
#    index) belong to the same run; their number, mean length and the
#    share of evicted pages in runs of more than 4096 pages;
#  - the refill runs (the same for the pages the readers add);
#  - how soon an evicted page comes back: the pages the readers add between
#    its eviction and its refault (percentiles).
# The model's side of the first two comes from its counters (validate's
# readahead rows); of the rest, from a debug build (docs/fidelity.md,
# session 16).
#
#   scripts/refill-runs.py RAW_TRACE
import collections
import re
import signal
import sys

LINE = re.compile(r'\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\w+): (.*)')
DEV = re.compile(r'\bdev[ =](\d+:\d+)')
INO = re.compile(r'\bino[ =](\w+)')
OFS = re.compile(r'\bofs=(\d+)')
ORDER = re.compile(r'\border=(\d+)')
READER = 'cp-read-file'


def read_events(path):
    """(comm, event, file, index, pages) for the page-cache and readahead
    events of the measured phase, in trace order (file: "dev ino")."""
    events, first, last = [], None, None
    try:
        f = open(path, errors='replace')
    except OSError as e:
        sys.exit('refill-runs: %s: %s' % (path, e.strerror))
    with f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            comm, t, ev, rest = m.group(1), float(m.group(3)), m.group(4), m.group(5)
            if comm == READER:
                first = t if first is None else first
                last = t
            if ev not in ('mm_filemap_add_to_page_cache', 'mm_filemap_delete_from_page_cache',
                          'page_cache_sync_ra', 'page_cache_async_ra'):
                continue
            ino, dev = INO.search(rest), DEV.search(rest)
            if not ino or not dev:
                continue
            ofs, order = OFS.search(rest), ORDER.search(rest)
            index = int(ofs.group(1)) // 4096 if ofs else 0
            pages = 1 << int(order.group(1)) if order else 0
            events.append((t, comm, ev, dev.group(1) + ' ' + ino.group(1), index, pages))
    if first is None:
        sys.exit('refill-runs: no %s events in %s (was it traced with -f?)' % (READER, path))
    return [e[1:] for e in events if first <= e[0] <= last]


def runs(stream):
    """Lengths of the runs of (file, index, pages) that continue their
    file's previous entry (index right after it or right before it)."""
    out, cur = [], {}
    for f, i, n in stream:
        c = cur.get(f)
        if c and (i == c[1] or i + n == c[0]):
            c[0], c[1], c[2] = min(c[0], i), max(c[1], i + n), c[2] + n
        else:
            if c:
                out.append(c[2])
            cur[f] = [i, i + n, n]
    return out + [c[2] for c in cur.values()]


def describe(name, lengths):
    total = sum(lengths)
    if not lengths:
        print('%s: none' % name)
        return
    long_share = sum(x for x in lengths if x > 4096) / total
    print('%s: %d pages in %d runs, mean %.0f, %.0f %% in runs over 4096 pages'
          % (name, total, len(lengths), total / len(lengths), 100 * long_share))


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` is fine
    if len(sys.argv) != 2 or sys.argv[1] in ('-h', '--help'):
        head = open(__file__).read().split('\nimport ')[0].split('\n')[1:]
        print('\n'.join(line[2:] for line in head))
        sys.exit(0 if len(sys.argv) == 2 else 2)
    events = read_events(sys.argv[1])
    # the readers' files: on the device most of their insertions went to
    # (not the libraries they started with)
    devs = collections.Counter(f.split()[0] for comm, ev, f, _, n in events
                               if comm == READER and ev == 'mm_filemap_add_to_page_cache')
    dev = devs.most_common(1)[0][0] if devs else ''
    files = {f for comm, ev, f, _, _ in events
             if comm == READER and ev == 'mm_filemap_add_to_page_cache' and f.split()[0] == dev}
    events = [e for e in events if e[2] in files]
    adds = [(ino, i, n) for comm, ev, ino, i, n in events
            if comm == READER and ev == 'mm_filemap_add_to_page_cache']
    dels = [(ino, i, n) for _, ev, ino, i, n in events if ev == 'mm_filemap_delete_from_page_cache']
    by_order = collections.Counter(n for _, _, n in adds)
    calls = collections.Counter(ev for _, ev, _, _, _ in events if ev.startswith('page_cache_'))
    print('readers\' files: %d; read back %d pages' % (len(files), sum(n for _, _, n in adds)))
    print('folios by order (folios, pages): ' + ', '.join(
        '%d: %d, %d' % (n.bit_length() - 1, c, c * n) for n, c in sorted(by_order.items())))
    print('readahead calls: sync %d, async %d'
          % (calls['page_cache_sync_ra'], calls['page_cache_async_ra']))
    describe('evicted', runs(dels))
    describe('read back', runs(adds))
    # the readers' added pages as a clock: how many came between a page's
    # eviction and its refault
    clock, evicted, delays = 0, {}, []
    for comm, ev, ino, i, n in events:
        if ev == 'mm_filemap_delete_from_page_cache':
            for j in range(i, i + n):
                evicted[(ino, j)] = clock
        elif ev == 'mm_filemap_add_to_page_cache' and comm == READER:
            for j in range(i, i + n):
                if (ino, j) in evicted:
                    delays.append(clock - evicted.pop((ino, j)))
            clock += n
    if delays:
        delays.sort()
        print('refault after (pages read back meanwhile): p10 %d p50 %d p90 %d; never %d'
              % tuple([delays[int(len(delays) * q)] for q in (0.1, 0.5, 0.9)] + [len(evicted)]))


if __name__ == '__main__':
    main()
