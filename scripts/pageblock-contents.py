#!/usr/bin/env python3
# pageblock-contents.py - what fills the pageblocks that hold free memory,
# per zone, from /proc/kpageflags (as root): for every pageblock (512
# pfns) of the zone with at least one free page (KPF_BUDDY) and not all
# THP, the pages it holds by kind - free (KPF_BUDDY), no flags, THP, slab,
# anonymous (mlocked or not), file LRU, other (page tables, kernel) - and
# how many such pageblocks hold how many free-or-flagless pages (buckets
# of 64). The start layout's assumption (start_layout.c: the MOVABLE
# pageblocks around the free fragments are filled with pages compaction
# can move) is checked against it. Then where in the zone the free pages
# are: their share in each tenth of its span, lowest pfns first (the
# compaction free scanner starts at the top), and how many of the span's
# 64-pageblock stretches hold none (docs/fidelity.md, session 14).
#
#   scripts/pageblock-contents.py [ZONE ...]     (default: Normal DMA32)
#
# Used by hand after the real harness's set-up state: caches dropped,
# per-CPU lists shrunk, build/cp-balloon BYTES holding MemAvailable less
# about 1.1 GiB (docs/fidelity.md, session 11).
import array
import collections
import sys

KPF = {'buddy': 10, 'thp': 22, 'anon': 12, 'lru': 5, 'slab': 7, 'mlocked': 33}


def zone_range(name):
    """(start_pfn, spanned) of node 0's zone from /proc/zoneinfo."""
    for blk in open('/proc/zoneinfo').read().split('Node 0, zone')[1:]:
        lines = blk.split('\n')
        if lines[0].strip() != name:
            continue
        spanned = int(next(l for l in lines if l.split()[:1] == ['spanned']).split()[1])
        start = int(next(l for l in lines if l.strip().startswith('start_pfn:')).split()[1])
        return start, spanned
    sys.exit('pageblock-contents: no zone %s in /proc/zoneinfo' % name)


def kind(v):
    bit = lambda k: v & (1 << KPF[k])
    if bit('buddy'):
        return 'free'
    if v == 0:
        return 'no flags'
    if bit('thp'):
        return 'thp'
    if bit('slab'):
        return 'slab'
    if bit('anon'):
        return 'anon mlocked' if bit('mlocked') else 'anon'
    if bit('lru'):
        return 'file'
    return 'other'


def main(zones):
    for zone in zones:
        start, spanned = zone_range(zone)
        with open('/proc/kpageflags', 'rb') as f:
            f.seek(start * 8)
            flags = array.array('Q')
            flags.frombytes(f.read(spanned * 8))
        first = (start + 511) // 512 * 512 - start
        total, buckets, n = collections.Counter(), collections.Counter(), 0
        for pb in range(first, spanned - 511, 512):
            c = collections.Counter(kind(v) for v in flags[pb:pb + 512])
            if not c['free'] or c['thp'] == 512:
                continue
            n += 1
            total.update(c)
            buckets[min((c['free'] + c['no flags']) // 64, 8)] += 1
        print('%s: %d pageblocks hold free pages; their pages by kind: %s'
              % (zone, n, ', '.join('%s %d' % kv for kv in sorted(total.items()))))
        print('  pageblocks by free-or-flagless pages (0-63, 64-127, ..., 512): %s'
              % ' '.join(str(buckets[i]) for i in range(9)))
        where(flags, spanned)


def where(flags, spanned):
    """The free pages' share of each tenth of the span; the empty
    stretches of 64 pageblocks."""
    buddy = 1 << KPF['buddy']
    free = [1 if (v & buddy or v == 0) else 0 for v in flags]
    total = sum(free) or 1
    tenths = [sum(free[i * spanned // 10:(i + 1) * spanned // 10]) for i in range(10)]
    stretch = 64 * 512
    runs = [sum(free[i:i + stretch]) for i in range(0, spanned, stretch)]
    print('  free or flagless pages by tenth of the span, lowest pfns first: %s'
          % ' '.join('%.0f%%' % (100.0 * t / total) for t in tenths))
    print('  stretches of 64 pageblocks with none: %d of %d'
          % (sum(1 for r in runs if r == 0), len(runs)))


if __name__ == '__main__':
    main(sys.argv[1:] or ['Normal', 'DMA32'])
