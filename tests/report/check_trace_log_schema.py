#!/usr/bin/python3
"""check_trace_log_schema.py PAPI_REPORT: papi_report checks JSON traces and per-rank
event logs against their schemas on load (issue 47 item 2), refusing a broken one in one
line naming the file, the JSON path and the rule, never a traceback.

A valid trace and a valid event log are accepted first (--merge-trace writes them);
then hand-made broken copies, one rule kind each, are refused: by --merge-trace (exit 2),
by the timeline figure of the report (its reason is that line), and by --check; an event
log with a line broken before its last is refused (only the last line may be torn), a
torn last line is named and left out (exit 2, the trace written from the rest). Folded
polls (flag 64) give their slice args.calls: the record's 13th item, 1 for an older
12-item record; other records no calls."""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


def trace():
    ev = [{"ph": "M", "pid": 0, "tid": 7, "name": "process_name", "args": {"name": "rank 0"}},
          {"ph": "B", "pid": 0, "tid": 7, "name": "main", "cat": "region", "ts": 0.0},
          {"ph": "B", "pid": 0, "tid": 7, "name": "MPI_Barrier", "cat": "mpi", "ts": 10.0},
          {"ph": "E", "pid": 0, "tid": 7, "name": "MPI_Barrier", "cat": "mpi", "ts": 20.0},
          {"ph": "E", "pid": 0, "tid": 7, "name": "main", "cat": "region", "ts": 30.0}]
    return {"traceEvents": ev, "displayTimeUnit": "ns",
            "otherData": {"format": "papi-compat trace", "version": 1, "base_ns": 1000, "ranks": 1,
                          "dropped": 0}}


def log_line(rank, first, records):
    return {"tool": "papi_mpi", "kind": "event_log", "run_id": "run-1", "rank": rank, "nranks": 2,
            "reason": "checkpoint", "offset_ns": 0, "residual_ns": 0, "capacity": 1024, "dropped": 0,
            "first": first, "records": records}


def write(path, doc_or_text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text))


def run(tool, *args):
    p = subprocess.run([sys.executable, tool, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def one_line(err, *words):
    lines = err.strip().splitlines()
    return len(lines) == 1 and "Traceback" not in err and all(w in lines[0] for w in words)


def main():
    tool = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="trace_log_schema.")
    try:
        good = os.path.join(tmp, "trace_rank_0.json")
        write(good, trace())
        rc, out, err = run(tool, "--merge-trace", os.path.join(tmp, "merged.json"), good)
        check(rc == 0, "a valid trace merges: exit 0 (%d: %s)" % (rc, err.strip()))

        # Broken traces, one rule kind each: (what, change, words the line must hold).
        cases = [
            ("a required member missing", lambda d: d.pop("displayTimeUnit"), ["$:", "required"]),
            ("a wrong type", lambda d: d["traceEvents"][2].update(pid="rank one"),
             ["$.traceEvents[2].pid", "rule"]),
            ("a const broken", lambda d: d["otherData"].update(format="other"),
             ["$.otherData.format", "const"]),
            ("a minimum broken", lambda d: d["otherData"].update(dropped=-1),
             ["$.otherData.dropped", "minimum"]),
            ("a member not in the schema", lambda d: d.update(extra=1), ["$", "additionalProperties"]),
        ]
        sys.path.insert(0, os.path.dirname(os.path.abspath(tool)))
        from papi_report.load import trace_file
        for what, change, words in cases:
            doc = copy.deepcopy(trace())
            change(doc)
            bad = os.path.join(tmp, "trace_rank_1.json")
            write(bad, doc)
            rc, out, err = run(tool, "--merge-trace", os.path.join(tmp, "m.json"), good, bad)
            check(rc == 2 and one_line(err, bad, "trace_json.schema.json", *words),
                  "--merge-trace refuses a trace with %s in one line naming file, path, rule (%d: %s)"
                  % (what, rc, err.strip()))
            try:
                trace_file.load(bad)
                check(False, "trace_file.load refuses a trace with %s" % what)
            except trace_file.TraceError as e:
                check(str(e) == err.strip()[len("papi_report: "):],
                      "the timeline's reader gives the same line (%s)" % e)
            rc, out, err = run(tool, "--check", bad)
            check(rc == 2 and bad in err and words[0] in err,
                  "--check refuses the trace with %s (%d: %s)" % (what, rc, err.strip()))
        write(os.path.join(tmp, "trace_rank_1.json"), "{not json")
        rc, out, err = run(tool, "--merge-trace", os.path.join(tmp, "m.json"), good,
                           os.path.join(tmp, "trace_rank_1.json"))
        check(rc == 2 and one_line(err, "trace_rank_1.json", "not JSON"),
              "a trace that is not JSON: one line (%d: %s)" % (rc, err.strip()))
        # Not JSON inside traceEvents, which is read an event at a time: the same one line.
        text = json.dumps(trace())
        broken = [("a ',' missing between two events", text.replace("}, {", "} {", 1)),
                  ("NaN in an event", text.replace('"ts": ', '"ts": NaN, "x": ', 1))]
        for what, bad_text in broken:
            write(os.path.join(tmp, "trace_rank_1.json"), bad_text)
            rc, out, err = run(tool, "--merge-trace", os.path.join(tmp, "m.json"), good,
                               os.path.join(tmp, "trace_rank_1.json"))
            check(rc == 2 and one_line(err, "trace_rank_1.json", "not JSON"),
                  "a trace with %s: one line (%d: %s)" % (what, rc, err.strip()[-300:]))
        rc, out, err = run(tool, "--check", tmp)
        check(rc == 2 and "trace_rank_1.json" in err,
              "--check DIR reads the run's trace_rank_*.json too (%d: %s)" % (rc, err.strip()))

        # Event logs: a valid pair of ranks (rank 0 sends, rank 1 receives), then broken copies.
        logs = os.path.join(tmp, "logs")
        os.makedirs(logs)
        rec0 = [[2, "MPI_Send", 100, 200, 1, 5, 8, 0, 0, 0, 0]]
        rec1 = [[3, "MPI_Recv", 50, 210, 0, 5, 8, 0, 0, 0, 0]]

        def logs_of(line1_text, torn=""):
            write(os.path.join(logs, "papi_mpi_rank0.events.jsonl"), json.dumps(log_line(0, 0, rec0)) + "\n")
            write(os.path.join(logs, "papi_mpi_rank1.events.jsonl"), line1_text + "\n" + torn)
        logs_of(json.dumps(log_line(1, 0, rec1)), torn='{"tool": "papi_m')  # a torn last line
        rc, out, err = run(tool, "--merge-trace", os.path.join(tmp, "dead.json"), logs)
        check(rc == 2 and one_line(err, "papi_mpi_rank1.events.jsonl", "line 2", "torn", "left out") and
              os.path.isfile(os.path.join(tmp, "dead.json")),
              "valid event logs with a torn last line merge, the torn line named: exit 2 (%d: %s)"
              % (rc, err.strip()))
        if os.path.exists(os.path.join(tmp, "dead.json")):  # never written over: a new OUT each time
            os.remove(os.path.join(tmp, "dead.json"))
        polls = os.path.join(tmp, "polls")  # a fold of 7 polls, an older fold, a send
        os.makedirs(polls)
        p0 = [[1, "MPI_Test", 100, 150, -1, -1, 0, 0, 64, 0, 0, 0, 7],
              [1, "MPI_Test", 160, 170, -1, -1, 0, 0, 64, 0, 0, 0],
              [2, "MPI_Send", 200, 210, 1, 5, 8, 0, 0, 0, 0, 0, 1]]
        write(os.path.join(polls, "papi_mpi_rank0.events.jsonl"), json.dumps(log_line(0, 0, p0)) + "\n")
        write(os.path.join(polls, "papi_mpi_rank1.events.jsonl"), json.dumps(log_line(1, 0, rec1)) + "\n")
        rc, out, err = run(tool, "--merge-trace", os.path.join(tmp, "polls.json"), polls)
        got = []
        if rc == 0:
            with open(os.path.join(tmp, "polls.json"), encoding="utf-8") as f:
                got = [(e["name"], e.get("args", {}).get("calls")) for e in json.load(f)["traceEvents"]
                       if e.get("ph") == "B" and e.get("pid") == 0]
        check(rc == 0 and got == [("MPI_Test", 7), ("MPI_Test", 1), ("MPI_Send", None)],
              "folded polls merge with their count, an older record as 1 (%d: %s %s)" % (rc, got, err.strip()))
        log1 = os.path.join(logs, "papi_mpi_rank1.events.jsonl")
        bad_logs = [
            ("a record of 3 fields", dict(log_line(1, 0, [[3, "MPI_Recv", 50]])),
             ["line 1", "$.records[0]", "minItems"]),
            ("a negative rank", dict(log_line(1, 0, rec1), rank=-1), ["line 1", "$.rank", "minimum"]),
            ("a kind out of range", dict(log_line(1, 0, [[9] + rec1[0][1:]])),
             ["line 1", "$.records[0][0]", "maximum"]),
        ]
        for what, line, words in bad_logs:
            logs_of(json.dumps(line))
            rc, out, err = run(tool, "--merge-trace", os.path.join(tmp, "dead.json"), logs)
            check(rc == 2 and one_line(err, log1, "mpi_event_log.schema.json", *words),
                  "--merge-trace refuses an event log with %s in one line (%d: %s)" % (what, rc, err.strip()))
            rc, out, err = run(tool, logs)
            check(rc == 2 and err.strip().splitlines()[:1] and log1 in err.strip().splitlines()[0] and
                  words[1] in err and "Traceback" not in err,
                  "papi_report DIR refuses it too, naming file and path (%d: %s)" % (rc, err.strip()))
        # A broken line before the last: not a torn append, refused.
        logs_of("{broken", torn=json.dumps(log_line(1, 0, rec1)) + "\n")
        rc, out, err = run(tool, "--merge-trace", os.path.join(tmp, "dead.json"), logs)
        check(rc == 2 and one_line(err, log1, "line 1", "not JSON"),
              "a broken line before the last is refused in one line (%d: %s)" % (rc, err.strip()))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict("check_trace_log_schema")


if __name__ == "__main__":
    sys.exit(main())
