#!/usr/bin/env python3
"""PAPI_MPI_CHECKPOINT parsed and bounded, and no temporary left behind.

check_checkpoint_env.py --mpirun MPIRUN --program PROGRAM
For each value: "inf", "nan", "-1", "abc", "10s" are refused with one line on stderr
naming the variable (no checkpoint thread, the run finishes with its report); "1e10" is
clamped to one day (said on stderr), so the checkpoint thread sleeps instead of
rewriting its file without pause. Before each run, temporaries that a rank killed between
write and rename left (the named fallback's ".papi_mpi_rank0.partial.json.XXXXXX" on a file
system without O_TMPFILE, and ".papi_mpi_rank0.checkpoint.json.<pid>.<n>" as earlier
versions named them) are planted: the run must remove them.
Exit 0 pass, 1 fail."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

from mpi_check import check, launch_args, verdict

REFUSED = ["inf", "nan", "-1", "abc", "10s"]
CLAMPED = ["1e10"]
STALE = [".papi_mpi_rank0.checkpoint.json.999999.0", ".papi_mpi_rank0.partial.json.Ab3xYz"]


def run(args, value):
    out = tempfile.mkdtemp(prefix="papi_mpi_ckpt_env_")
    try:
        for name in STALE:
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write("{\"rank\": 0")  # what a kill mid-write leaves
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out, PAPI_MPI_CHECKPOINT=value)
        t0 = time.monotonic()
        p = subprocess.run([args.mpirun, "-np", "1", args.program, "200"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        took = time.monotonic() - t0
        lines = [l for l in p.stdout.splitlines() if "PAPI_MPI_CHECKPOINT" in l]
        print("PAPI_MPI_CHECKPOINT=%s: exit %d in %.1f s; %s" % (value, p.returncode, took, lines))
        check(p.returncode == 0, "PAPI_MPI_CHECKPOINT=%s: the run finishes (%s)" % (value, p.stdout[-800:]))
        check(len(lines) == 1 and ("PAPI_MPI_CHECKPOINT=%s" % value) in lines[0],
              "PAPI_MPI_CHECKPOINT=%s: one line names the variable and the value" % value)
        if value in REFUSED:
            check(lines and "no checkpoints" in lines[0], "%s is refused" % value)
        else:
            check(lines and "one checkpoint every 86400 s" in lines[0], "%s is clamped to a day" % value)
        check(os.path.exists(os.path.join(out, "papi_mpi_report.json")), "the report is written")
        left = [os.path.basename(f) for f in glob.glob(os.path.join(out, ".*"))]
        check(not left, "PAPI_MPI_CHECKPOINT=%s: no temporary left: %s" % (value, left))
        check(not glob.glob(os.path.join(out, "*.checkpoint*.json")), "no checkpoint outlives the run")
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main():
    args = launch_args()
    for v in REFUSED + CLAMPED:
        run(args, v)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
