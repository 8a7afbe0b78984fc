#!/usr/bin/env python3
"""The hybrid parallel efficiency of an unchanged MPI x OpenMP program (issue 58 item 2):
mpi_hybrid.c (2 ranks x 2 threads) run as `mpirun -np 2 papi_run -o D -- prog`: papi_run
preloads the MPI wrapper and names the OMPT tool (libomp in place of libgomp), and at
MPI_Finalize each rank's tool hands the wrapper its OpenMP sums. The report's
wait_states.openmp and the banner line give, each within 0.05 of the staged answer formed
from the program's own clocks (MPI parallel efficiency mean(wall - MPI) / max wall,
OpenMP serialization sum(region) / sum(wall - MPI), load balance sum(work) / sum(2 max
work), nominally 0.75, scheduling sum(2 max work) / sum(2 region), nominally 1):
the MPI and OpenMP parallel efficiencies, and the hybrid one equal to their product.
--launch preload: the wrapper alone in LD_PRELOAD, after libomp.so.5 (the program is
gcc's, libgomp): the wrapper names the tool itself (OMP_TOOL_LIBRARIES unset), beside it
in papi-compat/ (the build tree's link); the same answers.
--launch gomp: the wrapper alone, no libomp: libgomp has no OMPT, so no OpenMP figures
(null), and the report's note and one banner line say why and what to do.
Usage: check_hybrid.py --mpirun M --program P --launch papi_run --papi-run PAPI_RUN
  --libdir DIR | --launch preload|gomp --wrapper LIB"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, rank_env, run_cmd, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402

TOL = 0.05


def staged(ranks):
    """The answers from the ranks' own clocks."""
    useful = [r["wall_s"] - r["mpi_s"] for r in ranks]
    mpi = sum(useful) / len(useful) / max(r["wall_s"] for r in ranks)
    ser = sum(r["region_s"] for r in ranks) / sum(useful)
    lb = sum(sum(r["work_s"]) for r in ranks) / sum(2 * max(r["work_s"]) for r in ranks)
    sched = sum(2 * max(r["work_s"]) for r in ranks) / sum(2 * r["region_s"] for r in ranks)
    return {"mpi_parallel_efficiency": mpi, "serialization": ser, "load_balance": lb,
            "scheduling": sched, "parallel_efficiency": ser * lb * sched}


def main():
    ap = argparse.ArgumentParser()
    for a in ("--mpirun", "--program", "--launch"):
        ap.add_argument(a, required=True)
    for a in ("--papi-run", "--libdir", "--wrapper"):
        ap.add_argument(a)
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="mpi_hybrid_")
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    env.pop("OMP_TOOL_LIBRARIES", None)
    if args.launch == "papi_run":
        cmd = [args.mpirun, "-np", "2", args.papi_run, "--quiet", "-o", out, "--", args.program]
        env["PAPI_RUN_LIBDIR"] = args.libdir
    elif args.launch == "gomp":
        cmd = [args.mpirun, "-np", "2"] + rank_env(args.mpirun, {"LD_PRELOAD": args.wrapper,
                                                                  "PAPI_MPI_OUTPUT_DIR": out})
        cmd += [args.program]
    else:
        ldconfig = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
        if not any(ln.strip().startswith("libomp.so.5 ") for ln in ldconfig.splitlines()):
            print("SKIPPED: LLVM's libomp.so.5 is not installed (Debian: libomp5-14)")
            return 77
        ranks_env = {"LD_PRELOAD": "libomp.so.5:" + args.wrapper, "PAPI_MPI_OUTPUT_DIR": out}
        cmd = [args.mpirun, "-np", "2"] + rank_env(args.mpirun, ranks_env) + [args.program]
    p = run_cmd(cmd, env=env)
    check(p.returncode == 0, "exit status %d" % p.returncode)
    ranks = sorted((json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith('{"rank"')),
                   key=lambda r: r["rank"])
    path = os.path.join(out, "papi_mpi_report.json")
    if not (check(len(ranks) == 2, "both ranks' clocks printed") and
            check(os.path.exists(path), "the MPI report written")):
        return verdict("mpi_hybrid_" + args.launch)
    bad = schema_check.check_file(path)
    check(bad is None, "the report follows mpi_report.schema.json: %s" % bad)
    with open(path, encoding="utf-8") as f:
        o = json.load(f)["wait_states"]["openmp"]
    if args.launch == "gomp":
        check(o["ranks_measured"] == 0 and o["hybrid_parallel_efficiency"] is None and
              o["parallel_efficiency"] is None, "no OpenMP figures: %s" % o)
        check(o["note"].startswith("libgomp (gcc, gfortran) runs the program, which has no OMPT"),
              "the note says why: %s" % o["note"])
        said = [ln for ln in p.stdout.splitlines() if ln.startswith("papi_mpi: OpenMP: 2 of 2 ranks: libgomp")]
        check(len(said) == 1 and "papi_run" in said[0], "one banner line says why and what to do: %s" % said)
        return verdict("mpi_hybrid_gomp", scratch=out)
    want = staged(ranks)
    print("report:", o)
    print("staged:", want)
    check(o["ranks_measured"] == 2 and o["note"] == "", "both ranks measured by the tool")
    for k, v in want.items():
        got = o.get(k)
        check(got is not None and abs(got - v) <= TOL, "%s %s, staged %.4f +- %g" % (k, got, v, TOL))
    mpi, omp, hyb = o["mpi_parallel_efficiency"], o["parallel_efficiency"], o["hybrid_parallel_efficiency"]
    check(hyb is not None and abs(hyb - mpi * omp) <= 2e-6, "hybrid %s = MPI %s x OpenMP %s" % (hyb, mpi, omp))
    check(abs(hyb - want["mpi_parallel_efficiency"] * want["parallel_efficiency"]) <= TOL,
          "hybrid %s, the staged product +- %g" % (hyb, TOL))
    line = [ln for ln in p.stdout.splitlines() if "papi_mpi: hybrid parallel efficiency" in ln]
    check(len(line) == 1 and ("= MPI parallel efficiency %.3f x OpenMP parallel efficiency %.3f"
                              % (mpi, omp)) in line[0] and ("efficiency %.3f =" % hyb) in line[0],
          "the banner prints it: %s" % line)
    rc = verdict("mpi_hybrid_" + args.launch)
    if rc == 0:
        shutil.rmtree(out, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
