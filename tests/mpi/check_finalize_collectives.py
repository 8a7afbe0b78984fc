#!/usr/bin/env python3
"""The collectives of the wrapper's MPI_Finalize (issue 60 item 1): the unmodified pattern
program under LD_PRELOAD of finalize_collectives_shim (which counts every collective PMPI
call and communicator constructor between MPI_Finalize and PMPI_Finalize) ahead of the
wrapper, every default on, at 2, 4 and 8 ranks. Every rank makes the same calls, at most
--max of them, and as many whatever the rank count: the agreements are folded into vector
reductions (mpi-wrappers/comm/finalize_agreement.c), not one collective per integer.
Usage: check_finalize_collectives.py --mpirun M --program PLAIN --wrapper LIB --shim SHIM
  --max N"""
import os
import re
import shutil
import sys
import tempfile

from mpi_check import check, rank_env, run_cmd, launch_args, verdict

LINE = re.compile(r"FINALIZE_COLLECTIVES rank (\d+) total (\d+)((?: \w+=\d+)*)")


def counts(args, np):
    """{rank: (total, "name=count ...")} of one run at np ranks."""
    out = tempfile.mkdtemp(prefix="papi_fin_coll_")
    try:
        env = {"PAPI_MPI_OUTPUT_DIR": out, "LD_PRELOAD": f"{args.shim}:{args.wrapper}"}
        cmd = [args.mpirun, "-np", str(np)] + rank_env(args.mpirun, env) + [args.program]
        p = run_cmd(cmd, tail=4000)
        check(p.returncode == 0, f"np {np}: exit status {p.returncode}")
        check(os.path.exists(os.path.join(out, "papi_mpi_report.json")),
              f"np {np}: the report was written")
        return {int(m.group(1)): (int(m.group(2)), m.group(3).strip())
                for m in LINE.finditer(p.stdout)}
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main():
    args = launch_args(options={"--wrapper": {"required": True}, "--shim": {"required": True},
                                "--max": {"type": int, "required": True}})
    seen = {}
    for np in (2, 4, 8):
        got = counts(args, np)
        if not check(sorted(got) == list(range(np)), f"np {np}: a count from every rank: {sorted(got)}"):
            continue
        totals = {t for t, _ in got.values()}
        print(f"np {np}: rank 0 makes {got[0][0]} collectives in MPI_Finalize: {got[0][1]}")
        check(len(totals) == 1, f"np {np}: every rank makes as many collectives: {sorted(totals)}")
        check(max(totals) <= args.max, f"np {np}: at most {args.max} collectives: {max(totals)}")
        seen[np] = got[0][0]
    check(len(set(seen.values())) == 1, f"as many collectives at 2, 4 and 8 ranks: {seen}")
    sys.exit(verdict())


if __name__ == "__main__":
    main()
