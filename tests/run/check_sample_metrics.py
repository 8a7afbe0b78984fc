#!/usr/bin/env python3
"""check_sample_metrics.py: papi_run --sample -m, metrics per function (issue 48).

  check_sample_metrics.py PAPI_RUN SAMPLE_FAULTS PAPI_REPORT_PY

This machine may have no hardware PMU, so the metric table is the test's own
(PAPI_METRICS_FILE) over software events: FAULTS_PER_MS = page faults per ms of the
task's CPU time. sample_faults' touch_pages faults pages in, crunch only computes.
Sampled on perf::TASK-CLOCK with -m FAULTS_PER_MS, CPU_UTILIZATION, WRITE_PER_FAULT:
- FAULTS_PER_MS per function: every function's value in the banner and in papi_report's
  profile_functions.csv is exactly the ratio of that function's own summed counts in the
  profile files (and per stack in profile_stacks.csv); touch_pages' is more than 10 times
  crunch's;
- CPU_UTILIZATION (uses the elapsed time) and WRITE_PER_FAULT (procio:::wchar, not read
  with samples) are refused per function in one line each, the profile is still taken and
  both are still computed for the whole program;
- with -e PAGE-FAULTS,FAULTS beside it, the page faults are read once (one kernel event
  under three names) and the metric points at them;
- an unknown -m name: exit 2, the first line names it, nothing run.
Every profile file is checked against schema/profile.schema.json."""
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import fail  # noqa: E402 (tests/common/checks.py)

report_check.guard()

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "schema", "profile.schema.json")
TABLE = """CPU,generic
METRIC,FAULTS_PER_MS,faults/ms,{perf::PAGE-FAULTS} / {perf::TASK-CLOCK} * 1e6,Page faults per ms of CPU time
METRIC,CPU_UTILIZATION,CPUs,{perf::TASK-CLOCK} / 1e9 / time,CPUs utilized
METRIC,WRITE_PER_FAULT,bytes/fault,{procio:::wchar} / {perf::PAGE-FAULTS},Bytes written per page fault
"""


def run(cmd, env):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    return p.returncode, p.stdout, p.stderr


def expected(counts):
    """FAULTS_PER_MS of one sum of counts (events: TASK-CLOCK, PAGE-FAULTS), as the
    formula computes it; None where the task clock is 0."""
    return float(counts[1]) / float(counts[0]) * 1e6 if counts[0] else None


def own_counts(docs):
    """{function: [summed self counts]} and {stack: [summed counts]} of the profiles."""
    own, stacks = {}, {}
    for d in docs:
        names = [f["name"] for f in d["frames"]]
        for s in d["stacks"]:
            path = [names[i] for i in s["frames"]]
            for key, table in ((path[-1], own), (";".join(path), stacks)):
                w = table.setdefault(key, [0, 0])
                w[0] += s["counts"][0]
                w[1] += s["counts"][1]
    return own, stacks


def profiles(out):
    import jsonschema
    v = jsonschema.Draft202012Validator(json.load(open(SCHEMA)))
    docs = []
    for f in sorted(glob.glob(os.path.join(out, "**", "profile_*.json"), recursive=True)):
        d = json.load(open(f))
        errors = [e.message for e in v.iter_errors(d)]
        if errors:
            fail("%s breaks profile.schema.json: %s" % (f, errors[:3]))
        docs.append(d)
    return docs


def banner_values(err):
    """{function: FAULTS_PER_MS text} of the banner's top functions."""
    tail = err[err.find(" top functions"):]
    lines = tail.splitlines()
    if len(lines) < 3 or "FAULTS_PER_MS" not in lines[1]:
        fail("the banner's top functions have no FAULTS_PER_MS column:\n" + tail)
    values = {}
    for line in lines[2:]:
        parts = line.split(None, 3)
        if len(parts) < 4 or not parts[0].endswith("%"):
            break
        values[parts[3]] = parts[2]
    return values


def main():
    if len(sys.argv) != 4:
        fail("usage: check_sample_metrics.py PAPI_RUN SAMPLE_FAULTS PAPI_REPORT_PY")
    papi_run, prog, report = sys.argv[1:]
    try:
        import jsonschema  # noqa: F401
        import pandas  # noqa: F401
    except ImportError as e:
        print("SKIPPED: %s (papi_report and the schema check need it)" % e)
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="sample_metrics_")
    table = os.path.join(tmp, "metrics.csv")
    with open(table, "w") as f:
        f.write(TABLE)
    env = dict(os.environ, PAPI_METRICS_FILE=table)
    out = os.path.join(tmp, "d")

    rc, _, err = run([papi_run, "--sample", "perf::TASK-CLOCK@1000000", "-m",
                      "FAULTS_PER_MS,CPU_UTILIZATION,WRITE_PER_FAULT", "-o", out, "--", prog, "5"], env)
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    refused = [line for line in err.splitlines() if "not per function" in line]
    if len(refused) != 2 or "CPU_UTILIZATION" not in refused[0] or "elapsed time" not in refused[0] \
            or "WRITE_PER_FAULT" not in refused[1] or "procio:::wchar" not in refused[1]:
        fail("expected one line each for CPU_UTILIZATION and WRITE_PER_FAULT:\n" + err)
    for name in ("CPU_UTILIZATION (CPUs)", "WRITE_PER_FAULT (bytes/fault)", "FAULTS_PER_MS (faults/ms)"):
        if name not in err:
            fail("the whole program's %s is not in the banner:\n%s" % (name, err))

    docs = profiles(out)
    if len(docs) != 1:
        fail("%d profile files, expected 1" % len(docs))
    d = docs[0]
    if d["events"] != ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"]:
        fail("events read with the samples: %s" % d["events"])
    if [m["name"] for m in d["metrics"]] != ["FAULTS_PER_MS"] or \
            d["metrics"][0]["terms"] != {"perf::PAGE-FAULTS": 1, "perf::TASK-CLOCK": 0}:
        fail("the profile's metrics: %s" % d["metrics"])
    own, stacks = own_counts(docs)
    for fn in ("touch_pages", "crunch"):
        if fn not in own:
            fail("%s not sampled: %s" % (fn, sorted(own)))
    touch, crunch = expected(own["touch_pages"]), expected(own["crunch"])
    if touch is None or crunch is None or not touch > 10 * crunch:
        fail("FAULTS_PER_MS of touch_pages %s is not above 10x crunch's %s" % (touch, crunch))

    shown = banner_values(err)
    for fn in ("touch_pages", "crunch"):
        if fn not in shown:
            fail("%s not among the banner's top functions: %s" % (fn, shown))
    for fn, text in shown.items():
        want = expected(own[fn])
        if text != ("-" if want is None else "%.6g" % want):
            fail("banner: %s's FAULTS_PER_MS is %s, its own counts %s give %s" % (fn, text, own[fn], want))

    rep = os.path.join(tmp, "rep")
    rc, _, rerr = run([sys.executable, report, out, "-o", rep], env)
    if rc != 0:
        fail("papi_report exit status %d\n%s" % (rc, rerr))
    rows = list(csv.DictReader(open(os.path.join(rep, "profile_functions.csv"))))
    if not rows or "FAULTS_PER_MS" not in rows[0]:
        fail("profile_functions.csv has no FAULTS_PER_MS column: %s" % (rows[:1],))
    for r in rows:
        want = expected(own[r["function"]])
        got = float(r["FAULTS_PER_MS"]) if r["FAULTS_PER_MS"] else None
        if got != want:
            fail("profile_functions.csv: %s's FAULTS_PER_MS %s, its own counts give %s" % (r["function"], got, want))
    nstack = 0
    for r in csv.DictReader(open(os.path.join(rep, "profile_stacks.csv"))):
        w = [int(r["perf::TASK-CLOCK"]), int(r["perf::PAGE-FAULTS"])]
        got = float(r["FAULTS_PER_MS"]) if r["FAULTS_PER_MS"] else None
        if got != expected(w):
            fail("profile_stacks.csv: %s's FAULTS_PER_MS %s, its counts %s give %s" % (r["stack"], got, w, expected(w)))
        nstack += 1
    text = open(os.path.join(rep, "report.txt")).read()
    top = text[text.find("Top functions of the sampled profile"):]
    if "FAULTS_PER_MS" not in top.split("\n\n")[0]:
        fail("report.txt's top functions table has no FAULTS_PER_MS column")

    # The metric's events given by -e under other names are read once (by their kernel
    # event), and the metric points at them.
    once = os.path.join(tmp, "once")
    rc, _, err3 = run([papi_run, "--quiet", "--sample", "perf::TASK-CLOCK@1000000", "-e",
                       "PAGE-FAULTS,FAULTS,perf::TASK-CLOCK", "-m", "FAULTS_PER_MS", "-o", once, "--",
                       prog, "1"], env)
    if rc != 0:
        fail("-e PAGE-FAULTS,FAULTS -m FAULTS_PER_MS: exit status %d\n%s" % (rc, err3))
    (d,) = profiles(once)
    if d["events"] != ["perf::TASK-CLOCK", "PAGE-FAULTS"] or \
            d["metrics"][0]["terms"] != {"perf::PAGE-FAULTS": 1, "perf::TASK-CLOCK": 0}:
        fail("events read twice: %s, metrics %s" % (d["events"], d["metrics"]))

    rc, _, err2 = run([papi_run, "--sample", "perf::TASK-CLOCK", "-m", "NO_SUCH_METRIC", "-o",
                       os.path.join(tmp, "bad"), "--", prog, "1"], env)
    if rc != 2 or "NO_SUCH_METRIC" not in err2.splitlines()[0] or glob.glob(os.path.join(tmp, "bad", "**", "profile_*"), recursive=True):
        fail("an unknown -m name: exit %d (expected 2), first line %r" % (rc, err2.splitlines()[:1]))

    print("FAULTS_PER_MS per function: touch_pages %.4g, crunch %.4g faults/ms (banner, CSV and %d "
          "stacks equal to the ratios of their own counts); 2 metrics refused in one line each"
          % (touch, crunch, nstack))
    shutil.rmtree(tmp)  # (guard() checks its reports first)


main()
