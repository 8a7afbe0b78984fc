#!/usr/bin/env python3
"""The wrapper library of the other MPI preloaded into a program: the program runs and
exits with its own status (0), exactly one line names the MPI the wrapper is built for,
the MPI the program runs and the wrapper to use instead, and no report is written.
Usage: check_wrong_mpi.py --mpirun M --np P --program PROG --preload OTHER_WRAPPER"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, verdict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--preload", required=True)
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="papi_mpi_wrong_")
    try:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out, LD_PRELOAD=args.preload)
        p = subprocess.run([args.mpirun, "-np", str(args.np), args.program, "10"], env=env,
                           cwd=out, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=120)
        print(p.stdout)
        check(p.returncode == 0, f"exit status {p.returncode}")
        lines = [l for l in p.stdout.splitlines() if l.startswith("papi_mpi:")]
        check(len(lines) == 1, f"one papi_mpi line, got {len(lines)}")
        if lines:
            built_for = "Open MPI" if "openmpi" in os.path.basename(args.preload) else "MPICH"
            running = "MPICH" if built_for == "Open MPI" else "Open MPI"
            other = "mpich" if running == "MPICH" else "openmpi"
            check(f"built for {built_for}" in lines[0], f"names the wrapper's MPI: {lines[0]}")
            check(running in lines[0].split("runs", 1)[-1], f"names the running MPI: {lines[0]}")
            check(f"libpapi_mpi_{other}.so" in lines[0], f"names the wrapper to use: {lines[0]}")
        left = sorted(os.listdir(out))
        check(not left, f"nothing written: {left}")
        check(not any(n.startswith("core") for n in left), "no core file")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
