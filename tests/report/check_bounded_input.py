#!/usr/bin/python3
"""check_bounded_input.py PAPI_REPORT: papi_report's inputs bounded (issue 56 items 3, 4, 8).

- --merge-trace never writes over a file: OUT one of its inputs, or a glob alone
  (`--merge-trace trace_rank_*.json`, whose first name is OUT), or an OUT that exists:
  exit 2, one line, every file unchanged.
- Only regular files read: /dev/zero as a trace, an MPI report or an event log (directly or
  by a symbolic link) refused in one line within seconds; a file over --max-input refused.
- Event logs: nranks 2^63 (exit 2 within seconds), a rank's log claiming another rank,
  rank 999999 in rank 0's log, a call that ends before it starts, bytes of 2^64: each
  refused in one line naming the file, the line and the JSON path. A torn last line is
  named (file, line), left out, the trace written from the rest, exit 2. nranks 2^31 - 1
  with one log: the ranks that left nothing are one entry, in seconds.
- A trace with base_ns 2^70, a profile with fewer counts than events: exit 2 naming the
  JSON path.
- A CSV table starting with a UTF-8 byte order mark passes --check; a header with an
  invisible character is refused with it escaped."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


def run(tool, *args, timeout=60):
    t = time.monotonic()
    try:
        p = subprocess.run([sys.executable, tool, *args], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % timeout, timeout
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t


def one_line(err, *words):
    lines = err.strip().splitlines()
    return len(lines) == 1 and "Traceback" not in err and all(w in lines[0] for w in words)


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def trace(rank, base_ns=1000):
    ev = [{"ph": "M", "pid": rank, "tid": 7, "name": "process_name", "args": {"name": "rank %d" % rank}},
          {"ph": "B", "pid": rank, "tid": 7, "name": "main", "cat": "region", "ts": 0.0},
          {"ph": "E", "pid": rank, "tid": 7, "name": "main", "cat": "region", "ts": 30.0}]
    return json.dumps({"traceEvents": ev, "displayTimeUnit": "ns",
                       "otherData": {"format": "papi-compat trace", "version": 1,
                                     "base_ns": base_ns, "ranks": 1, "dropped": 0}})


def log_line(rank, nranks=2, records=None, **kw):
    d = {"tool": "papi_mpi", "kind": "event_log", "run_id": "run-1", "rank": rank, "nranks": nranks,
         "reason": "checkpoint", "offset_ns": 0, "residual_ns": 0, "capacity": 1024, "dropped": 0,
         "first": 0, "records": records or [[2, "MPI_Send", 100, 200, 1, 5, 8, 0, 0, 0, 0]]}
    d.update(kw)
    return json.dumps(d) + "\n"


def logs_dir(tmp, name, files):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    for rank, text in files.items():
        write(os.path.join(d, "papi_mpi_rank%d.events.jsonl" % rank), text)
    return d


def merge_out(tool, tmp):
    """--merge-trace never writes over one of its inputs or an existing file."""
    d = os.path.join(tmp, "traces")
    os.makedirs(d)
    paths = [os.path.join(d, "trace_rank_%d.json" % r) for r in range(3)]
    for r, p in enumerate(paths):
        write(p, trace(r, 1000 + r))
    before = [open(p).read() for p in paths]
    rc, out, err, _ = run(tool, "--merge-trace", *paths)  # the shell's glob alone
    check(rc == 2 and one_line(err, paths[0], "exists", "--merge-trace trace_rank_*.json"),
          "--merge-trace trace_rank_*.json: exit 2, one line naming OUT (%s: %s)" % (rc, err.strip()))
    rc, out, err, _ = run(tool, "--merge-trace", paths[1], *paths)
    check(rc == 2 and one_line(err, paths[1], "one of the traces to merge"),
          "--merge-trace with OUT one of its inputs: exit 2, one line (%s: %s)" % (rc, err.strip()))
    check([open(p).read() for p in paths] == before, "every input unchanged")
    out_path = os.path.join(d, "merged.json")
    rc, out, err, _ = run(tool, "--merge-trace", out_path, *paths)
    check(rc == 0 and os.path.isfile(out_path), "a new OUT is written (%s: %s)" % (rc, err.strip()))
    merged = open(out_path).read()
    rc, out, err, _ = run(tool, "--merge-trace", out_path, *paths[:2])
    check(rc == 2 and one_line(err, out_path, "exists") and open(out_path).read() == merged,
          "an OUT that exists: exit 2, kept as it was (%s: %s)" % (rc, err.strip()))
    check(not [n for n in os.listdir(d) if n.startswith(".trace.")], "no temporary file left")


def not_regular(tool, tmp):
    """Devices, links to them and files over the cap refused in one line, in seconds."""
    link = os.path.join(tmp, "trace_rank_5.json")
    os.symlink("/dev/zero", link)
    for what, args, words in [
            ("--merge-trace OUT /dev/zero", ["--merge-trace", os.path.join(tmp, "z.json"), "/dev/zero"],
             ["/dev/zero", "a character device", "regular file"]),
            ("a trace linked to /dev/zero", ["--merge-trace", os.path.join(tmp, "z.json"), link],
             [link, "a character device"]),
            ("--mpi /dev/zero", ["--mpi", "/dev/zero", "-o", os.path.join(tmp, "zo")],
             ["/dev/zero", "a character device"]),
            ("--check /dev/zero", ["--check", link], [link, "a character device"])]:
        rc, out, err, took = run(tool, *args, timeout=60)
        check(rc == 2 and took < 30 and "Traceback" not in err and all(w in err for w in words),
              "%s: exit 2 in %.1f s naming the file (%s: %s)" % (what, took, rc, err.strip()[-300:]))
    d = logs_dir(tmp, "zero_log", {})
    os.symlink("/dev/zero", os.path.join(d, "papi_mpi_rank0.events.jsonl"))
    rc, out, err, took = run(tool, "--merge-trace", os.path.join(tmp, "zl.json"), d)
    check(rc == 2 and took < 30 and one_line(err, "papi_mpi_rank0.events.jsonl", "a character device"),
          "an event log linked to /dev/zero: exit 2 in %.1f s (%s: %s)" % (took, rc, err.strip()))
    big = os.path.join(tmp, "trace_rank_6.json")
    write(big, trace(6))
    rc, out, err, _ = run(tool, "--max-input", "100", "--merge-trace", os.path.join(tmp, "b.json"), big)
    check(rc == 2 and one_line(err, big, "input cap of 100 bytes", "--max-input"),
          "a file over --max-input: exit 2, one line (%s: %s)" % (rc, err.strip()))
    rc, out, err, _ = run(tool, "--max-input", "1M", "--merge-trace", os.path.join(tmp, "b.json"), big)
    check(rc == 0, "the same file under a larger --max-input is merged (%s: %s)" % (rc, err.strip()))


def event_logs(tool, tmp):
    send = [[2, "MPI_Send", 100, 200, 1, 5, 8, 0, 0, 0, 0]]
    recv = [[3, "MPI_Recv", 50, 210, 0, 5, 8, 0, 0, 0, 0]]
    cases = [
        ("nranks 2^63", {0: log_line(0, nranks=2 ** 63)}, 0, ["line 1", "$.nranks", "maximum"]),
        ("rank 999999 in rank 0's log", {0: log_line(999999, nranks=10 ** 6)}, 0,
         ["line 1", "$.rank", "999999", "rank 0's log"]),
        ("rank 1's log claiming rank 0", {0: log_line(0), 1: log_line(0, records=recv)}, 1,
         ["line 1", "$.rank", "rank 1's log"]),
        ("a rank past nranks", {0: log_line(0), 3: log_line(3, records=recv)}, 3,
         ["line 1", "$.rank", "not a rank of the 2"]),
        ("nranks unlike another line's", {0: log_line(0), 1: log_line(1, nranks=3, records=recv)}, 1,
         ["line 1", "$.nranks", "says 2"]),
        ("a call that ends before it starts", {0: log_line(0, records=[[2, "MPI_Send", 300, 200, 1, 5, 8, 0, 0, 0, 0]])},
         0, ["line 1", "$.records[0][3]", "before", "t0"]),
        ("bytes of 2^64", {0: log_line(0, records=[[2, "MPI_Send", 100, 200, 1, 5, 2 ** 64, 0, 0, 0, 0]])},
         0, ["line 1", "$.records[0][6]", "maximum"]),
    ]
    for i, (what, files, bad_rank, words) in enumerate(cases):
        d = logs_dir(tmp, "logs%d" % i, files)
        bad = os.path.join(d, "papi_mpi_rank%d.events.jsonl" % bad_rank)
        out = os.path.join(tmp, "logs%d.json" % i)
        rc, _o, err, took = run(tool, "--merge-trace", out, d)
        check(rc == 2 and took < 30 and one_line(err, bad, *words) and not os.path.exists(out),
              "--merge-trace, an event log with %s: exit 2 in %.1f s, one line, nothing written (%s: %s)"
              % (what, took, rc, err.strip()))
        rc, _o, err, took = run(tool, d)
        check(rc == 2 and took < 30 and bad in err and words[1] in err and "Traceback" not in err,
              "papi_report DIR, %s: exit 2 naming it (%s: %s)" % (what, rc, err.strip()))
    # A torn last line: named, left out, the rest used.
    d = logs_dir(tmp, "torn", {0: log_line(0, records=send), 1: log_line(1, records=recv) + '{"tool": "pa'})
    torn = os.path.join(d, "papi_mpi_rank1.events.jsonl")
    out = os.path.join(tmp, "torn.json")
    rc, _o, err, _ = run(tool, "--merge-trace", out, d)
    check(rc == 2 and one_line(err, torn, "line 2", "torn last line", "left out") and os.path.isfile(out),
          "a torn last line: named with its file and line, the trace written, exit 2 (%s: %s)"
          % (rc, err.strip()))
    if os.path.isfile(out):
        doc = json.load(open(out))
        check(doc["otherData"]["wait_states"]["matched"]["p2p_matched"] == 1,
              "the whole lines are used: the receive matched (%s)" % doc["otherData"]["wait_states"])
    rc, _o, err, _ = run(tool, "--check", torn)
    check(rc == 2 and torn in err and "line 2" in err and "torn" in err,
          "--check names the torn line (%s: %s)" % (rc, err.strip()))
    # nranks 2^31 - 1, one log: the ranks without a file are one entry.
    d = logs_dir(tmp, "many", {0: log_line(0, nranks=2 ** 31 - 1)})
    out = os.path.join(tmp, "many.json")
    rc, stdout, err, took = run(tool, "--merge-trace", out, d)
    check(rc == 0 and took < 30 and
          "papi_report: ranks 1-2147483646 did not finish: no event log" in stdout,
          "nranks 2^31 - 1 with one log: exit 0 in %.1f s, one line for the ranks without a file "
          "(%s: %s %s)" % (took, rc, stdout.strip()[-300:], err.strip()))
    if rc == 0:
        gone = json.load(open(out))["otherData"]["unfinished"]
        check(len(gone) == 2 and gone[1] == {"rank": 1, "last_rank": 2 ** 31 - 2,
                                             "exit_reason": "no event log (killed before its first checkpoint)"},
              "otherData.unfinished: rank 0, then ranks 1 to 2^31 - 2 in one entry (%s)" % gone)
        rc, _o, err, _ = run(tool, "--check", out)
        check(rc == 0, "that trace follows trace_json.schema.json (%s: %s)" % (rc, err.strip()))


def profile_doc():
    return {"kind": "profile", "run": {"id": "r1", "command": "a.out", "start": "2026-01-01T00:00:00Z",
                                       "host": "h"}, "pid": 10,
            "rank": None, "sampled_event": "perf::TASK-CLOCK", "call_graph": "fp",
            "kernel_frames": False, "events": ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"],
            "samples": 2, "lost_records": 0, "stack_cap": 100, "distinct_stacks": 1,
            "dropped_samples": 0, "dropped_weight": 0, "notes": "",
            "frames": [{"name": "main", "module": "a.out"}],
            "stacks": [{"tid": 10, "samples": 2, "counts": [2000000, 3], "frames": [0]}]}


def other_values(tool, tmp):
    t = os.path.join(tmp, "trace_rank_0.json")
    write(t, trace(0, base_ns=2 ** 70))
    rc, _o, err, _ = run(tool, "--merge-trace", os.path.join(tmp, "b70.json"), t)
    check(rc == 2 and one_line(err, t, "$.otherData.base_ns", "maximum"),
          "a trace with base_ns 2^70: exit 2 naming $.otherData.base_ns (%s: %s)" % (rc, err.strip()))
    # A profile: its schema first (the test's document must be one), then the counts.
    d = os.path.join(tmp, "prof")
    os.makedirs(d)
    p = os.path.join(d, "profile_r1_10.json")
    write(p, json.dumps(profile_doc()))
    rc, _o, err, _ = run(tool, "--check", p)
    check(rc == 0, "the test's profile, whole, follows profile.schema.json (%s: %s)" % (rc, err.strip()))
    doc = profile_doc()
    doc["stacks"][0]["counts"] = [2000000]
    write(p, json.dumps(doc))
    rc, _o, err, _ = run(tool, d, "-o", os.path.join(tmp, "prof_out"))
    check(rc == 2 and p in err and "$.stacks[0].counts" in err and "2 events" in err and
          "Traceback" not in err,
          "a profile with fewer counts than events: exit 2 naming $.stacks[0].counts (%s: %s)"
          % (rc, err.strip()[-400:]))


def csv_bom(tool, tmp):
    """The MPI wrapper's papi_mpi_ranks.csv as a spreadsheet saves it: a UTF-8 byte order
    mark first. --check reads it as without one; an invisible character inside a header
    name is shown escaped."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(tool)))
    from papi_report.load import schema_check
    table = "region_tree"
    cols = schema_check.schemas()["csv_tables"]["$defs"][table]["x-columns"]
    good = os.path.join(tmp, "bom", table + ".csv")
    os.makedirs(os.path.dirname(good))
    with open(good, "w", encoding="utf-8-sig", newline="") as f:  # BOM first
        f.write(",".join(cols) + "\n")
    rc, _o, err, _ = run(tool, "--check", good)
    check(rc == 0, "a CSV table with a byte order mark passes --check (%s: %s)" % (rc, err.strip()))
    with open(good, "w", encoding="utf-8", newline="") as f:
        f.write("\u200b" + ",".join(cols) + "\n")
    rc, _o, err, _ = run(tool, "--check", good)
    check(rc == 2 and "\\u200b" in err and err.isascii(),
          "an invisible character in a header: refused, shown escaped (%s: %r)" % (rc, err.strip()))


def main():
    tool = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="bounded_input.")
    try:
        merge_out(tool, tmp)
        not_regular(tool, tmp)
        event_logs(tool, tmp)
        other_values(tool, tmp)
        csv_bom(tool, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict("check_bounded_input")


if __name__ == "__main__":
    sys.exit(main())
