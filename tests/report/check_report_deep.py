#!/usr/bin/env python3
"""check_report_deep.py PAPI_REPORT: a region tree 900 levels deep is reported in seconds
(issue 46: 400 s). Each level holds more time than its parent's other children, so the
region x rank and region x thread heat maps show the deepest regions, whose paths are
thousands of characters: drawn whole as tick labels they cost minutes and overflowed the
rasterizer (two figures failed). Two threads, one event. The run must end with status 0
(every figure drawn) in under 90 s (a few seconds on an idle machine; the bound leaves
room for a loaded 2-core one), the tree whole in region_tree.csv, and every tick label of
the heat maps short. Exit 0 pass, 1 fail."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

DEPTH = 900
EV = "perf::PAGE-FAULTS"
from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
import region_file  # noqa: E402 (tests/common/region_file.py)
from region_file import region, region_doc  # noqa: E402


def deep_file(folder):
    # inclusive values grow with depth: the deepest rows first
    regs = {str(i): region("level_%03d_of_the_recursion" % i, i - 1, 1000 * (i + 1), {EV: i})
            for i in range(DEPTH)}
    region_file.write(folder, region_doc({"11": regs, "12": regs}, events=[EV]))


def main():
    tool = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "papi_hl_output")
        deep_file(src)
        out = os.path.join(d, "out")
        t0 = time.monotonic()
        p = subprocess.run([sys.executable, tool, "--regions", src, "-o", out, "--json"],
                           capture_output=True, text=True, timeout=900)
        took = time.monotonic() - t0
        print("papi_report on a %d-level tree: %.1f s, exit %d" % (DEPTH, took, p.returncode))
        check(p.returncode == 0, "exit %d, want 0 (every figure drawn): %s" % (p.returncode, p.stderr[-1500:]))
        check(took < 90, "%.1f s for a %d-level tree, want under 90 s" % (took, DEPTH))
        try:
            why = report_check.violation("papi_report", json.loads(p.stdout), "papi_report --json")
        except ValueError as e:
            why = "not JSON: %s" % e
        check(why is None, "papi_report --json: %s" % why)
        try:
            with open(os.path.join(out, "region_tree.csv")) as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            rows = []
            check(False, "no region_tree.csv: %s" % e)
        check(len(rows) == DEPTH and max((int(r["depth"]) for r in rows), default=-1) == DEPTH - 1,
              "region_tree.csv: %d rows, deepest %s, want %d and %d"
              % (len(rows), max((r["depth"] for r in rows), default=None), DEPTH, DEPTH - 1))
        # The heat maps' labels, from the module as the page draws them.
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(tool))))
        import papi_report
        from papi_report.figures import figures
        t = papi_report.tables(regions=src)
        fig = figures.region_by_rank(t)
        labels = [x.get_text() for x in fig.axes[0].get_yticklabels()]
        check(len(labels) == figures.MAX_ROWS and max(len(x) for x in labels) <= figures.LABEL_CHARS,
              "region-by-rank: %d labels, the longest %d characters, want %d of at most %d"
              % (len(labels), max(len(x) for x in labels), figures.MAX_ROWS, figures.LABEL_CHARS))
        check(len(set(labels)) == len(labels), "region-by-rank: labels are not distinct: %s" % labels[:5])
        check(labels[0].startswith("level_000_of_the_recursion/") and labels[0].endswith("level_899_of_the_recursion"),
              "region-by-rank: the first row is the deepest region, outermost and innermost named: %r" % labels[0])
    return verdict("check_report_deep")


if __name__ == "__main__":
    sys.exit(main())
