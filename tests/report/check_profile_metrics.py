#!/usr/bin/env python3
"""check_profile_metrics.py PAPI_RUN: papi_report's evaluation of papi_run --sample's -m metrics
(profile_metrics.py) on synthetic counts, exact: the library's grammar (precedence,
brackets, unary minus, bare and braced names, numbers as 1e6 and .5), names found by the
profile's "terms", a denominator of 0, a missing count and an unreadable formula giving
no value, and a function's value the ratio of its summed counts, not the mean of its
stacks' ratios; a function's min/mean/max over threads and its max thread (the job files
of the made-up profiles merged by PAPI_RUN --merge). Exit 0 pass, 1 fail."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from profile_fixture import job_of  # noqa: E402 (the job's profile papi_run --merge merges)
try:
    from papi_report.load import profile, profile_metrics  # noqa: E402
except ImportError as e:  # (the package needs pandas)
    print("SKIPPED: %s" % e)
    sys.exit(77)

FAILURES = []
PAPI_RUN = sys.argv[1]


def expect(formula, terms, counts, want):
    got = profile_metrics.evaluate({"name": "M", "unit": "", "formula": formula, "terms": terms}, counts)
    if got != want:
        FAILURES.append("%s over %s: %r, expected %r" % (formula, counts, got, want))


expect("{perf::PAGE-FAULTS} / {perf::TASK-CLOCK} * 1e6", {"perf::PAGE-FAULTS": 1, "perf::TASK-CLOCK": 0},
       [4000000, 10], 10 / 4000000 * 1e6)
expect("PAPI_TOT_INS / PAPI_TOT_CYC", {"PAPI_TOT_INS": 2, "PAPI_TOT_CYC": 1}, [0, 300, 900], 3.0)
expect("a + 2 * 3 - 4 / 2", {"a": 0}, [1], 5.0)  # a formula of no event is refused (metric_formula_cases.txt)
expect("(a + b) / -c", {"a": 0, "b": 1, "c": 2}, [1, 2, 4], -0.75)
expect("a - -b", {"a": 0, "b": 1}, [1, 2], 3.0)
expect(".5 * a", {"a": 0}, [3], 1.5)
expect("a / (b - b)", {"a": 0, "b": 1}, [1, 2], None)      # 0 denominator
expect("a / b", {"a": 0, "b": 5}, [1, 2], None)            # place past the counts
expect("a / (b", {"a": 0, "b": 1}, [1, 2], None)           # unreadable
expect("a b", {"a": 0, "b": 1}, [1, 2], None)
expect("{x::y} / 1e9 / time", {"x::y": 0}, [1], None)      # time: never per function
# Terms by name, else by place in the order the formula names them.
expect("b / a", {"a": 0, "b": 1}, [2, 6], 3.0)
expect("{ev-1} / {ev-2}", {"EV1": 1, "EV2": 0}, [2, 6], 3.0)

# A function's value is the ratio of its summed counts: stacks (100 ns, 1 fault) and
# (900 ns, 0 faults) of f give 1 / 1000 ns = 1000 faults/ms, not (10000 + 0) / 2.
doc = {"kind": "profile", "run": {"id": "r", "start": "s"}, "pid": 1, "rank": None,
       "events": ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"],
       "metrics": [{"name": "FAULTS_PER_MS", "unit": "faults/ms",
                    "formula": "{perf::PAGE-FAULTS} / {perf::TASK-CLOCK} * 1e6",
                    "terms": {"perf::PAGE-FAULTS": 1, "perf::TASK-CLOCK": 0}}],
       "frames": [{"name": "main"}, {"name": "f"}, {"name": "g"}],
       "stacks": [{"tid": 1, "samples": 1, "counts": [100, 1], "frames": [0, 1]},
                  {"tid": 1, "samples": 9, "counts": [900, 0], "frames": [0, 2, 1]},
                  {"tid": 1, "samples": 5, "counts": [500, 0], "frames": [0, 2]}]}
rows = {r["function"]: r for r in profile.functions(job_of(PAPI_RUN, [doc]))}
if rows["f"]["FAULTS_PER_MS"] != 1 / 1000 * 1e6 or rows["g"]["FAULTS_PER_MS"] != 0.0:
    FAILURES.append("functions: f %r (expected 1000), g %r (expected 0)"
                    % (rows["f"]["FAULTS_PER_MS"], rows["g"]["FAULTS_PER_MS"]))

# Over threads: f's self weight is 100 + 900 in thread 1 and 1500 in thread 2 of pid 1, 0
# in thread 3 (it sampled g only): min 0, mean 2500/3, max 1500 in "1/2"; g's max is
# thread 1's 500.
doc2 = dict(doc, stacks=doc["stacks"] + [
    {"tid": 2, "samples": 15, "counts": [1500, 0], "frames": [0, 1]},
    {"tid": 3, "samples": 2, "counts": [200, 0], "frames": [0, 2]}])
rows = {r["function"]: r for r in profile.functions(job_of(PAPI_RUN, [doc2]))}
got = {k: rows["f"].get(k) for k in ("thread min", "thread mean", "thread max", "max_thread")}
want = {"thread min": 0, "thread mean": 2500 / 3, "thread max": 1500, "max_thread": "1/2"}
if got != want:
    FAILURES.append("f over threads: %s, expected %s" % (got, want))
if (rows["g"]["max_thread"], rows["g"]["thread max"], rows["g"]["thread min"]) != ("1/1", 500, 0):
    FAILURES.append("g over threads: %s" % rows["g"])
if "thread max" in profile.functions(job_of(PAPI_RUN, [doc]))[0]:
    FAILURES.append("one thread: no thread spread expected")

for f in FAILURES:
    print("FAIL:", f)
print("check_profile_metrics: %s" % ("FAILED (%d)" % len(FAILURES) if FAILURES else "13 formulas and a function's ratio of sums"))
sys.exit(1 if FAILURES else 0)
