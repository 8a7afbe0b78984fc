#!/usr/bin/env python3
"""papi_run --sample under mpirun (issue 56 item 7): each rank's papi_run prints a banner
with the profiles of the processes that had ended when it merged them. mpi_series spin
on 2 ranks (rank 1 ends 0.5 s after rank 0): two banners; the one of 1 process says it is
PARTIAL (rank 0's papi_run, the job's 2 ranks), the other is the job's 2 ranks'.
Usage: check_run_sample_ranks.py --mpirun M --papi-run P --program PROG"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from mpi_check import check, verdict

HEAD = re.compile(r"^ top functions, self share of \S+ \((\d+) samples, (\d+) process(?:es)?(.*)\):$")
# what follows the count, then the profile's path and what it says of it
SCOPE = re.compile(r"(.*), \S+/profile\.folded(.*)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--papi-run", required=True)
    ap.add_argument("--program", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=d)
        for k in ("PAPI_SAMPLE", "PAPI_INTERVAL", "PAPI_MPI_TRACE"):
            env.pop(k, None)
        p = subprocess.run([args.mpirun, "-np", "2", args.papi_run, "--sample", "perf::TASK-CLOCK",
                            args.program, "spin"], cwd=d, env=env, capture_output=True,
                           text=True, timeout=120)
        print(p.stderr[-4000:])
        if "cannot be sampled here" in p.stderr:
            print("SKIPPED: papi_run cannot sample here")
            return 77
        check(p.returncode == 0, f"exit status {p.returncode}")
        heads = [HEAD.match(l) for l in p.stderr.splitlines() if l.startswith(" top functions")]
        check(len(heads) == 2 and all(heads), f"one banner per rank: {len(heads)}")
        heads = [h for h in heads if h]
        part = [h for h in heads if h.group(2) == "1"]
        whole = [h for h in heads if h.group(2) == "2"]
        scope = [SCOPE.fullmatch(h.group(3)) for h in part + whole]
        if not check(all(scope), f"each banner names profile.folded: {[h.group(0) for h in heads]}"):
            return verdict()
        check(len(part) == 1 and scope[0].group(1) == ": PARTIAL, rank 0's papi_run merged those of "
              "the job's 2 ranks that had ended" and scope[0].group(2) == " has the whole job once "
              "every rank ends",
              f"the first rank's banner (1 process) says it is partial: "
              f"{[h.group(0) for h in part]}")
        check(len(whole) == 1 and scope[-1].group(1) == ": the job's 2 ranks" and
              scope[-1].group(2) == "",
              f"the last rank's banner is the job's 2 ranks': {[h.group(0) for h in whole]}")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
