#!/usr/bin/python3
"""check_merge_stream.py PAPI_REPORT RANKS RECORDS LIMIT_MB: papi_report --merge-trace in
bounded memory (issue 60 item 3). Synthetic per-rank traces of RANKS ranks x RECORDS
events (synthetic_logs.py) are merged under `ulimit -v LIMIT_MB` (the address space: a
reader that holds every event needs several times that): the merged file holds every
event, each rank's in its own order and time base (rank r's file starts r us after rank
0's), the ranks in the order given."""
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


def limited(limit_mb):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
    return set_limit


def merge(tool, limit_mb, out, inputs):
    """(status, stdout, stderr, seconds, max RSS in MB) of papi_report --merge-trace."""
    t = time.monotonic()
    p = subprocess.run([sys.executable, tool, "--merge-trace", out] + inputs, capture_output=True,
                       text=True, timeout=600, preexec_fn=limited(limit_mb))
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t, rss


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
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    ev = doc["traceEvents"]
    check(len(ev) == want["events"], "the file holds every event: %d of %d" % (len(ev), want["events"]))
    pids = [e["pid"] for e in ev]
    check(pids == sorted(pids), "the ranks in the order given (rank 0's events first)")
    order, first = True, {}
    last = {}
    for e in ev:
        if "ts" not in e:
            continue
        first.setdefault(e["pid"], e["ts"])
        if e["ts"] < last.get(e["pid"], 0.0):
            order = False
        last[e["pid"]] = e["ts"]
    check(order, "each rank's events in their time order")
    shift = all(abs(first[r] - r * 1.0) < 1e-6 for r in range(nranks))
    check(shift, "each rank on one time axis: rank r's first event at r us (rank %d's at %s)"
          % (nranks - 1, first.get(nranks - 1)))
    check(doc["otherData"]["base_ns"] == 1000000 and doc["otherData"]["ranks"] == nranks,
          "otherData: the earliest base, %d ranks (%s)" % (nranks, doc["otherData"]))


def main():
    tool, nranks, records, limit_mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    tmp = tempfile.mkdtemp(prefix="merge_stream.")
    check_traces(tool, tmp, nranks, records, limit_mb)
    return verdict("check_merge_stream", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main())
