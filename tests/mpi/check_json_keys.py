#!/usr/bin/env python3
"""No C file of the MPI wrapper types a JSON key (issue 70 item 2): every key and its
punctuation come from the one JSON writer (src-c/common/json_writer.h), so a member is
named in one place and its commas, quotes and escapes are never typed by hand. A key
typed by hand is a C string holding an escaped quote, a name and an escaped quote before
a colon ("\\"rank\\": "), or a printf form of one ("\\"%s\\": ").

Usage: check_json_keys.py MPI_WRAPPERS_DIR. Exit 0 pass, 1 fail."""
import os
import re
import sys

KEY = re.compile(r'\\"(%s|[A-Za-z_][A-Za-z0-9_ ]*)\\"\s*:')

found = 0
for root, _, files in os.walk(sys.argv[1]):
    for f in sorted(files):
        if not f.endswith(".c"):
            continue
        path = os.path.join(root, f)
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if KEY.search(line):
                    print("FAIL %s:%d types a JSON key: %s" % (path, n, line.strip()))
                    found += 1
print("FAIL" if found else "PASS: no JSON key typed by hand")
sys.exit(1 if found else 0)
