#!/usr/bin/env python3
"""check_metric_formula_cases.py CASES PROFILE_METRICS_PY: the metric grammar's golden
cases (metric_formula_cases.txt, which test_metric_formula_cases.c runs against the
library) against papi_report's profile_metrics.py: the names each formula reads in
first-use order, its value, no value for a zero denominator, an infinite value or a
formula that reads `time` (a function has no elapsed time), and a refused formula
refused (ValueError at compile, no value). Plain Python (the module alone, no pandas).
Exit 0 pass, 1 fail."""
import importlib.util
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from case_file import cases as case_lines  # noqa: E402

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL", what)


def load(path):
    spec = importlib.util.spec_from_file_location("profile_metrics", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_case(pm, lineno, formula, names, values, expect):
    where = "line %d: %r" % (lineno, formula)
    if expect == "refused":
        try:
            pm.compile_formula(formula)
            check(False, where + " read, expected refused")
        except ValueError:
            pass
        check(pm.evaluate({"formula": formula, "terms": {}}, []) is None, where + " gives no value")
        return
    try:
        prog, got = pm.compile_formula(formula)
    except ValueError as e:
        check(False, "%s refused: %s" % (where, e))
        return
    want = [] if names == "-" else names.split()
    check(got == want, "%s names %s, want %s" % (where, got, want))
    counts = [] if values == "-" else [float(v) for v in values.split()]
    v = pm.evaluate({"formula": formula, "terms": {n: i for i, n in enumerate(want)}}, counts)
    if expect in ("zero", "infinite") or any(op[0] == "time" for op in prog):
        check(v is None, "%s = %r, want no value" % (where, v))
    else:
        w = float(expect)
        check(v is not None and (v == w or abs(v - w) <= 1e-12 * max(abs(w), 1e-300)),
              "%s = %r, want %r" % (where, v, w))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_metric_formula_cases.py CASES PROFILE_METRICS_PY")
    pm = load(sys.argv[2])
    cases = 0
    for lineno, fields in case_lines(sys.argv[1]):
        if len(fields) != 5:
            check(False, "line %d: 5 fields expected" % lineno)
            continue
        run_case(pm, lineno, fields[0], *fields[1:3], fields[4])
        cases += 1
    check(cases >= 40, "%d cases read" % cases)
    print("%d cases: %s" % (cases, "PASSED" if not FAILURES else "FAILED (%d)" % len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
