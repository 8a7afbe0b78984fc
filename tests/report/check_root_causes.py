#!/usr/bin/env python3
"""papi_report.load.root_causes (the delay analysis of wait states) on hand-made records
with known answers:
- a pipeline 0 -> 1 -> 2 -> 3 after a barrier, every rank in region "assemble" for 0.1 s,
  rank 0 for 0.4 s: ranks 1-3 wait 0.3 s each in MPI_Recv, all caused by rank 0's
  "assemble": 0.3 s direct, 0.6 s propagated; no residual;
- an allreduce after rank k computed (k+1) x 0.1 s: ranks 0-2 wait 0.3, 0.2, 0.1 s, all
  caused by rank 3's compute, direct;
- a late receiver: an MPI_Ssend waiting for its receive, caused by the receiver's region;
- a wait with no cause and one whose cause had no extra time: the residual;
- the conservation check catches a cost lost or counted twice (the result altered by
  hand), and the engine itself always passes it.
Usage: check_root_causes.py PYTHON_DIR"""
import os
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "python")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import expect_near as expect, verdict  # noqa: E402 (tests/common/checks.py)
from papi_report.load import root_causes as rc  # noqa: E402
from papi_report.load.activities import Call  # noqa: E402

S = 1000000000  # ns a second


def barrier(t0, t1, n):
    return Call(t0, t1, "MPI_Barrier", 0x100, ("coll", n), 0, None, None)


def pipeline():
    """Ranks 0..3: barrier at [0, 0.01 s]; region assemble; rank 0 sends at 0.41 s, rank
    k receives from k-1 (posted at 0.11 s, the message there at 0.41 s) then sends."""
    calls, regions = {}, {}
    b = int(0.01 * S)
    for r in range(4):
        work = 0.4 if r == 0 else 0.1
        regions[r] = [(b, 1, "assemble"), (b + int(work * S), -1, "assemble")]
        cs = [barrier(0, b, 1)]
        t = b + int(work * S)
        if r > 0:  # the receive: posted at t, the send starts at 0.41 s
            arrive = b + int(0.4 * S) + (r - 1) * 1000
            cs.append(Call(t, arrive + 500, "MPI_Recv", 0x200 + r, ("p2p", r - 1, 2),
                           arrive - t, "late_sender", (r - 1, 2 if r > 1 else 1)))
            t = arrive + 500
        if r < 3:
            cs.append(Call(t + 500, t + 1000, "MPI_Send", 0x300 + r, ("p2p", r, 2 if r else 1),
                           0, None, None))
        calls[r] = cs
    return calls, regions


def test_pipeline():
    res = rc.analyse(*pipeline())
    expect("pipeline: the conservation check passes", 0 if rc.check(res) is None else 1, 0)
    expect("pipeline: waits (s)", res["waits"] / S, 0.9, 1e-4)
    expect("pipeline: residual (s)", res["residual"] / S, 0.0, 1e-3)
    rows = rc.rows(res)
    top = rows[0]
    print(rc.banner(top))
    expect("pipeline: top cause is rank 0", top["cause_rank"], 0)
    expect("pipeline: top cause is assemble", 0 if top["cause"] == "assemble" else 1, 0)
    expect("pipeline: ranks 1-3", 0 if top["wait_ranks"] == "1-3" else 1, 0)
    expect("pipeline: direct (s)", top["direct_s"], 0.3, 1e-2)
    expect("pipeline: propagated (s)", top["propagated_s"], 0.6, 1e-2)
    expect("pipeline: the cause's site", 0 if top["cause_site"] == "0x300" else 1, 0)
    # named by its own rank's log (a site is an address in its rank's process)
    named = rc.rows(res, lambda rank, site: "app.c:7" if (rank, site) == (0, 0x300) else None)
    print(rc.banner(named[0]))
    expect("pipeline: the cause's site named FILE:LINE, in the banner too",
           0 if named[0]["cause_site"] == "app.c:7" and "(app.c:7) on rank 0" in
           rc.banner(named[0]) else 1, 0)


def test_allreduce():
    calls = {}
    end = int(0.41 * S)
    for r in range(4):
        t = int(0.01 * S) + int((r + 1) * 0.1 * S)
        calls[r] = [barrier(0, int(0.01 * S), 1),
                    Call(t, end + 1000, "MPI_Allreduce", 0x400, ("coll", 2), end - t,
                         "nxn" if r < 3 else None, (3, 1) if r < 3 else None)]
    calls[3][1] = calls[3][1]._replace(wait=0)
    res = rc.analyse(calls)
    expect("allreduce: the conservation check passes", 0 if rc.check(res) is None else 1, 0)
    expect("allreduce: waits (s)", res["waits"] / S, 0.6, 1e-4)
    rows = rc.rows(res)
    expect("allreduce: one row", len(rows), 1)
    print(rc.banner(rows[0]))
    expect("allreduce: cause rank 3", rows[0]["cause_rank"], 3)
    expect("allreduce: direct (s)", rows[0]["direct_s"], 0.6, 1e-3)
    expect("allreduce: propagated (s)", rows[0]["propagated_s"], 0.0, 1e-3)
    expect("allreduce: wait ranks 0-2", 0 if rows[0]["wait_ranks"] == "0-2" else 1, 0)


def test_late_receiver():
    """Rank 0's MPI_Ssend at 0.1 s waits for rank 1's receive, posted at 0.5 s after
    0.4 s in region "solve" (rank 0 had 0.1 s of it): 0.4 s late receiver, caused by rank
    1's solve, direct."""
    b = int(0.01 * S)
    regions = {0: [(b, 1, "solve"), (b + S // 10, -1, "solve")],
               1: [(b, 1, "solve"), (b + 5 * S // 10, -1, "solve")]}
    send_at, recv_at = b + S // 10, b + 5 * S // 10
    calls = {0: [barrier(0, b, 1), Call(send_at, recv_at + 1000, "MPI_Ssend", 0x500,
                                        ("p2p", 0, 1), recv_at - send_at, "late_receiver", (1, 1))],
             1: [barrier(0, b, 1), Call(recv_at, recv_at + 1000, "MPI_Recv", 0x600,
                                        ("p2p", 0, 1), 0, None, None)]}
    res = rc.analyse(calls, regions)
    rows = rc.rows(res)
    print(rc.banner(rows[0]))
    expect("late receiver: the conservation check passes", 0 if rc.check(res) is None else 1, 0)
    expect("late receiver: caused by rank 1", rows[0]["cause_rank"], 1)
    expect("late receiver: in solve", 0 if rows[0]["cause"] == "solve" else 1, 0)
    expect("late receiver: direct (s)", rows[0]["direct_s"], 0.4, 1e-3)


def test_residual():
    """A wait without a cause, and one whose cause did the same as the waiter: residual."""
    calls = {0: [barrier(0, 10, 1), Call(100, 200, "MPI_Recv", 1, ("p2p", 1, 1), 50, "late_sender", None)],
             1: [barrier(0, 10, 1), Call(100, 150, "MPI_Send", 2, ("p2p", 1, 1), 0, None, None)],
             2: [barrier(0, 10, 1), Call(100, 300, "MPI_Recv", 3, ("p2p", 3, 1), 100, "late_sender", (3, 1))],
             3: [barrier(0, 10, 1), Call(100, 150, "MPI_Send", 4, ("p2p", 3, 1), 0, None, None)]}
    res = rc.analyse(calls)
    expect("residual: the conservation check passes", 0 if rc.check(res) is None else 1, 0)
    expect("residual: all of it (ns)", res["residual"], 150)
    expect("residual: no cost", len(res["costs"]), 0)


def test_check_catches():
    res = rc.analyse(*pipeline())
    cell = max(res["costs"].values(), key=lambda c: sum(d + p for d, p in c.values()))
    o = max(cell, key=lambda k: sum(cell[k]))
    lost = {k: {kk: list(vv) for kk, vv in v.items()} for k, v in res["costs"].items()}
    next(v for v in lost.values() if o in v and sum(v[o]) > 0.1 * S)[o][1] -= 0.1 * S
    expect("check: a lost cost is caught",
           0 if rc.check(dict(res, costs=lost)) else 1, 0)
    twice = {k: {kk: list(vv) for kk, vv in v.items()} for k, v in res["costs"].items()}
    twice[(9, ("compute", "x", ""))] = {o: list(cell[o])}
    expect("check: a cost counted twice is caught",
           0 if rc.check(dict(res, costs=twice)) else 1, 0)


def test_per_wait():
    """The pipeline's costs split by wait (analyse(per_wait=True), the merged trace's
    links): rank 1's wait 0.3 s direct, ranks 2 and 3's 0.3 s propagated, each of rank 0's
    assemble, whose Segment (its region) they name; summed by kind, call and rank they
    are the costs (1 ns), which the same analysis without per_wait gives too."""
    calls, regions = pipeline()
    res = rc.analyse(calls, regions, per_wait=True)
    plain = rc.analyse(calls, regions)
    cause = (0, ("compute", "assemble", ""))
    b = int(0.01 * S)
    for r, direct, propagated in ((1, 0.3, 0.0), (2, 0.0, 0.3), (3, 0.0, 0.3)):
        cell = res["by_wait"].get((r, 1), {})
        d, p, span, _ns = cell.get(cause, (0, 0, None, 0))
        expect("per wait: rank %d's wait, direct (s)" % r, d / S, direct, 1e-3)
        expect("per wait: rank %d's wait, propagated (s)" % r, p / S, propagated, 1e-3)
        expect("per wait: rank %d's wait, at rank 0's assemble" % r,
               0 if span == (b, b + int(0.4 * S)) else 1, 0)
    summed = {}
    for (w, i), cell in res["by_wait"].items():
        c = calls[w][i]
        for key, (d, p, _span, _ns) in cell.items():
            got = summed.setdefault((key, (c.kind, c.name, w)), [0, 0])
            got[0] += d
            got[1] += p
    want = {(key, o): dp for key, cell in res["costs"].items() for o, dp in cell.items()}
    expect("per wait: the same cells as the costs", 0 if set(summed) == set(want) else 1, 0)
    expect("per wait: summed, the costs (ns)",
           max(abs(summed[k][j] - want[k][j]) for k in want for j in (0, 1)), 0, 1)
    expect("per wait: the costs as without per_wait (ns)",
           max(abs(plain["costs"][c][o][j] - res["costs"][c][o][j])
               for c in plain["costs"] for o in plain["costs"][c] for j in (0, 1)), 0, 1)
    expect("per wait: no by_wait without it", 0 if "by_wait" not in plain else 1, 0)


for test in (test_pipeline, test_allreduce, test_late_receiver, test_residual, test_check_catches,
             test_per_wait):
    test()
sys.exit(verdict())
