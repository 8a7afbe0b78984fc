#!/usr/bin/env python3
"""MPI time under MPI_THREAD_MULTIPLE (mpi_threads.c's "time" pattern: 4 threads blocked
in MPI at the same time for nearly the whole run). Per rank, in the JSON row and the summary CSV:
mpi_s (the wall-clock union of the time any thread spent in MPI) is at most wall_s, so
the compute time is never negative, and covers the pauses the workers spent blocked;
mpi_thread_sum_s (the threads' own times added up) is there and at least twice mpi_s.
Across ranks: mpi_pct at most 100, compute_s at least 0.
Usage: check_thread_time.py --mpirun M --np P --program PROG"""
import csv
import json
import os
import shutil
import sys
import tempfile

from mpi_check import check, launch_args, rank_env, run_cmd, verdict

ROUNDS, PAUSE_S = 10, 0.030  # mpi_threads.c: TIME_ROUNDS, TIME_PAUSE_MS


def main():
    args = launch_args()
    out = tempfile.mkdtemp(prefix="papi_mpi_thread_time_")
    try:
        p = run_cmd([args.mpirun, "-np", str(args.np)] +
                    rank_env(args.mpirun, {"PAPI_MPI_OUTPUT_DIR": out}) +
                    [args.program, "0", "time"], tail=4000)
        if "SKIPPED" in p.stdout:
            return 77
        if not check(p.returncode == 0, f"exit status {p.returncode}"):
            return verdict()
        with open(os.path.join(out, "papi_mpi_report.json"), encoding="utf-8") as f:
            rep = json.load(f)
        with open(os.path.join(out, "papi_mpi_summary.csv"), encoding="utf-8") as f:
            csv_rows = {int(r["rank"]): r for r in csv.DictReader(f)}
        for r in rep["ranks"]:
            k, wall, mpi = r["rank"], r["wall_s"], r["mpi_s"]
            tsum = r.get("mpi_thread_sum_s")
            print(f"rank {k}: wall {wall} s, in MPI {mpi} s (union), threads' sum {tsum} s")
            check(r["threads"] == 5, f"rank {k}: 5 threads made MPI calls ({r['threads']})")
            check(mpi <= wall, f"rank {k}: time in MPI {mpi} s > wall {wall} s")
            check(wall - mpi >= 0, f"rank {k}: compute time {wall - mpi} s < 0")
            check(mpi >= 0.8 * ROUNDS * PAUSE_S,
                  f"rank {k}: time in MPI {mpi} s covers the workers' waits")
            if check(tsum is not None, f"rank {k}: mpi_thread_sum_s in the row"):
                check(tsum >= 2 * mpi, f"rank {k}: threads' sum {tsum} s >= 2 x union {mpi} s")
            c = csv_rows.get(k, {})
            check(c.get("mpi_s") is not None and float(c["mpi_s"]) <= float(c["wall_s"]),
                  f"rank {k}: CSV mpi_s <= wall_s: {c}")
            check(c.get("mpi_thread_sum_s") is not None and tsum is not None and
                  abs(float(c["mpi_thread_sum_s"]) - tsum) < 1e-6,
                  f"rank {k}: CSV mpi_thread_sum_s as in the JSON: {c}")
        m = rep["metrics"]
        check(m["mpi_pct"]["max"] <= 100, f"mpi_pct max {m['mpi_pct']['max']} <= 100")
        check(m["compute_s"]["min"] >= 0, f"compute_s min {m['compute_s']['min']} >= 0")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
