#!/usr/bin/env python3
"""ctest's runner of one pytest file of tests/python: PASSED, FAILED, or SKIPPED with the
reason and exit 77 (pytest missing, or every test of the file skipped for a fact of the
machine, such as an mpi4py built against the other MPI). A test skipped among others
that ran prints its SKIPPED line too, so a missing numpy is never a silent pass. The
reports the tests leave under pytest's basetemp are checked against their schemas
(tests/common/report_check.py): a violation fails the file.

  run_pytest.py TEST_FILE [pytest arguments...]"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report the tests write is checked: schema/README.md)

try:
    import pytest
except ImportError:
    print("SKIPPED: python3-pytest is not installed for %s (Debian: apt-get install "
          "python3-pytest; scripts/install-deps.sh does)" % sys.executable)
    sys.exit(77)


class Outcomes:
    def __init__(self):
        self.passed, self.failed, self.skipped = 0, 0, []

    def pytest_runtest_logreport(self, report):
        if report.skipped:
            self.skipped.append(str(report.longrepr[-1]) if isinstance(report.longrepr, tuple)
                                else str(report.longrepr))
        elif report.failed:
            self.failed += 1
        elif report.when == "call":
            self.passed += 1


def main():
    outcomes = Outcomes()
    # A temporary directory of this run's own: ctest -j runs several files at once (and
    # one file once per MPI), and pytest's shared default would be cleaned under them.
    name = os.path.splitext(os.path.basename(sys.argv[1]))[0]
    flavor = os.environ.get("PAPI_TEST_MPI", "")
    basetemp = os.path.join(os.getcwd(), "pytest-%s-%s" % (name, flavor))
    start = time.time() - 1  # coarse file times: a file written at once counts
    code = pytest.main(["-q", "-p", "no:cacheprovider", "-o", "console_output_style=classic",
                        "--basetemp", basetemp] + sys.argv[1:], plugins=[outcomes])
    if code == 0:  # the reports its tests wrote under basetemp follow their schemas
        bad = report_check.check_paths([basetemp], since=start)
        for line in bad:
            print("FAILED: a report breaks its schema: %s" % line)
        if bad:
            return 1
    reasons = [r.replace("Skipped: ", "") for r in outcomes.skipped]
    if code == 0 and reasons and not outcomes.passed and not outcomes.failed:
        print("SKIPPED: " + reasons[0])
        return 77
    for r in reasons:  # a part that did not run is listed too (scripts/check-skips.py)
        print("SKIPPED: %s (one test of %s; the others ran)" % (r, os.path.basename(sys.argv[1])))
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
