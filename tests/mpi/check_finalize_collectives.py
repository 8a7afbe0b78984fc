#!/usr/bin/env python3
"""The collectives of the wrapper's MPI_Finalize (issue 60 item 1): the unmodified pattern
program under LD_PRELOAD of finalize_collectives_shim (which counts every collective PMPI
call and communicator constructor between MPI_Finalize and PMPI_Finalize) ahead of the
wrapper, every default on, at 2, 4 and 8 ranks. Every rank makes the same calls, at most
--max of them, and as many whatever the rank count: the agreements are folded into vector
reductions (mpi-wrappers/comm/finalize_agreement.c), not one collective per integer.
With PAPI_MPI_CLOCK_PINGPONG=1 the clock offsets are measured in a binomial tree
(mpi-wrappers/waits/clock_sync.c): no rank exchanges more than 10 messages (its boot id
and 4 ping-pongs each way) with each of its ceil(log2 P) partners at most, where rank 0
serving every rank in turn exchanged 8 (P - 1); the report states a residual.
Usage: check_finalize_collectives.py --mpirun M --program PLAIN --wrapper LIB --shim SHIM
  --max N"""
import json
import math
import os
import re
import shutil
import sys
import tempfile

from mpi_check import check, rank_env, run_cmd, launch_args, verdict

LINE = re.compile(r"FINALIZE_COLLECTIVES rank (\d+) total (\d+) clock_messages (\d+)((?: \w+=\d+)*)")
ROUNDS = 4  # clock_sync.c's ping-pongs per pair


def counts(args, np, more=None):
    """({rank: (total, clock messages, "name=count ...")}, the report or None) of one run
    at np ranks, more: the ranks' environment beside the defaults."""
    out = tempfile.mkdtemp(prefix="papi_fin_coll_")
    try:
        env = dict({"PAPI_MPI_OUTPUT_DIR": out, "LD_PRELOAD": f"{args.shim}:{args.wrapper}"},
                   **(more or {}))
        cmd = [args.mpirun, "-np", str(np)] + rank_env(args.mpirun, env) + [args.program]
        p = run_cmd(cmd, tail=4000)
        check(p.returncode == 0, f"np {np} {more or ''}: exit status {p.returncode}")
        path = os.path.join(out, "papi_mpi_report.json")
        rep = None
        if check(os.path.exists(path), f"np {np} {more or ''}: the report was written"):
            with open(path, encoding="utf-8") as f:
                rep = json.load(f)
        return {int(m.group(1)): (int(m.group(2)), int(m.group(3)), m.group(4).strip())
                for m in LINE.finditer(p.stdout)}, rep
    finally:
        shutil.rmtree(out, ignore_errors=True)


def tree_clocks(args, np, total):
    """The offsets by ping-pong between ranks of one boot: in a tree, not a star."""
    got, rep = counts(args, np, {"PAPI_MPI_CLOCK_PINGPONG": "1"})
    if not check(sorted(got) == list(range(np)), f"np {np} ping-pong: a count from every rank"):
        return
    bound = (2 + 2 * ROUNDS) * math.ceil(math.log2(np))
    msgs = {r: c for r, (_, c, _) in got.items()}
    print(f"np {np} ping-pong: clock messages per rank {msgs}, at most {bound} each")
    check(msgs[0] == bound, f"np {np}: rank 0 exchanges with its {math.ceil(math.log2(np))} "
          f"children only: {msgs[0]} messages, {bound} expected")
    check(max(msgs.values()) <= bound, f"np {np}: no rank exchanges more than {bound}: {msgs}")
    check(all(t == total for t, _, _ in got.values()),
          f"np {np} ping-pong: no collective more than with the defaults ({total})")
    res = rep and rep.get("wait_states", {}).get("clock", {}).get("residual_s")
    check(res is not None and 0 < res < 1, f"np {np}: the report states a residual: {res}")


def main():
    args = launch_args(options={"--wrapper": {"required": True}, "--shim": {"required": True},
                                "--max": {"type": int, "required": True}})
    seen = {}
    for np in (2, 4, 8):
        got, _ = counts(args, np)
        if not check(sorted(got) == list(range(np)), f"np {np}: a count from every rank: {sorted(got)}"):
            continue
        totals = {t for t, _, _ in got.values()}
        print(f"np {np}: rank 0 makes {got[0][0]} collectives in MPI_Finalize: {got[0][2]}")
        check(len(totals) == 1, f"np {np}: every rank makes as many collectives: {sorted(totals)}")
        check(max(totals) <= args.max, f"np {np}: at most {args.max} collectives: {max(totals)}")
        seen[np] = got[0][0]
        tree_clocks(args, np, got[0][0])
    check(len(set(seen.values())) == 1, f"as many collectives at 2, 4 and 8 ranks: {seen}")
    sys.exit(verdict())


if __name__ == "__main__":
    main()
