#!/usr/bin/python3
"""check_schemas.py --tool papi_report.py --regions report_regions --papi-run papi_run
--schemas DIR --data DIR: the report schemas (schema/*.schema.json) against what the writers
produce, and papi_report --check against broken files.

1. Every schema is a valid draft 2020-12 schema, and every field it names has a description.
2. A region program's file (page faults, metrics, an interval series, a PAPI_hl_read) and a
   papi_run file (-m and --interval) follow region.schema.json; so do PAPI 7-layout files
   (tests/utils/hl_output), and a hand-made MPI report, row and papi_validate file theirs.
3. One broken file per rule kind (required, type, minimum, maximum and a number too large to
   be finite, enum, const, pattern, propertyNames, oneOf, a NaN that is not JSON): papi_report
   --check exits 2 with one line naming the file and the JSON path of the fault, and no
   traceback. A good file exits 0."""
import argparse
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


def run_check(tool, *paths):
    p = subprocess.run([sys.executable, tool, "--check", *paths], capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def described(node, where, missing):
    """Every property a schema lists has a description (or is a $ref to a described def)."""
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub:
                missing.append("%s.%s" % (where, name))
        for k, v in node.items():
            described(v, "%s.%s" % (where, k) if k not in ("properties",) else where, missing)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            described(v, where, missing)


MPI_REPORT = {
    "tool": "papi_mpi", "papi_compat_version": "1.0.0", "run_id": "1-2", "start_utc": "2026-11-25T01:02:03Z",
    "command": ["./ring"], "nranks": 2, "finished_ranks": 2, "events": ["perf::PAGE-FAULTS"],
    "counter_note": "", "metrics": {"wall_s": {"min": 1.0, "min_rank": 0, "mean": 1.5, "max": 2.0,
                                              "max_rank": 1, "imbalance": 1.33, "cov": 0.33}},
    "ranks": [
        {"rank": r, "run_id": "1-2", "host": "h", "finished": True, "threads": 1, "wall_s": 1.0 + r,
         "mpi_s": 0.5, "mpi_thread_sum_s": 0.5, "counters": {"perf::PAGE-FAULTS": 10 + r},
         "series": {"interval_s": 0.5, "samples": [{"time_nsec": 500000000, "perf::PAGE-FAULTS": 4},
                                                   {"time_nsec": 1000000000, "perf::PAGE-FAULTS": 6 + r}]},
         "calls": {"MPI_Send": {"calls": 3, "time_s": 0.1, "bytes_sent": 24, "bytes_recv": 0}},
         "sizes": {"MPI_Send": [{"bucket": 4, "calls": 3, "time_s": 0.1}]},
         "partners": [{"rank": 1 - r, "sends": 3, "bytes_sent": 24, "recvs": 0, "bytes_recv": 0, "time_s": 0.1}],
         "partners_dropped": 0} for r in (0, 1)],
}
VALIDATE = {"tool": "papi_validate", "rows": [{"kernel": "int_adds", "event": "PAPI_TOT_INS", "kind": "preset",
            "expected": 400000, "counted": 400012, "ratio": 1.00003, "tolerance": 432, "verdict": "pass"}],
            "passed": 1, "failed": 0, "not_countable": 0, "no_kernel": 0, "exit_status": 0}


def broken_cases(region):
    """(name, file name, document or raw text, JSON path expected in the message)."""
    t0 = next(iter(region["threads"]))
    r0 = next(iter(region["threads"][t0]["regions"]))
    ev = next(iter(region["event_definitions"]))

    def region_with(f):
        d = copy.deepcopy(region)
        f(d)
        return d

    def mpi_with(f):
        d = copy.deepcopy(MPI_REPORT)
        f(d)
        return d
    inst = '$.threads["%s"].regions["%s"]' % (t0, r0)
    return [
        ("required", "rank_000001.json", region_with(lambda d: d.pop("threads")), "$"),
        ("type", "rank_000002.json",
         region_with(lambda d: d["threads"][t0]["regions"][r0].__setitem__("name", 7)), inst + ".name"),
        ("minimum (a negative count of partners dropped)", "papi_mpi_report.json",
         mpi_with(lambda d: d["ranks"][1].__setitem__("partners_dropped", -7)), "$.ranks[1].partners_dropped"),
        ("type (a fraction of partners dropped)", "papi_mpi_report.json",
         mpi_with(lambda d: d["ranks"][0].__setitem__("partners_dropped", 1.9)), "$.ranks[0].partners_dropped"),
        ("minimum (a negative wall time)", "papi_mpi_report.json",
         mpi_with(lambda d: d["ranks"][0].__setitem__("wall_s", -1.0)), "$.ranks[0].wall_s"),
        ("maximum (an infinite time: 1e999)", "papi_mpi_report.json",
         json.dumps(MPI_REPORT).replace('"wall_s": 2.0', '"wall_s": 1e999'), "$.ranks[1].wall_s"),
        ("minimum (a negative series count)", "papi_mpi_report.json",
         mpi_with(lambda d: d["ranks"][0]["series"]["samples"][1].__setitem__("perf::PAGE-FAULTS", -3)),
         "$.ranks[0].series.samples[1]"),
        ("enum", "rank_000003.json",
         region_with(lambda d: d["event_definitions"][ev].__setitem__("type", "sum")),
         "$.event_definitions"),
        ("const", "papi_mpi_report.json", mpi_with(lambda d: d.__setitem__("tool", "papi_mpi")) | {"tool": "mpiP", "ranks": []},
         None),
        ("pattern", "papi_mpi_report.json", mpi_with(lambda d: d.__setitem__("start_utc", "yesterday")), "$.start_utc"),
        ("propertyNames (a region instance not keyed by its number)", "rank_000004.json",
         region_with(lambda d: d["threads"][t0]["regions"].__setitem__("first", d["threads"][t0]["regions"][r0])),
         '$.threads["%s"].regions' % t0),
        ("oneOf (an event value that is neither a count nor a read object)", "rank_000005.json",
         region_with(lambda d: d["threads"][t0]["regions"][r0].__setitem__(ev, "many")), inst),
        ("not JSON (NaN)", "papi_mpi_report.json", json.dumps(MPI_REPORT).replace('"wall_s": 2.0', '"wall_s": NaN'),
         None),
        ("validate: a verdict papi_validate never writes", "papi_validate.json",
         dict(VALIDATE, rows=[dict(VALIDATE["rows"][0], verdict="ok")]), "$.rows[0].verdict"),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--regions", required=True)
    ap.add_argument("--papi-run", required=True)
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--data", required=True)
    a = ap.parse_args()
    try:
        import jsonschema
    except ImportError:
        print("SKIPPED: python3-jsonschema is not installed (Debian: apt-get install python3-jsonschema)")
        return 77

    # 1. The schemas themselves.
    names = sorted(glob.glob(os.path.join(a.schemas, "*.schema.json")))
    check(len(names) >= 4, "%d schemas in %s" % (len(names), a.schemas))
    for n in names:
        s = json.load(open(n))
        try:
            jsonschema.Draft202012Validator.check_schema(s)
            ok = True
        except jsonschema.SchemaError as e:
            ok = False
            print("     ", e.message)
        check(ok, "%s is a valid draft 2020-12 schema" % os.path.basename(n))
        missing = []
        described(s, os.path.basename(n), missing)
        check(not missing, "%s: every listed field has a description%s"
              % (os.path.basename(n), (" (missing: %s)" % ", ".join(missing[:8])) if missing else ""))

    with tempfile.TemporaryDirectory() as tmp:
        # 2. What the writers produce.
        env = dict(os.environ, PAPI_EVENTS="perf::PAGE-FAULTS,perf::TASK-CLOCK",
                   PAPI_METRICS="CPU_UTILIZATION", PAPI_INTERVAL="0.01", PAPI_OUTPUT_DIRECTORY=tmp)
        p = subprocess.run([a.regions, "10", "20", "30", "5", "3", "7"], env=env, capture_output=True,
                           text=True, timeout=120)
        check(p.returncode == 0, "the region program ran (%s)" % p.stderr.strip()[-200:])
        region_files = glob.glob(os.path.join(tmp, "papi_hl_output", "rank_*.json"))
        check(len(region_files) == 1, "the region program wrote one file")
        run_dir = os.path.join(tmp, "run")
        p = subprocess.run([a.papi_run, "-m", "CPU_UTILIZATION", "--interval", "0.02", "-o", run_dir, "--",
                            "sh", "-c", "for i in 1 2 3; do sleep 0.02; done"], capture_output=True,
                           text=True, timeout=120)
        check(p.returncode == 0, "papi_run ran (%s)" % p.stderr.strip()[-200:])
        run_files = glob.glob(os.path.join(run_dir, "**", "*.json"), recursive=True)
        check(len(run_files) >= 1, "papi_run wrote its file")
        good = os.path.join(tmp, "good")
        os.mkdir(good)
        for name, doc in (("papi_mpi_report.json", MPI_REPORT), ("papi_validate.json", VALIDATE),
                          ("papi_mpi_rank1.partial.json", dict(MPI_REPORT["ranks"][1], finished=False,
                                                                exit_reason="signal 9"))):
            json.dump(doc, open(os.path.join(good, name), "w"))
        pieces = region_files + run_files + [good] + [os.path.join(a.data, d) for d in ("sequential", "mpi_threads")]
        rc, out, err = run_check(a.tool, *pieces)
        check(rc == 0 and not err, "our files and PAPI 7-layout files follow their schemas: exit %d %s%s"
              % (rc, out.strip(), err.strip()))

        # 3. Broken files: one line each, the file and the path named.
        region = json.load(open(region_files[0])) if region_files else None
        if region is None:
            return 1
        for i, (rule, fname, doc, path) in enumerate(broken_cases(region)):
            d = os.path.join(tmp, "bad%d" % i)
            os.mkdir(d)
            f = os.path.join(d, fname)
            with open(f, "w") as out_f:
                out_f.write(doc if isinstance(doc, str) else json.dumps(doc))
            rc, out, err = run_check(a.tool, f)
            lines = [l for l in err.splitlines() if l.strip()]
            ok = (rc == 2 and len(lines) == 1 and f in lines[0] and "Traceback" not in err and
                  (path is None or (path + ".") in lines[0] or (path + ":") in lines[0] or (path + "[") in lines[0]))
            check(ok, "%s: exit %d, %s" % (rule, rc, lines[0] if lines else "(nothing said)"))
    return verdict("check_schemas")


if __name__ == "__main__":
    sys.exit(main())
