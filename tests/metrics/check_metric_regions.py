#!/usr/bin/env python3
"""check_metric_regions.py WORKLOAD: PAPI_METRICS in the region API.

With PAPI_METRICS=CPU_UTILIZATION the region report carries, per thread, each instance's
and each region's CPU_UTILIZATION: near 1 for the thread that spins, near 0 for the one
that sleeps; PAPI 7's part of the file (threads: integer counts) is unchanged. The main
thread's region around both threads has, besides its own value near 0, an all-thread
value: the team's CPU time over the region's wall time. With an
unknown metric the program still runs and the report's skipped_events names it; beside a
known one, the known one is still computed."""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

WORKLOAD = sys.argv[1]
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)


TMP = tempfile.TemporaryDirectory()


def run(metrics):
    d = tempfile.mkdtemp(dir=TMP.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_METRICS=metrics, PAPI_OUTPUT_DIRECTORY=d)
    p = subprocess.run([WORKLOAD], env=env, capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"PAPI_METRICS={metrics}: exit 0 ({p.stderr.strip()})")
    files = glob.glob(os.path.join(d, "papi_hl_output", "*.json"))
    check(len(files) == 1, f"one region report ({files})")
    with open(files[0]) as f:
        return json.load(f), p.stderr, p.stdout


doc, _, out = run("CPU_UTILIZATION")
got = [float(l.split()[-1]) for l in out.splitlines() if l.startswith("spin ")]
m = doc.get("metrics", {})
check(m.get("definitions", {}).get("CPU_UTILIZATION", {}).get("unit") == "CPUs",
      "the report defines CPU_UTILIZATION in CPUs")
seen = {}
for tid, t in m.get("threads", {}).items():
    for inst in t["instances"].values():
        seen.setdefault(inst["name"], []).append(inst["CPU_UTILIZATION"])
    for name, r in t["regions"].items():
        seen.setdefault(name + " (region)", []).append(r["CPU_UTILIZATION"])
print("     CPU_UTILIZATION:", {k: [round(x, 3) for x in v] for k, v in seen.items()})
print("     the spinner's CPU time over wall time:", got)
check(len(seen.get("spin", [])) == 2 and len(got) == 2 and
      all(v < 1.05 and abs(v - g) < 0.03 + 0.05 * g for v, g in zip(seen["spin"], got)),
      "each spinning instance: its CPU time over its wall time (near 1 CPU when not loaded)")
check(len(seen.get("sleep", [])) == 2 and all(0 <= v < 0.1 for v in seen["sleep"]),
      "each sleeping instance near 0 CPUs")
check(seen.get("spin (region)") and len(got) == 2 and
      abs(seen["spin (region)"][0] - sum(got) / 2) < 0.03 + 0.05 * sum(got) / 2 and
      seen.get("sleep (region)") and seen["sleep (region)"][0] < 0.1,
      "per region: from the summed task-clock over the summed time")
spinner = [float(l.split()[-1]) for l in out.splitlines() if l.startswith("spinner cpu ")]
wall = [float(l.split()[-1]) for l in out.splitlines() if l.startswith("team wall ")]
main_tid = next((k for k, t in doc["threads"].items() if t.get("tid") == doc.get("pid")), None)
mt = m.get("threads", {}).get(main_tid, {})
own = mt.get("regions", {}).get("team", {}).get("CPU_UTILIZATION")
team = mt.get("all_threads", {}).get("regions", {}).get("team", {}).get("CPU_UTILIZATION")
want = spinner[0] / wall[0] if spinner and wall else None
print("     team region: own", own, "all threads", team, "spinner CPU over wall", want)
check(own is not None and own < 0.1, "the waiting main thread's own value near 0")
check(team is not None and want is not None and want - 0.03 <= team < want + 0.1 + 0.05 * want,
      "the team region's all-thread value: the spinner's CPU time over the region's wall time")
check(all("all_threads" not in t or not t["all_threads"]["regions"]
          for tid, t in m.get("threads", {}).items() if tid != main_tid),
      "workers' regions take no all-thread snapshot by default (PAPI_HL_ALL_THREADS)")
ints = all(isinstance(v, int) for t in doc["threads"].values() for r in t["regions"].values()
           for k, v in r.items() if k not in ("name",))
check(ints, "PAPI 7's threads section holds integer counts only")
check("perf::TASK-CLOCK" in doc["event_definitions"], "the metric's event is counted")

doc, err, _ = run("NOPE")
sk = [s for s in doc.get("skipped_events", []) if "NOPE" in s["name"] + s["reason"]]
check(sk and "'NOPE'" in sk[0]["reason"], f"unknown metric in skipped_events: {sk}")
check("PAPI_METRICS" in err, "a notice says PAPI_METRICS was not used")
check("metrics" not in doc, "no metrics section without a metric")

# Each entry on its own: an unknown one beside a known one is skipped, the other computed.
doc, err, _ = run("NOPE,CPU_UTILIZATION")
sk = [s for s in doc.get("skipped_events", []) if s["name"] == "NOPE"]
check(sk and "'NOPE'" in sk[0]["reason"], f"NOPE skipped with its reason: {sk}")
check(doc.get("metrics", {}).get("definitions", {}).keys() == {"CPU_UTILIZATION"},
      "CPU_UTILIZATION still computed beside an unknown entry")

if failures:
    print(f"check_metric_regions: {len(failures)} failure(s)")
    sys.exit(1)
print("check_metric_regions: passed")
