#!/usr/bin/env python3
"""check_no_install_in_tests.py SRC: no test, and no script that ctest or a lane runs,
installs or downloads a package. Only scripts/install-deps.sh (and the guest fetcher it
calls) may: a test that installs hides a missing dependency step, and fails (or, worse,
skips) when another apt-get holds the lock.

Scans tests/, scripts/ and the CMake files for apt-get/apt/dpkg -i/pip install calls.
The packaging lane's own subject is installing packages, so its scripts may install the
project's .deb files (a line marked "# local .deb files": their dependencies are
installed) and environment-modules from apt's cache (--no-download), inside the
throw-away overlay."""
import os
import re
import sys

ALLOWED = {"scripts/install-deps.sh", "scripts/dpkg-lock.sh", "scripts/guest/fetch-arm64",
           "tests/ci/check_no_install_in_tests.py"}
# Scripts a developer runs by hand, never run by ctest or build-and-test.sh.
BY_HAND = {"scripts/guest/run-x86"}
OFFLINE_ONLY = {"tests/packaging/check_debs.sh", "tests/packaging/check_modulefiles.sh"}
INSTALL = re.compile(r"\b(apt-get|apt|aptitude)\s+(-\S+\s+)*(install|download|update|source)\b"
                     r"|\bdpkg\s+(-i|--install)\b|\bpip3?\s+install\b")


def files(src):
    for top in ("tests", "scripts", "cmake", "bench", "examples"):
        for d, _, names in os.walk(os.path.join(src, top)):
            for n in names:
                p = os.path.join(d, n)
                if n.endswith((".sh", ".py", ".cmake", ".txt")) or os.access(p, os.X_OK):
                    yield os.path.relpath(p, src)
    yield "CMakeLists.txt"


def main():
    src = sys.argv[1]
    bad = []
    for rel in files(src):
        if rel in ALLOWED or rel in BY_HAND:
            continue
        try:
            with open(os.path.join(src, rel), encoding="utf-8") as f:
                lines = f.readlines()
        except (UnicodeDecodeError, OSError):
            continue
        for no, line in enumerate(lines, 1):
            # Messages that tell the user what to install are not installs: drop quoted
            # text (a command's own arguments in quotes are not the command word).
            code = re.sub(r'"[^"]*"|\'[^\']*\'', '""', line)
            code = code.split("#", 1)[0] if rel.endswith((".sh", ".py")) else code
            if not INSTALL.search(code):
                continue
            if rel in OFFLINE_ONLY and ("--no-download" in code or "# local .deb files" in line):
                continue
            bad.append("%s:%d: %s" % (rel, no, line.strip()))
    for b in bad:
        print("installs a package:", b)
    print("check_no_install_in_tests: %s" % ("FAILED (%d)" % len(bad) if bad else "PASSED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
