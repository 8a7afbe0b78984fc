#!/usr/bin/env python3
"""check-skips.py FACTS [--junit FILE]... [--lanes FILE]: list every skip of a test run,
and under CI=true fail on a skip the machine could fix.

A test or lane that cannot run prints "SKIPPED: reason". Some reasons are facts of the
machine (no hardware PMU in this VM, a kernel without some feature); others are things a
dependency step fixes (a package, a download, a lock held by another apt-get). Only the
first kind may leave a CI run green: FACTS lists them, one regular expression a line
(matched against the reason), each with a comment saying why it cannot be fixed by
installing anything. Every other skip is "fixable".

Read: ctest's JUnit files (--output-junit; a test skipped by its SKIP_RETURN_CODE, and
"SKIPPED" lines printed by tests that passed: a part of a test that did not run counts
too), and a lanes file of "NAME<TAB>reason" lines (build-and-test.sh writes it).
Prints one line per skip, "fact" or "FIXABLE", and exits 1 when CI=true and any is
fixable (0 otherwise), 2 on bad input."""
import os
import re
import sys
import xml.etree.ElementTree as ET

SKIP_LINE = re.compile(r"(?:^|\W)SKIPPED\b[:\s]*(.*)")


def load_facts(path):
    facts = []
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            pattern = line.split("  #", 1)[0].strip()
            try:
                facts.append(re.compile(pattern))
            except re.error as e:
                raise SystemExit("check-skips: %s:%d: bad pattern %r: %s" % (path, no, pattern, e))
    return facts


def reasons_in(text):
    """The reasons of the SKIPPED lines of a test's output (the whole line when a test
    printed only the word)."""
    out = []
    for line in (text or "").splitlines():
        m = SKIP_LINE.search(line)
        if m:
            out.append(m.group(1).strip() or line.strip())
    return out


def junit_skips(path):
    skips = []
    for case in ET.parse(path).getroot().iter("testcase"):
        name = case.get("name", "?")
        text = "".join(e.text or "" for e in case.iter() if e.tag in ("system-out", "skipped"))
        skipped = case.get("status") == "skipped" or case.find("skipped") is not None
        found = reasons_in(text)
        if skipped:
            skips.append(("ctest " + name, found[-1] if found else "skipped without a reason"))
        elif case.get("status") in (None, "run", "pass", "passed") and case.find("failure") is None:
            skips.extend(("ctest %s (part)" % name, r) for r in found)
    return skips


def lane_skips(path):
    with open(path, encoding="utf-8") as f:
        return [("lane " + n, r) for n, _, r in (l.rstrip("\n").partition("\t") for l in f) if n]


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    facts = load_facts(argv[1])
    skips, args = [], argv[2:]
    while args:
        opt = args.pop(0)
        if opt not in ("--junit", "--lanes") or not args:
            print("check-skips: unknown or incomplete option %s" % opt)
            return 2
        path = args.pop(0)
        if not os.path.exists(path):
            continue
        skips += junit_skips(path) if opt == "--junit" else lane_skips(path)
    fixable = 0
    for what, reason in skips:
        fact = any(p.search(reason) for p in facts)
        fixable += not fact
        print("skip: %-8s %s: %s" % ("fact" if fact else "FIXABLE", what, reason))
    ci = os.environ.get("CI", "").lower() in ("true", "1", "yes")
    print("check-skips: %d skips, %d facts of this machine, %d fixable%s" % (
        len(skips), len(skips) - fixable, fixable,
        " (CI=true: a fixable skip fails the run)" if fixable and ci else ""))
    return 1 if fixable and ci else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
