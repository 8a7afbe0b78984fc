#!/usr/bin/env python3
"""check_cuda_metric_region.py PROG LIBDIR STAGED: the named GPU metrics from the cuda
counters per region. Runs `PROG region` (test_cuda, on the CUPTI and CUDA driver doubles
in LIBDIR, the ranges' counts staged in STAGED: cuda_metrics.txt) with
PAPI_EVENTS=cuda:::sm__cycles_active.sum:device=0, the event GPU_IPC's formula names
without :device= (one event by two names: counted once, the metric computed from it), and
PAPI_METRICS=GPU_IPC,GPU_DRAM_BYTES,GPU_ACHIEVED_OCCUPANCY. gpu_first is device 0's
range 2 (150 instructions over 100 cycles: 1.5; 4096 B; 1600 warps over 6400: 25 %),
gpu_work its range 4 (10000 over 4000: 2.5; 65536 B; 3000 over 4000: 75 %), exactly;
nothing skipped, with the metrics' units. The report follows its schema."""
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

prog, libdir, staged = sys.argv[1:4]
with tempfile.TemporaryDirectory(prefix="cuda_metric_") as out:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_EVENTS="cuda:::sm__cycles_active.sum:device=0",
               PAPI_METRICS="GPU_IPC,GPU_DRAM_BYTES,GPU_ACHIEVED_OCCUPANCY",
               PAPI_OUTPUT_DIRECTORY=out, LD_LIBRARY_PATH=libdir,
               PAPI_TEST_CUPTI_PROFILER=staged)
    p = subprocess.run([prog, "region"], env=env, capture_output=True, text=True, timeout=60)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    check(p.returncode == 0, "%s region exits 0" % prog)
    files = glob.glob(os.path.join(out, "papi_hl_output", "*.json"))
    check(len(files) == 1, "one region report (%s)" % files)
    doc = json.load(open(files[0])) if files else {}
check(doc.get("skipped_events") == [], "nothing skipped (%s)" % doc.get("skipped_events"))
m = doc.get("metrics", {})
defs = m.get("definitions", {})
units = {"GPU_IPC": "instructions/cycle", "GPU_DRAM_BYTES": "B", "GPU_ACHIEVED_OCCUPANCY": "%"}
check(all(defs.get(k, {}).get("unit") == u for k, u in units.items()), "units (%s)" % defs)
want = {"gpu_first": {"GPU_IPC": 150 / 100, "GPU_DRAM_BYTES": 4096,
                      "GPU_ACHIEVED_OCCUPANCY": 100 * 1600 / 6400},
        "gpu_work": {"GPU_IPC": 10000 / 4000, "GPU_DRAM_BYTES": 65536,
                     "GPU_ACHIEVED_OCCUPANCY": 100 * 3000 / 4000}}
for region, values in want.items():
    got = [r for t in m.get("threads", {}).values() for n, r in t.get("regions", {}).items()
           if n == region]
    print("%s:" % region, got)
    for name, v in values.items():
        g = got[0].get(name) if len(got) == 1 else None
        check(g == v, "%s of %s %s, want %s" % (name, region, g, v))
if failures:
    print("check_cuda_metric_region: %d failure(s)" % len(failures))
    sys.exit(1)
print("check_cuda_metric_region: passed")
