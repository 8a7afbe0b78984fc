#!/usr/bin/env python3
"""check_sde_region.py PROGRAM: runs sde_region with PAPI_EVENTS naming three SDEs and
checks its region report: region "work" counted exactly 10, 20 and 30, "idle" 0."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

out = tempfile.mkdtemp(prefix="sde_region_")
env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=out,
           PAPI_EVENTS="sde:::sdetest::REG_LL,sde:::sdetest::CREATED,sde:::sdetest::TOTAL")
subprocess.run([sys.argv[1]], env=env, check=True)
reports = glob.glob(os.path.join(out, "papi_hl_output", "*.json"))
if len(reports) != 1:
    sys.exit("FAIL: %d reports in %s" % (len(reports), out))
with open(reports[0]) as f:
    report = json.load(f)
shutil.rmtree(out)
want = {"work": (10, 20, 30), "idle": (0, 0, 0)}
names = ("sde:::sdetest::REG_LL", "sde:::sdetest::CREATED", "sde:::sdetest::TOTAL")
failures = 0
for thread in report["threads"].values():
    for region in thread["regions"].values():
        got = tuple(region.get(n) for n in names)
        if got != want.pop(region["name"], None):
            failures += 1
            print("FAIL: region %s counted %s" % (region["name"], got))
if want:
    failures += 1
    print("FAIL: regions missing from the report: %s" % sorted(want))
print("test_sde_region: %s" % ("FAILED" if failures else "PASSED"))
sys.exit(1 if failures else 0)
