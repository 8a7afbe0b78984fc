#!/usr/bin/python3
"""synthetic_mpi_report.py PATH NRANKS: an MPI report of NRANKS ranks as the wrapper writes
it (calls, counters, message sizes, two ring partners per rank, a region), written a row
at a time (the writer's memory does not grow with NRANKS), and what its tables must
hold: expected(n) (tests/report/check_mpi_report_stream.py, bench/README.md's figures)."""
import json
import sys

CALLS = (("MPI_Init", 1, 0.3), ("MPI_Isend", 2, 0.25), ("MPI_Recv", 2, 0.5), ("MPI_Finalize", 1, 0.01))


def row(r, n):
    b = (r + 1) * 8
    return {"rank": r, "finished": True, "threads": 1, "wall_s": 2.0 + r / n, "mpi_s": 1.0,
            "counters": {"perf::PAGE-FAULTS": 1000 + r % 97, "perf::TASK-CLOCK": 5e8 + r},
            "calls": {c: {"calls": k, "time_s": t, "bytes_sent": 2 * b if c == "MPI_Isend" else 0,
                          "bytes_recv": 0} for c, k, t in CALLS},
            "sizes": {"MPI_Isend": [{"bucket": b.bit_length(), "calls": 2, "time_s": 0.25}]},
            "partners": [{"rank": (r + 1) % n, "sends": 1, "bytes_sent": b, "time_s": 0.1},
                         {"rank": (r - 1) % n, "sends": 1, "bytes_sent": b, "time_s": 0.1}],
            "partners_dropped": 0}


def write(path, n, edit=None):
    """The report of n ranks at path; edit(r, row) may change a row (a fault to find)."""
    head = {"tool": "papi_mpi", "run_id": "synthetic", "nranks": n, "finished_ranks": n,
            "events": ["perf::PAGE-FAULTS", "perf::TASK-CLOCK"]}
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(head)[:-1] + ', "ranks": [\n')
        for r in range(n):
            x = row(r, n)
            if edit:
                x = edit(r, x)
            f.write((",\n" if r else "") + json.dumps(x, separators=(",", ":")))
        f.write("\n]}\n")


def expected(n):
    """What the tables of the report of n ranks hold: the calls' sums, the wall time."""
    sent = sum(2 * (r + 1) * 8 for r in range(n))
    return {"calls": {c: k * n for c, k, _t in CALLS},
            "time_s": {c: t * n for c, _k, t in CALLS},
            "bytes_sent": sent, "wall_max_s": 2.0 + (n - 1) / n}


if __name__ == "__main__":
    write(sys.argv[1], int(sys.argv[2]))
