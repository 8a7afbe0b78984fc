#!/usr/bin/env python3
"""check_hl_output_writer.py WRITER FIXTURES: papi_hl_output_writer on region files in
PAPI 7's format (FIXTURES/<case>/rank_*.json, written by hand from PAPI 7's schema):
values computed by hand, intermediate reads kept as separate values, and, when PAPI 7's
own writer is installed (/usr/bin/papi_hl_output_writer, Debian's papi-tools), the very
same output (stdout and file) as it gives for every type and notation.
Exit 0 pass, 1 fail."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

from checks import check, verdict  # noqa: E402 (tests/common/checks.py)
PAPI_WRITER = "/usr/bin/papi_hl_output_writer"
OUT_FILE = {"summary": "papi_sum.json", "accumulate": "papi_sum.json", "detail": "papi.json"}


def run(cmd, args, expect=0):
    """Run a writer in a fresh directory: (stdout, the file it wrote or None, stderr)."""
    with tempfile.TemporaryDirectory() as cwd:
        p = subprocess.run(cmd + args, capture_output=True, text=True, cwd=cwd, timeout=60)
        check(p.returncode == expect, "%s exited %d, expected %d: %s" %
              (" ".join(args), p.returncode, expect, p.stderr[-1500:]))
        files = [f for f in os.listdir(cwd)]
        text = open(os.path.join(cwd, files[0]), encoding="utf-8").read() if len(files) == 1 else None
        return p.stdout, text, p.stderr, files


def report(writer, source, type_, notation):
    out, text, _, files = run(writer, ["--source", source, "--type", type_, "--notation", notation])
    check(files == [OUT_FILE[type_]], "%s %s wrote %r" % (type_, notation, files))
    check(text is not None and out == text + "\n", "%s %s: stdout is not the file" % (type_, notation))
    try:
        return json.loads(out)
    except ValueError as e:
        check(False, "%s %s: not JSON: %s" % (type_, notation, e))
        return {}


def hand_computed(writer, fixtures):
    mpi = os.path.join(fixtures, "mpi_threads")
    s = report(writer, mpi, "summary", "raw")
    outer, inner = s.get("outer", {}), s.get("inner", {})
    check(outer.get("region_count") == 7, "outer region_count %r (2+1+3+1)" % outer.get("region_count"))
    check(outer.get("perf::PAGE-FAULTS") == {"total": 4100, "min": 800, "min_rank": 0, "min_thread": "4002",
                                             "median": 1000.0, "max": 1300, "max_rank": 1,
                                             "max_thread": "5001"},
          "outer PAGE-FAULTS (with the rank and thread of min and max) %r" % outer.get("perf::PAGE-FAULTS"))
    check(outer.get("temp:::T0") == {"min": 53, "min_rank": 0, "min_thread": "4002", "median": 54.0,
                                     "max": 55, "max_rank": 0, "max_thread": "4001"},
          "an instant event has no total: %r" % outer.get("temp:::T0"))
    check(outer.get("Number of ranks") == 2 and outer.get("Number of threads per rank") == 2,
          "outer ranks/threads %r" % outer)
    check(inner.get("perf::PAGE-FAULTS", {}).get("total") == 2048,
          "a region's own value (region_value) is summed, not its reads: %r" % inner)
    d = report(writer, mpi, "summary", "derived").get("outer", {})
    check(d.get("IPC") == 1.78 and d.get("MFLOPS/s") == 2.0 and d.get("Real time in s") == 2.0
          and d.get("CPU time in s") == 5.8, "outer derived %r" % d)
    det = report(writer, mpi, "detail", "raw")
    reads = det.get("ranks", {}).get("1", {}).get("threads", {}).get("5001", {}).get(
        "regions", {}).get("1", {}).get("perf::PAGE-FAULTS")
    check(reads == {"region_value": 1024, "read_1": 512, "read_2": 768},
          "detail must keep each PAPI_hl_read as its own value: %r" % reads)
    dd = report(writer, mpi, "detail", "derived").get("ranks", {}).get("0", {}).get(
        "threads", {}).get("4001", {}).get("regions", {}).get("1", {})
    check(dd.get("Real time in s") == {"region_value": 1.0, "read_1": 0.4, "read_2": 0.7},
          "derived reads %r" % dd.get("Real time in s"))
    check(dd.get("MFLOPS/s") == {"region_value": 2.0, "read_1": 1.25, "read_2": 1.43},
          "derived rate per read %r" % dd.get("MFLOPS/s"))
    seq = report(writer, os.path.join(fixtures, "sequential"), "summary", "derived")
    check(seq.get("solve", {}).get("IPC") == "n/a", "IPC with 0 cycles %r" % seq.get("solve"))
    check(seq.get("assemble", {}).get("Double precision MFLOPS/s") == 350.0,
          "(100e6 + 5e6) DP ops in 0.3 s: %r" % seq.get("assemble"))
    check("Number of ranks" not in seq.get("assemble", {}), "sequential code has no rank count")
    out, _, _, _ = run(writer, ["--source", mpi, "--type", "summary", "--notation", "raw", "--json"])
    check(out == json.dumps(s, indent=4, separators=(",", ": ")) + "\n", "--json changes the report")
    acc = report(writer, mpi, "accumulate", "raw")
    check(acc == s, "accumulate (PAPI 5/6's name) differs from summary")
    tables(writer, mpi, s)


def tables(writer, source, summary):
    """CSV and HTML: the summary one row per region and measurement, equal to the JSON;
    the detail one row per instance."""
    import csv
    import io
    for type_, name in (("summary", "papi_sum"), ("detail", "papi")):
        for fmt in ("csv", "html"):
            _, text, _, files = run(writer, ["--source", source, "--type", type_, "--format", fmt])
            check(files == [name + "." + fmt], "%s %s wrote %r" % (type_, fmt, files))
            if fmt == "html":
                check(text is not None and "<table" in text and "outer" in text,
                      "%s html has no table" % type_)
                continue
            rows = list(csv.DictReader(io.StringIO(text or "")))
            if type_ == "detail":
                check(len(rows) == 6, "detail csv: %d instance rows, want 6" % len(rows))
                continue
            for r in rows:
                want = summary.get(r["region"], {}).get(r["metric"])
                if isinstance(want, dict):
                    for k in ("min", "max", "min_rank", "max_rank", "min_thread", "max_thread"):
                        check(str(want[k]) == r[k], "csv %s %s %s: %s, json %s"
                              % (r["region"], r["metric"], k, r[k], want[k]))


def errors(writer, fixtures):
    _, _, err, _ = run(writer, ["--source", os.path.join(fixtures, "not_papi_format")], expect=2)
    check("event_definitions" in err, "a file in another format: no clear message: %r" % err)
    run(writer, ["--source", os.path.join(fixtures, "no_such_dir")], expect=2)
    run(writer, ["--source", os.path.join(fixtures, "mpi_threads"), "--type", "bogus"], expect=2)
    run(writer, ["--source", os.path.join(fixtures, "mpi_threads"), "--notation", "x"], expect=2)


def strip_locations(doc):
    if isinstance(doc, dict):
        return {k: strip_locations(v) for k, v in doc.items()
                if k not in ("min_rank", "min_thread", "max_rank", "max_thread")}
    return doc


def same_as_papi(writer, fixtures):
    if not os.access(PAPI_WRITER, os.X_OK):
        print("note: %s not installed, comparison with PAPI's writer left out" % PAPI_WRITER)
        return
    compared = 0
    for case in ("mpi_threads", "sequential"):
        source = os.path.join(fixtures, case)
        for type_ in ("summary", "detail"):
            for notation in ("raw", "derived"):
                args = ["--source", source, "--type", type_, "--notation", notation]
                ours = run(writer, args + ["--no-locations"])
                theirs = run([PAPI_WRITER], args)
                check(ours[0] == theirs[0] and ours[1] == theirs[1],
                      "%s %s %s --no-locations differs from PAPI's writer" % (case, type_, notation))
                # With the locations: PAPI's report plus min/max_rank/thread, nothing else.
                located = strip_locations(json.loads(run(writer, args)[0]))
                check(located == json.loads(theirs[0]),
                      "%s %s %s differs from PAPI's writer beyond the locations" % (case, type_, notation))
                compared += 1
    print("compared %d reports with PAPI's writer" % compared)


def main():
    # The writer runs as installed, on its own interpreter (Debian's python3, with pandas).
    writer, fixtures = [os.path.abspath(sys.argv[1])], os.path.abspath(sys.argv[2])
    hand_computed(writer, fixtures)
    errors(writer, fixtures)
    same_as_papi(writer, fixtures)
    return verdict("papi_hl_output_writer")


if __name__ == "__main__":
    sys.exit(main())
