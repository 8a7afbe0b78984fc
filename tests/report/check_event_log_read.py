#!/usr/bin/python3
"""check_event_log_read.py PYTHON_DIR: the event logs read a line at a time
(papi_report/load/event_log_read.py, issue 60 item 3) give each rank's records as the
whole-file reader did: by index, the later line's copy of a record appended twice (a
checkpoint and an exit path at once), lines out of order put in order, the records up to
the first index no line holds, an older run's lines left out; and the wait states from
the compact columns: a wildcard Irecv given its Wait's source and tag, its late sender
on the Wait."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)

SEND, RECV, COLL, WAIT, CALL = 2, 3, 4, 5, 1


def rec(kind, name, t0, t1, peer=-1, tag=0, req=0, flags=2):
    return [kind, name, t0, t1, peer, tag, 8, req, flags, 0, 0, 0, 1]


def line(rank, first, recs, run="run-2", reason="checkpoint", off=0):
    return json.dumps({"tool": "papi_mpi", "kind": "event_log", "run_id": run, "rank": rank,
                       "nranks": 2, "reason": reason, "offset_ns": off, "residual_ns": 0,
                       "capacity": 1024, "dropped": 0, "first": first, "records": recs})


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
    return verdict("check_event_log_read", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main())
