"""tracefile.py - the lines of a tracefs `trace` file (gzip or text), for the
scripts that summarize a kernel trace (trace-reclaim-summary.py,
compaction-summary.py): each event as (seconds, comm, pid, event, rest).
"""
import gzip
import re

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
