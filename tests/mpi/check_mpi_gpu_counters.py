#!/usr/bin/env python3
"""check_mpi_gpu_counters.py --mpirun MPIRUN --program PROG --libdir DIRS --staged FILE
[--np 2]: the cuda component's counters (CUPTI's Range Profiler) per rank and per
MPI_Pcontrol region, and the named GPU metrics from them, in the MPI report
(mpi_gpu_counters.c on the CUPTI and CUDA driver doubles in DIRS, the ranges' counts in
FILE: cuda_metrics.txt). Each rank's set starts at MPI_Init, the region's entry and exit
read it, MPI_Finalize stops it: the region "gpu" is device 0's range 2 (100 cycles, 150
instructions, 4096 DRAM bytes), the row ranges 1 to 3 (12300 cycles, 30650 instructions,
1060864 bytes, 395200 warps of 787200 at most). PAPI_MPI_EVENTS names the cycles with
:device=0 and PAPI_MPI_METRICS=GPU_IPC,GPU_DRAM_BYTES,GPU_ACHIEVED_OCCUPANCY names them
without (one event by two names: counted once, every metric computed). The counts are
each rank's own work in its own context, not a node device's shared by the ranks: no
counters_shared_by, and the job's GPU_DRAM_BYTES is the ranks' counts summed. The report
follows mpi_report.schema.json."""
import sys
import tempfile

from mpi_check import check, job_report, launch_args, run_ranks, verdict

args = launch_args(options={"--libdir": {"required": True}, "--staged": {"required": True}})
N = args.np
CYC = "cuda:::sm__cycles_active.sum:device=0"
with tempfile.TemporaryDirectory() as d:
    env = {"LD_LIBRARY_PATH": args.libdir, "PAPI_TEST_CUPTI_PROFILER": args.staged,
           "XDG_CACHE_HOME": d, "PAPI_MPI_OUTPUT_DIR": d, "PAPI_MPI_EVENTS": CYC,
           "PAPI_MPI_METRICS": "GPU_IPC,GPU_DRAM_BYTES,GPU_ACHIEVED_OCCUPANCY"}
    p = run_ranks(args.mpirun, N, env, [args.program])
    check(p.returncode == 0, "-np %d: exit 0" % N)
    check("not computed" not in p.stdout, "every metric computed")
    rep = job_report(d)
if rep is None:
    sys.exit(verdict())
rows = sorted(rep["ranks"], key=lambda r: r["rank"])
check(len(rows) == N, "%d rows" % N)
want_row = {CYC: 12300, "cuda:::sm__inst_executed.sum": 30650,
            "cuda:::dram__bytes.sum": 1060864, "cuda:::sm__warps_active.sum": 395200,
            "cuda:::sm__warps_active.sum.peak_sustained_active": 787200}
want_region = {CYC: 100, "cuda:::sm__inst_executed.sum": 150, "cuda:::dram__bytes.sum": 4096}
want_metrics = {"GPU_IPC": 30650 / 12300, "GPU_DRAM_BYTES": 1060864,
                "GPU_ACHIEVED_OCCUPANCY": 100 * 395200 / 787200}
for r in rows:
    c = r.get("counters", {})
    print("     rank %d counters: %s" % (r["rank"], c))
    for e, v in want_row.items():
        check(c.get(e) == v, "rank %d: %s %s (got %s)" % (r["rank"], e, v, c.get(e)))
    check(not any(e.startswith("cuda:::") for e in r.get("counters_shared_by", {})),
          "rank %d: its cuda counts are its own, not shared by the node's ranks (%s)"
          % (r["rank"], r.get("counters_shared_by")))
    reg = r.get("regions", {}).get("gpu", {}).get("counters", {})
    print("     rank %d region gpu: %s" % (r["rank"], reg))
    for e, v in want_region.items():
        check(reg.get(e) == v, "rank %d region gpu: %s %s (got %s)" % (r["rank"], e, v, reg.get(e)))
    nm = r.get("named_metrics", {})
    for name, v in want_metrics.items():
        got = nm.get(name)
        check(got is not None and abs(got - v) <= 1e-8 * v,
              "rank %d: %s %.10g (got %s)" % (r["rank"], name, v, got))
job = rep.get("named_metrics", {}).get("GPU_DRAM_BYTES", {})
print("     job GPU_DRAM_BYTES:", job)
check(job.get("job") == N * 1060864 and job.get("ranks_with_value") == N,
      "job: GPU_DRAM_BYTES the %d ranks' counts summed, %d (got %s)"
      % (N, N * 1060864, job.get("job")))
sys.exit(verdict())
