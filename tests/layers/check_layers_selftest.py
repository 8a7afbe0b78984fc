#!/usr/bin/env python3
"""check_layers_selftest.py CHECKER FIXTURE: the layer checker finds each broken rule of
the fixture (tests/layers/selftest: the tree lib/ and common/ beside it) exactly, and
passes the fixture once those are fixed. The cases after the first five are blind spots
an earlier checker had (each was missed by it): a folder's private header or function,
a call in a macro body, a cycle between layers of one folder and between files of an
acyclic folder, a project header included with <>, a definition after an X-macro call
without ';', and a folder beside the tree (../common). A C library function the tree
interposes (interpose: in the map) is no edge; without that line it is one."""
import os
import shutil
import subprocess
import sys
import tempfile

checker, fixture = sys.argv[1], sys.argv[2]


def run(tree):
    root = os.path.join(tree, "lib")
    p = subprocess.run([sys.executable, checker, root, os.path.join(root, "layers.map")],
                       capture_output=True, text=True)
    return p.returncode, p.stdout


expected = [
    "mid/mid.c (mid) uses top_entry of top/top.c (top): a lower layer reaches up",
    "mid/mid.c includes private.h, which mid/ may not (deny in",
    "other/other.c: folder 'other' is in no layer of",
    "cycle between folders low, other: low/low.c low/private.h other/other.c",
    "cycle between folders mid, top: mid/mid.c mid/mid.h top/top.c",
    # the blind spots
    "mid/mid.c includes comp/a/secret.h, private to comp/a/ (private in",
    "top/top.c uses a_secret of comp/a/a.c, private to comp/a/ (private in",
    "low/low_macros.h (low) uses top_entry of top/top.c (top): a lower layer reaches up",
    "cycle between layers splithi, splitlo: split/hi.c split/lo.c",
    "split/lo.c (splitlo) uses hi_fn of split/hi.c (splithi): a lower layer reaches up",
    "cycle between files of flat/ (acyclic in",
    "low/angle.c (low) includes mid/mid.h (mid): a lower layer reaches up",
    "low/table_user.c (low) uses top_table of top/table.c (top): a lower layer reaches up",
    "../common/util.c (common) uses mid_work of mid/mid.c (mid): a lower layer reaches up",
    "FAILED: 14 finding(s) in 24 files",
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
if any(line.startswith("low/low.c") and "mid_work of" in line for line in lines):
    print("FAIL: a struct member was taken for a use of mid_work")
    failures += 1

if any("comp/registry.c" in line for line in lines):
    print("FAIL: the file a private rule allows was reported")
    failures += 1
if any("pthread_create" in line for line in lines):
    print("FAIL: a use of an interposed C library function was taken for an edge")
    failures += 1


def write(root, rel, text):
    with open(os.path.join(root, rel), "w") as f:
        f.write(text)


with tempfile.TemporaryDirectory() as tmp:  # the same tree with every finding fixed
    tree = os.path.join(tmp, "t")
    shutil.copytree(fixture, tree)
    root = os.path.join(tree, "lib")
    with open(os.path.join(root, "layers.map"), "a") as f:
        f.write("layer other: other\n")
    write(root, "mid/mid.c", '#include "mid.h"\n#include "comp.h"\nint mid_work(void) { return comp_count(); }\n')
    os.remove(os.path.join(root, "other", "other.c"))
    write(root, "low/low.c", '#include "private.h"\nint low_value = 1;\n')
    write(root, "top/top.c", '#include "mid.h"\nint top_entry(void) { return mid_work() + low_value; }\n')
    write(root, "low/low_macros.h", "#define LOW_UP(x) (low_value + (x))\n")
    write(root, "low/angle.c", "#include <private.h>\nint low_angle(void) { return low_value; }\n")
    os.remove(os.path.join(root, "low", "table_user.c"))
    write(root, "split/lo.c", "int lo_fn(void) { return 1; }\n")
    write(root, "flat/f2.c", '#include "f2.h"\nint f2_fn(void) { return 2; }\n')
    write(tree, "common/util.c", "int common_up(void) { return 0; }\n")
    rc, out = run(tree)
    print(out)
    if rc != 0 or not out.startswith("PASSED"):
        print(f"FAIL: the fixed tree does not pass (status {rc})")
        failures += 1
    with open(os.path.join(root, "layers.map")) as f:  # the interpose line taken away
        text = f.read().replace("interpose: pthread_create\n", "")
    write(root, "layers.map", text)
    rc, out = run(tree)
    if "../common/interposed.c (common) uses pthread_create of top/wrap.c (top)" not in out:
        print("FAIL: without interpose:, the use of pthread_create is not reported")
        failures += 1

print("check_layers_selftest: " + ("FAILED" if failures else "PASSED"))
sys.exit(1 if failures else 0)
