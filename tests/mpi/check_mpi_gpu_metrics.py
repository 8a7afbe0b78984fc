#!/usr/bin/env python3
"""check_mpi_gpu_metrics.py --mpirun MPIRUN --program PROG --gpu DIR [--np 2]: the named
GPU metrics in the MPI report (mpi_gpu_metrics.c on the nvml double in DIR, whose device
0 has GPM and a real-time clock: each rank's own double, rank r at 20 + 10 r % SM
activity once MPI_Init returns). With PAPI_MPI_METRICS=GPU_SM_ACTIVE each rank's row has
GPU_SM_ACTIVE near its staged rate (within 5 %: the rank's wall time begins inside
MPI_Init, its rate a little after it returns: milliseconds of 0 % under a loaded
machine), and the MPI_Pcontrol region "gpu" (400 ms, bracketed exactly) holds the
counter form, whose value over the region's wall time is the rank's rate within 2 %.
Run again with "shared" (every rank's device at 40 %, as ranks sharing one device see
it): each row has 40 % within 10 %, says the figure is shared by the node's ranks
(named_metrics_shared_by, counters_shared_by), and the job's GPU_SM_ACTIVE (the counts
summed over the longest wall time) takes the node's device once: rank 0's count over
the longest wall time exactly, not the ranks' counts summed. The report follows mpi_report.schema.json."""
import sys
import tempfile

from mpi_check import check, job_report, launch_args, run_ranks, verdict

args = launch_args(options={"--gpu": {"required": True}})
EVENT = "nvml:::NVIDIA_H100_80GB_HBM3:device_0:gpm_sm_activity_ns"



def run(prog_args):
    """The job's report, with GPU_SM_ACTIVE asked for."""
    with tempfile.TemporaryDirectory() as d:
        env = {"LD_LIBRARY_PATH": args.gpu, "PAPI_MPI_METRICS": "GPU_SM_ACTIVE",
               "PAPI_MPI_OUTPUT_DIR": d}
        p = run_ranks(args.mpirun, args.np, env, [args.program] + prog_args)
        check(p.returncode == 0, "-np %d: exit 0" % args.np)
        rep = job_report(d)
        if rep is None:
            sys.exit(verdict())
        return rep


rep = run([])

nm = rep.get("named_metrics", {}).get("GPU_SM_ACTIVE", {})
check(nm.get("unit") == "%" and nm.get("ranks_with_value") == args.np,
      "GPU_SM_ACTIVE in %% for every rank (%s)" % nm)
for r in sorted(rep["ranks"], key=lambda r: r["rank"]):
    want = 20.0 + 10.0 * r["rank"]
    got = r.get("named_metrics", {}).get("GPU_SM_ACTIVE")
    check(got is not None and abs(got - want) <= 0.05 * want,
          "rank %d: GPU_SM_ACTIVE %s, want %s within 5 %%" % (r["rank"], got, want))
    region = r.get("regions", {}).get("gpu", {})
    ns, wall = region.get("counters", {}).get(EVENT), region.get("wall_s")
    value = ns / 1e7 / wall if ns and wall else None
    check(value is not None and abs(value - want) <= 0.02 * want,
          "rank %d: region gpu's %s over its wall time %s %%, want %s within 2 %%"
          % (r["rank"], EVENT, value, want))

rep = run(["shared"])
for r in sorted(rep["ranks"], key=lambda r: r["rank"]):
    got = r.get("named_metrics", {}).get("GPU_SM_ACTIVE")
    check(got is not None and abs(got - 40.0) <= 4.0,  # 10 %: the first run checks 5 %
          "shared: rank %d: its row has the device's GPU_SM_ACTIVE %s, want 40 within 10 %%"
          % (r["rank"], got))
    check(r.get("named_metrics_shared_by", {}).get("GPU_SM_ACTIVE") == args.np and
          r.get("counters_shared_by", {}).get(EVENT) == args.np,
          "shared: rank %d: its row says the figure is shared by the node's %d ranks (%s, %s)"
          % (r["rank"], args.np, r.get("named_metrics_shared_by"), r.get("counters_shared_by")))
# The job's figure is rank 0's count (the lowest rank of the node) over the longest wall
# time: rank 0's row value times its wall time over the longest, exactly.
nm = rep.get("named_metrics", {}).get("GPU_SM_ACTIVE", {})
job, rows = nm.get("job"), sorted(rep["ranks"], key=lambda r: r["rank"])
want = (rows[0].get("named_metrics", {}).get("GPU_SM_ACTIVE") or 0) * rows[0]["wall_s"] / \
    max(r["wall_s"] for r in rows)
check(job is not None and abs(job - want) <= 1e-6 * want and "once" in nm.get("per_device", ""),
      "shared: the job's GPU_SM_ACTIVE takes the node's device once: %s, want rank 0's %s "
      "over the longest wall time, not %d times it (%s)"
      % (job, want, args.np, nm.get("per_device")))
sys.exit(verdict())
