#!/usr/bin/env python3
"""papi_report.load.critical_path (the backward replay of the critical path) on hand-made
records with known answers:
- a pipeline 0 -> 1 -> 2 -> 3 between two barriers, every rank in region "assemble" for
  0.1 s, rank 0 for 0.4 s: the path runs through rank 0's assemble (0.4 s) and the sends,
  rank 0's only; its total is the wall time;
- an allreduce after rank k worked (k+1) x 0.1 s in "solve": the path is rank 3's work,
  0.4 s; the imbalance indicator 0.4 - mean 0.25 = 0.15 s (the saving's bound as well);
- two independent imbalances (ranks 0-1 meet, ranks 2-3 meet, then a final barrier):
  rank 1's extra 0.5 s in "fft" sets the wall time, rank 2's extra 0.2 s in "io" does not:
  only fft is on the path, its imbalance 0.6 - 0.7 / 4 s (the mean over every rank);
- a rank that logs its first record 0.05 s after the other (a late start, MPI_Init
  unlogged), waited for in the first barrier: the path's start-up, 0.05 s, on that rank;
- records of a rank that overlap (its barrier logged as starting before its send ended): the
  jump lands in the record waited for, not in the next one by time;
- a jump to a record that starts after the wait ended (clocks that disagree): counted as
  the clock residual, the check passes; a total altered by hand fails it.
Usage: check_critical_path.py PYTHON_DIR"""
import os
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "python")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import expect_near as expect, verdict  # noqa: E402 (tests/common/checks.py)
from papi_report.load import advice, critical_path as cp, root_causes as rc  # noqa: E402
from papi_report.load.activities import Call  # noqa: E402

S = 1000000000  # ns a second


def row_of(table, activity):
    return next((r for r in table if r["activity"] == activity), None)


def final_barrier(calls, ids):
    """A barrier after each rank's last call: the early ranks wait for the last arrival."""
    last = max(range(len(calls)), key=lambda r: calls[r][-1].t1)
    t = calls[last][-1].t1 + 1000
    for r in sorted(calls):
        at = calls[r][-1].t1 + 100
        mine = at if r != last else t
        calls[r].append(Call(mine, t + 2000, "MPI_Barrier", 0x900, ("coll", ids), t - mine if r != last else 0,
                             "wait_barrier" if r != last else None,
                             (last, len(calls[last])) if r != last else None))


def barrier(t0, t1, n):
    return Call(t0, t1, "MPI_Barrier", 0x100, ("coll", n), 0, None, None)


def pipeline(first=(("assemble", 0.4),), others=0.1):
    """Ranks 0..3: a barrier, then rank 0 works through the regions first ((name, s) in
    turn), the others `others` s in "assemble"; then 0 -> 1 -> 2 -> 3; a final barrier."""
    calls, regions = {}, {}
    b = int(0.01 * S)
    done0 = b + int(sum(s for _n, s in first) * S)
    for r in range(4):
        spans = first if r == 0 else (("assemble", others),)
        t, regions[r] = b, []
        for name, s in spans:
            regions[r] += [(t, 1, name), (t + int(s * S), -1, name)]
            t += int(s * S)
        cs = [barrier(0, b, 1)]
        if r > 0:  # posted at t; rank r-1's send starts at send[r-1]
            send = done0 + (r - 1) * 2000
            cs.append(Call(t, send + 1500, "MPI_Recv", 0x200 + r, ("p2p", r - 1, 2),
                           send + 1000 - t, "late_sender", (r - 1, 2 if r > 1 else 1)))
            t = send + 1500
        if r < 3:
            cs.append(Call(t + 500, t + 1000, "MPI_Send", 0x300 + r, ("p2p", r, 2 if r else 1),
                           0, None, None))
        calls[r] = cs
    final_barrier(calls, 3)
    return calls, regions


def test_pipeline():
    calls, regions = pipeline()
    res = cp.walk(calls, regions)
    table = cp.rows(res)
    for line in cp.text(res, table):
        print(line)
    expect("pipeline: the check passes", 0 if cp.check(res) is None else 1, 0)
    expect("pipeline: the path's total is the wall time (s)", res["total"] / S,
           (res["end"] - res["first"]) / S, 1e-9)
    a = row_of(table, "assemble")
    expect("pipeline: assemble on the path", 0 if a else 1, 0)
    if a:
        expect("pipeline: assemble's time on the path (s)", a["path_s"], 0.4, 1e-6)
        expect("pipeline: on rank 0 only", 0 if a["path_ranks"] == "0" else 1, 0)
        expect("pipeline: assemble's mean per rank (s)", a["mean_s"], 0.175, 1e-6)
        expect("pipeline: imbalance (s)", a["imbalance_s"], 0.225, 1e-6)
        expect("pipeline: assemble is the top row", 0 if table[0] is a else 1, 0)
    sends = [(r, k) for (r, k) in res["path"] if k[1] == "MPI_Send"]
    expect("pipeline: the path holds the sends of ranks 0-2",
           0 if sorted(r for r, _ in sends) == [0, 1, 2] else 1, 0)
    expect("pipeline: no rank 1-3 assemble on the path",
           0 if all(r == 0 for (r, k) in res["path"] if k == ("compute", "assemble", "")) else 1, 0)


def test_allreduce():
    calls, regions = {}, {}
    b = int(0.01 * S)
    end = b + int(0.4 * S)
    for r in range(4):
        t = b + int((r + 1) * 0.1 * S)
        regions[r] = [(b, 1, "solve"), (t, -1, "solve")]
        calls[r] = [barrier(0, b, 1),
                    Call(t, end + 1000, "MPI_Allreduce", 0x400, ("coll", 2), end - t if r < 3 else 0,
                         "nxn" if r < 3 else None, (3, 1) if r < 3 else None)]
    res = cp.walk(calls, regions)
    table = cp.rows(res)
    for line in cp.text(res, table):
        print(line)
    expect("allreduce: the check passes", 0 if cp.check(res) is None else 1, 0)
    s = row_of(table, "solve")
    expect("allreduce: solve on the path", 0 if s else 1, 0)
    if s:
        expect("allreduce: on rank 3", 0 if s["path_ranks"] == "3" else 1, 0)
        expect("allreduce: solve's time on the path (s)", s["path_s"], 0.4, 1e-6)
        expect("allreduce: solve's mean per rank (s)", s["mean_s"], 0.25, 1e-6)
        expect("allreduce: solve's max (s)", s["max_s"], 0.4, 1e-6)
        expect("allreduce: imbalance indicator (s)", s["imbalance_s"], 0.15, 1e-6)
        expect("allreduce: the saving's bound (s)", s["saving_bound_s"], 0.15, 1e-6)
    expect("allreduce: no waiting on the path",
           0 if not any(k[0] == "wait" for (_r, k) in res["path"]) else 1, 0)


def test_two_imbalances():
    """Ranks 0 and 1 exchange (rank 0 waits 0.5 s for rank 1's fft), ranks 2 and 3 exchange
    (rank 3 waits 0.2 s for rank 2's io), then a final barrier: the path goes through fft."""
    b = int(0.01 * S)
    regions = {0: [(b, 1, "fft"), (b + S // 10, -1, "fft")],
               1: [(b, 1, "fft"), (b + 6 * S // 10, -1, "fft")],
               2: [(b, 1, "io"), (b + 3 * S // 10, -1, "io")],
               3: [(b, 1, "io"), (b + S // 10, -1, "io")]}
    calls = {}
    for waiter, sender, t_sender in ((0, 1, b + 6 * S // 10), (3, 2, b + 3 * S // 10)):
        t_wait = b + S // 10
        calls[sender] = [barrier(0, b, 1), Call(t_sender, t_sender + 1000, "MPI_Send", 0x500 + sender,
                                                ("p2p", sender, 1), 0, None, None)]
        calls[waiter] = [barrier(0, b, 1), Call(t_wait, t_sender + 1500, "MPI_Recv", 0x600 + waiter,
                                                ("p2p", sender, 1), t_sender + 1000 - t_wait,
                                                "late_sender", (sender, 1))]
    final_barrier(calls, 2)
    res = cp.walk(calls, regions)
    table = cp.rows(res)
    for line in cp.text(res, table):
        print(line)
    expect("two imbalances: the check passes", 0 if cp.check(res) is None else 1, 0)
    f, io = row_of(table, "fft"), row_of(table, "io")
    expect("two imbalances: fft on the path (s)", f["path_s"] if f else 0, 0.6, 1e-6)
    expect("two imbalances: fft's imbalance (s)", f["imbalance_s"] if f else 0, 0.6 - 0.7 / 4, 1e-6)
    expect("two imbalances: io not on the path", 0 if io is None else 1, 0)
    expect("two imbalances: the total is the wall time (s)", res["total"] / S,
           (res["end"] - res["first"]) / S, 1e-9)


def test_start_up():
    """Rank 1 enters the first barrier at 0.05 s, rank 0 at 0 and waits for it; both then
    work 0.1 s: the path is rank 1's start-up, the barrier, then either rank's work."""
    late = S // 20
    calls = {0: [Call(0, late + 100, "MPI_Barrier", 1, ("coll", 1), late, "wait_barrier", (1, 0)),
                 Call(late + 100 + S // 10, late + 200 + S // 10, "MPI_Barrier", 2, ("coll", 2), 0,
                      None, None)],
             1: [Call(late, late + 100, "MPI_Barrier", 1, ("coll", 1), 0, None, None)]}
    res = cp.walk(calls)
    table = cp.rows(res)
    start = row_of(table, "start-up (before the first record)")
    expect("start-up: the check passes", 0 if cp.check(res) is None else 1, 0)
    expect("start-up: on the path (s)", start["path_s"] if start else 0, 0.05, 1e-6)
    expect("start-up: rank 1's", 0 if start and start["path_ranks"] == "1" else 1, 0)
    expect("start-up: mean per rank (s)", start["mean_s"] if start else 0, 0.025, 1e-6)


def test_overlap():
    """Rank 1 waits for rank 0's send ([0.3 s, 0.3 s + 1 us]) in MPI_Recv until 0.3 s +
    200 ns; rank 0's next barrier is logged from 0.3 s + 100 ns, waiting for rank 1: the
    path goes on in the send, then rank 0's work (0.3 s), no clock residual."""
    t = 3 * S // 10
    regions = {0: [(10, 1, "work"), (t, -1, "work")]}
    calls = {0: [barrier(0, 10, 1), Call(t, t + 1000, "MPI_Send", 1, ("p2p", 0, 1), 0, None, None),
                 Call(t + 100, t + S // 20 + 200, "MPI_Barrier", 2, ("coll", 2), S // 20,
                      "wait_barrier", (1, 2))],
             1: [barrier(0, 10, 1), Call(S // 10, t + 500, "MPI_Recv", 3, ("p2p", 0, 1),
                                         t + 200 - S // 10, "late_sender", (0, 1)),
                 Call(t + S // 20, t + S // 20 + 300, "MPI_Barrier", 4, ("coll", 2), 0, None, None)]}
    res = cp.walk(calls, regions)
    w = row_of(cp.rows(res), "work")
    expect("overlap: the check passes", 0 if cp.check(res) is None else 1, 0)
    expect("overlap: no clock residual (s)", res["residual"] / S, 0.0, 1e-9)
    expect("overlap: rank 0's work on the path (s)", w["path_s"] if w else 0, 0.3, 1e-6)


def clock_residual_calls():
    """Rank 1's receive ends at 0.2 s, its send (rank 0's clock) starts at 0.3 s."""
    return {0: [barrier(0, 10, 1), Call(3 * S // 10, 3 * S // 10 + 100, "MPI_Send", 1,
                                        ("p2p", 0, 1), 0, None, None)],
            1: [barrier(0, 10, 1), Call(S // 10, 2 * S // 10, "MPI_Recv", 2, ("p2p", 0, 1),
                                        S // 10, "late_sender", (0, 1)),
                Call(2 * S // 10 + 100, 4 * S // 10, "MPI_Barrier", 3, None, 0, None, None)]}


def test_clock_residual():
    """Rank 1's receive ends at 0.2 s, its send (rank 0's clock) starts at 0.3 s: 0.1 s
    walked twice, the clock residual; the check passes, a total altered does not."""
    calls = clock_residual_calls()
    res = cp.walk(calls)
    expect("clock: residual (s)", res["residual"] / S, 0.1, 1e-6)
    expect("clock: the check passes", 0 if cp.check(res) is None else 1, 0)
    expect("clock: a total altered is caught", 0 if cp.check(dict(res, total=res["total"] + S // 100)) else 1, 0)


def test_steps():
    """The path's parts (steps), for the trace's track: in time order, none overlapping,
    adding up to the total; the pipeline's rank 0 assemble one step of 0.4 s at its region's
    times; with the clock residual, the parts still in order, the overlap walked twice."""
    calls, regions = pipeline()
    res = cp.walk(calls, regions)
    steps = res["steps"]
    expect("steps: they add up to the path's total (s)",
           sum(t1 - t0 for _r, _k, t0, t1, _s in steps) / S, res["total"] / S, 1e-9)
    expect("steps: in time order, each where the one before it ended",
           0 if all(a[3] == b[2] for a, b in zip(steps, steps[1:])) else 1, 0)
    expect("steps: from the first record to the end (s)",
           (steps[0][2] - res["first"] + steps[-1][3] - res["end"]) / S, 0.0, 1e-9)
    a = [st for st in steps if st[1] == ("compute", "assemble", "")]
    b = int(0.01 * S)
    expect("steps: assemble once, on rank 0, its region's times",
           0 if [(st[0], st[2], st[3]) for st in a] == [(0, b, b + int(0.4 * S))] else 1, 0)
    calls = clock_residual_calls()
    res = cp.walk(calls)
    steps = res["steps"]
    expect("steps (clock residual): they add up to the total (s)",
           sum(t1 - t0 for _r, _k, t0, t1, _s in steps) / S, res["total"] / S, 1e-9)
    expect("steps (clock residual): each starts at or after the one before it",
           0 if all(a[2] <= b[2] for a, b in zip(steps, steps[1:])) else 1, 0)


def findings(calls, regions):
    path = cp.walk(calls, regions)
    found = advice.findings(path, rc.analyse(calls, regions))
    for line in advice.text(found, (path["end"] - path["first"]) / S):
        print(line)
    return found, path


def test_advice_two_imbalances():
    """--advise: rank 0 works 0.2 s in "io" then sends to ranks 1 and 2 (0.4 s of waits),
    rank 3 works 0.3 s in "fft" (ranks 0-2 wait 0.1 s each for it in the final barrier):
    fft, on the path, first (balance it: 0.3 - 0.3 / 4 s), io after it, off the path,
    though its waits are the larger."""
    b = int(0.01 * S)
    io, fft = b + 2 * S // 10, b + 3 * S // 10
    regions = {0: [(b, 1, "io"), (io, -1, "io")], 3: [(b, 1, "fft"), (fft, -1, "fft")]}
    calls = {0: [barrier(0, b, 1), Call(io, io + 1000, "MPI_Send", 0x701, ("p2p", 0, 1), 0, None, None),
                 Call(io + 1000, io + 2000, "MPI_Send", 0x702, ("p2p", 0, 2), 0, None, None)],
             3: [barrier(0, b, 1)]}
    for r in (1, 2):
        calls[r] = [barrier(0, b, 1), Call(b + 100, io + 1000 * r + 500, "MPI_Recv", 0x710 + r,
                                           ("p2p", 0, r), io + 1000 * r - b - 100, "late_sender",
                                           (0, r))]
    calls[3].append(Call(fft, fft + 100, "MPI_Send", 0x720, None, 0, None, None))
    final_barrier(calls, 2)
    found, _path = findings(calls, regions)
    first = found[0] if found else {}
    expect("advise two: fft first", 0 if first.get("activity") == "fft" else 1, 0)
    expect("advise two: fft balanced over ranks", 0 if first.get("change") == "balance" else 1, 0)
    expect("advise two: fft's bound (s)", first.get("saving_bound_s", 0), 0.3 - 0.3 / 4, 1e-3)
    io_f = next((f for f in found if f["activity"] == "io"), {})
    expect("advise two: io listed, off the path", 0 if io_f.get("on_path") is False else 1, 0)
    expect("advise two: io's bound 0 (s)", io_f.get("saving_bound_s", 1), 0.0)
    expect("advise two: io's waits (s)", io_f.get("caused_wait_s", 0), 0.4, 1e-2)
    expect("advise two: io's waits larger than fft's",
           0 if io_f.get("caused_wait_s", 0) > first.get("caused_wait_s", 1) else 1, 0)


def test_advice_chain():
    """--advise: the pipeline with rank 0's 0.3 s of "extra" after 0.05 s of "assemble"
    (every rank's): shorten extra on rank 0, saving at most 0.3 s; the run without it
    (checked()) saves 0.3 s of the wall time and of extra on the path."""
    found, before = findings(*pipeline((("assemble", 0.05), ("extra", 0.3)), 0.05))
    first = found[0] if found else {}
    expect("advise chain: extra first", 0 if first.get("activity") == "extra" else 1, 0)
    expect("advise chain: shorten it on rank 0",
           0 if first.get("change") == "shorten" and first.get("ranks") == "0" else 1, 0)
    expect("advise chain: extra's bound (s)", first.get("saving_bound_s", 0), 0.3, 1e-6)
    after = cp.walk(*pipeline((("assemble", 0.05),), 0.05))
    lines = advice.checked(found, before, after)
    print("\n".join(lines))
    wall = lambda p: (p["end"] - p["first"]) / S  # noqa: E731
    expect("advise chain: B saved (s)", wall(before) - wall(after), 0.3, 1e-3)
    expect("advise chain: the check line", 0 if "predicted at most 0.300 s; B saved 0.300 s"
           in lines[1] else 1, 0)


def test_advice_allreduce():
    """--advise: rank k computes (k+1) x 0.1 s in "work" before an allreduce: balance work
    over ranks, saving at most max - mean = 0.15 s."""
    calls, regions = {}, {}
    b = int(0.01 * S)
    end = b + int(0.4 * S)
    for r in range(4):
        t = b + int((r + 1) * 0.1 * S)
        regions[r] = [(b, 1, "work"), (t, -1, "work")]
        calls[r] = [barrier(0, b, 1),
                    Call(t, end + 1000, "MPI_Allreduce", 0x400, ("coll", 2), end - t if r < 3 else 0,
                         "wait_nxn" if r < 3 else None, (3, 1) if r < 3 else None)]
    found, _path = findings(calls, regions)
    first = found[0] if found else {}
    expect("advise allreduce: balance work", 0 if first.get("advice") == "balance `work` over ranks" else 1, 0)
    expect("advise allreduce: bound max - mean (s)", first.get("saving_bound_s", 0), 0.15, 1e-6)


for test in (test_pipeline, test_allreduce, test_two_imbalances, test_start_up,
             test_overlap, test_clock_residual, test_steps, test_advice_two_imbalances,
             test_advice_chain,
             test_advice_allreduce):
    test()
sys.exit(verdict())
