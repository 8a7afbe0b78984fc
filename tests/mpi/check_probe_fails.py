#!/usr/bin/env python3
"""The wait states' sparse exchange after a failed probe (mpi-wrappers/waits/sparse_exchange.c):
the unmodified pattern program at 4 ranks under LD_PRELOAD of probe_fails_shim (every
PMPI_Improbe and PMPI_Mprobe fails, its status and message handle left poisoned) ahead of
the wrapper. The wrapper must read neither after the error (it did: MPICH exited 19,
Open MPI died of SIGSEGV): every rank finishes with exit 0, the shim counts failed
probes, each rank whose probe failed says so once, and the report is published with every
rank's row and the wait states off with a note (no rank's waits, as for a rank short of
memory), counters and calls still reported.
Usage: check_probe_fails.py --mpirun M --program PLAIN --wrapper LIB --shim SHIM"""
import json
import os
import re
import shutil
import sys
import tempfile

from mpi_check import check, rank_env, run_cmd, launch_args, verdict

NP = 4
LINE = re.compile(r"PROBE_FAILS rank (\d+) failed (\d+)")
SAID = "MPI_Improbe failed in the wait states' exchange"


def main():
    args = launch_args(np=NP, options={"--wrapper": {"required": True},
                                       "--shim": {"required": True}})
    out = tempfile.mkdtemp(prefix="papi_probe_fails_")
    try:
        env = {"PAPI_MPI_OUTPUT_DIR": out, "LD_PRELOAD": f"{args.shim}:{args.wrapper}"}
        cmd = [args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, env) + [args.program]
        p = run_cmd(cmd, tail=4000)
        check(p.returncode == 0, f"exit status {p.returncode} (0 expected: no crash)")
        fails = {int(m.group(1)): int(m.group(2)) for m in LINE.finditer(p.stdout)}
        print(f"failed probes per rank: {fails}")
        check(sorted(fails) == list(range(args.np)), f"every rank reached PMPI_Finalize: {sorted(fails)}")
        check(sum(fails.values()) > 0, "the wrapper probed, and its probes failed")
        said = p.stdout.count(SAID)
        failing = sum(1 for n in fails.values() if n > 0)
        check(said == failing, f"each rank whose probe failed says so once: {said} lines, "
              f"{failing} ranks")
        path = os.path.join(out, "papi_mpi_report.json")
        if not check(os.path.exists(path), "the report was published"):
            return
        with open(path, encoding="utf-8") as f:
            rep = json.load(f)
        ranks = [r.get("rank") for r in rep.get("ranks", [])]
        check(ranks == list(range(args.np)), f"every rank's row, in order: {ranks}")
        ws = rep.get("wait_states", {})
        check(ws.get("on") is False and isinstance(ws.get("note"), str),
              f"the wait states off, with a note: {ws}")
        calls = [r.get("calls", {}).get("MPI_Send", {}).get("calls", 0) for r in rep.get("ranks", [])]
        check(sum(calls) > 0, f"calls still reported (MPI_Send per rank: {calls})")
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
    sys.exit(verdict())
