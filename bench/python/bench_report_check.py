#!/usr/bin/env python3
"""bench_report_check.py [NRANKS] [REPEATS]: what checking an MPI report (its schema, then
check.py's rules a schema cannot say) adds to papi_report's time. Writes an NRANKS-rank
report (default 100000: calls, counters, sizes and two partners per rank, as the wrapper
writes them), then times the
whole papi_report run (load and check, tables, figures, page, text) with the checks
and with them left out, alternately REPEATS times (default 1), and prints each with
the check's share. Run from the source tree: python3 bench/python/bench_report_check.py"""
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))


def report(n):
    ranks = []
    for r in range(n):
        b = (r + 1) * 8
        ranks.append({
            "rank": r, "finished": True, "threads": 1, "wall_s": 2.0 + r / n, "mpi_s": 1.0,
            "counters": {"perf::PAGE-FAULTS": 1000 + r % 97, "perf::TASK-CLOCK": 5e8 + r},
            "calls": {c: {"calls": k, "time_s": t, "bytes_sent": s, "bytes_recv": 0}
                      for c, k, t, s in (("MPI_Init", 1, 0.3, 0), ("MPI_Isend", 2, 0.25, 2 * b),
                                         ("MPI_Recv", 2, 0.5, 0), ("MPI_Finalize", 1, 0.01, 0))},
            "sizes": {"MPI_Isend": [{"bucket": b.bit_length(), "calls": 2, "time_s": 0.25}]},
            "partners": [{"rank": (r + 1) % n, "sends": 1, "bytes_sent": b, "time_s": 0.1},
                         {"rank": (r - 1) % n, "sends": 1, "bytes_sent": b, "time_s": 0.1}],
            "partners_dropped": 0})
    return {"tool": "papi_mpi", "nranks": n, "finished_ranks": n,
            "events": ["perf::PAGE-FAULTS", "perf::TASK-CLOCK"], "ranks": ranks}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    from papi_report.load import load, rank_rows
    from papi_report.load.check import _check_mpi as check_mpi
    from papi_report.load import schema_check
    import papi_report as pr
    from papi_report.page import html, text  # noqa: F401 (loaded before the clock runs)
    d = tempfile.mkdtemp(prefix="bench_report_check_")
    path = os.path.join(d, "papi_mpi_report.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report(n), f)
    schema_check.fast_checks()
    checked, cross = load._follows_schema, check_mpi
    saved = (rank_rows.MpiRowRules.row, rank_rows.finite, schema_check.part_check)

    def whole(check):
        # Without: neither the schema nor check.py's rules (the cross-field ones, NaN),
        # which load_mpi applies as it reads each row (rank_rows.read).
        load._follows_schema = checked if check else (lambda path, doc, kind, bad=None: None)
        rank_rows.MpiRowRules.row = saved[0] if check else (lambda self, i, r: None)
        rank_rows.finite = saved[1] if check else (lambda c, doc, at="$": None)
        schema_check.part_check = saved[2] if check else (lambda kind, *keys: None)
        t0 = time.perf_counter()
        t = pr.tables(mpi=path)
        t1 = time.perf_counter()
        html.write(t, os.path.join(d, "out"), "bench", [path], [])
        text.render(t, "bench", [path])
        return t1 - t0, time.perf_counter() - t0
    for _ in range(repeats):
        doc = load._load_json(path)
        t0 = time.perf_counter()
        why = schema_check.check_document(path, doc, "mpi_report")
        if why is None:
            cross(path, doc)
        alone = time.perf_counter() - t0
        load_on, on = whole(True)
        load_off, off = whole(False)
        print("%d ranks: papi_report %.1f s with the checks, %.1f s without (+%.1f%%); "
              "load+tables %.1f s vs %.1f s; the check alone %.2f s (%s)"
              % (n, on, off, 100.0 * (on - off) / off, load_on, load_off, alone,
                 "valid" if why is None else why))


if __name__ == "__main__":
    main()
