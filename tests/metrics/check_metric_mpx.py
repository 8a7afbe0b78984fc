#!/usr/bin/env python3
"""check_metric_mpx.py WORKLOAD: the running fraction of PAPI_METRICS in region files.

Without multiplexing every metric's running_fraction is 1 and metrics.multiplexed is
null. With PAPI_MULTIPLEX=1 the region sets are multiplexed (their reads keep the kernel's
enabled/running times): metrics.multiplexed says so, each fraction is in (0, 1] (this
machine's software events are never descheduled: exactly 1) and the metric still follows
the spinner's own CPU time, as without multiplexing. An instance read with PAPI_hl_read
has each read's metrics with their own running fraction (reads.read_1), multiplexed or
not."""
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


def run(*args, **extra):
    d = tempfile.mkdtemp(dir=TMP.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_METRICS="CPU_UTILIZATION", PAPI_OUTPUT_DIRECTORY=d, **extra)
    p = subprocess.run([WORKLOAD, *args], env=env, capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"{extra}: exit 0 ({p.stderr.strip()})")
    files = glob.glob(os.path.join(d, "papi_hl_output", "*.json"))
    check(len(files) == 1, f"one region report ({files})")
    with open(files[0]) as f:
        doc = json.load(f)
    got = [float(l.split()[-1]) for l in p.stdout.splitlines() if l.startswith("spin ")]
    return doc["metrics"], got


def fractions(m):
    """(name, value, running fraction) of every instance and region of every thread (spin and sleep twice, team once)."""
    out = []
    for t in m["threads"].values():
        for e in list(t["instances"].values()) + list(t["regions"].values()):
            out.append((e.get("name", "region"), e["CPU_UTILIZATION"],
                        e["running_fraction"]["CPU_UTILIZATION"]))
    return out


m, _ = run()
fr = fractions(m)
check(len(fr) == 8 and all(f == 1 for _, _, f in fr), f"not multiplexed: every fraction 1 ({fr})")
check(m.get("multiplexed") is None, f"not multiplexed: metrics.multiplexed null ({m.get('multiplexed')})")

m, got = run(PAPI_MULTIPLEX="1")
fr = fractions(m)
print("     (name, CPU_UTILIZATION, running fraction):", fr)
check(len(fr) == 8 and all(0 < f <= 1 for _, _, f in fr), "multiplexed: every fraction in (0, 1]")
check(isinstance(m.get("multiplexed"), str) and "multiplexed" in m["multiplexed"],
      f"multiplexed: metrics.multiplexed says so ({m.get('multiplexed')})")
spins = [v for n, v, _ in fr if n == "spin"]
check(len(spins) == 2 and len(got) == 2 and
      all(abs(v - g) < 0.03 + 0.05 * g for v, g in zip(spins, got)),
      f"multiplexed: each spinning instance is its CPU time over wall time ({spins} vs {got})")

def reads(m):
    """(read name, value, running fraction) of every read of every instance."""
    out = []
    for t in m["threads"].values():
        for e in t["instances"].values():
            for k, r in e.get("reads", {}).items():
                out.append((e["name"] + "." + k, r["CPU_UTILIZATION"],
                            r["running_fraction"]["CPU_UTILIZATION"]))
    return out


for extra in ({}, {"PAPI_MULTIPLEX": "1"}):
    m, _ = run("read", **extra)
    rd = reads(m)
    print(f"     {extra} reads (name, CPU_UTILIZATION, running fraction):", rd)
    check(sorted(n for n, _, _ in rd) == ["sleep.read_1", "sleep.read_1"],
          f"{extra}: each sleeping instance has its read's record")
    check(all(isinstance(v, float) and 0 <= v < 0.1 for _, v, _ in rd),
          f"{extra}: each read's CPU_UTILIZATION near 0 (sleeping)")
    check(all(f == 1 for _, _, f in rd),
          f"{extra}: each read's running fraction 1 (software events are never descheduled)")
    check(reads(run(**extra)[0]) == [], f"{extra}: no reads without PAPI_hl_read")

if failures:
    print(f"check_metric_mpx: {len(failures)} failure(s)")
    sys.exit(1)
print("check_metric_mpx: passed")
