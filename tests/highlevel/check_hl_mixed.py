#!/usr/bin/env python3
"""Run hl_mixed_workload with PAPI_EVENTS naming events of several components and check
its region report: every event counted in one run (none skipped), exact page faults (40)
and at least the bytes the region sent over the loopback (net:::lo:rx:bytes) in the
region and in its all-thread totals, and both in the PAPI_INTERVAL series; and a list of node
events alone (no CPU event) with its all-thread totals and series."""
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

PAGES = 40


def run(exe, env_extra):
    out = tempfile.mkdtemp(prefix="hl_mixed_")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(env_extra, PAPI_OUTPUT_DIRECTORY=out)
    p = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=60)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if p.returncode == 77:
        sys.exit(77)
    check(p.returncode == 0, "workload exited with %d" % p.returncode)
    sent = int(next(l.split()[1] for l in p.stdout.splitlines() if l.startswith("BYTES ")))
    files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
    check(len(files) == 1, "expected one report file, found %s" % files)
    with open(files[0]) as f:
        report = json.load(f)
    shutil.rmtree(out)
    return report, sent


def mixed_instance(thread):
    return next(r for r in thread["regions"].values() if r["name"] == "mixed")


def check_values(where, values, sent, faults=True):
    if faults:
        check(values.get("perf::PAGE-FAULTS") == PAGES,
              "%s: perf::PAGE-FAULTS = %s, want %d" % (where, values.get("perf::PAGE-FAULTS"), PAGES))
    rx = values.get("net:::lo:rx:bytes")
    check(rx is not None and rx >= sent, "%s: net:::lo:rx:bytes = %s, want >= %d" % (where, rx, sent))
    print("%s: %s" % (where, values))


def main():
    exe = sys.argv[1]
    # The loopback interface and the stealtime component exist on any Linux.
    events = "perf::PAGE-FAULTS,net:::lo:rx:bytes,stealtime:::TOTAL"
    rep, sent = run(exe, {"PAPI_EVENTS": events})
    if any(s["name"] == "net:::lo:rx:bytes" and "has no event" in s.get("reason", "")
           for s in rep["skipped_events"]):
        print("SKIPPED: no loopback interface in /proc/net/dev: %s" % rep["skipped_events"])
        return 77
    check(rep["skipped_events"] == [], "entries skipped: %s" % rep["skipped_events"])
    check({n: d["component"] for n, d in rep["event_definitions"].items()} ==
          {"perf::PAGE-FAULTS": "perf_event", "net:::lo:rx:bytes": "net",
           "stealtime:::TOTAL": "stealtime"}, "event_definitions %s" % rep["event_definitions"])
    # the node's values are the same for every thread ("device": shown once), the faults
    # the thread's own; each with the unit papi_native_avail gives it
    check({n: (d.get("units"), d.get("scope")) for n, d in rep["event_definitions"].items()} ==
          {"perf::PAGE-FAULTS": ("", "thread"), "net:::lo:rx:bytes": ("bytes", "device"),
           "stealtime:::TOTAL": ("us", "device")},
          "units and scope %s" % rep["event_definitions"])
    check(len(rep["threads"]) == 1, "threads %s" % list(rep["threads"]))
    key, thread = next(iter(rep["threads"].items()))
    check_values("region mixed", mixed_instance(thread), sent)
    check_values("region_totals mixed", rep["region_totals"][key]["mixed"], sent)
    allt = rep.get("all_threads", {}).get(key, {}).get("regions", {}).get("mixed")
    check(allt is not None, "no all-thread totals for region mixed: %s" % rep.get("all_threads"))
    if allt:
        check_values("all-thread mixed", allt, sent)
    # The series: the sampler is a thread of the process too (its own faults count in the
    # all-thread totals then), so this run checks the series only.
    rep, sent = run(exe, {"PAPI_EVENTS": events, "PAPI_INTERVAL": "0.005"})
    check(rep["skipped_events"] == [], "series: entries skipped: %s" % rep["skipped_events"])
    series = rep.get("series")
    check(series is not None, "PAPI_INTERVAL gave no series")
    if series:
        tot = series["totals"]
        check(tot.get("perf::PAGE-FAULTS", 0) >= PAGES + 4 and
              tot.get("net:::lo:rx:bytes", 0) >= 3 * sent,
              "series totals %s, want >= %d faults and >= %d bytes" % (tot, PAGES + 4, 3 * sent))
        rows = list(series["threads"].values())
        summed = {e: sum(s[e] for r in rows for s in r) for e in tot}
        check(summed == tot, "series intervals sum to %s, totals %s" % (summed, tot))
    # Node events alone: no CPU event, so no per-thread process counters; the all-thread
    # values and the series are the node's.
    rep, sent = run(exe, {"PAPI_EVENTS": "net:::lo:rx:bytes", "PAPI_INTERVAL": "0.005"})
    check(rep["skipped_events"] == [], "node alone: skipped %s" % rep["skipped_events"])
    key, thread = next(iter(rep["threads"].items()))
    check_values("node alone: region mixed", mixed_instance(thread), sent, faults=False)
    allt = rep.get("all_threads", {}).get(key, {}).get("regions", {}).get("mixed")
    check(allt is not None, "node alone: no all-thread totals: %s" % rep.get("all_threads"))
    if allt:
        check_values("node alone: all-thread mixed", allt, sent, faults=False)
    tot = rep.get("series", {}).get("totals", {})
    check(tot.get("net:::lo:rx:bytes", 0) >= 3 * sent, "node alone: series totals %s" % tot)
    return verdict("check_hl_mixed")


if __name__ == "__main__":
    sys.exit(main())
