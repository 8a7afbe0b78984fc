#!/usr/bin/env python3
"""bench_compare.py [NRANKS] [REPEATS] [PAPI_REPORT]: the time of `papi_report --compare A B` of two
NRANKS-rank MPI reports (default 10000: issue 47's goal is under 60 s). A is
bench_report_check.py's synthetic report (calls, counters, sizes, two partners per
rank, as the wrapper writes them); B is the same with every rank's wall time 1.5 x.
Runs the command REPEATS times (default 1) and prints each wall time and the rows
written. PAPI_REPORT: another papi_report.py to time (an older tree's), default this
tree's. Run from the source tree: python3 bench/python/bench_compare.py"""
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_report_check import report  # noqa: E402 (the same synthetic report)

TOOL = os.path.join(HERE, "..", "..", "python", "papi_report.py")


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    tool = sys.argv[3] if len(sys.argv) > 3 else TOOL
    d = tempfile.mkdtemp(prefix="bench_compare_")
    for side, scale in (("A", 1.0), ("B", 1.5)):
        doc = report(n)
        for r in doc["ranks"]:
            r["wall_s"] *= scale
        os.makedirs(os.path.join(d, side))
        with open(os.path.join(d, side, "papi_mpi_report.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f)
    print("bench_compare: %d ranks a side, %s" % (n, d))
    for i in range(repeats):
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, tool, "--compare", os.path.join(d, "A"),
                            os.path.join(d, "B"), "-o", os.path.join(d, "out")],
                           capture_output=True, text=True)
        took = time.perf_counter() - t0
        if p.returncode != 0:
            print(p.stderr[-2000:])
            return 1
        with open(os.path.join(d, "out", "compare.csv"), encoding="utf-8") as f:
            rows = sum(1 for _ in f) - 1
        print("run %d: %.1f s wall, %d rows (load average %s)" % (
            i + 1, took, rows, " ".join(open("/proc/loadavg").read().split()[:3])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
