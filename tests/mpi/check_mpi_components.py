#!/usr/bin/env python3
"""check_mpi_components.py --mpirun MPIRUN --program PROG: PAPI_MPI_EVENTS naming events
of two components (perf_event's page faults, net's loopback bytes): one event set per
component, both count in every rank's row and its PAPI_INTERVAL series. mpi_series.c net:
rank r touches (r + 1) x 640 pages and receives 10 x 50 x 1000 bytes over loopback UDP.
Each row: faults >= its pages, lo rx >= its 500,000 bytes (the node's interface: every
rank's traffic and the headers on top), the samples of each event summing to the row's
counters. Before, the net event was "not available" (it did not open beside the CPU
event in one set) and no row counted it."""
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
FAULTS, LO_RX = "perf::PAGE-FAULTS", "net:::lo:rx:bytes"
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)


if not os.path.exists("/sys/class/net/lo/statistics/rx_bytes"):
    print("SKIPPED: no loopback interface statistics here")
    sys.exit(77)
for np in (2,):
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=d, PAPI_MPI_EVENTS=FAULTS + "," + LO_RX,
                   PAPI_INTERVAL="0.05")
        for k in ("PAPI_MPI_METRICS", "PAPI_EVENTS", "PAPI_MULTIPLEX"):
            env.pop(k, None)
        p = subprocess.run([args.mpirun, "-np", str(np), args.program, "net"], env=env,
                           capture_output=True, text=True, timeout=120)
        if "SKIPPED" in p.stdout:
            print(p.stdout.strip())
            sys.exit(77)
        check(p.returncode == 0, f"-np {np}: exit 0 ({p.stdout[-300:]}{p.stderr[-300:]})")
        with open(os.path.join(d, "papi_mpi_report.json")) as f:
            rep = json.load(f)
        ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
        check(len(ranks) == np, f"-np {np}: {np} rows")
        for r in ranks:
            tag = f"-np {np} rank {r['rank']}"
            c = r.get("counters", {})
            pages = (r["rank"] + 1) * 640
            check(c.get(FAULTS, 0) >= pages, f"{tag}: {c.get(FAULTS)} faults >= {pages}")
            check(c.get(LO_RX, 0) >= 500000, f"{tag}: lo rx {c.get(LO_RX)} >= 500000")
            smp = (r.get("series") or {}).get("samples", [])
            check(len(smp) >= 5, f"{tag}: at least 5 samples ({len(smp)})")
            for e in (FAULTS, LO_RX):
                total = sum(x.get(e, 0) for x in smp)
                check(total == c.get(e) and all(x.get(e, 0) >= 0 for x in smp),
                      f"{tag}: {e} samples sum to the counter ({total} vs {c.get(e)})")
        note = rep.get("counter_note") or ""
        check(LO_RX not in note, f"-np {np}: no note about {LO_RX} ({note[:200]})")
# A context switch happens only in the kernel: the wrapper counts it in kernel mode too
# (as perf stat does) where the kernel allows it, else leaves it out with the reason; never
# the 0 that user mode alone reads (each rank sleeps 10 x 50 ms: at least 10 switches).
CS = "perf::CONTEXT-SWITCHES"
with tempfile.TemporaryDirectory() as d:
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=d, PAPI_MPI_EVENTS=CS)
    for k in ("PAPI_MPI_METRICS", "PAPI_EVENTS", "PAPI_MULTIPLEX", "PAPI_INTERVAL"):
        env.pop(k, None)
    p = subprocess.run([args.mpirun, "-np", "2", args.program], env=env,
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"{CS}: exit 0 ({p.stdout[-300:]}{p.stderr[-300:]})")
    with open(os.path.join(d, "papi_mpi_report.json")) as f:
        rep = json.load(f)
    note = rep.get("counter_note") or ""
    try:
        paranoid = int(open("/proc/sys/kernel/perf_event_paranoid").read())
    except (OSError, ValueError):
        paranoid = 2
    for r in sorted(rep["ranks"], key=lambda r: r["rank"]):
        got = (r.get("counters") or {}).get(CS)
        if os.geteuid() == 0 or paranoid <= 1:
            check(got is not None and got >= 10, f"{CS}: rank {r['rank']} counts {got} >= 10")
        else:
            check(got is None and "only in the kernel" in note,
                  f"{CS}: rank {r['rank']} leaves it out with the reason ({got}, {note[:200]})")
if failures:
    print(f"{len(failures)} FAILED")
    sys.exit(1)
print("PASSED")
