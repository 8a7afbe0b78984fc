#!/usr/bin/python3
"""check_merge_stream.py PAPI_REPORT RANKS RECORDS LIMIT_MB: papi_report --merge-trace in
bounded memory (issue 60 item 3), under `ulimit -v LIMIT_MB` (the address space: a
reader that holds every event needs several times that), on synthetic inputs
(synthetic_logs.py) of RANKS ranks x RECORDS records:
- per-rank JSON traces: the merged file holds every event, each rank's in its own order
  and time base (rank r's file starts r us after rank 0's), the ranks in the order given;
- the event logs of a dead job: the trace holds every record's events, each rank's in
  log order, and the wait states the logs' known times give (every receive 100 ns late,
  every rank but 0 waiting 200 ns in each Allreduce), every message and collective
  matched; and the event logs' merge in memory independent of the records: from a
  quarter of RECORDS to RECORDS its max RSS grows by under 8 MB (a reader that keeps 50
  bytes a record, as before stop 71's spill, grew by 19 MB at 256 x 2000, 48 MB at
  ctest's 256 x 5000, about 100 MB at the issue's 256 x 10^4).
Every merge runs with pandas and numpy unimportable (papi_report --merge-trace needs
neither). The merged files are read here a line at a time (--merge-trace writes an event a
line)."""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
sys.path.insert(0, HERE)
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)
import synthetic_logs  # noqa: E402


#: papi_report run with pandas and numpy unimportable: --merge-trace needs neither.
WITHOUT_PANDAS = ("import runpy, sys; sys.modules['pandas'] = sys.modules['numpy'] = None; "
                  "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def limited(limit_mb):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
    return set_limit


def merge(tool, limit_mb, out, inputs):
    """(status, stdout, stderr, seconds, max RSS in MB) of papi_report --merge-trace, its
    own max RSS (wait4's, not the children's maximum)."""
    t = time.monotonic()
    with tempfile.TemporaryFile("w+") as o, tempfile.TemporaryFile("w+") as e:
        p = subprocess.Popen([sys.executable, "-c", WITHOUT_PANDAS, tool, "--merge-trace", out]
                             + inputs, stdout=o, stderr=e, text=True,
                             preexec_fn=limited(limit_mb))
        _pid, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        o.seek(0)
        e.seek(0)
        stdout, stderr = o.read(), e.read()
    return p.returncode, stdout, stderr, time.monotonic() - t, usage.ru_maxrss / 1024.0


def check_traces(tool, tmp, nranks, records, limit_mb):
    d = os.path.join(tmp, "traces")
    os.makedirs(d)
    want = synthetic_logs.write_traces(d, nranks, records)
    inputs = [os.path.join(d, "trace_rank%d.json" % r) for r in range(nranks)]
    out = os.path.join(tmp, "merged_traces.json")
    rc, stdout, err, took, rss = merge(tool, limit_mb, out, inputs)
    check(rc == 0 and not err, "%d ranks x %d events merged under ulimit -v %d MB in %.1f s, "
          "max RSS %.0f MB (%d: %s)" % (nranks, records, limit_mb, took, rss, rc, err.strip()[-300:]))
    if rc != 0:
        return
    check("(%d ranks, %d events)" % (nranks, want["events"]) in stdout,
          "its line says %d ranks, %d events (%s)" % (nranks, want["events"], stdout.strip()))
    n, ordered, first, other = read_merged(out)
    check(n == want["events"], "the file holds every event: %d of %d" % (n, want["events"]))
    check(ordered, "the ranks in the order given, each rank's events in their time order")
    shift = all(abs(first[r] - r * 1.0) < 1e-6 for r in range(nranks))
    check(shift, "each rank on one time axis: rank r's first event at r us (rank %d's at %s)"
          % (nranks - 1, first.get(nranks - 1)))
    check(other["base_ns"] == 1000000 and other["ranks"] == nranks,
          "otherData: the earliest base, %d ranks (%s)" % (nranks, other))
    os.unlink(out)  # its disk, before the logs'
    for p in inputs:
        os.unlink(p)


def read_merged(path, kinds=None, timed=None):
    """(events, ordered, {pid: first ts}, otherData) of a merged trace read a line at a
    time: ordered when the pids never go down and each pid's times (of its events named
    timed, else of all) never do; kinds, a dict, counts the B events by name."""
    n, ordered, first, last, pid = 0, True, {}, {}, -1
    with open(path, encoding="utf-8") as f:
        check(f.readline() == '{"traceEvents":[\n', "%s: the traceEvents first" % path)
        for line in f:
            if line.startswith("],"):
                break
            e = json.loads(line.rstrip(",\n"))
            n += 1
            if e["pid"] < pid:
                ordered = False
            pid = e["pid"]
            if kinds is not None and e["ph"] == "B":
                kinds[e["name"]] = kinds.get(e["name"], 0) + 1
            if "ts" in e and timed in (None, e["name"]):
                first.setdefault(pid, e["ts"])
                if e["ts"] < last.get(pid, 0.0):
                    ordered = False
                last[pid] = e["ts"]
        other = json.loads("{" + f.read())["otherData"]
    return n, ordered, first, other


def check_logs(tool, tmp, nranks, records, limit_mb):
    """The merge of the logs, checked; its max RSS (MB), or None when it failed."""
    d = os.path.join(tmp, "logs%d" % records)
    os.makedirs(d)
    want = synthetic_logs.write_logs(d, nranks, records)
    out = os.path.join(tmp, "merged_logs%d.json" % records)
    rc, stdout, err, took, rss = merge(tool, limit_mb, out, [d])
    # the synthetic job was killed: a line per rank on stdout, exit 0 (no torn line)
    check(rc == 0 and not err, "event logs of %d ranks x %d records merged under ulimit -v %d MB "
          "in %.1f s, max RSS %.0f MB (%d: %s)" % (nranks, want["records"] // nranks, limit_mb,
                                                   took, rss, rc, err.strip()[-300:]))
    if rc != 0:
        return None
    check("(%d ranks, %d events)" % (nranks, want["events"]) in stdout,
          "its line says %d ranks, %d events (%s)" % (nranks, want["events"], stdout.splitlines()[0]))
    kinds = {}
    n, ordered, _first, other = read_merged(out, kinds, "step")
    check(n == want["events"], "the trace holds every record's events: %d of %d" % (n, want["events"]))
    check(ordered, "the ranks in order, each rank's steps in log (time) order")
    steps = want["steps"] * nranks
    check(kinds == {"step": steps, "MPI_Send": steps, "MPI_Recv": steps, "MPI_Allreduce": steps},
          "each step's region and calls, once each: %s" % kinds)
    ws = other["wait_states"]
    check(ws["matched"] == {"p2p_matched": want["p2p_matched"], "p2p_unmatched": 0,
                            "coll_matched": want["coll_matched"], "coll_unmatched": 0},
          "every message and collective matched: %s" % ws["matched"])
    rows = ws["ranks"]
    late = all(abs(r["late_sender_s"] - want["late_sender_s"]) < 1e-12 for r in rows)
    nxn = all(abs(r["wait_nxn_s"] - (0.0 if r["rank"] == 0 else want["wait_nxn_s"])) < 1e-12
              for r in rows)
    check(len(rows) == nranks and late and nxn,
          "each rank's waits: late sender %.3g s, Allreduce %.3g s but rank 0's 0 (rank 1: %s)"
          % (want["late_sender_s"], want["wait_nxn_s"], rows[1] if len(rows) > 1 else None))
    os.unlink(out)
    return rss


def main():
    tool, nranks, records, limit_mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    tmp = tempfile.mkdtemp(prefix="merge_stream.")
    check_traces(tool, tmp, nranks, records, limit_mb)
    small = check_logs(tool, tmp, nranks, records // 4, limit_mb)
    large = check_logs(tool, tmp, nranks, records, limit_mb)
    if small is not None and large is not None:
        check(large - small < 8.0, "the event logs' merge: max RSS %.1f MB at %d x %d records, "
              "%.1f MB at %d x %d: it grows by under 8 MB" % (small, nranks, records // 4, large,
                                                             nranks, records))
    return verdict("check_merge_stream", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main())
