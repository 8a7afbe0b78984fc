#!/usr/bin/env python3
"""check_hostile_values.py PAPI_REPORT PAPI_MPI_COLLECT: impossible values, deep trees and
"/" in region names (issue 34).

- An MPI report or rank row whose "finished" is the string "false", whose wall time is
  negative or whose time in MPI is above its wall time: papi_report and papi_mpi_collect
  exit 2 naming the file and the field (no output written by papi_report's hatchet step).
- A region tree 3000 levels deep: papi_report writes a whole regions_hatchet.json (json.dump
  recursed and stopped near 500 levels with a truncated file) with every level in it.
- Region names with "/": "a/b" at the top is a region of its own, not "b" inside "a".
- A negative real_time_nsec in a region file: exit 2 naming it.
- MPI_Pcontrol regions of the MPI report with values of the wrong kind (entries a string,
  negative MPI time or calls, a region that is not an object): exit 2 naming the field.
- partners_dropped -7 or 1.9, and negative, infinite or backwards (time decreasing) values
  of the time series (the MPI report's, the region API's, papi_run's): exit 2 and one line
  naming the file, the field and why (issue 46)."""
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, verdict  # noqa: E402
import region_file  # noqa: E402 (tests/common/region_file.py)
from region_file import region, region_doc  # noqa: E402


def run(args):
    return subprocess.run([sys.executable] + args, capture_output=True, text=True)


def mpi_report(ranks):
    return {"nranks": len(ranks), "run_id": "1700000000.1", "ranks": ranks}


def rank(n, **kw):
    r = {"rank": n, "wall_s": 2.0, "mpi_s": 0.5, "finished": True}
    r.update(kw)
    return r


def mpi_case(d, what, rank1):
    """A run folder for case what under d holding an MPI report of rank 0 and rank1:
    (the folder, the report's path)."""
    run_dir = os.path.join(d, what.replace(" ", "_"))
    os.makedirs(run_dir)
    path = os.path.join(run_dir, "papi_mpi_report.json")
    with open(path, "w") as f:
        json.dump(mpi_report([rank(0), rank1]), f)
    return run_dir, path


def hostile_mpi(report_tool, collect_tool, d):
    cases = [("finished", {"finished": "false"}, "ranks[1].finished"),
             ("negative wall", {"wall_s": -1.0}, "wall_s"),
             ("MPI above wall", {"mpi_s": 3.5}, "mpi_s")]
    for what, bad, field in cases:
        run_dir, path = mpi_case(d, what, rank(1, **bad))
        out = os.path.join(run_dir, "out")
        p = run([report_tool, "--mpi", path, "-o", out])
        check(p.returncode == 2, "papi_report, %s: exit %d, want 2: %s" % (what, p.returncode, p.stderr))
        check(path in p.stderr and field in p.stderr,
              "papi_report, %s: the message names neither %s nor %s: %s" % (what, path, field, p.stderr))
        p = run([collect_tool, run_dir])
        check(p.returncode == 2, "papi_mpi_collect, %s: exit %d, want 2: %s%s" % (what, p.returncode, p.stdout, p.stderr))
        check(field.split(".")[-1] in p.stderr, "papi_mpi_collect, %s: the message does not name %s: %s" % (what, field, p.stderr))
        # A rank row (a partial report) with the same value.
        row = dict(rank(1, **bad), run_id="1700000000.1", exit_reason="SIGTERM")
        os.remove(path)
        with open(os.path.join(run_dir, "papi_mpi_rank1.partial.json"), "w") as f:
            json.dump(row, f)
        p = run([collect_tool, run_dir])
        check(p.returncode == 2 and field.split(".")[-1] in p.stderr,
              "papi_mpi_collect, a row with %s: exit %d: %s" % (what, p.returncode, p.stderr))


def hostile_pcontrol(report_tool, d):
    """MPI_Pcontrol regions with impossible values: papi_report exits 2 naming the field."""
    cases = [("region entries a string", {"x": {"entries": "3", "wall_s": 1.0}}, "$.ranks[1].regions.x.entries"),
             ("region MPI time negative", {"x": {"entries": 1, "wall_s": 1.0, "mpi_s": -1.0}},
              "$.ranks[1].regions.x.mpi_s"),
             ("region calls negative", {"x": {"entries": 1, "wall_s": 1.0, "calls": {"MPI_Send": {"calls": -2}}}},
              "$.ranks[1].regions.x.calls.MPI_Send.calls"),
             ("region not an object", {"x": 3}, "$.ranks[1].regions.x: 3 is not of type 'object'")]
    for what, regions, field in cases:
        run_dir, path = mpi_case(d, what, rank(1, regions=regions))
        p = run([report_tool, "--mpi", path, "-o", os.path.join(run_dir, "out")])
        check(p.returncode == 2 and path in p.stderr and field in p.stderr and "Traceback" not in p.stderr,
              "papi_report, %s: exit %d, want 2 naming %s: %s" % (what, p.returncode, field, p.stderr))


def deep_tree(report_tool, d):
    depth = 3000
    regions = {str(i): region("level%d" % i, i - 1 if i else -1, depth - i) for i in range(depth)}
    src = os.path.join(d, "deep")
    region_file.write(src, region_doc({"1": regions}))
    out = os.path.join(d, "deep_out")
    p = run([report_tool, "--regions", src, "-o", out])
    check(p.returncode == 0, "a %d-level tree: exit %d: %s" % (depth, p.returncode, p.stderr[-2000:]))
    path = os.path.join(out, "regions_hatchet.json")
    sys.setrecursionlimit(4 * depth + 1000)  # reading it back recurses here, not in the tool
    try:
        with open(path) as f:
            tree = json.load(f)
    except (OSError, ValueError) as e:
        check(False, "regions_hatchet.json of a %d-level tree is not whole JSON: %s" % (depth, e))
        return
    levels, node = 0, tree[0] if tree else None
    while node:
        levels += 1
        node = node["children"][0] if node["children"] else None
    check(levels == depth, "regions_hatchet.json holds %d levels, want %d" % (levels, depth))


def slash_names(report_tool, d):
    src = os.path.join(d, "slash")
    region_file.write(src, region_doc({"1": {"0": region("a", -1, 100), "1": region("b", 0, 10),
                                             "2": region("a/b", -1, 7)}}))
    out = os.path.join(d, "slash_out")
    p = run([report_tool, "--regions", src, "-o", out])
    check(p.returncode == 0, "names with '/': exit %d: %s" % (p.returncode, p.stderr))
    with open(os.path.join(out, "region_tree.csv")) as f:
        rows = {r["name"]: r for r in csv.DictReader(f)}
    check(set(rows) == {"a", "b", "a/b"}, "region_tree names %s, want a, b, a/b" % sorted(rows))
    if set(rows) == {"a", "b", "a/b"}:
        check(rows["a/b"]["parent_path"] == "" and rows["a/b"]["depth"] == "0",
              "'a/b' at the top is nested: %s" % rows["a/b"])
        check(rows["b"]["parent_path"] == "a" and rows["b"]["depth"] == "1", "'b' inside 'a': %s" % rows["b"])
        check(rows["a/b"]["real_time_nsec"] == "7" and rows["b"]["real_time_nsec"] == "10",
              "'a/b' and 'b' merged: %s %s" % (rows["a/b"], rows["b"]))


def negative_region_time(report_tool, d):
    src = os.path.join(d, "negative")
    r = region("r", -1, 5)
    r["real_time_nsec"] = -5
    path = region_file.write(src, region_doc({"1": {"0": r}}))
    p = run([report_tool, "--regions", src, "-o", os.path.join(d, "negative_out")])
    check(p.returncode == 2 and path in p.stderr and "real_time_nsec" in p.stderr,
          "a negative real_time_nsec: exit %d: %s" % (p.returncode, p.stderr))


EV = "perf::PAGE-FAULTS"


def samples(times=(1000, 2000, 3000), counts=(5, 6, 7)):
    return [{"time_nsec": t, EV: c, "metrics": {"CPU_UTILIZATION": 0.5}} for t, c in zip(times, counts)]


def impossible_values(report_tool, d):
    """Each case: (what, kind, document, field named, why said). A value JSON cannot hold
    (Infinity) is written as Python's json writes it: json.load reads it back. What the
    schema refuses is said with its JSON path and rule; the rest (time backwards, an
    infinite metric) by papi_report's own checks."""
    def mpi(**kw):
        r1 = rank(1)
        r1.update(kw)
        doc = mpi_report([rank(0), r1])
        doc["events"] = [EV]
        return doc

    def regions(series, events=None):
        doc = region_doc({"7": {"0": region("r", -1, 5000)}}, events=[EV], series=series)
        if events:
            doc["event_definitions"] = events
        return doc

    inf = float("inf")
    cases = [
        ("partners_dropped negative", "mpi", mpi(partners_dropped=-7), "$.ranks[1].partners_dropped",
         "-7 is less than the minimum of 0 (rule minimum of mpi_report.schema.json)"),
        ("partners_dropped fractional", "mpi", mpi(partners_dropped=1.9), "$.ranks[1].partners_dropped",
         "1.9 is not of type 'integer' (rule type of mpi_report.schema.json)"),
        ("MPI series count negative", "mpi", mpi(series={"interval_s": 1e-6, "samples": samples(counts=(5, -3, 7))}),
         '$.ranks[1].series.samples[1]["%s"]' % EV, "-3 is less than the minimum of 0 (rule minimum"),
        ("MPI series count infinite", "mpi", mpi(series={"interval_s": 1e-6, "samples": samples(counts=(5, inf, 7))}),
         '$.ranks[1].series.samples[1]["%s"]' % EV, "inf is not of type 'integer'"),
        ("MPI series backwards", "mpi", mpi(series={"interval_s": 1e-6, "samples": samples(times=(1000, 3000, 2000))}),
         "ranks[1].series.samples[2].time_nsec", "time runs backwards"),
        ("region series count negative", "regions",
         regions({"interval_s": 1e-6, "threads": {"7": samples(counts=(5, 6, -1))}}),
         "series.threads['7'][2]['%s']" % EV, "is -1, not a number >= 0"),
        ("region series time infinite", "regions",
         regions({"interval_s": 1e-6, "threads": {"7": samples(times=(1000, inf, 3000))}}),
         '$.series.threads["7"][1].time_nsec', "inf is not of type 'integer'"),
        ("region series backwards", "regions",
         regions({"interval_s": 1e-6, "threads": {"7": samples(times=(1000, 900, 3000))}}),
         "series.threads['7'][1].time_nsec", "time runs backwards"),
        ("region series time negative", "regions",
         regions({"interval_s": 1e-6, "threads": {"7": samples(times=(-1000, 2000, 3000))}}),
         '$.series.threads["7"][0].time_nsec', "-1000 is less than the minimum of 0 (rule minimum of region.schema.json)"),
        ("process metric infinite", "regions",
         regions({"interval_s": 1e-6, "threads": {"7": samples()},
                  "process_metrics": [{"time_nsec": 1000, "metrics": {"CPU_UTILIZATION": -inf}}]}),
         "$.series.process_metrics[0].metrics.CPU_UTILIZATION", "rule minimum of region.schema.json"),
        ("region span backwards", "regions",
         regions({"interval_s": 1e-6, "threads": {"7": samples()},
                  "region_spans": {"7": [{"id": 0, "name": "r", "begin_nsec": 2000, "end_nsec": 1000}]}}),
         "series.region_spans['7'][0].end_nsec", "time runs backwards"),
        ("papi_run series negative", "regions", regions({"interval_s": 1e-6, "samples": samples(counts=(-5, 6, 7))}),
         "series.samples[0]['%s']" % EV, "is -5, not a number >= 0"),
        ("series totals infinite", "regions",
         regions({"interval_s": 1e-6, "threads": {"7": samples()}, "totals": {EV: inf}}),
         '$.series.totals["%s"]' % EV, "inf is not of type 'integer'"),
        ("series interval zero", "regions", regions({"interval_s": 0, "threads": {"7": samples()}}),
         "$.series.interval_s", "0 is less than or equal to the minimum of 0 (rule exclusiveMinimum"),
    ]
    for i, (what, kind, doc, field, why) in enumerate(cases):
        src = os.path.join(d, "impossible%d" % i)
        os.makedirs(src)
        path = os.path.join(src, "papi_mpi_report.json" if kind == "mpi" else "rank_000000.json")
        with open(path, "w") as f:
            json.dump(doc, f)  # allow_nan: Infinity as Python writes it
        p = run([report_tool, "--mpi" if kind == "mpi" else "--regions", path if kind == "mpi" else src,
                 "-o", os.path.join(d, "impossible_out%d" % i)])
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and "Traceback" not in p.stderr and path in p.stderr
              and field in p.stderr and why in p.stderr,
              "%s: exit %d, want 2 and one line naming %s, %s and %r: %s"
              % (what, p.returncode, path, field, why, p.stderr[-600:]))
    # A negative count of an instant event (a reading, e.g. a temperature) is a value.
    src = os.path.join(d, "instant")
    region_file.write(src, regions({"interval_s": 1e-6, "threads": {"7": samples(counts=(5, -3, 7))}},
                                   events={EV: {"component": "perf_event", "type": "instant"}}))
    p = run([report_tool, "--regions", src, "-o", os.path.join(d, "instant_out")])
    check(p.returncode == 0, "a negative instant reading in a series: exit %d: %s" % (p.returncode, p.stderr[-600:]))


def main():
    report_tool, collect_tool = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        hostile_mpi(report_tool, collect_tool, d)
        hostile_pcontrol(report_tool, d)
        deep_tree(report_tool, d)
        slash_names(report_tool, d)
        negative_region_time(report_tool, d)
        impossible_values(report_tool, d)
    return verdict("check_hostile_values")


if __name__ == "__main__":
    sys.exit(main())
