#!/usr/bin/env python3
"""check_layers_selftest.py CHECKER FIXTURE: the layer checker finds each broken rule of
the fixture (tests/layers/selftest) exactly, and passes the fixture once those are fixed."""
import os
import shutil
import subprocess
import sys
import tempfile

checker, fixture = sys.argv[1], sys.argv[2]


def run(root):
    p = subprocess.run([sys.executable, checker, root, os.path.join(root, "layers.map")],
                       capture_output=True, text=True)
    return p.returncode, p.stdout


expected = [
    "mid/mid.c (mid) uses top_entry of top/top.c (top): a lower layer reaches up",
    "mid/mid.c includes private.h, which mid/ may not (deny in",
    "other/other.c: folder 'other' is in no layer of",
    "cycle between folders low, other: low/low.c low/private.h other/other.c",
    "cycle between folders mid, top: mid/mid.c mid/mid.h top/top.c",
    "FAILED: 5 finding(s) in 6 files",
]
failures = 0
rc, out = run(fixture)
lines = out.splitlines()
print(out)
if rc != 1:
    print(f"FAIL: exit status {rc}, expected 1")
    failures += 1
for e in expected:
    if not any(line.startswith(e) for line in lines):
        print(f"FAIL: no line starts with: {e}")
        failures += 1
if any("mid_work of" in line for line in lines):
    print("FAIL: a struct member was taken for a use of mid_work")
    failures += 1

with tempfile.TemporaryDirectory() as tmp:  # the same tree with every finding fixed
    root = os.path.join(tmp, "t")
    shutil.copytree(fixture, root)
    with open(os.path.join(root, "layers.map"), "a") as f:
        f.write("layer other: other\n")
    with open(os.path.join(root, "mid", "mid.c"), "w") as f:
        f.write('#include "mid.h"\nint mid_work(void) { return 2; }\n')
    os.remove(os.path.join(root, "other", "other.c"))
    with open(os.path.join(root, "low", "low.c"), "w") as f:
        f.write('#include "private.h"\nint low_value = 1;\n')
    rc, out = run(root)
    print(out)
    if rc != 0 or not out.startswith("PASSED"):
        print(f"FAIL: the fixed tree does not pass (status {rc})")
        failures += 1

print("check_layers_selftest: " + ("FAILED" if failures else "PASSED"))
sys.exit(1 if failures else 0)
