#!/usr/bin/env python3
"""check_hl_lost_device.py PROG LIBDIR: a GPU that falls off the bus inside a region does
not break the regions of that thread. Runs PROG (hl_lost_device_workload, linked with the
nvml double in LIBDIR) with PAPI_EVENTS = perf::PAGE-FAULTS and device 0's energy and power,
and checks its region report (against region.schema.json): every region call succeeded;
the page faults of the region where the GPU was lost (20) and of each later one (30, three
times) are exact; the energy before the loss is exact (1234 mJ) and the lost events count 0
afterwards; lost_events names the nvml events, the thread, the region ("vanish") and the
component's reason (GPU is lost); stderr says it once."""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.load import schema_check  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check_said as check, verdict  # noqa: E402

report_check.guard()

DEV0 = "nvml:::Tesla_V100-SXM2-16GB:device_0:"
ENERGY, POWER = DEV0 + "total_energy_consumption", DEV0 + "power"


def main():
    prog, libdir = sys.argv[1:3]
    with tempfile.TemporaryDirectory(prefix="hl_lost_") as out:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
        env.update(PAPI_EVENTS="perf::PAGE-FAULTS,%s,%s=instant" % (ENERGY, POWER),
                   PAPI_OUTPUT_DIRECTORY=out, LD_LIBRARY_PATH=libdir)
        p = subprocess.run([prog], env=env, capture_output=True, text=True, timeout=60)
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        if p.returncode == 77:
            return 77
        check(p.returncode == 0, "the workload's region calls all succeeded (exit %d)" % p.returncode)
        files = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
        if len(files) != 1:
            print("FAIL: %d region reports, want 1" % len(files))
            return 1
        bad = schema_check.check_file(files[0])
        check(not bad, "the report follows region.schema.json %s" % (bad or ""))
        with open(files[0]) as f:
            d = json.load(f)
    skipped = d.get("skipped_events")
    if skipped:  # perf::PAGE-FAULTS does not open here (perf_event_paranoid, seccomp)
        print("SKIPPED: events not counted here: %s" % skipped)
        return 77
    said = [l for l in p.stderr.splitlines() if "could not be read" in l]
    check(len(said) == 1, "the loss said once on stderr (%d lines)" % len(said))
    (thread,) = d["threads"].values()
    inst = {}
    for r in thread["regions"].values():
        inst.setdefault(r["name"], []).append(r)
    check(inst.get("before", [{}])[0].get(ENERGY) == 1234,
          "before: energy %s, want 1234" % inst.get("before", [{}])[0].get(ENERGY))
    check(inst.get("before", [{}])[0].get("perf::PAGE-FAULTS") == 10,
          "before: page faults %s, want 10" % inst.get("before", [{}])[0].get("perf::PAGE-FAULTS"))
    v = inst.get("vanish", [{}])[0]
    check(v.get("perf::PAGE-FAULTS") == 20, "vanish: page faults %s, want 20" % v.get("perf::PAGE-FAULTS"))
    check(v.get(ENERGY) == 0, "vanish: the lost energy counts %s, want 0 (its last value kept)" % v.get(ENERGY))
    after = inst.get("after", [])
    check(len(after) == 3, "after: %d instances, want 3" % len(after))
    for i, a in enumerate(after):
        check(a.get("perf::PAGE-FAULTS") == 30 and a.get(ENERGY) == 0,
              "after #%d: page faults %s (want 30), energy %s (want 0)"
              % (i + 1, a.get("perf::PAGE-FAULTS"), a.get(ENERGY)))
    totals = d["region_totals"]["0"]
    check(totals.get("after", {}).get("region_count") == 3,
          "region_totals: after counted %s times, want 3" % totals.get("after", {}).get("region_count"))
    lost = d.get("lost_events", [])
    check(len(lost) == 1, "lost_events: %d entries, want 1" % len(lost))
    if lost:
        l = lost[0]
        check(l.get("component") == "nvml" and sorted(l.get("events", [])) == sorted([ENERGY, POWER]),
              "lost_events: component %s, events %s" % (l.get("component"), l.get("events")))
        check(l.get("region") == "vanish" and l.get("thread") == 0,
              "lost_events: region %s, thread %s" % (l.get("region"), l.get("thread")))
        check("GPU is lost" in l.get("reason", "") and "device 0" in l.get("reason", ""),
              "lost_events: reason '%s'" % l.get("reason"))
    return verdict("check_hl_lost_device")


if __name__ == "__main__":
    sys.exit(main())
