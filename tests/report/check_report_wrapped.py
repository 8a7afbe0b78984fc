#!/usr/bin/env python3
"""check_report_wrapped.py CTEST BUILD_DIR: every ctest test told to write reports (its
ENVIRONMENT sets PAPI_OUTPUT_DIRECTORY or PAPI_REPORT=1) checks them against their schemas
(issue 47 item 2): its command runs tests/common/report_check.py, or is a Python script
that uses it (report_check.guard(), or mpi_check.py, which calls it). Reads the tests
from `ctest --show-only=json-v1`; a test added without the post-step fails this, named.
NOT_YET lists the tests known to lack it, with why (each one a gap to close)."""
import json
import os
import subprocess
import sys

#: name -> why it is not wrapped yet.
NOT_YET = {
    "sandbox_probe_ENOSYS": "tests/sandbox's shell checker runs it under seccomp_run; not wrapped yet",
    "sandbox_probe_EPERM": "tests/sandbox's shell checker runs it under seccomp_run; not wrapped yet",
}


def writes_reports(test):
    env = next((p["value"] for p in test.get("properties", []) if p["name"] == "ENVIRONMENT"), [])
    return any(e.startswith("PAPI_OUTPUT_DIRECTORY=") or e == "PAPI_REPORT=1" for e in env)


def checked(cmd):
    if any(os.path.basename(c) == "report_check.py" for c in cmd):
        return True
    for c in cmd:
        if c.endswith(".py") and os.path.isfile(c):
            with open(c, encoding="utf-8") as f:
                src = f.read()
            if "report_check" in src or "import mpi_check" in src:
                return True
    return False


def main():
    ctest, build = sys.argv[1], sys.argv[2]
    p = subprocess.run([ctest, "--show-only=json-v1"], cwd=build, capture_output=True, text=True)
    if p.returncode != 0:
        print("ctest --show-only=json-v1 failed: %s" % p.stderr.strip())
        return 1
    tests = json.loads(p.stdout)["tests"]
    writers = [t for t in tests if writes_reports(t)]
    bad = [t["name"] for t in writers if not checked(t.get("command", [])) and t["name"] not in NOT_YET]
    stale = [n for n in NOT_YET if not any(t["name"] == n and not checked(t.get("command", []))
                                            for t in writers)]
    for n in bad:
        print("FAIL: %s writes reports (PAPI_OUTPUT_DIRECTORY / PAPI_REPORT) but does not check "
              "them: run it as report_check.py --cwd -- PROGRAM (tests/common/report_check.py)" % n)
    for n in stale:
        print("FAIL: %s is in NOT_YET but checks its reports now (or is gone): take it out" % n)
    print("%d tests write reports, %d check them, %d not yet (%s)" % (
        len(writers), len(writers) - len(bad) - len(NOT_YET), len(NOT_YET), ", ".join(NOT_YET)))
    print("check_report_wrapped: %s" % ("FAILED" if bad or stale else "PASSED"))
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main())
