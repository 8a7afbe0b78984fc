#!/usr/bin/python3
"""check_trace_index.py PAPI_REPORT: papi_report --merge-trace OUT INDEX on an MPI job's
JSON trace written rank by rank (papi_mpi_trace.index.json and papi_mpi_trace.ranks/
rank_NNNNNN.json, made here in the wrapper's layout: one event a line). The merged file
holds every rank's events, rank after rank, unchanged (the files share the index's base)
and the index's otherData; a job of 300 ranks x 1000 events merges within 60 MB of
memory more than a job of 3 ranks (maxrss of the child: the files are streamed, never
held). Bad input, one line and exit 2, nothing written: an index that breaks its schema,
a rank's file missing, one of another base, one of two ranks, one that is not a trace or
not JSON. The ranks' files are read by the merge of any traces (trace_file.py), not by a
reader of their own."""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)

BASE = 1000000


def rank_events(r, n):
    ev = [{"ph": "M", "pid": r, "tid": 7, "name": "process_name", "args": {"name": "rank %d" % r}}]
    for k in range(n // 2):
        ev.append({"ph": "B", "pid": r, "tid": 7, "name": "MPI_Send", "cat": "mpi", "ts": k * 2.0 + r})
        ev.append({"ph": "E", "pid": r, "tid": 7, "name": "MPI_Send", "cat": "mpi", "ts": k * 2.0 + r + 1})
    return ev


def write_rank(path, events, base=BASE):
    with open(path, "w", encoding="utf-8") as f:  # the layout trace_json.c writes
        f.write('{"traceEvents":[\n')
        f.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in events))
        f.write('\n],\n"displayTimeUnit":"ns",\n"otherData":{"format":"papi-compat trace",'
                '"version":1,"base_ns":%d,"ranks":1,"dropped":0}}\n' % base)


def job(d, ranks, n):
    os.makedirs(os.path.join(d, "papi_mpi_trace.ranks"))
    for r in range(ranks):
        write_rank(os.path.join(d, "papi_mpi_trace.ranks", "rank_%06d.json" % r), rank_events(r, n))
    index = {"format": "papi-compat trace index", "version": 1,
             "files": "papi_mpi_trace.ranks/rank_%06d.json", "ranks": ranks, "base_ns": BASE,
             "records": ranks * n, "dropped": 3, "one_file": None, "run_id": "r1",
             "creator": "libpapi_mpi"}
    path = os.path.join(d, "papi_mpi_trace.index.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(index, f)
    return path, index


def merge(tool, out, index):
    p = subprocess.run(["/usr/bin/python3", tool, "--merge-trace", out, index], capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def refused(tool, d, index, what, words):
    out = os.path.join(d, "out_%s.json" % what.replace(" ", "_"))
    rc, _, err = merge(tool, out, index)
    lines = err.strip().splitlines()
    check(rc == 2 and len(lines) == 1 and all(w in lines[0] for w in words) and not os.path.exists(out),
          "%s: exit 2, one line naming %s, nothing written (%d: %s)" % (what, words, rc, err.strip()))


def main():
    tool = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="trace_index.")
    try:
        small = os.path.join(tmp, "small")
        index, doc = job(small, 3, 10)
        out = os.path.join(small, "merged.json")
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        rc, so, err = merge(tool, out, index)
        check(rc == 0, "a job's index merges: exit 0 (%d: %s)" % (rc, err.strip()))
        with open(out, encoding="utf-8") as f:
            m = json.load(f)
        want = [e for r in range(3) for e in rank_events(r, 10)]
        check(m["traceEvents"] == want, "every rank's events, rank after rank, unchanged: %d of %d"
              % (len(m["traceEvents"]), len(want)))
        other = m["otherData"]
        check(other["base_ns"] == BASE and other["ranks"] == 3 and other["dropped"] == 3 and
              other["run_id"] == "r1", "otherData from the index: %s" % other)
        # memory: 300 ranks x 1000 events (about 20 MB of files; held as dicts, ~240 MB) against the small job
        big = os.path.join(tmp, "big")
        bindex, _ = job(big, 300, 1000)
        small_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        rc, so, err = merge(tool, os.path.join(big, "merged.json"), bindex)
        big_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        size = sum(os.path.getsize(os.path.join(big, "papi_mpi_trace.ranks", n))
                   for n in os.listdir(os.path.join(big, "papi_mpi_trace.ranks")))
        print("merged %d MB of rank files: maxrss %d MB (the small job's %d MB)" % (
            size >> 20, big_rss >> 10, max(small_rss, before) >> 10))
        check(rc == 0 and so.strip().endswith("(300 ranks, %d events)" % (300 * 1001)),
              "300 ranks merge: %s %s" % (so.strip(), err.strip()))
        check(big_rss - max(small_rss, before) < 60 << 10,
              "streamed: maxrss %d KB, the small job's %d KB" % (big_rss, small_rss))
        shutil.rmtree(big)
        # bad input
        bad = dict(doc, ranks=0)
        broken = os.path.join(small, "broken.index.json")
        with open(broken, "w", encoding="utf-8") as f:
            json.dump(bad, f)
        refused(tool, small, broken, "an index breaking its schema", ["broken.index.json", "ranks"])
        f1 = os.path.join(small, "papi_mpi_trace.ranks", "rank_000001.json")
        write_rank(f1, rank_events(1, 10), base=BASE + 5)
        refused(tool, small, index, "a file of another base", ["rank_000001.json", "base_ns"])
        with open(f1, "w", encoding="utf-8") as f:
            f.write('{"traceEvents":[{"ph":"M"}]}\n')
        refused(tool, small, index, "a file not a papi-compat trace", ["rank_000001.json", "required"])
        write_rank(f1, rank_events(1, 10))
        with open(f1, encoding="utf-8") as f:
            two = f.read().replace('"ranks":1', '"ranks":2')
        with open(f1, "w", encoding="utf-8") as f:
            f.write(two)
        refused(tool, small, index, "a file of two ranks", ["rank_000001.json", "ranks 2"])
        write_rank(f1, rank_events(1, 10))
        with open(f1, "a", encoding="utf-8") as f:
            f.write("{")
        refused(tool, small, index, "a file with more after its end", ["rank_000001.json", "JSON"])
        os.unlink(f1)
        refused(tool, small, index, "a missing file", ["rank_000001.json", "cannot read"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
