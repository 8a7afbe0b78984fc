#!/usr/bin/env python3
"""check_mpi_region_energy.py --mpirun MPIRUN --program PROG (--machines DIR | --gpu DIR) [--np 2]:
energy per MPI_Pcontrol region and rank, attributed by the rank totals' rule (a socket's
figure is every rank's on it, "shared by N ranks"), and summed per region over the job
with each socket (node device) counted once.

The replayed two-socket powercap tree (PAPI_FSROOT: tests/machines/rapl_two_socket) gets
known energy inside the regions of mpi_region_energy.c: "work" (all ranks inside)
package 0 3.5 J, its DRAM 0.4 J, package 1 1.25 J; "solo" (rank 0 alone) package 0
1.0 J; "idle" none. The ranks run on this machine's package 0, so each reads package 0's
zones (ENERGY_UJ:TOTAL:PKG0, :DRAM:PKG0): every rank's "work" is 3.5 J and 0.4 J shared
by the N ranks, the job's "work" 3.5 J and 0.4 J (once, not N times, never package 1's
where no rank ran, never package + DRAM), "solo" 1.0 J on rank 0 and the job, "idle" 0.
A powercap zone event (the package 0 zone, a node's device like a GPU: its scope is the
node) reads 3.5 J in "work" on every rank, shared by the node's N ranks, 3.5 J job-wide.
With --gpu DIR (mpi_gpu_region_energy.c on the nvml test double in DIR): every rank's
"gpu" region has device 0's 4321 mJ = 4.321 J, scope node, shared by the node's N ranks
(the layout made at MPI_Finalize: PAPI_MPI_METRICS is unset), 4.321 J job-wide; the
device lost in region "lost": 0 J there, the rank's total at its last reading, one line
per rank. Each row's total is the device's, its counters_shared_by N; the job's totals
(metrics: mean times N) take the device's count once, from rank 0, never N times (the
zone event's too).
The report follows schema/mpi_report.schema.json."""
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from mpi_check import check, job_report, launch_args, run_ranks, skip_off_package0, verdict  # noqa: E402

args = launch_args(options={"--machines": {}, "--gpu": {}})
TOTAL, DRAM = "powercap:::ENERGY_UJ:TOTAL", "powercap:::ENERGY_UJ:DRAM"
ZONE = "powercap:::ENERGY_UJ:ZONE0"


def near(a, b):
    return a is not None and abs(a - b) < 1e-9


if not args.gpu:
    skip_off_package0()


def run(env, prog_args, status=0):
    """Runs the job with env in its ranks (its exit status: status); returns (report,
    output)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        os.mkdir(out)
        env = dict(env, PAPI_MPI_OUTPUT_DIR=out)
        p = run_ranks(args.mpirun, args.np, env, [args.program] + prog_args)
        check(p.returncode == status, "-np %d: exit %d" % (args.np, status))
        rep = job_report(out)
        if rep is None:
            sys.exit(verdict())
        return rep, p.stdout


N = args.np
if args.gpu:
    GPU = "nvml:::Tesla_V100-SXM2-16GB:device_0:total_energy_consumption"
    rep, stdout = run({"LD_LIBRARY_PATH": args.gpu, "PAPI_MPI_EVENTS": GPU}, [])
    said = [ln for ln in stdout.splitlines() if "no longer reads" in ln]
    check(len(said) == N and all("GPU is lost (NVML error 15)" in ln for ln in said),
          "each rank says once, in one line with NVML's reason, that the lost GPU's set no "
          "longer reads (%d lines)" % len(said))
    for r in sorted(rep["ranks"], key=lambda r: r["rank"]):
        lost = r.get("regions", {}).get("lost", {}).get("energy", {}).get(GPU, {})
        check(lost.get("joules") == 0, "rank %d: 0 J in the region where the GPU was lost, "
              "never negative (got %s)" % (r["rank"], lost.get("joules")))
        total = r.get("counters", {}).get(GPU)
        check(total == 200004321 - 123456789, "rank %d: the total stays at the last reading, "
              "76547532 mJ (got %s)" % (r["rank"], total))
        got = r.get("regions", {}).get("gpu", {}).get("energy", {}).get(GPU, {})
        print("     rank %d gpu: %s" % (r["rank"], got))
        check(near(got.get("joules"), 4.321), "rank %d: the GPU's 4.321 J in the region (got %s)"
              % (r["rank"], got.get("joules")))
        check(got.get("shared_by") == N and got.get("scope") == "node",
              "rank %d: shared by the node's %d ranks" % (r["rank"], N))
        shared = r.get("counters_shared_by", {}).get(GPU)
        check(shared == N, "rank %d: its row says the device's count is shared by the node's "
              "%d ranks (counters_shared_by: %s)" % (r["rank"], N, shared))
    spread = rep.get("metrics", {}).get(GPU, {})
    print("     metrics:", spread)
    job_total = spread.get("mean", 0) * N  # the mean is the job's total over its ranks
    check(near(job_total, 200004321 - 123456789) and spread.get("max_rank") == 0 and
          spread.get("min") == spread.get("max") == 200004321 - 123456789,
          "job: the shared device's 76547532 mJ counted once (from rank 0), not once per rank "
          "(total %s)" % job_total)
    job = rep.get("region_energy", {}).get("regions", {}).get("gpu", {}).get(GPU, {})
    print("     job:", job)
    check(near(job.get("joules"), 4.321) and job.get("ranks") == N,
          "job: the device's 4.321 J counted once over %d ranks" % N)
    sys.exit(verdict())
with tempfile.TemporaryDirectory() as d:
    root = os.path.join(d, "machine")
    shutil.copytree(os.path.join(args.machines, "rapl_two_socket"), root)
    rep, stdout = run({"PAPI_FSROOT": root, "PAPI_MPI_METRICS": "CPU_ENERGY,DRAM_ENERGY",
                       "PAPI_MPI_EVENTS": ZONE}, [os.path.join(root, "sys/class/powercap")])
ranks = sorted(rep["ranks"], key=lambda r: r["rank"])
check(len(ranks) == N, "%d rows" % N)
want = {"work": {TOTAL: 3.5, DRAM: 0.4, ZONE: 3.5}, "solo": {TOTAL: 1.0, DRAM: 0.0, ZONE: 1.0},
        "idle": {TOTAL: 0.0, DRAM: 0.0, ZONE: 0.0}}
scope = {TOTAL: "socket", DRAM: "socket", ZONE: "node"}
for r in ranks:
    for name, ev in want.items():
        reg = r.get("regions", {}).get(name)
        if name == "solo" and r["rank"] != 0:
            check(reg is None, "rank %d never entered solo" % r["rank"])
            continue
        if not check(reg is not None, "rank %d has region %s" % (r["rank"], name)):
            continue
        en = reg.get("energy", {})
        print("     rank %d %s: %s" % (r["rank"], name, en))
        for e, j in ev.items():
            got = en.get(e, {})
            check(near(got.get("joules"), j), "rank %d %s %s: %g J (got %s)" %
                  (r["rank"], name, e, j, got.get("joules")))
            w = reg.get("wall_s") or 0
            check(w > 0 and abs((got.get("watts") or 0) - j / w) <= 1e-6 * max(j / w, 1e-9),
                  "rank %d %s %s: watts = joules over the region's wall_s %g (got %s)" %
                  (r["rank"], name, e, w, got.get("watts")))
            check(got.get("shared_by") == N and got.get("scope") == scope[e],
                  "rank %d %s %s: shared by the %d ranks of its %s" % (r["rank"], name, e, N,
                                                                         scope[e]))
for r in ranks:
    check(r.get("counters_shared_by", {}).get(ZONE) == N,
          "rank %d: the zone's count is the node's, shared by its %d ranks" % (r["rank"], N))
spread, zone0 = rep.get("metrics", {}).get(ZONE, {}), ranks[0].get("counters", {}).get(ZONE)
check(zone0 is not None and abs(spread.get("mean", 0) * N - zone0) < 0.5 and
      spread.get("max_rank") == 0, "job: the zone's count once, rank 0's %s (metrics: %s)"
      % (zone0, spread))
job = rep.get("region_energy", {})
print("     job:", job)
check("counted once" in job.get("rule", ""), "the job's rule is named")
for name, ev in want.items():
    reg = job.get("regions", {}).get(name, {})
    for e, j in ev.items():
        got = reg.get(e, {})
        check(near(got.get("joules"), j), "job %s %s: %g J, each socket once (got %s)" %
              (name, e, j, got.get("joules")))
        check(got.get("ranks") == (1 if name == "solo" else N),
              "job %s %s: the ranks that had it" % (name, e))
check("energy per region" in stdout, "the banner lists the energy per region")
# papi_report's tables of them: the job's figure per region and event, and each rank's.
import papi_report  # noqa: E402  (pandas: only here)
t = papi_report.tables(mpi=rep)
jt, rt = t["mpi_region_energy"], t["mpi_region_energy_ranks"]
for name, ev in want.items():
    for e, j in ev.items():
        got = jt[(jt["region"] == name) & (jt["event"] == e)]["joules"].tolist()
        check(len(got) == 1 and near(got[0], j), "papi_report: job %s %s %g J (got %s)" % (name, e, j, got))
        got = rt[(rt["region"] == name) & (rt["event"] == e)]["joules"].tolist()
        check(len(got) == (1 if name == "solo" else N) and all(near(g, j) for g in got),
              "papi_report: each rank's %s %s %g J (got %s)" % (name, e, j, got))

# Bad input: package 0's energy_uj is not a number. Its zones are left out, the reader of
# package 0 says once why it cannot count the socket, DRAM_ENERGY has no value (null with
# the reason, never 0) on every rank and job-wide, no region has energy, the job's
# region_energy has no rank; the report is written whole and follows the schema.
with tempfile.TemporaryDirectory() as d:
    root = os.path.join(d, "machine")
    shutil.copytree(os.path.join(args.machines, "rapl_two_socket"), root)
    with open(os.path.join(root, "sys/class/powercap/intel-rapl:0/energy_uj"), "w") as f:
        f.write("garbage\n")
    # (the program's own add to that file fails too: it exits 1)
    rep, stdout = run({"PAPI_FSROOT": root, "PAPI_MPI_METRICS": "CPU_ENERGY,DRAM_ENERGY"},
                      [os.path.join(root, "sys/class/powercap")], status=1)
said = [ln for ln in stdout.splitlines() if "cannot count its socket's events" in ln]
check(len(said) == 1 and "rank 0, the reader of package 0" in said[0],
      "bad tree: the reader alone says why, once (%d lines)" % len(said))
check("energy_uj is not readable: not a number" in stdout, "bad tree: the file is named")
for r in rep["ranks"]:
    nm = r.get("named_metrics", {})
    check("DRAM_ENERGY" in nm and nm["DRAM_ENERGY"] is None,
          "bad tree: rank %d's DRAM_ENERGY is null, not 0 (got %s)" % (r["rank"], nm))
    check(all("energy" not in reg for reg in r.get("regions", {}).values()),
          "bad tree: rank %d's regions carry no energy" % r["rank"])
job = rep.get("named_metrics", {}).get("DRAM_ENERGY", {})
check(job.get("job", 0) is None and job.get("ranks_with_value") == 0,
      "bad tree: the job's DRAM_ENERGY is null (got %s)" % job)
work = rep.get("region_energy", {}).get("regions", {}).get("work", {})
check(all(v.get("ranks") == 0 and v.get("joules") == 0 for v in work.values()),
      "bad tree: no rank has the region's energy (got %s)" % work)
sys.exit(verdict())
