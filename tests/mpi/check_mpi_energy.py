#!/usr/bin/env python3
"""check_mpi_energy.py --mpirun MPIRUN --program PROG --machines DIR [--np 2]: energy per
rank in the MPI report, by the memory-bandwidth rule (one reader per socket, its value
shared by the N ranks on the socket).

A replayed two-socket powercap tree (PAPI_FSROOT: tests/machines/rapl_two_socket) gets
known energy while the job runs: package 0 3.5 J, package 1 1.25 J, package 0's DRAM
0.4 J, package 1's DRAM 0.2 J. The ranks run on this machine, all on its package 0 (sysfs
topology, live): the reader (the lowest rank) reads package 0's zones only
(ENERGY_UJ:TOTAL:PKG0), so each row's CPU_ENERGY is package 0's 3.5 J "shared by N
ranks" (named_metrics_shared_by), its DRAM_ENERGY 0.4 J, the job's CPU_ENERGY 3.5 J (the
socket counted once, never N times, never with package 1 where no rank ran, never
package + DRAM), and the summary says per socket."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from mpi_check import launch_args, skip_off_package0  # noqa: E402
args = launch_args(more=("--machines",))
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)


skip_off_package0()
with tempfile.TemporaryDirectory() as d:
    root = os.path.join(d, "machine")
    shutil.copytree(os.path.join(args.machines, "rapl_two_socket"), root)
    out = os.path.join(d, "out")
    os.mkdir(out)
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out, PAPI_FSROOT=root,
               PAPI_MPI_METRICS="CPU_ENERGY,DRAM_ENERGY,CPU_POWER")
    for k in ("PAPI_MPI_EVENTS", "PAPI_EVENTS", "PAPI_MULTIPLEX"):
        env.pop(k, None)
    p = subprocess.run([args.mpirun, "-np", str(args.np), args.program,
                        os.path.join(root, "sys/class/powercap"), "intel-rapl:0:3500000",
                        "intel-rapl:1:1250000", "intel-rapl:0:1:400000", "intel-rapl:1:1:200000"],
                       env=env, capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "-np %d: exit 0 (%s%s)" % (args.np, p.stdout[-300:], p.stderr[-300:]))
    with open(os.path.join(out, "papi_mpi_report.json")) as f:
        rep = json.load(f)
ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
check(len(ranks) == args.np, "%d rows" % args.np)
for r in ranks:
    nm, sb = r.get("named_metrics", {}), r.get("named_metrics_shared_by", {})
    tag = "rank %d" % r["rank"]
    print("     %s: %s shared by %s" % (tag, nm, sb))
    check(abs((nm.get("CPU_ENERGY") or -1) - 3.5) < 1e-12,
          tag + ": CPU_ENERGY 3.5 J, package 0's (not + package 1, not + DRAM)")
    check(abs((nm.get("DRAM_ENERGY") or -1) - 0.4) < 1e-12, tag + ": DRAM_ENERGY 0.4 J, beside")
    check(sb.get("CPU_ENERGY") == args.np and sb.get("DRAM_ENERGY") == args.np,
          tag + ": shared by the %d ranks on the socket" % args.np)
    w = ranks[0].get("wall_s") or ranks[0].get("wall_time_s")
    if w:  # the socket's value: its reader's (rank 0's) energy over the reader's wall time
        check(abs(nm.get("CPU_POWER", -1) - 3.5 / w) < 1e-6 * (3.5 / w),
              tag + ": CPU_POWER = the socket's 3.5 J over its reader's wall time")
job = rep.get("named_metrics", {}).get("CPU_ENERGY", {})
print("     job:", job)
check(abs((job.get("job") or -1) - 3.5) < 1e-12, "job CPU_ENERGY 3.5 J: the socket counted once")
check("per_socket" in job, "the summary says the metric is read per socket")
if failures:
    print("check_mpi_energy: %d failure(s)" % len(failures))
    sys.exit(1)
print("check_mpi_energy: passed")
