#!/usr/bin/env python3
"""check_report_header.py PAPI_REPORT: the run header of region and papi_run reports
(issue 46: a region-only report had none). The region API and papi_run write "run"
({id, command, start, host, cpu, version}) in each file; papi_report's page (its
run-header table, a data-field per line) and text show the command, the start, the ranks,
the hosts, the CPU, the papi-compat release and the run id, exactly as the files say;
region_run.csv holds one row per file. Files without "run" (PAPI 7's, older ones): the
header says it is absent; some files without it: which ranks. With an MPI report: its
header (command, start, ranks, hosts, wall, release, run id) and the CPU from the region
files. A run member that is not a string: exit 2 naming run.host. Exit 0 pass, 1 fail."""
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_html import read_page  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
RUN = {"id": "20261125T010203Z-4242-ab12", "command": "./solver --size 10 input.dat",
       "start": "2026-11-25T01:02:03Z", "cpu": "Intel(R) Xeon(R) Platinum 8480+", "version": "9.8.7"}


def region_doc(rank, run):
    doc = {"papi_version": "7.0.0.0", "rank": rank, "event_definitions": {},
           "threads": {"7": {"regions": {"0": {"name": "r", "parent_region_id": -1, "region_count": 1,
                                                "cycles": 10, "real_time_nsec": 10}}}}}
    if run is not None:
        doc["run"] = run
    return doc


def report(tool, d, name, docs, mpi=None, want_rc=0):
    src = os.path.join(d, name, "papi_hl_output")
    os.makedirs(src)
    for rank, doc in docs:
        with open(os.path.join(src, "rank_%06d.json" % rank), "w") as f:
            json.dump(doc, f)
    args = [sys.executable, tool, "--regions", src, "-o", os.path.join(d, name, "out"), "--text"]
    if mpi is not None:
        path = os.path.join(d, name, "papi_mpi_report.json")
        with open(path, "w") as f:
            json.dump(mpi, f)
        args += ["--mpi", path]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    check(p.returncode == want_rc, "%s: exit %d, want %d: %s" % (name, p.returncode, want_rc, p.stderr[-1500:]))
    if p.returncode != 0:
        return p, {}, src
    with open(os.path.join(d, name, "out", "report.html"), encoding="utf-8") as f:
        header, _tables = read_page(f.read())
    return p, header, src


def main():
    tool = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        runs = [dict(RUN, host="node-a"), dict(RUN, host="node-b")]
        p, h, _src = report(tool, d, "with", [(0, region_doc(0, runs[0])), (1, region_doc(1, runs[1]))])
        want = {"command": RUN["command"], "started": RUN["start"], "ranks": "2 (2 region files)",
                "hosts": "2: node-a, node-b", "cpu": RUN["cpu"], "papi-compat": RUN["version"],
                "run-id": RUN["id"]}
        for field, value in want.items():
            check(h.get(field) == value, "regions with a header: the page's %s is %r, want %r"
                  % (field, h.get(field), value))
        check("run-absent" not in h, "regions with a header: said absent: %s" % h)
        for label, value in (("CPU", RUN["cpu"]), ("Command", RUN["command"]), ("Started (UTC)", RUN["start"])):
            check(any(ln.split() == label.split() + value.split() for ln in p.stdout.splitlines()),
                  "regions with a header: the text has no line %r %r" % (label, value))
        try:
            with open(os.path.join(d, "with", "out", "region_run.csv")) as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            rows = []
            check(False, "region_run.csv: %s" % e)
        check([(r["rank"], r["recorded"], r["host"], r["cpu"], r["command"], r["start_utc"], r["run_id"],
                r["papi_compat_version"]) for r in rows] ==
              [(str(k), "True", "node-%s" % "ab"[k], RUN["cpu"], RUN["command"], RUN["start"], RUN["id"],
                RUN["version"]) for k in (0, 1)], "region_run.csv: %s" % rows)
        # Files without the header (PAPI 7's format, older libraries).
        p, h, _src = report(tool, d, "without", [(0, region_doc(0, None))])
        check("absent" in h.get("run-absent", "") and "command" not in h,
              "regions without a header: the page does not say it is absent: %s" % h)
        check("absent" in p.stdout.split("\n\n", 2)[1] if p.stdout.count("\n\n") >= 2 else False,
              "regions without a header: the text does not say it is absent: %s" % p.stdout[:400])
        # Some files without it: the others' header and which ranks lack it.
        p, h, _src = report(tool, d, "mixed", [(0, region_doc(0, runs[0])), (3, region_doc(3, None))])
        check(h.get("cpu") == RUN["cpu"] and h.get("run-absent") == "absent from the region files of rank 3",
              "mixed: %s" % h)
        # With an MPI report: its header and the CPU of the region files.
        mpi = {"papi_compat_version": "9.8.7", "run_id": "1764032523.77", "start_utc": RUN["start"],
               "command": ["./solver", "--size", "10"], "nranks": 2,
               "ranks": [{"rank": r, "host": "node-%s" % "ab"[r], "wall_s": 2.0, "mpi_s": 0.5, "finished": True}
                         for r in (0, 1)]}
        p, h, _src = report(tool, d, "mpi", [(0, region_doc(0, runs[0])), (1, region_doc(1, runs[1]))], mpi)
        want = {"command": "./solver --size 10", "started": RUN["start"], "ranks": "2 (2 finished)",
                "hosts": "2: node-a, node-b", "cpu": RUN["cpu"], "papi-compat": "9.8.7",
                "run-id": "1764032523.77"}
        for field, value in want.items():
            check(h.get(field) == value, "MPI and regions: the page's %s is %r, want %r" % (field, h.get(field), value))
        # A header member of the wrong kind.
        p, _h, src = report(tool, d, "bad", [(0, region_doc(0, dict(RUN, host=5)))], want_rc=2)
        check("run.host" in p.stderr and os.path.join(src, "rank_000000.json") in p.stderr
              and "Traceback" not in p.stderr, "run.host 5: %s" % p.stderr)
    return verdict("check_report_header")


if __name__ == "__main__":
    sys.exit(main())
