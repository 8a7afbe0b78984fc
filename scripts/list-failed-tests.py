#!/usr/bin/env python3
"""list-failed-tests.py JUNIT...: name every failed ctest of a run, with the last lines of
its output, so that the end of a long CI log (often all that is kept) says what failed.

Reads ctest's JUnit files (--output-junit); a missing file (its lane did not run) is
passed over. Prints nothing when no test failed; exits 0 either way."""
import os
import sys
import xml.etree.ElementTree as ET

TAIL_LINES = 12


def failures(path):
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.get("status") == "fail" or case.find("failure") is not None:
            out = "".join(e.text or "" for e in case.iter() if e.tag in ("system-out", "failure"))
            yield case.get("name", "?"), case.get("time", "?"), out.rstrip().splitlines()[-TAIL_LINES:]


def main(paths):
    for path in paths:
        if not os.path.exists(path):
            continue
        lane = os.path.basename(os.path.dirname(path))
        try:
            found = list(failures(path))
        except ET.ParseError as e:
            print("failed tests: %s: unreadable JUnit file: %s" % (path, e))
            continue
        for name, secs, tail in found:
            print("failed test (%s): %s after %s s; its last lines:" % (lane, name, secs))
            for line in tail:
                print("    " + line[:200])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
