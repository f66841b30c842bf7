"""tracefile.py - the lines of a tracefs `trace` file (gzip or text), for the
scripts that summarize a kernel trace (trace-reclaim-summary.py,
compaction-summary.py): each event as (seconds, comm, pid, event, rest).
"""
import gzip
import re
import sys

LINE = re.compile(r'^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[\d+\]\s+\S+\s+(?P<t>\d+\.\d+): '
                  r'(?P<ev>\w+): (?P<rest>.*)$')


def events(path):
    """The trace's events in file order; lines that are no event (the
    header) are skipped. Raises OSError for a file that cannot be read."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if m:
                yield float(m['t']), m['comm'], m['pid'], m['ev'], m['rest']


def load(path, prog, last=0):
    """The trace's events in time order, the last `last` seconds of it
    when last > 0, with a '# PATH: S s of trace, N events' line printed;
    exits naming the file (prog: the script's name) when it cannot be
    read or holds no event."""
    try:
        evs = sorted(events(path), key=lambda e: e[0])
    except OSError as e:
        sys.exit('%s: %s: %s' % (prog, path, e.strerror))
    if not evs:
        sys.exit('%s: %s: no trace events in it' % (prog, path))
    if last:
        evs = [e for e in evs if e[0] >= evs[-1][0] - last]
    print('# %s: %.2f s of trace, %d events' % (path, evs[-1][0] - evs[0][0], len(evs)))
    return evs
