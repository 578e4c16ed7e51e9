#!/usr/bin/env python3
"""Patch a scratch copy of ../shared/bench (argument: its directory) so that verity is one
more harness: insert verity_harness.py into bench.py, and teach summarize.py verity's label,
version key and row order.  Idempotent: always re-patches from the pristine copies
(bench.py.orig, summarize.py.orig, saved on the first run)."""
import os
import shutil
import sys

bench = os.path.abspath(sys.argv[1])
here = os.path.dirname(os.path.abspath(__file__))
snippet = open(os.path.join(here, "verity_harness.py")).read()


def pristine(name):
    p = os.path.join(bench, name)
    if not os.path.exists(p + ".orig"):
        shutil.copy(p, p + ".orig")
    return p, open(p + ".orig").read()


p, src = pristine("bench.py")
marker = "# ----------------------------------------------------------------- helpers"
assert src.count(marker) == 1, "bench.py layout changed: helpers marker not found"
# http_json is defined in the helpers section; the harness only calls it at check time
src = src.replace(marker, snippet + "\n" + marker)
open(p, "w").write(src)

p, src = pristine("summarize.py")
src = src.replace('"raw_aiohttp": "aiohttp"}', '"raw_aiohttp": "aiohttp", "verity": "verity"}')
src = src.replace('"raw_aiohttp": "reference: bare aiohttp client loop"}',
                  '"raw_aiohttp": "reference: bare aiohttp client loop", "verity": "verity"}')
src = src.replace('"promptfoo_nowrite_nodebuglog", "lm_eval"]',
                  '"promptfoo_nowrite_nodebuglog", "lm_eval", "verity"]')
assert src.count('"verity"') >= 3, "summarize.py layout changed"
open(p, "w").write(src)
print("patched", bench)
