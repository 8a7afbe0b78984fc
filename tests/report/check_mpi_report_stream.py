#!/usr/bin/python3
"""check_mpi_report_stream.py PAPI_REPORT NRANKS LIMIT_MB: papi_report reads an MPI report
a rank row at a time (issue 60 item 3; load/rank_rows.py), on synthetic reports
(synthetic_mpi_report.py):
- NRANKS ranks (10^5 in ctest): `papi_report -o OUT REPORT` under `ulimit -v LIMIT_MB`
  exits 0 and its tables hold what the report holds (each call's calls and time summed
  over the ranks, the bytes sent, the longest wall time, a row per rank); the same
  report read whole (json.load, then papi_report.tables() of the document, as papi_report
  read it before) needs well over LIMIT_MB: its peak is measured here and must exceed
  1.4 x LIMIT_MB (557 to 576 MB measured for 10^5 ranks against 260; papi_report itself
  passes at 230 since stop 70, main before it failed at 270: its call summary's pivot of
  every call x rank, the rank energy's dict per counter row). Both run with one OpenBLAS
  thread: numpy's per-thread buffers, address space that grows with the machine's
  cores, are not papi_report's memory;
- faults deep in a 3000-rank report, each refused in one line naming the file, the row's
  JSON path and the rule, exit 2: a row breaking the schema, MPI time above the wall time,
  a rank listed twice, NaN, the file cut short, a rank beyond an nranks written after
  the rows;
- load_mpi's rows as a sequence: len(), rows[i], rows[-1], a slice, two passes alike; the
  file rewritten after the check refused on the next pass."""
import csv
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
import synthetic_mpi_report as synth  # noqa: E402

WHOLE = """import json, sys
sys.path.insert(0, sys.argv[2])
import papi_report
with open(sys.argv[1], encoding="utf-8") as f:
    doc = json.load(f)
papi_report.tables(mpi=doc)
print([l.split()[1] for l in open("/proc/self/status") if l.startswith("VmPeak")][0])
"""


def limited(limit_mb):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
    return set_limit


ONE_BLAS_THREAD = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")


def report(tool, path, out, limit_mb=None):
    t = time.monotonic()
    p = subprocess.run([sys.executable, tool, "-o", out, path], capture_output=True, text=True,
                       timeout=1500, preexec_fn=limited(limit_mb) if limit_mb else None,
                       env=ONE_BLAS_THREAD)
    return p, time.monotonic() - t


def rows(out, name):
    with open(os.path.join(out, name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def check_large(tool, tmp, n, limit_mb):
    path = os.path.join(tmp, "papi_mpi_report.json")
    synth.write(path, n)
    want = synth.expected(n)
    out = os.path.join(tmp, "out")
    p, took = report(tool, path, out, limit_mb)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss >> 10
    check(p.returncode == 0, "%d ranks (%d MB) reported under ulimit -v %d MB in %.0f s, max RSS "
          "%d MB (%d: %s)" % (n, os.path.getsize(path) >> 20, limit_mb, took, rss, p.returncode,
                              p.stderr.strip()[-400:]))
    if p.returncode != 0:
        return path
    summary = {r["call"]: r for r in rows(out, "mpi_call_summary.csv")}
    for call, k in want["calls"].items():
        got = summary.get(call, {})
        check(int(got.get("calls", -1)) == k and abs(float(got.get("time_s", -1)) - want["time_s"][call]) < 1e-6 * n,
              "%s: %s calls, %s s summed over the ranks (want %d, %g)"
              % (call, got.get("calls"), got.get("time_s"), k, want["time_s"][call]))
    sent = sum(int(r["bytes_sent"]) for r in summary.values())
    check(sent == want["bytes_sent"], "bytes sent %d (want %d)" % (sent, want["bytes_sent"]))
    run = rows(out, "mpi_run.csv")[0]
    check(int(run["nranks"]) == n and abs(float(run["wall_s"]) - want["wall_max_s"]) < 1e-9,
          "the run: %s ranks, wall %s s" % (run["nranks"], run["wall_s"]))
    ranks = rows(out, "mpi_ranks.csv")
    check(len(ranks) == n and [int(r["rank"]) for r in ranks[:3]] == [0, 1, 2],
          "a row per rank in mpi_ranks.csv: %d" % len(ranks))
    w = subprocess.run([sys.executable, "-c", WHOLE, path, os.path.join(HERE, "..", "..", "python")],
                       capture_output=True, text=True, timeout=1500, env=ONE_BLAS_THREAD)
    whole = int(w.stdout.split()[-1]) >> 10 if w.returncode == 0 and w.stdout.split() else 0
    print("read whole: VmPeak %d MB (%d: %s)" % (whole, w.returncode, w.stderr.strip()[-300:]))
    check(whole > limit_mb * 7 // 5, "the report read whole needs %d MB, over 1.4 x the %d MB "
          "limit the streamed read keeps to" % (whole, limit_mb))
    return path


def refused(tool, tmp, name, edit, words, tail=None):
    path = os.path.join(tmp, name + ".json")
    synth.write(path, 3000, edit)
    if tail:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(tail(text))
    p, _ = report(tool, path, os.path.join(tmp, name + "_out"))
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and path in lines[0] and
          all(w in lines[0] for w in words) and "Traceback" not in p.stderr,
          "%s: exit 2, one line naming the file and %s (%d: %s)" % (name, words, p.returncode,
                                                                   p.stderr.strip()[-400:]))


def check_faults(tool, tmp):
    def at(k, change):
        return lambda r, x: change(x) if r == k else x
    refused(tool, tmp, "schema", at(2500, lambda x: dict(x, threads="one")),
            ["$.ranks[2500].threads", "rule type"])
    refused(tool, tmp, "mpi_above_wall", at(2600, lambda x: dict(x, mpi_s=9.0)),
            ["ranks[2600].mpi_s", "more than the rank's wall time"])
    refused(tool, tmp, "twice", at(2700, lambda x: dict(x, rank=5)), ["ranks[2700].rank", "listed twice"])
    refused(tool, tmp, "nan", at(2800, lambda x: dict(x, wall_s=float("nan"))),
            ['$.ranks[2800]["wall_s"]', "not a finite number"])
    refused(tool, tmp, "cut", None, ["is not JSON", "line 2701"], tail=lambda t: t[:t.index('{"rank":2700,')])
    # nranks after the rows (the wrapper writes it before): known only at the end
    refused(tool, tmp, "nranks_after", at(2900, lambda x: dict(x, rank=3100)),
            ["ranks[2900].rank", "is 3100, not a rank of the 3000"],
            tail=lambda t: t.replace('"nranks": 3000, ', "").rstrip()[:-1] + ', "nranks": 3000}\n')


def check_sequence(path):
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    from papi_report.load import load
    rep = load.load_mpi(path)
    ranks = rep["ranks"]
    n = len(ranks)
    check(n == 3000 and ranks[0]["rank"] == 0 and ranks[-1]["rank"] == n - 1 and
          [r["rank"] for r in ranks[10:13]] == [10, 11, 12],
          "the rows as a sequence: len %d, [0], [-1], [10:13]" % n)
    first = sum(r["wall_s"] for r in ranks)
    check(first == sum(r["wall_s"] for r in ranks) and isinstance(ranks[5], dict),
          "two passes over the rows read the same rows")
    synth.write(path, 3001)  # another file at the path: its rows were never checked
    try:
        sum(1 for _ in ranks)
        said = None
    except load.MalformedInput as e:
        said = str(e)
    check(said is not None and "changed since papi_report checked it" in said,
          "a report rewritten after the check is refused, not read: %s" % said)


def main():
    tool, n, limit_mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with tempfile.TemporaryDirectory(prefix="mpi_report_stream.") as tmp:
        check_faults(tool, tmp)
        small = os.path.join(tmp, "small.json")
        synth.write(small, 3000)
        check_sequence(small)
        check_large(tool, tmp, n, limit_mb)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
