#!/usr/bin/env python3
"""Copies the gate's sample of WCXB dev into this directory.

    python3 select.py /work/shared/bench/wcxb-dev

The rule (fixed, so nobody picks the pages farsight does well on): per page
type, the pages sorted by id are cut into 8 equal slices and the middle page
of each slice is taken; a page whose <id>.html.gz exceeds 100 KB is passed
over for the next page of its slice, to keep the sample small.
"""
import json
import os
import shutil
import sys
from collections import defaultdict

PER_KIND = 8
MAX_GZ = 100_000

src = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
by_kind = defaultdict(list)
for name in sorted(os.listdir(src)):
    if name.endswith(".json"):
        page_id = name[: -len(".json")]
        with open(os.path.join(src, name), encoding="utf-8") as f:
            by_kind[json.load(f)["page_type"]].append(page_id)
for kind, ids in sorted(by_kind.items()):
    step = len(ids) // PER_KIND
    for i in range(PER_KIND):
        j = i * step + step // 2
        while os.path.getsize(os.path.join(src, ids[j] + ".html.gz")) > MAX_GZ:
            j += 1
        for ext in (".html.gz", ".json"):
            shutil.copy(os.path.join(src, ids[j] + ext), here)
        print(kind, ids[j])
