#!/usr/bin/env python3
"""real_runs.py MODEL.json OUT.json LAYOUTS - "real" runs for the validate
CLI tests: the first run of MODEL.json (a model run, seed_model_run)
relabelled source "real", once per letter of LAYOUTS, each with the
start layout the letter names (the start_free_* counters validate's
paired model starts from):
  a: 2900 free MOVABLE blocks of order 10;
  b: 2800 of order 10, 200 of order 9, 512 single pages, 64 of order 3;
  -: the run's own counters (no layout set).
"""
import copy
import json
import sys

LAYOUTS = {
    'a': {('movable', 10): 2900},
    'b': {('movable', 10): 2800, ('movable', 9): 200, ('movable', 0): 512, ('movable', 3): 64},
}


def real(model, letter):
    r = copy.deepcopy(model)
    r['source'] = 'real'
    if letter in LAYOUTS:
        for t in ('unmovable', 'movable', 'reclaimable'):
            for o in range(11):
                r['counters']['start_free_%s_order_%d' % (t, o)] = LAYOUTS[letter].get((t, o), 0)
    elif letter != '-':
        sys.exit('real_runs.py: layout %r: not one of a, b, -' % letter)
    return r


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    model = json.load(open(sys.argv[1]))['runs'][0]
    json.dump({'runs': [real(model, c) for c in sys.argv[3]]}, open(sys.argv[2], 'w'))


if __name__ == '__main__':
    main()
