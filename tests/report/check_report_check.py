#!/usr/bin/env python3
"""check_report_check.py: the shared post-step of the tests (tests/common/report_check.py)
refuses a report that breaks its schema, in each of its three ways in, and lets a valid
one, a skipped program and a failing program's own status through.
- --cwd -- PROGRAM: a program leaving papi_hl_output/rank_000000.json with a negative
  real_time_nsec in its working directory: exit 1, the file and "$...real_time_nsec"
  named; the same file valid: exit 0; a program exiting 77 or 3: 77 or 3, unchecked;
  a file older than the program's start (an earlier run's): not checked.
- guard(): a script whose temporary directory holds the bad file exits 1 when it removes
  the directory (shutil.rmtree, TemporaryDirectory) or leaves it (mkdtemp); files named
  with a skipped prefix, or named by report_check.broken(), are not checked.
- by hand: report_check.py DIR prints the one line and exits 1."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "common", "report_check.py")
sys.path.insert(0, os.path.join(HERE, "..", "common"))
from checks import check, verdict  # noqa: E402


def region_doc(real_time):
    return {"papi_version": "7.0.0.0", "rank": 0, "event_definitions": {},
            "threads": {"1": {"regions": {"0": {"name": "r", "parent_region_id": -1, "region_count": 1,
                                                 "cycles": 10, "real_time_nsec": real_time}}}}}


WRITE = ("import json, os, sys; os.makedirs('papi_hl_output', exist_ok=True); "
         "json.dump(%s, open('papi_hl_output/rank_000000.json', 'w')); sys.exit(%d)")


def wrapped(cwd, doc, status=0):
    return subprocess.run([sys.executable, TOOL, "--cwd", "--", sys.executable, "-c",
                           WRITE % (json.dumps(doc), status)], cwd=cwd, capture_output=True, text=True)


def script(d, body):
    return subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, %r)\n"
                           "import json, os, shutil, tempfile, report_check\n%s"
                           % (os.path.dirname(TOOL), body)], cwd=d, capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory(prefix="report_check_") as d:
        p = wrapped(d, region_doc(-5))
        check(p.returncode == 1 and "rank_000000.json" in p.stderr and "real_time_nsec" in p.stderr
              and "region.schema.json" in p.stderr,
              "a negative real_time_nsec after the program: exit %d: %s" % (p.returncode, p.stderr))
        p = wrapped(d, region_doc(5))
        check(p.returncode == 0 and p.stderr == "", "a valid file: exit %d: %s" % (p.returncode, p.stderr))
        for status in (77, 3):
            p = wrapped(d, region_doc(-5), status)
            check(p.returncode == status, "a program exiting %d: exit %d" % (status, p.returncode))
        # An earlier run's file (older than this start) is not this program's.
        bad = os.path.join(d, "papi_hl_output", "rank_000000.json")
        os.utime(bad, (1e9, 1e9))
        p = subprocess.run([sys.executable, TOOL, "--cwd", "--", "true"], cwd=d, capture_output=True, text=True)
        check(p.returncode == 0, "an earlier run's file was checked: exit %d: %s" % (p.returncode, p.stderr))
        p = subprocess.run([sys.executable, TOOL, d], capture_output=True, text=True)
        check(p.returncode == 1 and bad in p.stdout and "$.threads" in p.stdout,
              "by hand: exit %d: %s" % (p.returncode, p.stdout))

        bad_json = json.dumps(region_doc(-5))
        for how in ("shutil.rmtree(t)", "with tempfile.TemporaryDirectory() as t2:\n"
                    "    json.dump(json.loads(%r), open(os.path.join(t2, 'rank_000001.json'), 'w'))" % bad_json,
                    "pass  # left behind"):
            p = script(d, "report_check.guard()\nt = tempfile.mkdtemp()\n"
                       "json.dump(json.loads(%r), open(os.path.join(t, 'rank_000000.json'), 'w'))\n%s\n"
                       "print('after')" % (bad_json, how))
            check(p.returncode == 1 and "real_time_nsec" in p.stderr and "rank_00000" in p.stderr,
                  "guard(), %s: exit %d: %s" % (how.split("\n")[0], p.returncode, p.stderr))
        p = script(d, "report_check.guard(skip=('rank_',))\nt = tempfile.mkdtemp()\n"
                   "json.dump(json.loads(%r), open(os.path.join(t, 'rank_000000.json'), 'w'))\n"
                   "shutil.rmtree(t)" % bad_json)
        check(p.returncode == 0, "guard(skip=...) checked a skipped file: exit %d: %s" % (p.returncode, p.stderr))
        p = script(d, "report_check.guard()\nt = tempfile.mkdtemp()\nf = os.path.join(t, 'rank_000000.json')\n"
                   "json.dump(json.loads(%r), open(f, 'w'))\nreport_check.broken(f)\nshutil.rmtree(t)" % bad_json)
        check(p.returncode == 0, "guard() checked a file named broken(): exit %d: %s" % (p.returncode, p.stderr))
    return verdict("check_report_check")


if __name__ == "__main__":
    sys.exit(main())
