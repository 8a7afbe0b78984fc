#!/usr/bin/env python3
"""mpi_threads under the wrapper: each rank's row sums its threads' calls, bytes and
page faults (threads that ended before MPI_Finalize included)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
from mpi_check import launch_args  # noqa: E402

report_check.guard()

NTHREADS, CALLS, MSG = 3, 50, 100


def run(args, out, pages):
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out)
    cmd = [args.mpirun, "-np", str(args.np), args.program, str(pages)] + args.extra
    p = subprocess.run(cmd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    print(p.stdout)
    if "SKIPPED" in p.stdout:
        sys.exit(77)
    if p.returncode != 0:
        print("FAIL: the MPI program failed")
        sys.exit(1)
    with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
        return {r["rank"]: r for r in json.load(f)["ranks"]}


def main():
    args = launch_args(options={"--pages": {"type": int, "default": 300},
                                "extra": {"nargs": "*", "help": "more arguments for the program (alive)"}})
    tmp = tempfile.mkdtemp(prefix="papi_mpi_threads_")
    try:
        os.makedirs(tmp + "/base")
        os.makedirs(tmp + "/run")
        base = run(args, tmp + "/base", 0)
        rows = run(args, tmp + "/run", args.pages)
        want_calls = {"MPI_Init_thread": (1, 0, 0), "MPI_Comm_rank": (1 + NTHREADS * CALLS, 0, 0),
                      "MPI_Sendrecv": (NTHREADS, NTHREADS * MSG, NTHREADS * MSG),
                      "MPI_Finalize": (1, 0, 0)}
        pf = "perf::PAGE-FAULTS"
        for k in range(args.np):
            r = rows[k]
            got = {n: (c["calls"], c["bytes_sent"], c["bytes_recv"]) for n, c in r["calls"].items()}
            check(got == want_calls, f"rank {k}: got {got} want {want_calls}")
            check(r["threads"] == 1 + NTHREADS, f"rank {k} threads {r['threads']}")
            if pf in r["counters"]:
                want = args.pages * (1 + sum(t + 1 for t in range(NTHREADS)))
                b = base[k]["counters"][pf]
                print(f"rank {k}: {pf} {r['counters'][pf]} (touched {want}, baseline {b})")
                check(want <= r["counters"][pf] <= want + 2 * b + 64, f"rank {k} page faults")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
