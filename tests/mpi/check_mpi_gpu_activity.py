#!/usr/bin/env python3
"""check_mpi_gpu_activity.py --mpirun MPIRUN --program PROG --records FILE --cupti DIR
[--np 2] [--checkpoint]: each rank's GPU activity in its row (mpi_gpu_activity.c on the
CUPTI double in DIR): rank r launched FILE (tests/gpu_activity/region/a.txt) r + 1
times, the last time just before MPI_Finalize, so its row's gpu.total is exact only if
the wrapper flushed CUPTI there: per device busy 2200 and 300 ns, 3 + 1 kernels, 4096 B
host to device, 1000 B back, 700 ns of synchronisation, each times r + 1. With
--checkpoint the ranks end without MPI_Finalize after two checkpoints: each rank's
checkpoint row holds the same. Every file follows its schema."""
import glob
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402
from mpi_check import check, launch_args, rank_env, run_cmd, verdict, wait_ranks_gone  # noqa: E402

args = launch_args(more=("--records", "--cupti"),
                   options={"--checkpoint": {"action": "store_true"}})


def check_rank(where, rank, gpu):
    k = rank + 1
    act = (gpu or {}).get("activity", {})
    check(act.get("on") is True and act.get("reason") == "" and act.get("records") == 7 * k,
          "%s: rank %d: GPU activity on, %d records (%s)" % (where, rank, 7 * k, act))
    tot = (gpu or {}).get("total", {})
    devices = {d["device"]: d["busy_ns"] for d in tot.get("devices", [])}
    check(devices == {0: 2200 * k, 1: 300 * k},
          "%s: rank %d: busy per device %s, want %s" % (where, rank, devices, {0: 2200 * k, 1: 300 * k}))
    kernels = {(x["name"], x["device"]): (x["launches"], x["total_ns"]) for x in tot.get("kernels", [])}
    want = {("square(float*, int)", 0): (3 * k, 2700 * k), ("plain_kernel", 1): (k, 300 * k)}
    check(kernels == want, "%s: rank %d: kernels %s, want %s" % (where, rank, kernels, want))
    copies = {d: (v["count"], v["bytes"]) for d, v in tot.get("copies", {}).items()}
    check(copies == {"HtoD": (k, 4096 * k), "DtoH": (k, 1000 * k)},
          "%s: rank %d: copies %s" % (where, rank, copies))
    check(tot.get("sync") == {"count": k, "ns": 700 * k},
          "%s: rank %d: sync %s" % (where, rank, tot.get("sync")))


with tempfile.TemporaryDirectory() as d:
    env = {"LD_LIBRARY_PATH": args.cupti, "PAPI_MPI_OUTPUT_DIR": d}
    argv = [args.program, args.records]
    if args.checkpoint:
        env["PAPI_MPI_CHECKPOINT"] = "0.5"
        argv.append("checkpoint")
    p = run_cmd([args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, env) + argv)
    if args.checkpoint:
        wait_ranks_gone(d)
        rows = sorted(glob.glob(os.path.join(d, "papi_mpi_rank*.checkpoint.json")))
        check(len(rows) == args.np, "%d checkpoint rows, want %d" % (len(rows), args.np))
        for path in rows:
            bad = schema_check.check_file(path)
            check(bad is None, "%s follows mpi_row.schema.json: %s" % (path, bad))
            with open(path) as f:
                row = json.load(f)
            check_rank("checkpoint", row["rank"], row.get("gpu"))
        sys.exit(verdict())
    check(p.returncode == 0, "-np %d: exit 0" % args.np)
    path = os.path.join(d, "papi_mpi_report.json")
    if not check(os.path.exists(path), "report written"):
        sys.exit(verdict())
    bad = schema_check.check_file(path)
    check(bad is None, "the report follows mpi_report.schema.json: %s" % bad)
    with open(path) as f:
        rep = json.load(f)
    ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
    check(len(ranks) == args.np, "%d rank rows" % len(ranks))
    for r in ranks:
        check_rank("MPI_Finalize", r["rank"], r.get("gpu"))
sys.exit(verdict())
