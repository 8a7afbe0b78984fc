#!/usr/bin/env python3
"""The wait rules' two implementations against each other (issue 57 item 3): the
wrapper's (wait_states.c, at MPI_Finalize) and papi_report's recomputation from the event
logs (papi_report/load/event_logs.py, for a job that died). Every staged mode of mpi_waits.c
(late sender and receiver, Waitany, Testany, persistent requests, barriers on split
halves and an intercommunicator, N x N, late root, early reduce, POP), and each --also
program (mpi_pattern.c: every call family, nonblocking collectives among them), runs to its end
with checkpoints every 10 ms and keep_event_log.so preloaded (the logs kept, complete):
papi_report's waits of each rank and kind must be the report's within TOL (the two put
times on rank 0's clock alike but for the drift interpolated at MPI_Finalize), its
matched collectives the same count, and every wait kind must be met by some mode (the
comparison is not of zeros).
The timeline (papi_report/tables/timeline_data.py, the same rules: load/wait_match.py)
joins them: each run also writes its JSON trace (PAPI_MPI_TRACE=json), and the waits the
timeline draws from it, per rank and kind, must be the report's within TOL where the trace
carries what they need (TIMELINE_ALL: blocking calls, receives completed by a Wait, world
collectives), and never above them elsewhere (a nonblocking collective or synchronous send
waits in a Wait the trace does not link; a collective on another communicator is matched by a group it
does not name: there the timeline says less, never a wait the wrapper did not find).
Usage: check_waits_differential.py --mpirun M --program PROG --keep-log SO
  [--also "PROG NP [ARG...]"]..."""
import argparse
import json
import os
import shutil
import sys
import tempfile

from mpi_check import check, rank_env, run_cmd, verdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import event_logs, mpi_rules  # noqa: E402
from papi_report.tables import timeline_data  # noqa: E402

TOL = 0.002  # s
#: The modes whose trace carries every wait's partners: the timeline finds all the report's.
TIMELINE_ALL = {"late_sender", "late_receiver", "waitany", "testany", "persistent", "barrier",
                "collectives", "pop"}
MODES = [("late_sender", 2), ("late_receiver", 2), ("late_receiver_issend", 2), ("waitany", 2),
         ("testany", 2), ("persistent", 2), ("barrier", 3), ("split_barrier", 4), ("intercomm", 4),
         ("collectives", 3), ("nxn_more", 3), ("pop", 2)]


def compare(mode, out, seen):
    """The report's waits against those papi_report recomputes from the kept logs."""
    path = os.path.join(out, "papi_mpi_report.json")
    if not check(os.path.exists(path), f"{mode}: report written"):
        return
    with open(path, encoding="utf-8") as f:
        ws = json.load(f).get("wait_states", {})
    if not check(ws.get("on"), f"{mode}: wait states on: {ws.get('note')}"):
        return
    try:
        rows, stats, nranks = event_logs.wait_states(event_logs.load(out))
    except event_logs.EventLogError as e:
        check(False, f"{mode}: the kept logs: {e}")
        return
    wrapper = {r["rank"]: r for r in ws.get("ranks", [])}
    mine = {r["rank"]: r for r in rows}
    check(sorted(mine) == sorted(wrapper), f"{mode}: ranks {sorted(mine)} vs {sorted(wrapper)}")
    for rank in sorted(set(mine) & set(wrapper)):
        for k in mpi_rules.REPORT_KEYS:
            c, py = wrapper[rank].get(k, 0.0), mine[rank][k]
            seen[k] = max(seen.get(k, 0.0), c)
            check(abs(c - py) <= TOL, f"{mode}: rank {rank} {k}: wrapper {c:.6f}, papi_report {py:.6f}")
    worst = max(((abs(wrapper[r].get(k, 0.0) - mine[r][k]), r, k) for r in set(mine) & set(wrapper)
                  for k in mpi_rules.REPORT_KEYS), default=(0.0, None, None))
    print(f"{mode}: {len(mine)} ranks, waits {sum(r[k] for r in mine.values() for k in mpi_rules.REPORT_KEYS):.6f} s "
          f"recomputed; largest difference {worst[0] * 1e6:.1f} us (rank {worst[1]} {worst[2]})")
    matched = ws.get("matched", {})
    check(stats["coll_matched"] == matched.get("collectives"),
          f"{mode}: matched collectives: wrapper {matched.get('collectives')}, papi_report "
          f"{stats['coll_matched']}")
    compare_timeline(mode, out, wrapper, seen)


def timeline_waits(out):
    """{rank: {report key: seconds}} of the waits the timeline draws from the run's trace."""
    traces = timeline_data.find_traces(out)
    if not check(traces != [], f"{out}: a JSON trace written (PAPI_MPI_TRACE=json)"):
        return None
    spans, _counters = timeline_data.spans_from_events(timeline_data.read_events(traces)[0])
    got = {}
    for row in spans[spans["kind"].isin(mpi_rules.WAIT_KINDS)].itertuples():
        per = got.setdefault(int(row.rank), {k: 0.0 for k in mpi_rules.REPORT_KEYS})
        per[row.kind + "_s"] += row.t1_s - row.t0_s
    return got


def compare_timeline(mode, out, wrapper, seen):
    """The timeline's waits against the report's: equal where the trace carries them all
    (TIMELINE_ALL), never more elsewhere."""
    got = timeline_waits(out)
    if got is None:
        return
    whole = mode in TIMELINE_ALL
    worst = (0.0, None, None)
    for rank in sorted(wrapper):
        for k in mpi_rules.REPORT_KEYS:
            c, tl = wrapper[rank].get(k, 0.0), got.get(rank, {}).get(k, 0.0)
            if whole:
                seen["timeline " + k] = max(seen.get("timeline " + k, 0.0), tl)
                check(abs(c - tl) <= TOL, f"{mode}: rank {rank} {k}: wrapper {c:.6f}, timeline {tl:.6f}")
            else:
                check(tl <= c + TOL, f"{mode}: rank {rank} {k}: timeline {tl:.6f} above the wrapper's {c:.6f}")
            if abs(c - tl) > worst[0]:
                worst = (abs(c - tl), rank, k)
    print(f"{mode}: the timeline's waits {sum(sum(v.values()) for v in got.values()):.6f} s, "
          f"{'all' if whole else 'some'} of the report's; largest difference {worst[0] * 1e6:.1f} us "
          f"(rank {worst[1]} {worst[2]})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--keep-log", required=True)
    ap.add_argument("--also", action="append", default=[], help='"PROG NP [ARG...]"')
    args = ap.parse_args()
    seen = {}
    runs = [(mode, np, [args.program, mode]) for mode, np in MODES]
    for also in args.also:
        prog, np, *rest = also.split()
        runs.append((f"{os.path.basename(prog)} np{np}", int(np), [prog] + rest))
    for mode, np, cmd in runs:
        out = tempfile.mkdtemp(prefix="papi_mpi_waits_diff_")
        try:
            env = {"PAPI_MPI_OUTPUT_DIR": out, "PAPI_MPI_CHECKPOINT": "0.01",
                   "LD_PRELOAD": os.path.abspath(args.keep_log), "PAPI_MPI_TRACE": "json"}
            p = run_cmd([args.mpirun, "-np", str(np)] + rank_env(args.mpirun, env) + cmd, tail=2000)
            if check(p.returncode == 0, f"{mode}: exit status {p.returncode}"):
                compare(mode, out, seen)
        finally:
            shutil.rmtree(out, ignore_errors=True)
    for k in mpi_rules.REPORT_KEYS:
        check(seen.get(k, 0.0) >= 0.05, f"{k}: met by some mode ({seen.get(k, 0.0):.3f} s at most)")
        tk = "timeline " + k
        check(seen.get(tk, 0.0) >= 0.05, f"{tk}: met by some mode ({seen.get(tk, 0.0):.3f} s at most)")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
