#!/usr/bin/env python3
"""check_gpu_metric_region.py PROG LIBDIR: the named GPU metrics in a region. Runs `PROG
region` (test_nvml_gpm, linked with the NVML double whose device 0 has GPM, first on
LD_LIBRARY_PATH) with PAPI_METRICS=GPU_SM_ACTIVE,GPU_PCIE_RX_BW: its region gpu_first
(150 ms at a staged 62.5 % SM activity and 100 MiB/s PCIe rx) must hold GPU_SM_ACTIVE
62.5 % and GPU_PCIE_RX_BW 104857600 B/s, then gpu_work (300 ms at 25 %, 50 MiB/s) its
own, each within 1 % (gpu_first 5 %: its first step began at the sets' start, a little
before the region's first read, 0.6 % seen): the counter forms' 100 ms steps end at
the regions' reads, so no region's activity is lost or moved to the next (the double's
clock is real time there; the counter forms are the average times the library's interval, the metric
divides by the region's time: the two differ by the reads' own time, 0.006 % seen), with
their units."""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)

prog, libdir = sys.argv[1:3]
with tempfile.TemporaryDirectory(prefix="gpu_metric_") as out:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_METRICS="GPU_SM_ACTIVE,GPU_PCIE_RX_BW", PAPI_OUTPUT_DIRECTORY=out,
               LD_LIBRARY_PATH=libdir)
    p = subprocess.run([prog, "region"], env=env, capture_output=True, text=True, timeout=60)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "%s region exits 0" % prog)
    files = glob.glob(os.path.join(out, "papi_hl_output", "*.json"))
    check(len(files) == 1, "one region report (%s)" % files)
    doc = json.load(open(files[0])) if files else {}
m = doc.get("metrics", {})
defs = m.get("definitions", {})
check(defs.get("GPU_SM_ACTIVE", {}).get("unit") == "%" and
      defs.get("GPU_PCIE_RX_BW", {}).get("unit") == "B/s", "units %% and B/s (%s)" % defs)
for region, sm, rx, tol in (("gpu_first", 62.5, 100, 0.05), ("gpu_work", 25.0, 50, 0.01)):
    got = [r for t in m.get("threads", {}).values() for n, r in t.get("regions", {}).items()
           if n == region]
    print("%s:" % region, got)
    for name, want in (("GPU_SM_ACTIVE", sm), ("GPU_PCIE_RX_BW", rx * 1048576.0)):
        v = got[0].get(name) if len(got) == 1 else None
        check(isinstance(v, (int, float)) and abs(v - want) <= tol * want,
              "%s of %s %s, want %s within %g %%" % (name, region, v, want, 100 * tol))
if failures:
    print("check_gpu_metric_region: %d failure(s)" % len(failures))
    sys.exit(1)
print("check_gpu_metric_region: passed")
