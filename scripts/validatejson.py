"""validatejson.py - the runs of a `cachepressure validate` (or `real`)
JSON, for the scripts that read one (validate-factors.py, pool-grids.py).
"""
import json
import sys


def runs(path, prog):
    """The "runs" list of the JSON at path; exits 2 naming the file (prog:
    the script's name) when it cannot be read, is not JSON, or holds no
    "runs" list."""
    def fail(msg):
        print("%s: %s: %s" % (prog, path, msg), file=sys.stderr)
        sys.exit(2)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        fail(e.strerror)
    except ValueError as e:
        fail("not JSON (%s)" % e)
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
        fail("no \"runs\" list: not a validate JSON")
    return doc["runs"]
