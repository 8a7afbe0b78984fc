#!/usr/bin/env python3
"""check_report_series_metrics.py --mpirun M --program P --regions-program R --tool T OUT:
the metrics of the time series, written by the library per sample and drawn by papi_report.

MPI (tests/mpi/mpi_series_spin.c: rank r of N uses (r + 1) / (N + 1) of each 0.1 s of CPU
time; PAPI_MPI_EVENTS=perf::TASK-CLOCK, PAPI_MPI_METRICS=CPU_UTILIZATION,
PAPI_INTERVAL=0.1): on 2 ranks every sample's CPU_UTILIZATION is its own interval's
task-clock over the interval's time (computed here from the JSON's counts and times); the
samples sum to the counters; papi_report's series-metric-heat has one row per rank and each
cell is that sample's value over that sample's interval; rank 1 used more CPU than rank 0.
The same rank ending without MPI_Finalize: exit() leaves its exit row
(papi_mpi_rank0.partial.json), SIGKILL its last checkpoint row (PAPI_MPI_CHECKPOINT=0.1);
each carries a series that sums to the row's counters, with the same per-sample metric.
The region API (report_series_regions.c: "touch" busy, "sleep" asleep, twice;
PAPI_EVENTS=perf::TASK-CLOCK, PAPI_METRICS=CPU_UTILIZATION, PAPI_INTERVAL=0.02): each
thread's sample and process_metrics (the threads summed) equal task-clock over the
interval; series-metric-regions draws "touch" and "sleep", each exactly the process's
values at the samples whose midpoint lies in the region's instances. Exit 0 pass, 1 fail."""
import glob
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from figure_checks import figure_problems  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from report_job_args import job_args  # noqa: E402

report_check.guard()

from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)
TC, CU = "perf::TASK-CLOCK", "CPU_UTILIZATION"


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-9)


def utilisation(samples, key=TC):
    """Each sample's task-clock (ns, summed over the dicts given) over its interval."""
    out, prev = [], 0
    for s in samples:
        out.append(s[key] / (s["time_nsec"] - prev))
        prev = s["time_nsec"]
    return out


def check_row_series(tag, row):
    s = row.get("series")
    check(isinstance(s, dict) and len(s.get("samples", [])) >= 3,
          "%s: the row has a series of at least 3 samples" % tag)
    if not isinstance(s, dict):
        return []
    smp = s["samples"]
    check(sum(x[TC] for x in smp) == row["counters"][TC],
          "%s: the samples sum to the counter (%d)" % (tag, row["counters"][TC]))
    want = utilisation(smp)
    got = [x["metrics"][CU] for x in smp]
    check(all(close(g, w) for g, w in zip(got, want)) and len(got) == len(want),
          "%s: every sample's %s is its task-clock over its interval" % (tag, CU))
    return got


def run_mpi(a, np, mode, out, checkpoint=""):
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out, PAPI_MPI_EVENTS=TC, PAPI_MPI_METRICS=CU,
               PAPI_INTERVAL="0.1")
    for k in ("PAPI_EVENTS", "PAPI_MULTIPLEX", "PAPI_MPI_CHECKPOINT"):
        env.pop(k, None)
    if checkpoint:
        env["PAPI_MPI_CHECKPOINT"] = checkpoint
    os.makedirs(out)
    return subprocess.run([a.mpirun, "-np", str(np), a.program, mode], env=env,
                          capture_output=True, text=True, timeout=120)


def check_heat(a, run, rep):
    sys.path.insert(0, os.path.dirname(os.path.realpath(a.tool)))
    import papi_report
    from papi_report.figures import series_metric_figures as series_metrics
    t = papi_report.tables(mpi=run)
    fig = series_metrics.series_metric_heat(t)
    check(not isinstance(fig, str), "series-metric-heat is drawn (%s)" % (fig if isinstance(fig, str) else ""))
    if isinstance(fig, str):
        return
    (ax,) = [x for x in fig.axes if x.get_title().startswith(CU)]
    meshes = ax.collections
    check(len(meshes) == 2, "series-metric-heat: a row per rank (%d)" % len(meshes))
    for r, mesh in zip(sorted(rep["ranks"], key=lambda x: x["rank"]), meshes):
        smp = r["series"]["samples"]
        cells = [float(v) for v in mesh.get_array().ravel()]
        want = utilisation(smp)
        check(len(cells) == len(want) and all(close(c, w) for c, w in zip(cells, want)),
              "series-metric-heat rank %d: each cell is task-clock / interval (%d cells)" % (r["rank"], len(cells)))
        xs = sorted({round(float(p[0]), 9) for p in mesh.get_coordinates().reshape(-1, 2)})
        times = [0.0] + [x["time_nsec"] * 1e-9 for x in smp]
        check(len(xs) == len(times) and all(abs(x - w) < 1e-6 for x, w in zip(xs, times)),
              "series-metric-heat rank %d: each cell spans its own interval" % r["rank"])
    for why in figure_problems("series-metric-heat", fig):
        check(False, why)


def check_mpi(a):
    run = os.path.join(a.out, "finish")
    p = run_mpi(a, 2, "finish", run)
    check(p.returncode == 0, "mpirun -np 2 exits 0 (%s)" % p.stderr[-300:])
    with open(os.path.join(run, "papi_mpi_report.json")) as f:
        rep = json.load(f)
    for r in rep["ranks"]:
        check_row_series("finished rank %d" % r["rank"], r)
    # The ranks' CPU time differs (2:1); their utilisation per interval depends on the load.
    cpu = {r["rank"]: r["counters"][TC] * 1e-9 for r in rep["ranks"]}
    check(cpu.get(1, 0) > 1.5 * cpu.get(0, 1), "rank 1 used more CPU time than rank 0 (%s)" % cpu)
    check_heat(a, run, rep)
    for mode, name in (("exit", "partial"), ("kill", "checkpoint")):
        out = os.path.join(a.out, mode)
        run_mpi(a, 1, mode, out, checkpoint="0.1")
        path = os.path.join(out, "papi_mpi_rank0.%s.json" % name)
        prev = os.path.join(out, "papi_mpi_rank0.checkpoint.prev.json")
        if mode == "kill" and not os.path.exists(path) and os.path.exists(prev):
            # The SIGKILL fell between a checkpoint's two steps (partial_rows.c's
            # publish_file: the last row moved to prev, the new one not yet linked):
            # prev is the rank's row then, as papi_mpi_collect reads it.
            path = prev
        check(os.path.exists(path), "%s: %s left (%s)" % (mode, os.path.basename(path), os.listdir(out)))
        if os.path.exists(path):
            with open(path) as f:
                row = json.load(f)
            check(row.get("finished") is False, "%s: the %s row is not finished" % (mode, name))
            check_row_series("%s row" % name, row)


def check_regions(a):
    out = os.path.join(a.out, "regions")
    env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=out, PAPI_EVENTS=TC, PAPI_METRICS=CU,
               PAPI_INTERVAL="0.02")
    for k in ("PAPI_MULTIPLEX", "PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID"):
        env.pop(k, None)
    p = subprocess.run([a.regions_program], env=env, capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, "the region program exits 0 (%s)" % p.stderr[-300:])
    hl = os.path.join(out, "papi_hl_output")
    (path,) = glob.glob(os.path.join(hl, "*.json"))
    with open(path) as f:
        s = json.load(f)["series"]
    threads = list(s["threads"].values())
    for tid, smp in s["threads"].items():
        check(all(close(x["metrics"][CU], w) for x, w in zip(smp, utilisation(smp))),
              "regions thread %s: each sample's %s is its task-clock over its interval" % (tid, CU))
    summed = [{"time_nsec": x["time_nsec"], TC: sum(t[k][TC] for t in threads)}
              for k, x in enumerate(threads[0])]
    proc = utilisation(summed)
    got = [x["metrics"][CU] for x in s["process_metrics"]]
    check(len(got) == len(proc) and all(close(g, w) for g, w in zip(got, proc)),
          "regions process_metrics: the threads' task-clock summed over the interval (%d)" % len(got))
    import papi_report
    from papi_report.figures import series_metric_figures as series_metrics
    fig = series_metrics.series_metric_regions(papi_report.tables(regions=hl))
    check(not isinstance(fig, str), "series-metric-regions is drawn (%s)" % (fig if isinstance(fig, str) else ""))
    if isinstance(fig, str):
        return
    (ax,) = [x for x in fig.axes if x.get_title().startswith(CU)]
    # NaN: a break between two stretches where the region ran (check_report_page.py)
    lines = {ln.get_label(): [(x, y) for x, y in zip(ln.get_xdata(), ln.get_ydata()) if not math.isnan(x)]
             for ln in ax.get_lines()}
    check(sorted(lines) == ["sleep", "touch"], "series-metric-regions: a line per region (%s)" % sorted(lines))
    spans = [x for v in s["region_spans"].values() for x in v]
    for name, pts in lines.items():
        want = []
        prev = 0
        for x, v in zip(summed, proc):
            mid = (x["time_nsec"] + prev) / 2
            if any(sp["name"] == name and sp["begin_nsec"] <= mid <= sp["end_nsec"] for sp in spans):
                want.append((x["time_nsec"] * 1e-9, v))
            prev = x["time_nsec"]
        check(len(pts) == len(want) >= 5 and all(abs(t1 - t2) < 1e-9 and close(v1, v2)
                                                for (t1, v1), (t2, v2) in zip(pts, want)),
              "series-metric-regions %s: the process's values inside its instances (%d, want %d)"
              % (name, len(pts), len(want)))
    med = {n: sorted(v for _, v in pts)[len(pts) // 2] for n, pts in lines.items() if pts}
    check(med.get("touch", 0) > med.get("sleep", math.inf),
          "series-metric-regions: touch's median %s above sleep's (%s)" % (CU, med))
    for why in figure_problems("series-metric-regions", fig):
        check(False, why)


def main():
    a = job_args("--regions-program")
    os.makedirs(a.out)
    check_mpi(a)
    check_regions(a)
    return verdict("check_report_series_metrics")


if __name__ == "__main__":
    sys.exit(main())
