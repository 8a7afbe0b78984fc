#!/usr/bin/env python3
"""build-for-label.py BUILD_DIR LABEL [JOBS]: build only what the ctest tests of LABEL run.

The sanitizer lanes configure the whole project but run a few dozen tests; building every
target under ASan or TSan costs minutes of CI. This reads the configured tests
(ctest --show-only=json-v1, and the add_test lines of CTestTestfile.cmake), keeps those
with LABEL and the fixtures they require, finds every path under BUILD_DIR in their
commands and environments (a program, a preloaded
wrapper library), and builds the targets of those names (their link dependencies come
with them). Exits with cmake's status; 2 when no target matches (the lane would test
nothing)."""
import json
import os
import re
import subprocess
import sys


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__)
        return 2
    build, label = os.path.abspath(argv[1]), argv[2]
    jobs = argv[3] if len(argv) == 4 else str(os.cpu_count() or 2)
    tests = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                                      capture_output=True, text=True).stdout)["tests"]

    def props(t):
        return {p["name"]: p["value"] for p in t.get("properties", [])}

    chosen = [t for t in tests if label in props(t).get("LABELS", [])]
    needed = {f for t in chosen for f in props(t).get("FIXTURES_REQUIRED", [])}
    chosen += [t for t in tests if t not in chosen and needed & set(props(t).get("FIXTURES_SETUP", []))]
    # Before a build ctest leaves out a command whose program does not exist yet: the
    # commands come from the add_test lines of the generated CTestTestfile.cmake files.
    lines = {}
    for root, _, files in os.walk(build):
        if "CTestTestfile.cmake" in files:
            with open(os.path.join(root, "CTestTestfile.cmake"), encoding="utf-8") as f:
                for m in re.finditer(r"^add_test\(\[=\[(.*?)\]=\] (.*)$", f.read(), re.M):
                    lines[m.group(1)] = m.group(2)
    help_out = subprocess.run(["cmake", "--build", build, "--target", "help"], check=True,
                              capture_output=True, text=True).stdout
    targets = {m.group(1) for m in re.finditer(r"^\.\.\. (\S+)", help_out, re.M)}
    paths = re.compile(re.escape(build) + r"/[^\s\"':;]+")
    wanted = set()
    for t in chosen:
        for p in paths.findall(json.dumps(t) + lines.get(t["name"], "")):
            base = os.path.basename(p)
            for name in (base, re.sub(r"^lib(.*?)\.so(\.\d+)*$", r"\1", base), re.sub(r"\.a$", "", base)):
                if name in targets:
                    wanted.add(name)
    if not wanted:
        print("build-for-label: no target found for the %d tests labelled %s in %s" % (len(chosen), label, build))
        return 2
    print("build-for-label: %d tests labelled %s: building %s" % (len(chosen), label, " ".join(sorted(wanted))))
    return subprocess.run(["cmake", "--build", build, "-j" + jobs, "--target", *sorted(wanted)]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
