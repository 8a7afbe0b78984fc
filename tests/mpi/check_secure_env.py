#!/usr/bin/env python3
"""Every environment variable of the wrapper library that names a path or changes its
behaviour is read with secure_getenv, so a privileged program (setuid, setgid, file
capabilities: AT_SECURE) ignores them all.

The ranks get every PAPI_MPI_* variable set: the output directory elsewhere than the
working directory, the others to values the wrapper refuses with a line naming the
variable (so each is seen to be read). Run 1, an ordinary process: the report goes
to the output directory and every variable is named on the output. Run 2, the same with
secure_env_shim preloaded first (secure_getenv answers for PAPI_MPI_* as in a
privileged process, getenv still sees them): the report is in the working directory,
with call sites and the default events, and no line names a variable. Last, no plain
getenv( is left in the library's sources.
Usage: check_secure_env.py --mpirun M --program PROG --wrapper LIB --shim SHIM --src DIR"""
import glob
import json
import os
import re
import shutil
import sys
import tempfile

from mpi_check import check, launch_args, rank_env, run_cmd, verdict

BAD = {"PAPI_MPI_CALLSITES": "2", "PAPI_MPI_TOP": "-1", "PAPI_MPI_CHECKPOINT": "garbage",
       "PAPI_MPI_EVENTS": "X" * 70, "PAPI_MPI_REPORT_WINDOW": "0",
       "PAPI_MPI_REPORT_PIECE": "1", "PAPI_MPI_WAITS": "2", "PAPI_MPI_LOG_RECORDS": "0",
       "PAPI_MPI_CLOCK_PINGPONG": "2", "PAPI_MPI_SAMPLE_TOP": "0",
       "PAPI_MPI_KEEP_EVENT_LOG": "2"}


def run(args, preload, cwd, outdir):
    env = dict(BAD, LD_PRELOAD=preload, PAPI_MPI_OUTPUT_DIR=outdir)
    p = run_cmd([args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, env) +
                [args.program, "0"], cwd=cwd)
    check(p.returncode == 0, f"exit status {p.returncode}")
    return p.stdout


def plain_getenv(src):
    """(file, line) of every getenv( not secure_getenv( in the library's sources."""
    found = []
    for path in sorted(glob.glob(os.path.join(src, "**", "*.[ch]"), recursive=True) +
                       glob.glob(os.path.join(src, "*.py"))):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if re.search(r"(?<![A-Za-z_])getenv\s*\(", line):
                    found.append(f"{os.path.basename(path)}:{n}")
    return found


def main():
    args = launch_args(more=["--wrapper", "--shim", "--src"])
    tmp = tempfile.mkdtemp(prefix="papi_mpi_secure_")
    try:
        for name in ("cwd1", "out1", "cwd2", "out2"):
            os.makedirs(os.path.join(tmp, name))
        out = run(args, args.wrapper, os.path.join(tmp, "cwd1"), os.path.join(tmp, "out1"))
        check(os.path.exists(os.path.join(tmp, "out1", "papi_mpi_report.json")),
              "ordinary process: the report is in PAPI_MPI_OUTPUT_DIR")
        for name in BAD:
            check(name in out, f"ordinary process: {name} is read (a line names it)")
        out = run(args, f"{args.shim}:{args.wrapper}", os.path.join(tmp, "cwd2"),
                  os.path.join(tmp, "out2"))
        check(os.listdir(os.path.join(tmp, "out2")) == [],
              "privileged: nothing in PAPI_MPI_OUTPUT_DIR")
        report = os.path.join(tmp, "cwd2", "papi_mpi_report.json")
        if check(os.path.exists(report), "privileged: the report is in the working directory"):
            with open(report, encoding="utf-8") as f:
                doc = json.load(f)
            check(doc["callsites"]["sites"] > 0, "privileged: call sites on (the default)")
            check(not any(e.startswith("X") for e in doc["events"]),
                  f"privileged: the default events {doc['events']}")
        for name in BAD:
            check(name not in out, f"privileged: {name} is not read")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    left = plain_getenv(args.src)
    check(not left, f"no plain getenv in {args.src}: {left}")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
