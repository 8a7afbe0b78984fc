#!/usr/bin/python3
"""synthetic_logs.py DIR RANKS RECORDS [traces]: the event logs of a dead job (one
papi_mpi_rank<N>.events.jsonl per rank, a line per checkpoint of 1000 records) with RANKS
ranks of about RECORDS records each, for papi_report --merge-trace at scale (issue 60
item 3); with "traces", each rank's Chrome trace trace_rank<N>.json instead. Each step of
a rank is a region "step" around a send to the next rank, a receive from the previous one
and a world Allreduce, its times known: what the checks expect is computed here
(expected()). Rank 0 is 200 ns late into every Allreduce (a wait of 200 ns on every other
rank); every send starts 100 ns after its receive is posted (a late sender of 100 ns)."""
import json
import os
import sys

STEP_NS = 10000
REC_PER_STEP = 5  # enter, send, recv, Allreduce, exit
CHECKPOINT = 1000  # records a line
SEND, RECV, COLL, ENTER, EXIT = 2, 3, 4, 6, 7
EVF_WORLD = 2


def steps_of(records):
    return max(1, records // REC_PER_STEP)


def rank_records(rank, nranks, steps):
    """The records of one rank, in log order."""
    nxt, prv = (rank + 1) % nranks, (rank - 1) % nranks
    for j in range(steps):
        t = 1000000 + j * STEP_NS
        yield [ENTER, "step", t, t, -1, 0, 0, 0, 0, 0, 0, 0, 1]
        yield [SEND, "MPI_Send", t + 1100, t + 1500, nxt, j, 8, 0, EVF_WORLD, 1, 0, 0, 1]
        yield [RECV, "MPI_Recv", t + 1000, t + 1600, prv, j, 8, 0, EVF_WORLD, 2, 0, 0, 1]
        late = 200 if rank == 0 else 0
        yield [COLL, "MPI_Allreduce", t + 3000 + late, t + 4000, -1, j, 8, 0, EVF_WORLD, 3, 0, 0, 1]
        yield [EXIT, "step", t + 9000, t + 9000, -1, 0, 0, 0, 0, 0, 0, 0, 1]


def write_logs(directory, nranks, records):
    steps = steps_of(records)
    for rank in range(nranks):
        path = os.path.join(directory, "papi_mpi_rank%d.events.jsonl" % rank)
        with open(path, "w", encoding="utf-8") as f:
            recs = list(rank_records(rank, nranks, steps))
            for first in range(0, len(recs), CHECKPOINT):
                last = first + CHECKPOINT >= len(recs)
                f.write(json.dumps({
                    "tool": "papi_mpi", "kind": "event_log", "run_id": "run-synthetic",
                    "rank": rank, "nranks": nranks,
                    "reason": "signal 9" if last else "checkpoint", "offset_ns": 0,
                    "residual_ns": 0, "capacity": 16777216, "dropped": 0, "first": first,
                    "records": recs[first:first + CHECKPOINT]}, separators=(",", ":")) + "\n")
    return expected(nranks, records)


def write_traces(directory, nranks, records):
    """Each rank's own trace of RECORDS events (a name, then B/E pairs of a region each
    10 us), its base_ns 1 us after the previous rank's."""
    steps = max(1, (records - 1) // 2)
    for rank in range(nranks):
        base = 1000000 + rank * 1000
        path = os.path.join(directory, "trace_rank%d.json" % rank)
        with open(path, "w", encoding="utf-8") as f:
            f.write('{"traceEvents":[\n')
            f.write('{"ph":"M","pid":%d,"tid":0,"name":"process_name","args":{"name":"rank %d"}}'
                    % (rank, rank))
            for j in range(steps):
                t = (j * STEP_NS) / 1000.0
                f.write(',\n{"ph":"B","pid":%d,"tid":0,"name":"step","cat":"region","ts":%.3f}'
                        % (rank, t))
                f.write(',\n{"ph":"E","pid":%d,"tid":0,"name":"step","cat":"region","ts":%.3f}'
                        % (rank, t + 9.0))
            f.write('\n],\n"displayTimeUnit":"ns",\n"otherData":{"format":"papi-compat trace",'
                    '"version":1,"base_ns":%d,"ranks":1,"dropped":0}}\n' % base)
    return {"events": nranks * (1 + 2 * steps)}


def expected(nranks, records):
    """What --merge-trace's output must hold for write_logs(nranks, records)."""
    steps = steps_of(records)
    return {"records": nranks * steps * REC_PER_STEP, "steps": steps,
            # per rank: metadata (name, sort index, one thread), then per step B/E of the
            # region, and B+E of each of the three calls
            "events": nranks * (3 + steps * 8),
            "late_sender_s": steps * 100e-9, "wait_nxn_s": steps * 200e-9,
            "p2p_matched": nranks * steps, "coll_matched": nranks * steps}


if __name__ == "__main__":
    d, n, r = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.makedirs(d, exist_ok=True)
    print(json.dumps(write_traces(d, n, r) if sys.argv[4:] == ["traces"] else write_logs(d, n, r)))
