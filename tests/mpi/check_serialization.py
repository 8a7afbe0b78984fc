#!/usr/bin/env python3
"""One serialization per run (issue 69 item 5): mpi_serialization.c (2 ranks x 2 threads,
nominal serialization 0.75) run as `mpirun -np 2 papi_run --trace json -o D -- prog`:
papi_run preloads the MPI wrapper and names the OMPT tool. Each rank's serialization as
papi_run's file gives it (the tool's table: outermost parallel time over the run's wall)
and as the wrapper's row gives it (outermost parallel time over the rank's time outside
MPI) agree within 0.02, and each is within 0.05 of the staged answer from the rank's own
clock (region / (wall - MPI)). Before, the tool counted the wrapper's MPI_Finalize work
(the report, the JSON trace of every MPI call, the files) as the program's serial time.
The tool's table says how much of the wrapper's work it left out (excluded_ns > 0), and
its wall_ns, that work left out, is the rank's own wall within 0.1 s (before, it was up to
0.8 s more).
Usage: check_serialization.py --mpirun M --program P --papi-run PAPI_RUN --libdir DIR"""
import argparse
import glob
import json
import os
import shutil
import sys
import tempfile

from mpi_check import check, run_cmd, verdict

AGREE = 0.02
TOL = 0.05


def main():
    ap = argparse.ArgumentParser()
    for a in ("--mpirun", "--program", "--papi-run", "--libdir"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="mpi_serialization_")
    env = dict(os.environ, OMP_WAIT_POLICY="passive", PAPI_RUN_LIBDIR=args.libdir)
    env.pop("OMP_TOOL_LIBRARIES", None)
    cmd = [args.mpirun, "-np", "2", args.papi_run, "--quiet", "--trace", "json", "-o", out,
           "--", args.program]
    p = run_cmd(cmd, env=env)
    check(p.returncode == 0, "exit status %d" % p.returncode)
    clocks = {r["rank"]: r for r in (json.loads(ln) for ln in p.stdout.splitlines()
                                     if ln.startswith('{"rank"'))}
    path = os.path.join(out, "papi_mpi_report.json")
    if not (check(sorted(clocks) == [0, 1], "both ranks' clocks printed") and
            check(os.path.exists(path), "the MPI report written") and
            check(os.path.exists(os.path.join(out, "papi_mpi_trace.json")),
                  "the wrapper's JSON trace written")):
        return verdict("mpi_serialization")
    with open(path, encoding="utf-8") as f:
        rows = {r["rank"]: r for r in json.load(f)["ranks"]}
    for k in (0, 1):
        c = clocks[k]
        staged = c["region_s"] / (c["wall_s"] - c["mpi_s"])
        files = glob.glob(os.path.join(out, "papi_run_output", "rank_%06d-*.json" % k))
        if not check(len(files) == 1, "rank %d: one papi_run file: %s" % (k, files)):
            continue
        with open(files[0], encoding="utf-8") as f:
            procs = json.load(f).get("openmp", {}).get("processes", [])
        if not check(len(procs) == 1, "rank %d: papi_run's file has the tool's table" % k):
            continue
        t = procs[0]
        ours = t["efficiency"]["serialization"]
        wrapper = rows[k].get("openmp", {}).get("efficiency", {}).get("serialization")
        print("rank %d: papi_run %s, wrapper %s, staged %.4f; tool wall %.3f s, excluded %.3f s, "
              "rank's wall %.3f s" % (k, ours, wrapper, staged, t["wall_ns"] * 1e-9,
                                      t.get("excluded_ns", 0) * 1e-9, c["wall_s"]))
        check(wrapper is not None and ours is not None and abs(ours - wrapper) <= AGREE,
              "rank %d: papi_run's serialization %s and the wrapper's %s agree within %g"
              % (k, ours, wrapper, AGREE))
        for who, v in (("papi_run", ours), ("wrapper", wrapper)):
            check(v is not None and abs(v - staged) <= TOL,
                  "rank %d: %s's serialization %s, staged %.4f +- %g" % (k, who, v, staged, TOL))
        check(t.get("excluded_ns", 0) > 0, "rank %d: the tool left the wrapper's work out: %s ns"
              % (k, t.get("excluded_ns")))
        check(abs(t["wall_ns"] * 1e-9 - c["wall_s"]) <= 0.1,
              "rank %d: the tool's wall %.3f s is the rank's own %.3f s +- 0.1 s"
              % (k, t["wall_ns"] * 1e-9, c["wall_s"]))
        print("rank %d: wrapper row wall_s %s mpi_s %s openmp %s" % (
            k, rows[k]["wall_s"], rows[k]["mpi_s"], rows[k].get("openmp")))
    rc = verdict("mpi_serialization")
    if rc == 0:
        shutil.rmtree(out, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
