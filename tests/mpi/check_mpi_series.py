#!/usr/bin/env python3
"""check_mpi_series.py --mpirun MPIRUN --program PROG: PAPI_INTERVAL in the MPI report.
With 2 and 4 ranks (mpi_series.c: rank r faults (r + 1) x 640 pages over about 0.5 s) and
PAPI_INTERVAL=0.05, every rank's row carries "series": interval_s, and samples with
increasing time_nsec whose counts of each event sum exactly to the row's counters, at
least 5 of them, the page faults at least the pages touched. PAPI_INTERVAL of 0, -1, nan,
text or 1e9 is said once on stderr and no row has a series; the report is still
written. "mpi_series spin" (each rank's one thread computing up to MPI_Finalize, 2 and 4
ranks, PAPI_INTERVAL=0.05, PAPI_SAMPLE on): every sample's CPU_UTILIZATION above 0 and at most the one
CPU the thread can use, the last sample at the row's wall time (MPI_Finalize), at least a
quarter step after the one before, its task clock within its own interval (issue 56
item 5)."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from mpi_check import launch_args  # noqa: E402
args = launch_args()
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)
EVENTS = ["perf::PAGE-FAULTS", "perf::TASK-CLOCK"]


def run(np, interval, d):
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=d, PAPI_MPI_EVENTS=",".join(EVENTS),
               PAPI_INTERVAL=interval)
    for k in ("PAPI_MPI_METRICS", "PAPI_EVENTS", "PAPI_MULTIPLEX"):
        env.pop(k, None)
    p = subprocess.run([args.mpirun, "-np", str(np), args.program], env=env,
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"-np {np} PAPI_INTERVAL={interval}: exit 0 ({p.stderr[-300:]})")
    with open(os.path.join(d, "papi_mpi_report.json")) as f:
        return json.load(f), p


for np in (2, 4):
    with tempfile.TemporaryDirectory() as d:
        rep, p = run(np, "0.05", d)
        ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
        check(len(ranks) == np, f"-np {np}: {np} rows")
        for r in ranks:
            s = r.get("series")
            tag = f"-np {np} rank {r['rank']}"
            if not s:
                check(False, f"{tag}: the row has a series")
                continue
            smp = s["samples"]
            times = [x["time_nsec"] for x in smp]
            check(abs(s["interval_s"] - 0.05) < 1e-9, f"{tag}: interval_s 0.05 ({s['interval_s']})")
            check(len(smp) >= 5, f"{tag}: at least 5 samples ({len(smp)})")
            check(all(a < b for a, b in zip(times, times[1:])), f"{tag}: times increase")
            for e in EVENTS:
                total = sum(x[e] for x in smp)
                check(total == r["counters"][e] and all(x[e] >= 0 for x in smp),
                      f"{tag}: {e} samples sum to the counter ({total} == {r['counters'][e]})")
            pf = r["counters"]["perf::PAGE-FAULTS"]
            check(pf >= (r["rank"] + 1) * 640, f"{tag}: page faults {pf} >= {(r['rank'] + 1) * 640}")
            # A step whose faults a sample boundary splits leaves at least half in one of
            # the two samples (under load a step's touching is slow enough to be split).
            busy = sum(1 for x in smp if x["perf::PAGE-FAULTS"] >= (r["rank"] + 1) * 32)
            check(busy >= 3, f"{tag}: the faults are spread over the series ({busy} busy samples)")

# One thread computing up to MPI_Finalize (mpi_series spin): every interval's
# CPU_UTILIZATION at most the CPUs its one thread can use (1, 5 % for the clocks) and
# above 0; the last sample is the row's counts read as MPI_Finalize began (its time the
# row's wall time), never with the wrapper's own work in MPI_Finalize after it (with
# PAPI_SAMPLE on, naming the sampled functions: 30-140 ms of CPU time here).
cpus = len(os.sched_getaffinity(0))
for np in (2, 4):
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=d, PAPI_MPI_EVENTS="perf::TASK-CLOCK",
                   PAPI_MPI_METRICS="CPU_UTILIZATION", PAPI_INTERVAL="0.05",
                   PAPI_SAMPLE="perf::TASK-CLOCK")  # its tables are named in MPI_Finalize
        env.pop("PAPI_MULTIPLEX", None)
        p = subprocess.run([args.mpirun, "-np", str(np), args.program, "spin"], env=env,
                           capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, f"spin -np {np}: exit 0 ({p.stderr[-300:]})")
        with open(os.path.join(d, "papi_mpi_report.json")) as f:
            rep = json.load(f)
        for r in sorted(rep["ranks"], key=lambda r: r["rank"]):
            tag = f"spin -np {np} rank {r['rank']}"
            smp = r.get("series", {}).get("samples", [])
            if not check(len(smp) >= 5, f"{tag}: at least 5 samples ({len(smp)})"):
                continue
            most = min(r["threads"], cpus)
            util = [x["metrics"]["CPU_UTILIZATION"] for x in smp]
            high = [(i, u) for i, u in enumerate(util) if u is not None and u > most * 1.05]
            check(not high, f"{tag}: every interval's CPU_UTILIZATION <= {most} CPU(s) "
                  f"(over: {high[:5]}, the last {util[-1]})")
            # Oversubscribed (4 spinning ranks on 2 CPUs beside other tests), a rank can sit
            # out a whole 50 ms interval: a 0 is then the truth, and its task clock says so.
            zero = [i for i, u in enumerate(util) if u == 0]
            check(all(u is not None and u >= 0 for u in util) and
                  all(smp[i]["perf::TASK-CLOCK"] == 0 for i in zero) and len(zero) < len(util) // 2,
                  f"{tag}: every interval's CPU_UTILIZATION a number >= 0, 0 only where the "
                  f"interval's task clock is 0, most above 0 (zero at {zero[:5]}, "
                  f"None at {[i for i, u in enumerate(util) if u is None][:5]})")
            wall_ns = round(r["wall_s"] * 1e9)
            last, prev = smp[-1]["time_nsec"], smp[-2]["time_nsec"]
            check(abs(last - wall_ns) <= 1000,
                  f"{tag}: the last sample at MPI_Finalize ({last} ns, wall {wall_ns} ns), its "
                  f"interval {(last - prev) / 1e6:.3f} ms since the sample before")
            step_ns = r["series"]["interval_s"] * 1e9
            check(last - prev >= step_ns / 4,
                  f"{tag}: the last interval at least a quarter step ({last - prev} ns; a "
                  f"sample closer to MPI_Finalize is folded into it)")
            tc = smp[-1]["perf::TASK-CLOCK"]
            check(tc <= (last - prev) * most * 1.05 + 20000,
                  f"{tag}: the last interval's task clock {tc} ns within its "
                  f"{last - prev} ns")

for bad in ("0", "-1", "nan", "soon", "1e9"):
    with tempfile.TemporaryDirectory() as d:
        rep, p = run(2, bad, d)
        msg = f"PAPI_INTERVAL={bad} is not a number of seconds"
        check(p.stderr.count(msg) == 1, f"PAPI_INTERVAL={bad}: said once on stderr")
        check(not any("series" in r for r in rep["ranks"]), f"PAPI_INTERVAL={bad}: no series")

if failures:
    print(f"check_mpi_series: {len(failures)} failure(s)")
    sys.exit(1)
print("check_mpi_series: passed")
