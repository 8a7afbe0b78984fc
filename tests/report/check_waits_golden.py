#!/usr/bin/env python3
"""check_waits_golden.py DIR: the wait rules' golden cases (issue 57 item 3), no MPI
needed. DIR/expected.json holds the wrapper's own wait states (wait_states.c at
MPI_Finalize) of one run of each staged mode of tests/mpi/mpi_waits.c, DIR/<mode>/ the
event logs of the same run: papi_report's event_logs.py (a dead job's recomputation)
must give every rank's every wait kind within TOL and the same matched receives and
collectives. ctest mpi_waits_differential runs the same comparison live, on both MPIs.
Exit 0 pass, 1 fail, 77 without pandas (the package needs it)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
try:
    from papi_report.load import event_logs, mpi_rules  # noqa: E402
except ImportError as e:
    print("SKIPPED: %s" % e)
    sys.exit(77)

TOL = 0.0005  # s: the wrapper interpolates the clock offsets to MPI_Finalize's, the log has MPI_Init's
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL", what)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_waits_golden.py DIR")
    with open(os.path.join(sys.argv[1], "expected.json"), encoding="utf-8") as f:
        expected = json.load(f)
    seen = {k: 0.0 for k in mpi_rules.REPORT_KEYS}
    for mode in sorted(m for m in expected if not m.startswith("_")):
        want = expected[mode]
        rows, stats, _ = event_logs.wait_states(event_logs.load(os.path.join(sys.argv[1], mode)))
        got = {str(r["rank"]): r for r in rows}
        check(sorted(got) == sorted(want["ranks"]), "%s: ranks %s" % (mode, sorted(got)))
        worst = 0.0
        for rank, kinds in want["ranks"].items():
            check(sorted(kinds) == sorted(mpi_rules.REPORT_KEYS), "%s: kinds %s" % (mode, sorted(kinds)))
            for k in mpi_rules.REPORT_KEYS:
                c, py = kinds.get(k, 0.0), got.get(rank, {}).get(k)
                seen[k] = max(seen[k], c)
                check(py is not None and abs(py - c) <= TOL,
                      "%s: rank %s %s: wrapper %.6f, papi_report %s" % (mode, rank, k, c, py))
                worst = max(worst, abs((py or 0.0) - c))
        check(stats["coll_matched"] == want["collectives_matched"] and
              stats["p2p_matched"] == want["p2p_matched"],
              "%s: matched collectives %d, receives %d; the wrapper's %d, %d" % (
                  mode, stats["coll_matched"], stats["p2p_matched"], want["collectives_matched"],
                  want["p2p_matched"]))
        print("%s: %d ranks, largest difference %.1f us" % (mode, len(got), worst * 1e6))
    for k, v in seen.items():
        check(v >= 0.05, "%s: met by some case (%.3f s at most)" % (k, v))
    print("check_waits_golden: %s" % ("PASSED" if not FAILURES else "FAILED (%d)" % len(FAILURES)))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
