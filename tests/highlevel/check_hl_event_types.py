#!/usr/bin/env python3
"""Run hl_event_types_workload (argv[1]) on the recorded node tree (argv[2]) and check
the region reports it writes at exit, with PAPI 7's meanings:
- PAPI_EVENTS' trailing "=instant" reports the value at the end (and at each
  PAPI_hl_read), "=delta" the difference since the begin; no suffix the event's own kind
  (ours, where PAPI 7 takes the difference): an absolute value (a temperature) its value
  at the end, a count (eth0:rx:bytes) the difference; the report's event_definitions give
  each event's type; a "=" inside a name (a raw field, here perf::PAGE-FAULTS:u=1) is no
  suffix;
- unprefixed names of node events (eth0:rx:bytes, hwmon0:temp2_input) count as in
  PAPI 7.0, under the name written;
- PAPI_HL_THREAD_MULTIPLE=0: one record for the process (both threads' regions, the
  second thread's region nested in the first's); without it, one record per thread."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402

report_check.guard()



def run(exe, tree, mode, env_extra):
    scratch = tempfile.mkdtemp(prefix="hl_types_")
    env = dict(os.environ)
    env.pop("PAPI_HL_THREAD_MULTIPLE", None)
    env.update(env_extra)
    env["PAPI_OUTPUT_DIRECTORY"] = scratch
    p = subprocess.run([exe, mode, tree, scratch], env=env, capture_output=True, text=True,
                       timeout=60)
    check(p.returncode == 0, "%s %s exit %d: %s%s" % (mode, env_extra, p.returncode,
                                                      p.stdout, p.stderr))
    files = glob.glob(os.path.join(scratch, "papi_hl_output*", "*.json"))
    check(len(files) == 1, "%s: one report, found %s" % (mode, files))
    report = json.load(open(files[0])) if files else {}
    shutil.rmtree(scratch, ignore_errors=True)
    return report


def instances(report):
    """Every instance of every thread: (thread key, instance id, entry)."""
    return [(t, i, e) for t, th in report.get("threads", {}).items()
            for i, e in th.get("regions", {}).items()]


def region_r(report):
    regions = [e for _, _, e in instances(report) if e.get("name") == "r"]
    check(len(regions) == 1, "one instance of r: %s" % regions)
    return regions[0] if regions else {}


def check_run(exe, tree, events, want, exact):
    """One run with PAPI_EVENTS=events (one component's events: our region event set
    holds one component). want: name -> (component, type) in event_definitions;
    exact: name -> (region_value, read_1) of region r."""
    report = run(exe, tree, "types", {"PAPI_EVENTS": events})
    defs = report.get("event_definitions", {})
    check(sorted(defs) == sorted(want), "%s: events %s" % (events, sorted(defs)))
    for name, (comp, kind) in want.items():
        d = defs.get(name, {})
        check(d.get("component") == comp and d.get("type") == kind,
              "event_definitions[%s] = %s, want %s %s" % (name, d, comp, kind))
    check(report.get("skipped_events") == [], "skipped: %s" % report.get("skipped_events"))
    r = region_r(report)
    for name, (end, read) in exact.items():
        v = r.get(name, {})
        check(isinstance(v, dict) and int(v.get("region_value", -1)) == end
              and int(v.get("read_1", -1)) == read,
              "%s: %s, want region_value %d read_1 %d" % (name, v, end, read))
    return report, r


def check_types(exe, tree):
    # Temperatures: =instant is the value at the end (and at the read), =delta the
    # difference; the second named without its component prefix.
    report, _ = check_run(
        exe, tree, "coretemp:::hwmon0:temp1_input=instant, hwmon0:temp2_input=delta",
        {"coretemp:::hwmon0:temp1_input": ("coretemp", "instant"),
         "hwmon0:temp2_input": ("coretemp", "delta")},
        {"coretemp:::hwmon0:temp1_input": (47000, 46000), "hwmon0:temp2_input": (2500, 1500)})
    totals = [t.get("r", {}) for t in report.get("region_totals", {}).values()]
    check(len(totals) == 1, "region_totals: %s" % report.get("region_totals"))
    if totals:  # ours: the last value of an instant event, the sum of a delta one
        check(int(totals[0].get("coretemp:::hwmon0:temp1_input", -1)) == 47000
              and int(totals[0].get("hwmon0:temp2_input", -1)) == 2500,
              "region_totals of r: %s" % totals[0])
    # A node counter named without "net:::", no suffix: delta.
    check_run(exe, tree, "eth0:rx:bytes", {"eth0:rx:bytes": ("net", "delta")},
              {"eth0:rx:bytes": (4000, 1000)})
    # A "=" inside the name (a raw field) is no suffix; only the trailing =delta is.
    _, r = check_run(exe, tree, "perf::PAGE-FAULTS:u=1=delta",
                     {"perf::PAGE-FAULTS:u=1": ("perf_event", "delta")}, {})
    pf = r.get("perf::PAGE-FAULTS:u=1", {})
    pf = int(pf.get("region_value", -1)) if isinstance(pf, dict) else int(pf)
    check(300 <= pf < 340, "page faults in r: %d, want 300..339" % pf)
    # A bare suffix is no event: skipped with a reason, nothing else changes. Its neighbour
    # has no suffix: a temperature (PAPI_VALUETYPE_ABSOLUTE), its value at the end and at
    # the read, not a difference.
    report = run(exe, tree, "types", {"PAPI_EVENTS": "=instant, hwmon0:temp2_input"})
    skipped = [s.get("name") for s in report.get("skipped_events", [])]
    check(skipped == ["=instant"], "skipped %s, want ['=instant']" % skipped)
    t2 = region_r(report).get("hwmon0:temp2_input", {})
    check(int(t2.get("region_value", -1)) == 45500 and int(t2.get("read_1", -1)) == 44500 and
          report.get("event_definitions", {}).get("hwmon0:temp2_input", {}).get("type") ==
          "instant", "hwmon0:temp2_input beside a bare suffix, no suffix of its own: %s" % t2)


def check_threads(exe, tree, multiple):
    """Region inner, begun in a second thread while the main thread's outer is open."""
    env = {"PAPI_EVENTS": "perf::PAGE-FAULTS"}
    if multiple is not None:
        env["PAPI_HL_THREAD_MULTIPLE"] = multiple
    report = run(exe, tree, "threads", env)
    threads = report.get("threads", {})
    found = {e.get("name"): (t, i, e) for t, i, e in instances(report)}
    check(set(found) == {"outer", "inner"}, "regions %s" % sorted(found))
    if set(found) != {"outer", "inner"}:
        return
    one = multiple not in (None, "1")
    check(len(threads) == (1 if one else 2),
          "PAPI_HL_THREAD_MULTIPLE=%s: %d thread records, want %d"
          % (multiple, len(threads), 1 if one else 2))
    (to, io, _), (ti, _, ei) = found["outer"], found["inner"]
    parent = str(ei.get("parent_region_id"))
    check(parent == (str(io) if one else "-1"),
          "inner's parent %s (outer is instance %s of thread %s, inner in %s)"
          % (parent, io, to, ti))


def main():
    exe, tree = sys.argv[1], sys.argv[2]
    check_types(exe, tree)
    check_threads(exe, tree, None)
    check_threads(exe, tree, "1")
    check_threads(exe, tree, "0")
    return verdict("check_hl_event_types")


if __name__ == "__main__":
    sys.exit(main())
