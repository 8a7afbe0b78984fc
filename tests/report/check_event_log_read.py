#!/usr/bin/python3
"""check_event_log_read.py PYTHON_DIR: the event logs read a line at a time
(papi_report/load/event_log_read.py, issue 60 item 3) give each rank's records as the
whole-file reader did: by index, the later line's copy of a record appended twice (a
checkpoint and an exit path at once), lines out of order put in order, the records up to
the first index no line holds, an older run's lines left out; and the wait states from
the compact columns: a wildcard Irecv given its Wait's source and tag, its late sender
on the Wait; and the same waits whatever the bound of what is kept in memory (spill.py's
Buckets written as runs of one item each: the sends' and the synchronous sends' buckets
read back by a k-way merge), with a late receiver on a synchronous send."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)

SEND, RECV, COLL, WAIT, CALL = 2, 3, 4, 5, 1


def rec(kind, name, t0, t1, peer=-1, tag=0, req=0, flags=2):
    return [kind, name, t0, t1, peer, tag, 8, req, flags, 0, 0, 0, 1]


def line(rank, first, recs, run="run-2", reason="checkpoint", off=0, nranks=2, sites=None):
    doc = {"tool": "papi_mpi", "kind": "event_log", "run_id": run, "rank": rank,
           "nranks": nranks, "reason": reason, "offset_ns": off, "residual_ns": 0,
           "capacity": 1024, "dropped": 0, "first": first, "records": recs}
    if sites is not None:
        doc["sites"] = sites
    return json.dumps(doc)


def write(d, logs):
    os.makedirs(d)
    for rank, lines in logs.items():
        with open(os.path.join(d, "papi_mpi_rank%d.events.jsonl" % rank), "w") as f:
            f.write("\n".join(lines) + "\n")
    return d


def names(r, read):
    return [(x[1], x[2]) for x in read.records(r)]


def main():
    sys.path.insert(0, sys.argv[1])
    from papi_report.load import event_log_read, event_logs
    tmp = tempfile.mkdtemp(prefix="event_log_read.")
    # rank 0: record 2 (a Barrier) appended twice, the exit path's copy 5 ns later
    d = write(os.path.join(tmp, "overlap"), {
        0: [line(0, 0, [rec(SEND, "MPI_Send", 100, 200, 1, 5), rec(CALL, "MPI_Comm_rank", 210, 220),
                        rec(COLL, "MPI_Barrier", 300, 400, -1, 1)]),
            line(0, 2, [rec(COLL, "MPI_Barrier", 305, 400, -1, 1),
                        rec(SEND, "MPI_Isend", 500, 510, 1, 6, req=9),
                        rec(WAIT, "MPI_Wait", 520, 900, 1, 6, req=9)], reason="signal 9")],
        1: [line(1, 0, [rec(RECV, "MPI_Irecv", 50, 60, -1, -1, req=4),
                        rec(WAIT, "MPI_Wait", 70, 300, 0, 5, req=4),
                        rec(COLL, "MPI_Barrier", 350, 400, -1, 1),
                        rec(RECV, "MPI_Recv", 400, 700, 0, 6)], off=10)]})
    ranks = event_logs.load(d)
    got = names(ranks[0], event_log_read)
    check(got == [("MPI_Send", 100), ("MPI_Comm_rank", 210), ("MPI_Barrier", 305),
                  ("MPI_Isend", 500), ("MPI_Wait", 520)],
          "a record appended twice: once, the later copy (%s)" % got)
    rows, stats, _ = event_logs.wait_states(ranks)
    check(stats == {"p2p_matched": 2, "p2p_unmatched": 0, "coll_matched": 2, "coll_unmatched": 0},
          "the wildcard Irecv matched through its Wait, both Barriers (%s)" % stats)
    one = rows[1]
    # rank 1's clock is 10 ns ahead: its Wait 60..290, the send at 100: 40 ns; its Recv
    # 390..690, the Isend at 500: 110 ns
    check(abs(one["late_sender_s"] - 150e-9) < 1e-15,
          "rank 1's late sender: 40 ns on the Wait + 110 ns on the Recv (%r)" % one["late_sender_s"])
    check(abs(rows[0]["wait_barrier_s"] - 35e-9) < 1e-15,
          "rank 0 waits in the Barrier from 305 to rank 1's 340 ns (%r)" % rows[0]["wait_barrier_s"])
    d = write(os.path.join(tmp, "order"), {
        0: [line(0, 2, [rec(CALL, "c", 5, 6)]), line(0, 0, [rec(CALL, "a", 1, 2), rec(CALL, "b", 3, 4)]),
            line(0, 5, [rec(CALL, "after_gap", 9, 9)])],
        1: [line(1, 0, [rec(CALL, "old", 1, 2), rec(CALL, "old2", 3, 4)], run="run-1"),
            line(1, 0, [rec(CALL, "new", 3, 4)])]})
    ranks = event_logs.load(d)
    got = names(ranks[0], event_log_read)
    check(got == [("a", 1), ("b", 3), ("c", 5)] and ranks[0]["count"] == 3,
          "lines out of order read in index order, up to the gap (%s)" % got)
    got = names(ranks[1], event_log_read)
    check(got == [("new", 3)], "an older run's lines left out (%s)" % got)
    check_sites(tmp, event_log_read)
    check_runs(tmp, event_logs)
    return verdict("check_event_log_read", scratch=tmp)


def check_sites(tmp, event_log_read):
    """The lines' call-site names ("sites"), each rank's own, by address; a line whose
    sites are not names by hex address refused with a message (no crash)."""
    d = write(os.path.join(tmp, "sites"), {
        0: [line(0, 0, [rec(CALL, "a", 1, 2)], sites={"0x1f": "app.c:12"}),
            line(0, 1, [rec(CALL, "b", 3, 4)], sites={"0xa0": "solve"})],
        1: [line(1, 0, [rec(CALL, "c", 1, 2)], sites={"0x1f": "app.c:40"})]})
    ranks = event_log_read.scan(d)
    got = {r: ranks[r]["sites"] for r in ranks}
    check(got == {0: {0x1f: "app.c:12", 0xa0: "solve"}, 1: {0x1f: "app.c:40"}},
          "each rank's site names, by address (%s)" % got)
    for n, bad in enumerate(({"1f": "x"}, {"0x1f": 5}, ["0x1f"], {"0x" + "f" * 17: "x"})):
        d = write(os.path.join(tmp, "bad_sites%d" % n),
                  {0: [line(0, 0, [rec(CALL, "a", 1, 2)], sites=bad)]})
        try:
            event_log_read.scan(d)
            why = None
        except event_log_read.EventLogError as e:
            why = str(e)
        check(why is not None and "line 1" in why,
              "hostile sites %s refused with the line named (%s)" % (json.dumps(bad), why))


def check_buckets(spill):
    """Items under keys added in any order come back key by key in the order added, from
    runs of 3 items and the buffer; a key never added gives none; no add after a take."""
    s = spill.Spill()
    b = spill.Buckets(s, bound=3)
    keys = [5, 1, 5, 3, 1, 5, 9, 1]
    for n, k in enumerate(keys):
        b.add(k, (k, n))
    got = {k: b.take(k) for k in range(11)}
    want = {k: [(k, n) for n, x in enumerate(keys) if x == k] for k in range(11)}
    check(got == want, "Buckets: each key's items in the order added, across 2 runs and the "
          "buffer (%s)" % got)
    try:
        b.add(12, None)
        refused = False
    except RuntimeError:
        refused = True
    check(refused, "Buckets: an add after a take refused")
    s.close()


def check_runs(tmp, event_logs):
    """Three ranks: rank 0 Ssends to rank 1, which posts its Recv 200 ns later (a late
    receiver on rank 0), and Sends to rank 2, whose wildcard Irecv waits 520 ns for it (a
    late sender on its Wait); a Barrier that rank 1 enters last, at 800 ns. The same waits
    with every item its own run as with none written."""
    from papi_report.load import spill
    check_buckets(spill)
    d = write(os.path.join(tmp, "runs"), {
        0: [line(0, 0, [rec(SEND, "MPI_Ssend", 100, 500, 1, 7, flags=3),
                        rec(SEND, "MPI_Send", 600, 610, 2, 8),
                        rec(COLL, "MPI_Barrier", 700, 900, -1, 1)], nranks=3)],
        1: [line(1, 0, [rec(RECV, "MPI_Recv", 300, 500, 0, 7),
                        rec(COLL, "MPI_Barrier", 800, 900, -1, 1)], nranks=3)],
        2: [line(2, 0, [rec(RECV, "MPI_Irecv", 50, 60, -1, -1, req=3),
                        rec(WAIT, "MPI_Wait", 80, 650, 0, 8, req=3),
                        rec(COLL, "MPI_Barrier", 750, 900, -1, 1)], nranks=3)]})
    want = {0: {"late_receiver_s": 200e-9, "wait_barrier_s": 100e-9},
            1: {}, 2: {"late_sender_s": 520e-9, "wait_barrier_s": 50e-9}}
    bound = spill.BOUND
    for b in (bound, 1):
        spill.BOUND = b
        rows, stats, nranks = event_logs.wait_states(event_logs.load(d))
        got = {r["rank"]: {k: v for k, v in r.items() if k.endswith("_s") and v} for r in rows}
        same = got.keys() == want.keys() and all(
            got[r].keys() == want[r].keys() and
            all(abs(got[r][k] - want[r][k]) < 1e-15 for k in want[r]) for r in want)
        check(same and nranks == 3 and stats == {"p2p_matched": 2, "p2p_unmatched": 0,
                                                 "coll_matched": 3, "coll_unmatched": 0},
              "buckets of %d items: rank 0 a late receiver of 200 ns and 100 ns in the Barrier, "
              "rank 2 a late sender of 520 ns and 50 ns, every match (%s, %s)" % (b, got, stats))
    spill.BOUND = bound


if __name__ == "__main__":
    sys.exit(main())
