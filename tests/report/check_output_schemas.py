#!/usr/bin/env python3
"""check_output_schemas.py PAPI_REPORT: the schemas of the files that are not report JSON
refuse hand-made broken copies, each with the file and where in it named, through both
ways a user or a test checks them:
- CSV files (schema/csv_tables.schema.json, a row schema per file name): the MPI wrapper's
  papi_mpi_ranks.csv and papi_mpi_summary.csv, papi_report's mpi_ranks.csv and compare.csv;
  one broken copy per rule kind (minimum, type, a non-finite number, a boolean, the
  header's order, a column the file has not, a short row, an event column's type), each
  refused by `papi_report --check FILE.csv` and by tests/common/report_check.py with the
  line and the column named; the valid copies pass both.
- papi_report --json's document, papi_mpi_collect's and regions_hatchet.json (their own
  schemas): a valid copy passes, a broken one is refused with its JSON path; a tree 900
  levels deep is checked whole (node by node, no recursion limit).
Exit 0 pass, 1 fail, 77 skipped (no jsonschema)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT_CHECK = os.path.join(HERE, "..", "common", "report_check.py")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, verdict  # noqa: E402 (tests/common/checks.py)

RANKS = "rank,call,calls,time_s,bytes_sent,bytes_recv\n0,MPI_Init,1,0.25,0,0\n1,MPI_Send,4,0.5,32,0\n"
SUMMARY = ("rank,finished,threads,wall_s,mpi_s,mpi_thread_sum_s,perf::PAGE-FAULTS\n"
           "0,1,1,2.0,1.0,1.0,120\n1,0,2,2.0,1.5,2.5,\n")
MPI_RANKS = ("rank,finished,threads,wall_s,mpi_s,compute_s,mpi_pct,init_s,finalize_s,partners_dropped\n"
             "0,True,1,2.0,1.0,1.0,50.0,0.3,0.01,0\n")
COMPARE = ("scope,entity,quantity,unit,a,b,ratio,noise_a,noise_b,units_a,units_b,runs_a,runs_b,"
           "threshold,verdict,energy_a_j,energy_b_j,offcpu_a,offcpu_b,load_free_ratio\n"
           "region,main/solve,real_time_nsec,ns,100.0,210.0,2.1,0.01,0.02,2,2,1,1,0.1,slower,,,0.0,0.5,1.05\n")
# (file, text, what the line names: (line, column, column name, rule)).
BROKEN = [
    ("papi_mpi_ranks.csv", RANKS.replace("MPI_Send,4", "MPI_Send,-4"), (3, 3, "calls", "minimum")),
    ("papi_mpi_ranks.csv", RANKS.replace("0.5,32", "half,32"), (3, 4, "time_s", "type")),
    ("papi_mpi_ranks.csv", RANKS.replace("0.25", "inf"), (2, 4, "time_s", "finite")),
    ("papi_mpi_ranks.csv", RANKS.replace("rank,call,", "call,rank,"), (1, 1, None, "x-columns")),
    ("papi_mpi_ranks.csv", RANKS.replace("bytes_recv\n", "bytes_recv,extra\n").replace(",0\n", ",0,1\n"),
     (1, 7, "extra", "additionalProperties")),
    ("papi_mpi_ranks.csv", RANKS.replace(",32,0\n", ",32\n"), (3, None, None, "cells")),
    ("papi_mpi_summary.csv", SUMMARY.replace(",120\n", ",many\n"), (2, 7, "perf::PAGE-FAULTS", "type")),
    ("papi_mpi_summary.csv", SUMMARY.replace("0,1,1,2.0", "0,1,-1,2.0"), (2, 3, "threads", "minimum")),
    ("mpi_ranks.csv", MPI_RANKS.replace("True", "maybe"), (2, 2, "finished", "type")),
    ("compare.csv", COMPARE.replace("slower", ""), (2, 15, "verdict", "type")),
]


def run(cmd, cwd=None):
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=120)


def said(text, path, where):
    line, col, name, rule = where
    want = [path, "line %d" % line, rule] + (["column %d" % col] if col else []) + ([name] if name else [])
    return all(w in text for w in want)


def check_csvs(tool, d):
    for name, text in (("papi_mpi_ranks.csv", RANKS), ("papi_mpi_summary.csv", SUMMARY),
                       ("mpi_ranks.csv", MPI_RANKS), ("compare.csv", COMPARE)):
        good = os.path.join(d, "good", name)
        os.makedirs(os.path.dirname(good), exist_ok=True)
        with open(good, "w") as f:
            f.write(text)
    p = run([sys.executable, tool, "--check", os.path.join(d, "good")])
    check(p.returncode == 0 and "4 of 4 files" in p.stdout,
          "papi_report --check on 4 valid CSVs: exit %d: %s%s" % (p.returncode, p.stdout, p.stderr))
    for i, (name, text, where) in enumerate(BROKEN):
        sub = os.path.join(d, "bad%d" % i)
        os.makedirs(sub)
        path = os.path.join(sub, name)
        with open(path, "w") as f:
            f.write(text)
        p = run([sys.executable, tool, "--check", path])
        check(p.returncode == 2 and said(p.stderr, path, where),
              "papi_report --check %s (%s): exit %d, want 2 naming %s: %s" % (
                  name, where[3], p.returncode, where, p.stderr.strip()))
        # The tests' post-step: as a C test gets it (--cwd: the program leaves the MPI
        # wrapper's file in its working directory), or with papi_report's output directory.
        how = ["--cwd"] if name.startswith("papi_mpi_") else ["--dir", "."]
        p = run([sys.executable, REPORT_CHECK] + how + ["--", sys.executable, "-c",
                 "open(%r, 'w').write(%r)" % (name, text)], cwd=sub)
        check(p.returncode == 1 and said(p.stderr, name, where),
              "report_check.py %s, %s (%s): exit %d, want 1 naming %s: %s" % (
                  " ".join(how), name, where[3], p.returncode, where, p.stderr.strip()))


def check_json_outputs(tool, d):
    def node(children):
        return {"frame": {"name": "solve", "type": "region"}, "children": children,
                "metrics": {"region_count": 2, "real_time_nsec (inc)": 9.0, "real_time_nsec": 4.0}}
    docs = {
        "papi_report.json": ({"written": ["o/report.html", "o/report.txt"], "failed": {}},
                             lambda x: x["failed"].update(roofline=3), "$.failed.roofline"),
        "papi_mpi_collect.json": ({"nranks": 3, "run_id": "1.2", "finished": [], "missing": [2],
                                   "partial": [{"rank": 0, "exit_reason": "SIGTERM"},
                                               {"rank": 1, "exit_reason": None}], "ignored": []},
                                  lambda x: x["partial"][1].update(rank=-1), "$.partial[1].rank"),
        "regions_hatchet.json": ([node([node([])])],
                                 lambda x: x[0]["children"][0]["metrics"].update(region_count="2"),
                                 "$[0].children[0].metrics.region_count"),
    }
    for name, (doc, breaks, where) in docs.items():
        path = os.path.join(d, "json", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(doc, f)
        p = run([sys.executable, tool, "--check", path])
        check(p.returncode == 0, "%s valid: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
        breaks(doc)
        with open(path, "w") as f:
            json.dump(doc, f)
        p = run([sys.executable, tool, "--check", path])
        check(p.returncode == 2 and path in p.stderr and where in p.stderr,
              "%s broken: exit %d, want 2 naming %s: %s" % (name, p.returncode, where, p.stderr.strip()))


def check_deep_tree(tool, d):
    """A region tree 900 levels deep (a recursive validator stops near 300) is checked node by
    node: valid passes, a fault at the deepest node is refused with its path, no traceback."""
    root = node = {"frame": {"name": "l0", "type": "region"}, "metrics": {"region_count": 1}, "children": []}
    for i in range(1, 900):
        kid = {"frame": {"name": "l%d" % i, "type": "region"}, "metrics": {"region_count": 1}, "children": []}
        node["children"].append(kid)
        node = kid
    path = os.path.join(d, "deep", "regions_hatchet.json")
    os.makedirs(os.path.dirname(path))
    sys.setrecursionlimit(20000)  # json.dump recurses per level
    for bad in (False, True):
        node["metrics"]["region_count"] = -1 if bad else 1
        with open(path, "w") as f:
            json.dump([root], f)
        p = run([sys.executable, tool, "--check", path])
        want = "$" + "[0]" + ".children[0]" * 899 + ".metrics.region_count"
        check((p.returncode, "Traceback" in p.stderr) == ((2, False) if bad else (0, False)) and
              (not bad or (want + ":") in p.stderr and "minimum" in p.stderr),
              "a 900-level regions_hatchet.json %s: exit %d: %s" % (
                  "broken at its deepest node" if bad else "valid", p.returncode, p.stderr[-300:]))


def main():
    tool = sys.argv[1]
    try:
        import jsonschema  # noqa: F401 (the words of a fault are jsonschema's)
    except ImportError:
        print("SKIPPED: python3-jsonschema is not installed")
        return 77
    with tempfile.TemporaryDirectory(prefix="output_schemas_") as d:
        check_csvs(tool, d)
        check_json_outputs(tool, d)
        check_deep_tree(tool, d)
    return verdict("check_output_schemas")


if __name__ == "__main__":
    sys.exit(main())
