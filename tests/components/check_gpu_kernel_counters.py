#!/usr/bin/env python3
"""papi_run --gpu-counters on the doubles: gpu_kernels_prog launches kernA 3 times and kernB
twice; cuda_profiler.txt's kvalue lines stage each launch's values. Checks each kernel's
row (launches and sums, exact) with device 0's context active from the start, made by the
program after papi_run's start (the session begins in CUPTI's context-created callback) and
destroyed before the program's end (collected then); on device 1 only (an MPI rank's
device) and on both devices, rows per device exact; a metric device 1's chip lacks: device
0's rows and one line naming device 1; no context at all: one line; with --trace json, a
counter track per metric on the kernels' GPU track, each launch's value at its kernel's
start (the activity double's records of the launches) and 0 at its end. The banner's line on the serialisation, and the one-line
refusals of an unknown metric and of no device (the component's reason). Every file
written follows its schema (gpu_activity.schema.json's kernel_counters: report_check).
papi_report on the run's folder: gpu_kernel_counters.csv exact; --compare of that run and
one whose staged values are doubled: each kernel's metric B/A 2, its launches the same. 4100 launches of one kernel: 4096
counted, 4 dropped (CUPTI's numOfRangeDropped), said in one line."""
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report the runs write checked against its schema)

report_check.guard()
HERE = os.path.dirname(os.path.abspath(__file__))
PAPI_REPORT = os.path.join(HERE, "..", "..", "python", "papi_report.py")
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from papi_report.page import compare  # noqa: E402

PAPI_RUN, PROG = sys.argv[1], sys.argv[2]
METRICS = "sm__cycles_active.sum,dram__bytes.sum"


def run(metrics, extra_env=None, args=(), drop=(), opts=()):
    out = tempfile.mkdtemp(prefix="gpuk")
    env = dict(os.environ, **(extra_env or {}))
    for name in drop:
        env.pop(name, None)
    p = subprocess.run([PAPI_RUN, "-e", "perf::TASK-CLOCK", "-o", out, "--gpu-counters", metrics]
                       + list(opts) + ["--", PROG] + list(args), env=env, capture_output=True,
                       text=True, timeout=50)
    files = glob.glob(os.path.join(out, "papi_run_output", "gpu_activity_*.json"))
    run.out = out
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
ROWS0 = [{"device": 0, "kernel": "kernA", "launches": 3,
          "sums": {"sm__cycles_active.sum": 600.25, "dram__bytes.sum": 7168.0}},
         {"device": 0, "kernel": "kernB", "launches": 2,
          "sums": {"sm__cycles_active.sum": 18.0, "dram__bytes.sum": 192.0}}]
ROWS1 = [{"device": 1, "kernel": "kernA", "launches": 3,
          "sums": {"sm__cycles_active.sum": 60.0, "dram__bytes.sum": 6.0}},
         {"device": 1, "kernel": "kernB", "launches": 2,
          "sums": {"sm__cycles_active.sum": 11.0, "dram__bytes.sum": 15.0}}]


def counters(devices, rows):
    return {"devices": devices, "metrics": ["sm__cycles_active.sum", "dram__bytes.sum"],
            "kernels": rows, "dropped_launches": 0}


want = counters([0], ROWS0)
if kc != want:
    fail(f"kernel_counters {json.dumps(kc)} != {json.dumps(want)}", p)
banner = [l for l in p.stderr.splitlines() if "GPU counters per kernel" in l]
if len(banner) != 1 or "one range per launch" not in banner[0] or "serialised" not in banner[0]:
    fail("banner line missing or wrong", p)
out_a = run.out
print("rows exact: kernA 3 launches 600.25/7168, kernB 2 launches 18/192; banner:", banner[0])

# As a program runs: no context on device 0 at papi_run's start (its preloaded constructor);
# the session begins when the program makes it (CUPTI's context-created callback), and
# with "reset" is collected when the program destroys it before its end.
for args, how in (((), "context made after the start"),
                  (("reset",), "context destroyed before the end")):
    p, files = run(METRICS, args=args, drop=("PAPI_TEST_CUDA_ACTIVE",))
    kc = json.load(open(files[0])).get("kernel_counters") if len(files) == 1 else None
    if p.returncode != 0 or kc != want or "not counted" in p.stderr or "lost" in p.stderr:
        fail("%s: rc %d, kernel_counters %s" % (how, p.returncode, json.dumps(kc)), p)
    print("%s: rows exact" % how)

# An MPI rank's device (cudaSetDevice(1)): counted on device 1 (GA100's staged values);
# a program on both devices: both, each its own rows.
for args, devices, rows in ((("device1",), [1], ROWS1), (("both",), [0, 1], ROWS0 + ROWS1)):
    p, files = run(METRICS, args=args, drop=("PAPI_TEST_CUDA_ACTIVE",))
    kc = json.load(open(files[0])).get("kernel_counters") if len(files) == 1 else None
    if p.returncode != 0 or kc != counters(devices, rows) or "lost" in p.stderr:
        fail("%s: rc %d, kernel_counters %s" % (args[0], p.returncode, json.dumps(kc)), p)
    print("%s: devices %s, rows exact" % (args[0], devices))

# A metric device 1's chip lacks (GA100: no launch__grid_size): device 0 counted, device 1
# named in one line.
p, files = run("sm__cycles_active.sum,launch__grid_size", args=("both",),
               drop=("PAPI_TEST_CUDA_ACTIVE",))
kc = json.load(open(files[0])).get("kernel_counters") if len(files) == 1 else None
lines = [l for l in p.stderr.splitlines() if l.startswith("papi_run --gpu-counters:")]
if not kc or kc["devices"] != [0] or [(k["device"], k["kernel"], k["launches"]) for k in
                                      kc["kernels"]] != [(0, "kernA", 3), (0, "kernB", 2)] or \
        len(lines) != 1 or "device 1 (GA100)" not in lines[0] or \
        "launch__grid_size" not in lines[0]:
    fail("a metric device 1 lacks: %s" % json.dumps(kc), p)
print("a metric device 1 lacks:", lines[0])

# --trace json: each launch's counters on its kernel's slice (the activity double's records
# of the five launches, in launch order): a counter track per metric on GPU 0 stream 7, the
# launch's value at its kernel's start and 0 at its end.
p, files = run(METRICS, {"PAPI_TEST_CUPTI_RECORDS": os.path.join(HERE, "gpu_kernels_records.txt")},
               opts=("--trace", "json"), drop=("PAPI_TEST_CUDA_ACTIVE",))
traces = glob.glob(os.path.join(run.out, "papi_run_trace", "*.json"))
if p.returncode != 0 or len(traces) != 1:
    fail("--trace: rc %d, traces %s" % (p.returncode, traces), p)
events = json.load(open(traces[0]))["traceEvents"]
slices = sorted((e["ts"], e["name"]) for e in events
                if e.get("ph") == "B" and e.get("name") in ("kernA", "kernB"))
gpu_tids = {e["tid"] for e in events if e.get("ph") == "B" and e.get("name") in ("kernA", "kernB")}
want_values = {"sm__cycles_active.sum": [100, 7, 200, 11, 300.25],
               "dram__bytes.sum": [1024, 64, 2048, 128, 4096]}
for metric, values in want_values.items():
    track = [e for e in events if e.get("ph") == "C" and
             e["name"].startswith(metric + " (per kernel)")]
    points = sorted((e["ts"], e["args"]["value"]) for e in track)
    starts = [t for t, _ in slices]
    got = [v for t, v in points if t in starts]
    zeros = [v for t, v in points if t not in starts]
    if len(slices) != 5 or got != values or zeros != [0] * 5 or \
            len(gpu_tids) != 1 or {e["tid"] for e in track} != gpu_tids:
        fail("--trace counter track %s: slices %s, points %s" % (metric, slices, points), p)
print("--trace: counter tracks per kernel exact (sm__cycles_active.sum 100, 7, 200, 11, 300.25 "
      "at the five kernels' starts, 0 at their ends)")

# --trace otf2: the same points as metrics (DOUBLE) of the GPU stream's location.
if shutil.which("otf2-print"):
    p, files = run(METRICS, {"PAPI_TEST_CUPTI_RECORDS":
                             os.path.join(HERE, "gpu_kernels_records.txt")},
                   opts=("--trace", "otf2"), drop=("PAPI_TEST_CUDA_ACTIVE",))
    archives = glob.glob(os.path.join(run.out, "papi_run_trace", "*", "traces.otf2"))
    q = subprocess.run(["otf2-print", archives[0]] if len(archives) == 1 else ["false"],
                       capture_output=True, text=True, timeout=60)
    got = [float(line.rsplit(";", 1)[1].strip(" )")) for line in q.stdout.splitlines()
           if line.startswith("METRIC") and "sm__cycles_active.sum (per kernel)" in line]
    if p.returncode != 0 or q.returncode != 0 or "warn" in q.stderr.lower() or \
            got != [100, 0, 7, 0, 200, 0, 11, 0, 300.25, 0]:
        fail("--trace otf2: rc %d/%d, sm__cycles_active.sum points %s %s"
             % (p.returncode, q.returncode, got, q.stderr[-300:]), p)
    print("--trace otf2: the same points, DOUBLE metrics of the GPU location")
elif os.environ.get("CI") == "true":
    fail("otf2-print is not installed (otf2-tools; scripts/install-deps.sh installs it)")
else:
    print("--trace otf2: SKIPPED: otf2-print is not installed (otf2-tools)")

# No context at all: one line says so, no rows.
p, files = run(METRICS, args=("none",), drop=("PAPI_TEST_CUDA_ACTIVE",))
lines = [l for l in p.stderr.splitlines() if l.startswith("papi_run --gpu-counters:")]
if len(lines) != 1 or "no CUDA context on any device" not in lines[0] or \
        (files and "kernel_counters" in json.load(open(files[0]))):
    fail("no context: want one line saying so", p)
print("no context:", lines[0])

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
# under a launcher, the reason once per job: launcher rank 0 says it, rank 1 does not
for rank, said in (("0", 1), ("1", 0)):
    p, files = run(METRICS, {"PAPI_TEST_CUDA_MODE": "nodevice", "PMI_RANK": rank})
    n = sum(l.startswith("papi_run --gpu-counters:") for l in p.stderr.splitlines())
    if n != said:
        fail("launcher rank %s: the reason said %d times, want %d" % (rank, n, said), p)
print("no device under a launcher: said by rank 0 only")
# no metric at all: papi_run's own usage error
p = subprocess.run([PAPI_RUN, "--gpu-counters", ",", "--", PROG], capture_output=True,
                   text=True, timeout=50)
if p.returncode == 0 or "no metric named" not in p.stderr:
    fail("empty --gpu-counters not refused", p)

# 4100 launches: the first 4096 counted (the ranges CUPTI's counter data holds), 4 dropped
p, files = run(METRICS, args=["4100"])
kc = json.load(open(files[0]))["kernel_counters"] if len(files) == 1 else {}
if kc.get("dropped_launches") != 4 or [(k["kernel"], k["launches"], k["sums"]) for k in
                                       kc.get("kernels", [])] != [
        ("kernA", 4096, {"sm__cycles_active.sum": 600.25, "dram__bytes.sum": 7168.0})] or \
        "papi_run --gpu-counters: 4 launches not counted" not in p.stderr:
    fail("4100 launches: %s" % json.dumps(kc), p)
print("4100 launches: 4096 counted, 4 dropped and said")

# papi_report's table, as a user runs it on papi_run's folder
rep = os.path.join(out_a, "rep")
p = subprocess.run([sys.executable, PAPI_REPORT, "-o", rep, out_a], capture_output=True,
                   text=True, timeout=120)
path = os.path.join(rep, "gpu_kernel_counters.csv")
if p.returncode != 0 or not os.path.exists(path):
    fail("papi_report: exit %d, no gpu_kernel_counters.csv" % p.returncode, p)
pid = str(doc["pid"])
rows = [(r["pid"], r["device"], r["kernel"], r["metric"], int(r["launches"]), float(r["sum"]),
         float(r["per_launch"])) for r in csv.DictReader(open(path))]
want_rows = [(pid, "0", "kernA", "sm__cycles_active.sum", 3, 600.25, 600.25 / 3),
             (pid, "0", "kernA", "dram__bytes.sum", 3, 7168.0, 7168.0 / 3),
             (pid, "0", "kernB", "sm__cycles_active.sum", 2, 18.0, 9.0),
             (pid, "0", "kernB", "dram__bytes.sum", 2, 192.0, 96.0)]
if rows != want_rows:
    fail("gpu_kernel_counters.csv %s != %s" % (rows, want_rows))
print("papi_report gpu_kernel_counters.csv exact:", len(rows), "rows")

# --compare by kernel and metric: the staged values doubled in run B
staged = tempfile.mkdtemp(prefix="gpuk_staged")
doubled = os.path.join(staged, "cuda_profiler.txt")
with open(os.environ["PAPI_TEST_CUPTI_PROFILER"]) as src, open(doubled, "w") as dst:
    for line in src:
        w = line.split()
        if w and w[0] == "kvalue":
            line = " ".join(w[:4] + ["%r" % (2 * float(v)) for v in w[4:]]) + "\n"
        dst.write(line)
p, files = run(METRICS, {"PAPI_TEST_CUPTI_PROFILER": doubled})
if p.returncode != 0 or len(files) != 1:
    fail("run B: rc %d, files %s" % (p.returncode, files), p)
df = compare.compare(out_a, run.out)
got = {(r["entity"], r["quantity"]): round(r["ratio"], 6)
       for r in df[df["scope"] == "kernel"].to_dict("records")}
want_cmp = {(k, q): 2.0 for k in ("kernA", "kernB") for q in METRICS.split(",")}
want_cmp.update({(k, "launches"): 1.0 for k in ("kernA", "kernB")})
if got != want_cmp:
    fail("--compare by kernel %s != %s" % (got, want_cmp))
print("--compare by kernel and metric: B/A 2 for each metric, launches 1")
print("PASS")
