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
Each launch then runs papi_report on the job's directory: its openmp_hybrid table is the
report's wait_states.openmp (every figure, the note), shown in report.txt; under papi_run
its openmp_processes has both ranks' tables, those their papi_run files carry; --compare
of the job with itself has its hybrid and OpenMP efficiencies as job rows, the same.
Usage: check_hybrid.py --mpirun M --program P --launch papi_run --papi-run PAPI_RUN
  --libdir DIR | --launch preload|gomp --wrapper LIB"""
import csv
import json
import os
import sys
import tempfile

from mpi_check import check, job_report, run_cmd, verdict
import hybrid_launch
import llvm_libomp  # (tests/common, on the path by mpi_check)

HERE = os.path.dirname(os.path.abspath(__file__))

TOL = 0.05
REPORT = os.path.join(HERE, "..", "..", "python", "papi_report.py")
HYBRID = ("ranks_measured", "serialization", "load_balance", "scheduling", "parallel_efficiency",
          "mpi_parallel_efficiency", "hybrid_parallel_efficiency", "on_cpu", "cpu_load_balance", "note")
CPU_KEYS = {"on_cpu": "on_cpu", "cpu_load_balance": "load_balance"}


def report_checks(out, o, launch):
    """papi_report on the job's directory: the hybrid line and (papi_run) the ranks' tables."""
    dest = os.path.join(out, "report")
    p = run_cmd([sys.executable, REPORT, out, "-o", dest])
    if not check(p.returncode == 0, "papi_report reads the job's directory: exit %d" % p.returncode):
        return
    with open(os.path.join(dest, "openmp_hybrid.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    if check(len(rows) == 1, "papi_report's openmp_hybrid: one row (%d)" % len(rows)):
        for k in HYBRID:
            got, want = rows[0][k], ((o["cpu_time"] or {}).get(CPU_KEYS[k]) if k in CPU_KEYS else o[k])
            same = got == want if isinstance(want, str) else (
                got == "" if want is None else got != "" and abs(float(got) - want) <= 1e-9)
            check(same, "openmp_hybrid %s %r, the report's %r" % (k, got, want))
    with open(os.path.join(dest, "report.txt"), encoding="utf-8") as f:
        check("Hybrid MPI x OpenMP parallel efficiency" in f.read(), "report.txt shows the hybrid line")
    if launch != "gomp":  # the job against itself: its hybrid line compared, the same
        cmp = os.path.join(out, "compare")
        p = run_cmd([sys.executable, REPORT, "--compare", out, out, "-o", cmp])
        with open(os.path.join(cmp, "compare.csv"), newline="") as f:
            got = {r["quantity"]: r for r in csv.DictReader(f) if r["scope"] == "job"}
        h = got.get("hybrid_parallel_efficiency")
        check(p.returncode == 0 and h is not None and abs(float(h["a"]) - o["hybrid_parallel_efficiency"]) <= 1e-9
              and h["verdict"] == "same" and "openmp_parallel_efficiency" in got,
              "--compare: the job's hybrid and OpenMP parallel efficiency rows: %s" % h)
    if launch == "papi_run":
        with open(os.path.join(dest, "openmp_processes.csv"), newline="") as f:
            procs = list(csv.DictReader(f))
        check(sorted(r["rank"] for r in procs) == ["0", "1"] and
              all(r["source"] == "papi_run rank %s" % r["rank"] for r in procs),
              "openmp_processes: both ranks' tables from their papi_run files: %s"
              % [(r["rank"], r["source"]) for r in procs])


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
    args = hybrid_launch.parse_args()
    out = tempfile.mkdtemp(prefix="mpi_hybrid_")
    if args.launch not in ("papi_run", "gomp"):
        llvm_libomp.require()
    cmd, env = hybrid_launch.command(args, out, args.launch, args.program)
    if args.launch == "papi_run":  # each thread's CPU time per region, as papi_run(1) says
        env["PAPI_OMPT_EVENTS"] = "perf::TASK-CLOCK"
    p = run_cmd(cmd, env=env)
    check(p.returncode == 0, "exit status %d" % p.returncode)
    ranks = sorted((json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith('{"rank"')),
                   key=lambda r: r["rank"])
    rep = job_report(out) if check(len(ranks) == 2, "both ranks' clocks printed") else None
    if rep is None:
        return verdict("mpi_hybrid_" + args.launch)
    o = rep["wait_states"]["openmp"]
    if args.launch == "gomp":
        check(o["ranks_measured"] == 0 and o["hybrid_parallel_efficiency"] is None and
              o["parallel_efficiency"] is None, "no OpenMP figures: %s" % o)
        check(o["note"].startswith("libgomp (gcc, gfortran) runs the program, which has no OMPT"),
              "the note says why: %s" % o["note"])
        said = [ln for ln in p.stdout.splitlines() if ln.startswith("papi_mpi: OpenMP: 2 of 2 ranks: libgomp")]
        check(len(said) == 1 and "papi_run" in said[0], "one banner line says why and what to do: %s" % said)
        report_checks(out, o, args.launch)
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
    cpu_checks(p.stdout, o, args.launch)
    report_checks(out, o, args.launch)
    return verdict("mpi_hybrid_" + args.launch, scratch=out)


def cpu_checks(stdout, o, launch):
    """The job's factors on CPU time (issue 73 item 5): under papi_run with
    PAPI_OMPT_EVENTS=perf::TASK-CLOCK (not its default: a software event costs a read() per
    region and thread) each thread's task clock is counted, and the staged threads sleep
    through their work, so they were on a CPU for a small part of it (at most 20 %), said in
    one banner line with both balances; preloaded without events, no task clock: null,
    nothing said."""
    c = o.get("cpu_time")
    said = [ln for ln in stdout.splitlines() if ln.startswith("papi_mpi: OpenMP: the threads were on a CPU")]
    if launch != "papi_run":
        check(c is None and not said, "no task clock counted: cpu_time null, nothing said: %s %s" % (c, said))
        return
    if not check(isinstance(c, dict) and c["on_cpu"] is not None and c["on_cpu"] <= 0.2 and
                 c["load_balance"] is not None and 0 <= c["load_balance"] <= 1,
                 "cpu_time: the sleeping threads on a CPU at most 20%% of their work: %s" % c):
        return
    check(len(said) == 1 and ("on a CPU %.0f%% of their work time" % (100 * c["on_cpu"])) in said[0]
          and ("load balance on CPU time %.3f, on wall time %.3f" % (c["load_balance"], o["load_balance"]))
          in said[0], "one banner line gives both balances: %s" % said)


if __name__ == "__main__":
    sys.exit(main())
