#!/usr/bin/env python3
"""check_mpi_metrics.py --mpirun MPIRUN --program PROG [--np 4]: named metrics in the MPI
report. Ranks use increasing CPU time (mpi_metrics.c): each rank's CPU_UTILIZATION (its
summed task-clock over its wall time) grows with the rank, the summary's max is on the
last rank and its min on rank 0, the mean is that of the ranks' values, the job's value
is the summed task-clock over the longest wall time, and the banner prints the metric.
An unknown PAPI_MPI_METRICS entry is said on stderr and the run still reports. Each
row's metric carries the running fraction of its events: 1 without multiplexing; with
PAPI_MULTIPLEX=1 (multiplexed software events, never descheduled here) in (0, 1], the
row says "multiplexed", rank 0 says it once on stderr, and every rank has its value; the
summary's named_metrics carry min (with its rank), mean and max of the rows' running
fractions, and the banner's metric line prints the least as perf stat does, "(xx.xx%
running, min on rank r)", only when multiplexed."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from mpi_check import launch_args  # noqa: E402
args = launch_args(np=4, options={"--metric-avail": dict(
    required=True, help="papi_metric_avail (says whether MEM_BW exists here)")})
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)


def run(metrics, d, **extra):
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=d, PAPI_MPI_METRICS=metrics, **extra)
    for k in ("PAPI_MPI_EVENTS", "PAPI_EVENTS") + (() if extra else ("PAPI_MULTIPLEX",)):
        env.pop(k, None)
    p = subprocess.run([args.mpirun, "-np", str(args.np), args.program], env=env,
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"PAPI_MPI_METRICS={metrics}: mpirun exits 0 ({p.stderr[-300:]})")
    with open(os.path.join(d, "papi_mpi_report.json")) as f:
        return json.load(f), p


with tempfile.TemporaryDirectory() as d:
    rep, p = run("CPU_UTILIZATION", d)
    P = args.np
    ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
    vals = [r["named_metrics"]["CPU_UTILIZATION"] for r in ranks]
    print("     per rank:", [round(v, 3) for v in vals])
    check(all(b > a for a, b in zip(vals, vals[1:])), "CPU_UTILIZATION grows with the rank")
    # Rank r spins (r + 1) x 0.05 s of CPU in at least 2 s: on a quiet machine rank 0 is
    # near 0.025 and rank P-1 near 0.025 P; on a loaded one the spinners stretch their wall
    # time and the values draw together, so the bound is the ratio, not the values.
    check(0 < vals[0] and vals[-1] <= 1.05 and vals[-1] >= 1.5 * vals[0],
          f"rank {P - 1} uses well over rank 0's CPU (ideally {P}x): {vals[-1] / max(vals[0], 1e-9):.2f}x")
    m = rep["metrics"]["CPU_UTILIZATION"]
    check(m["max_rank"] == P - 1 and m["min_rank"] == 0, f"summary: max on rank {P - 1}, min on 0")
    check(abs(m["mean"] - sum(vals) / P) < 1e-6, "summary mean is the mean of the ranks' values")
    nm = rep["named_metrics"]["CPU_UTILIZATION"]
    clocks = sum(r["counters"]["perf::TASK-CLOCK"] for r in ranks)
    job = clocks / 1e9 / max(r["wall_s"] for r in ranks)
    check(nm["unit"] == "CPUs" and nm["ranks_with_value"] == P and abs(nm["job"] - job) < 1e-3 * job,
          f"job value from summed counts over the longest wall: {nm['job']} vs {job}")
    check(any(l.strip().startswith("CPU_UTILIZATION") for l in p.stdout.splitlines()),
          "the banner prints CPU_UTILIZATION")
    rf = nm.get("running_fraction", {})
    check(rf.get("min") == 1 and rf.get("max") == 1 and rf.get("mean") == 1,
          f"not multiplexed: the summary's running fraction is 1 ({rf})")
    check("% running" not in p.stdout, "not multiplexed: the banner prints no running fraction")

with tempfile.TemporaryDirectory() as d:
    # Memory bandwidth is a socket's (one reader per socket); where this machine has no
    # MEM_BW (no uncore memory controller), the reason is said once and the other
    # metrics are still computed.
    rep, p = run("CPU_UTILIZATION,MEM_BW", d)
    has_bw = subprocess.run([args.metric_avail, "-m", "MEM_BW"], capture_output=True,
                            text=True).returncode == 0
    lines = [l for l in p.stderr.splitlines() if "MEM_BW" in l]
    ranks = rep["ranks"]
    check(all(r["named_metrics"].get("CPU_UTILIZATION") for r in ranks),
          "CPU_UTILIZATION is computed beside MEM_BW")
    if not has_bw:
        check(len(lines) == 1 and "'MEM_BW' is not defined" in lines[0],
              f"MEM_BW's reason once, as papi_metric_avail says: {lines}")
        check("MEM_BW" not in rep["named_metrics"] and
              not any("named_metrics_shared_by" in r for r in ranks), "and no MEM_BW in the report")
    else:  # a machine with memory controllers: one reader per socket, the figure shared
        sb = [r.get("named_metrics_shared_by", {}).get("MEM_BW") for r in ranks]
        check(all(isinstance(x, int) and x >= 1 for x in sb), f"every row says its sharing: {sb}")
        check("per_socket" in rep["named_metrics"].get("MEM_BW", {}), "the summary says per socket")

    fr = [r["named_metrics_running_fraction"]["CPU_UTILIZATION"] for r in ranks]
    check(fr == [1] * P and not any("multiplexed" in r for r in ranks),
          f"not multiplexed: every running fraction 1 ({fr})")

with tempfile.TemporaryDirectory() as d:
    rep, p = run("CPU_UTILIZATION", d, PAPI_MULTIPLEX="1")
    ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
    fr = [r.get("named_metrics_running_fraction", {}).get("CPU_UTILIZATION") for r in ranks]
    vals = [r["named_metrics"]["CPU_UTILIZATION"] for r in ranks]
    print("     multiplexed, per rank (value, running fraction):", list(zip(vals, fr)))
    check(len(fr) == P and all(f is not None and 0 < f <= 1 for f in fr),
          "multiplexed: each rank's running fraction in (0, 1]")
    check(all("multiplexed" in r.get("multiplexed", "") for r in ranks),
          "multiplexed: every row says so")
    check(p.stderr.count("the rank's event sets are multiplexed") == 1, "rank 0 says so once")
    check(len(vals) == P and all(isinstance(v, float) and v > 0 for v in vals),
          f"multiplexed: every rank's CPU_UTILIZATION computed ({vals})")
    # The summary's running fraction: min (and its rank), mean and max of the rows'.
    rf = rep["named_metrics"]["CPU_UTILIZATION"].get("running_fraction", {})
    lo = min(fr)
    check(len(fr) == P and rf.get("min") == lo and fr[rf.get("min_rank", -1)] == lo and
          rf.get("max") == max(fr) and fr[rf.get("max_rank", -1)] == max(fr) and
          abs(rf.get("mean", -1) - sum(fr) / P) < 1e-5,
          f"multiplexed: the summary's running fraction is min/mean/max of the rows' ({rf})")
    line = [l for l in p.stdout.splitlines() if l.strip().startswith("CPU_UTILIZATION")]
    want = f"({100 * lo:.2f}% running, min on rank {rf.get('min_rank')})"
    check(len(line) == 1 and want in line[0],
          f"multiplexed: the banner's CPU_UTILIZATION line ends with {want}: {line}")

with tempfile.TemporaryDirectory() as d:
    rep, p = run("NOPE", d)
    check("PAPI_MPI_METRICS not used" in p.stderr and "'NOPE'" in p.stderr,
          "an unknown metric is said on stderr")
    check(rep.get("named_metrics") == {}, "and the report has no named metric")

if failures:
    print(f"check_mpi_metrics: {len(failures)} failure(s)")
    sys.exit(1)
print("check_mpi_metrics: passed")
