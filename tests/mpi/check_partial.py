#!/usr/bin/env python3
"""A run that never reaches MPI_Finalize leaves partial rows on disk.

mode abort: rank 1 of mpi_pattern calls MPI_Abort; its row must be on disk with
"finished": false, reason MPI_Abort and its calls so far counted exactly; ranks the
launcher killed may have no row (SIGKILL runs no exit path), those that have one must
parse. mode exit: every rank exits without MPI_Finalize: every rank's row is there (run it
with -np 1: with more, the launcher SIGKILLs the others as soon as one has exited). mode
signal: rank 0 gets SIGTERM: its handler writes its row, then the signal kills it.
With --checkpoint (PAPI_MPI_CHECKPOINT) every rank must have a row: the killed ones
their last snapshot. No final report may claim the ranks finished."""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

from mpi_check import check, verdict, wait_ranks_gone
import report_check  # noqa: E402 (on the path mpi_check set: tests/common)

SIZES = [0, 8, 1000, 65536]


def before_abort(rank, size):
    """Calls of mpi_pattern up to and including the MPI_Allreduce (then Abort/exit)."""
    e = {"MPI_Init": (1, 0, 0), "MPI_Comm_rank": (1, 0, 0), "MPI_Comm_size": (1, 0, 0)}
    if rank ^ 1 < size:
        b = 5 * sum(SIZES)
        odd = rank % 2
        e["MPI_Send"] = (20 + (0 if odd else 1), b + (0 if odd else 12), 0)
        e["MPI_Recv"] = (20 + (1 if odd else 0), 0, b + (12 if odd else 0))
        e["MPI_Isend"] = (1, 800, 0)
        e["MPI_Irecv"] = (1, 0, 800)
        e["MPI_Waitall"] = (1, 0, 0)
        e["MPI_Sendrecv"] = (1, 40, 40)
        if odd:
            e["MPI_Probe"] = (1, 0, 0)
    e["MPI_Bcast"] = (1, 800, 0) if rank == 0 else (1, 0, 800)
    e["MPI_Allreduce"] = (1, 40, 40)
    return e


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--mode", choices=["abort", "exit", "signal"], required=True)
    ap.add_argument("--preload", default="")
    ap.add_argument("--collect", required=True, help="papi_mpi_collect.py")
    ap.add_argument("--checkpoint", default="",
                    help="PAPI_MPI_CHECKPOINT: then the killed ranks must have a snapshot")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="papi_mpi_partial_", ignore_cleanup_errors=True) as out:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out)
        if args.preload:
            env["LD_PRELOAD"] = args.preload
        if args.checkpoint:
            env["PAPI_MPI_CHECKPOINT"] = args.checkpoint
        p = subprocess.run([args.mpirun, "-np", str(args.np), args.program, "10", args.mode],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=120)
        print(p.stdout)
        wait_ranks_gone(out)
        if args.mode != "exit":
            check(p.returncode != 0, "an aborted or killed run exits non-zero")
        check(not os.path.exists(os.path.join(out, "papi_mpi_report.json")),
              "no final report for a run that did not finish")
        # Exit rows (partial) win over checkpoints, a checkpoint over the one before it
        # (a rank killed while replacing it); no temporary may be left behind.
        files = sorted(glob.glob(os.path.join(out, "papi_mpi_rank*.checkpoint.prev.json")))
        files += sorted(glob.glob(os.path.join(out, "papi_mpi_rank*.checkpoint.json")))
        files += sorted(glob.glob(os.path.join(out, "papi_mpi_rank*.partial.json")))
        print("rows on disk:", [os.path.basename(f) for f in files])
        check(not glob.glob(os.path.join(out, ".*")), "no temporary file left: "
              + str(glob.glob(os.path.join(out, ".*"))))
        rows = {}
        for f in files:
            with open(f, encoding="utf-8") as fh:
                r = json.load(fh)
            rows[r["rank"]] = r
            check(r["finished"] is False, f"rank {r['rank']} marked unfinished")
        must = {"abort": [1], "signal": [0], "exit": list(range(args.np))}[args.mode]
        if args.checkpoint:
            must = list(range(args.np))  # the killed ranks left their last snapshot
        for k in must:
            check(k in rows, f"rank {k} row on disk")
        for k, r in rows.items():
            want = before_abort(k, args.np)
            if args.mode == "abort" and k == 1:
                want["MPI_Abort"] = (1, 0, 0)
                check(r.get("exit_reason") == "MPI_Abort", "rank 1 reason MPI_Abort")
            elif args.mode == "signal" and k == 0:
                check(r.get("exit_reason") == "signal 15", "rank 0 reason signal 15")
            elif args.mode == "exit":
                check(r.get("exit_reason") == "exit without MPI_Finalize", f"rank {k} reason")
            else:  # a killed rank: its last snapshot, counts stop wherever it was
                # Hydra SIGKILLs the other ranks (their last snapshot stays); Open MPI's
                # launcher first sends SIGTERM (their handler writes an exit row).
                if args.checkpoint:
                    check(r.get("exit_reason") in ("checkpoint", "signal 15"),
                          f"rank {k} reason checkpoint or signal 15: {r.get('exit_reason')}")
                    check(r["calls"].get("MPI_Init", {}).get("calls") == 1,
                          f"rank {k} snapshot counts MPI_Init")
                continue
            got = {n: (c["calls"], c["bytes_sent"], c["bytes_recv"]) for n, c in r["calls"].items()}
            check(got == want, f"rank {k} calls: got {got} want {want}")
            if args.mode == "signal" and k == 0:  # no PAPI_read in a signal handler
                check("counters" not in r and "signal handler" in r.get("counter_note", ""),
                      "rank 0: counters left out and said so")
                continue
            check(r["counters"].get("perf::PAGE-FAULTS", 10 * (k + 1)) >= 10 * (k + 1),
                  f"rank {k} page faults")
        # The collector tells which ranks finished, died with a row, or left nothing.
        c = subprocess.run([sys.executable, args.collect, out, "--np", str(args.np)],
                           stdout=subprocess.PIPE, text=True, check=False)
        print("collector:", c.stdout.strip())
        summary = json.loads(c.stdout)
        why = report_check.violation("papi_mpi_collect", summary, "papi_mpi_collect's output")
        check(why is None, "collector: its output breaks papi_mpi_collect.schema.json: %s" % why)
        check(summary["finished"] == [], "collector: no rank finished")
        check([r["rank"] for r in summary["partial"]] == sorted(rows), "collector: partial ranks")
        check(sorted(summary["missing"] + list(rows)) == list(range(args.np)),
              "collector: every rank is finished, partial or missing")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
