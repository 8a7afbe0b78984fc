#!/usr/bin/env python3
"""check_pop_factors_cases.py CASES POP_FACTORS_PY: the golden cases of the factors
papi_report forms itself (pop_factors_cases.txt's scalability and global lines) against
python/papi_report/load/pop_factors.py; the file's other kinds are the C side's
(test_pop_factors, src-c/common/pop_factors.c), known here and left to it. Plain Python
(the module alone). Exit 0 pass, 1 fail."""
import importlib.util
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from case_file import cases as case_lines  # noqa: E402

FAILURES = []
#: The kinds test_pop_factors runs (the factors of one run: the C side's), with their fields.
C_KINDS = {"mpi": 3, "device": 3, "omp_region": 3, "omp_sums": 4, "omp_run": 4, "omp_cpu": 3,
           "hybrid": 3}


def load(path):
    spec = importlib.util.spec_from_file_location("pop_factors", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def numbers(text):
    return [] if text.strip() == "-" else [None if t == "null" else float(t)
                                           for t in text.split()]


def expect(where, got, want_text):
    want = numbers(want_text)
    if len(got) != len(want):
        FAILURES.append("%s: %d values, want %d" % (where, len(got), len(want)))
        return
    for i, (g, w) in enumerate(zip(got, want)):
        ok = g is None if w is None else (g is not None and abs(g - w) <= 1e-12 * max(abs(w), 1e-300))
        if not ok:
            FAILURES.append("%s: factor %d = %r, want %r" % (where, i, g, w))


def run_case(pf, where, f):
    """1 for a case checked here, 0 for one of the C side's; an unknown kind fails."""
    kind = f[0]
    if kind == "scalability" and len(f) == 3:
        expect(where, [pf.scalability(*numbers(f[1]))], f[2])
    elif kind == "global" and len(f) == 3:
        expect(where, [pf.global_efficiency(*numbers(f[1]))], f[2])
    elif C_KINDS.get(kind) == len(f):
        return 0
    else:
        FAILURES.append("%s: kind %r with %d fields unknown" % (where, kind, len(f)))
    return 1


def main():
    if len(sys.argv) != 3:
        print("usage: check_pop_factors_cases.py CASES POP_FACTORS_PY")
        return 2
    pf = load(sys.argv[2])
    cases = sum(run_case(pf, "line %d" % lineno, fields)
                for lineno, fields in case_lines(sys.argv[1]))
    if cases < 8:
        FAILURES.append("%d cases read, 8 at least expected" % cases)
    for msg in FAILURES:
        print("FAIL", msg)
    print("%d cases: %s" % (cases, "FAILED" if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
