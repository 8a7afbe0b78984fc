#!/usr/bin/env python3
"""papi_run --gpu-counters on the doubles: gpu_kernels_prog launches kernA 3 times and kernB
twice; cuda_profiler.txt's kvalue lines stage each launch's values. Checks each kernel's
row (launches and sums, exact), the banner's line on the serialisation, and the one-line
refusals of an unknown metric and of no device (the component's reason). Every file
written follows its schema (gpu_activity.schema.json's kernel_counters: report_check)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report the runs write checked against its schema)

report_check.guard()

PAPI_RUN, PROG = sys.argv[1], sys.argv[2]
METRICS = "sm__cycles_active.sum,dram__bytes.sum"


def run(metrics, extra_env=None):
    out = tempfile.mkdtemp(prefix="gpuk")
    env = dict(os.environ, **(extra_env or {}))
    p = subprocess.run([PAPI_RUN, "-e", "perf::TASK-CLOCK", "-o", out, "--gpu-counters", metrics,
                        "--", PROG], env=env, capture_output=True, text=True, timeout=50)
    files = glob.glob(os.path.join(out, "papi_run_output", "gpu_activity_*.json"))
    return p, files


def fail(msg, p=None):
    print("FAIL:", msg)
    if p is not None:
        print(p.stderr)
    sys.exit(1)


p, files = run(METRICS)
if p.returncode != 0 or len(files) != 1:
    fail(f"rc {p.returncode}, files {files}", p)
doc = json.load(open(files[0]))
kc = doc.get("kernel_counters")
if not kc:
    fail("no kernel_counters in " + files[0], p)
want = {"device": 0, "metrics": ["sm__cycles_active.sum", "dram__bytes.sum"],
        "kernels": [
            {"kernel": "kernA", "launches": 3,
             "sums": {"sm__cycles_active.sum": 600.25, "dram__bytes.sum": 7168.0}},
            {"kernel": "kernB", "launches": 2,
             "sums": {"sm__cycles_active.sum": 18.0, "dram__bytes.sum": 192.0}}],
        "dropped_launches": 0}
if kc != want:
    fail(f"kernel_counters {json.dumps(kc)} != {json.dumps(want)}", p)
banner = [l for l in p.stderr.splitlines() if "GPU counters per kernel" in l]
if len(banner) != 1 or "one range per launch" not in banner[0] or "serialised" not in banner[0]:
    fail("banner line missing or wrong", p)
print("rows exact: kernA 3 launches 600.25/7168, kernB 2 launches 18/192; banner:", banner[0])

# an unknown metric: refused in one line naming it, no rows
p, files = run("sm__cycles_active.sum,dram__byts.sum")
lines = [l for l in p.stderr.splitlines() if l.startswith("papi_run --gpu-counters:")]
if len(lines) != 1 or "dram__byts.sum" not in lines[0] or "not a metric" not in lines[0] or \
        "CUPTI_ERROR_INVALID_METRIC_NAME" not in lines[0]:
    fail("unknown metric not refused in one line", p)
if files and "kernel_counters" in json.load(open(files[0])):
    fail("rows written for a refused metric", p)
print("unknown metric:", lines[0])

# no device: the component's reason
p, files = run(METRICS, {"PAPI_TEST_CUDA_MODE": "nodevice"})
lines = [l for l in p.stderr.splitlines() if l.startswith("papi_run --gpu-counters:")]
if len(lines) != 1 or "component cuda is disabled" not in lines[0]:
    fail("no device not said in one line", p)
print("no device:", lines[0])
# no metric at all: papi_run's own usage error
p = subprocess.run([PAPI_RUN, "--gpu-counters", ",", "--", PROG], capture_output=True,
                   text=True, timeout=50)
if p.returncode == 0 or "no metric named" not in p.stderr:
    fail("empty --gpu-counters not refused", p)
print("PASS")
