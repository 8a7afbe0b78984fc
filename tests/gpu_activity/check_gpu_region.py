#!/usr/bin/env python3
"""A region's GPU work through the region API and the GPU activity layer on the CUPTI
double: run gpu_region (gpu_region.c says what it launches where) and check its report.
    check_gpu_region.py PROG DOUBLE_DIR RECORDS_DIR on|shutdown CUDART
        the layer started by itself (PAPI_GPU_ACTIVITY unset, the program loaded CUDA):
        "compute" (2 instances), "outer" (1) exact, the losses said; with shutdown the
        program calls PAPI_shutdown last: CUPTI unsubscribed, the same sums, the status
        "stopped by PAPI_shutdown"
    check_gpu_region.py PROG DOUBLE_DIR RECORDS_DIR off CUDART|- SWITCH|- REASON|-
        the layer off (PAPI_GPU_ACTIVITY=SWITCH, or unset with -): gpu_activity says
        REASON (-: no gpu_activity at all), no gpu_regions
Every report is checked against region.schema.json (report_check)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import checks  # noqa: E402
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402

report_check.guard()

# a.txt once: per device busy time, kernels, copies, synchronisation (a.txt's comments).
A = {"devices": {0: 2200, 1: 300}, "kernels": {("square(float*, int)", 0, 7): (3, 2700),
                                                ("plain_kernel", 1, 2): (1, 300)},
     "copies": {"HtoD": (1, 4096, 500), "DtoH": (1, 1000, 100)}, "sync": (1, 700), "dropped": 0}
B = {"devices": {0: 5000}, "kernels": {("other_kernel", 0, 3): (1, 5000)},
     "copies": {"HtoD": (1, 100, 10)}, "sync": (0, 0), "dropped": 5}


def add(x, y):
    out = {"devices": dict(x["devices"]), "kernels": dict(x["kernels"]),
           "copies": dict(x["copies"]),
           "sync": tuple(a + b for a, b in zip(x["sync"], y["sync"])),
           "dropped": x["dropped"] + y["dropped"]}
    for d, ns in y["devices"].items():
        out["devices"][d] = out["devices"].get(d, 0) + ns
    for k, v in y["kernels"].items():
        out["kernels"][k] = tuple(a + b for a, b in zip(out["kernels"].get(k, (0, 0)), v))
    for k, v in y["copies"].items():
        out["copies"][k] = tuple(a + b for a, b in zip(out["copies"].get(k, (0, 0, 0)), v))
    return out


def check_section(name, got, want):
    """One region's section against want (checks.py's tally); "NAME: exact" when it is."""
    before = len(checks.fails)
    devices = {d["device"]: d["busy_ns"] for d in got["devices"]}
    check(devices == want["devices"],
          "%s: busy per device %s, want %s" % (name, devices, want["devices"]))
    busy = sum(want["devices"].values())
    check(got["busy_ns"] == busy, "%s: busy_ns %d, want %d" % (name, got["busy_ns"], busy))
    kernels = {(k["name"], k["device"], k["stream"]): (k["launches"], k["total_ns"])
               for k in got["kernels"]}
    check(kernels == want["kernels"], "%s: kernels %s, want %s" % (name, kernels, want["kernels"]))
    for k in got["kernels"]:
        check(k["mean_ns"] == k["total_ns"] // k["launches"],
              "%s: %s: mean_ns %d" % (name, k["name"], k["mean_ns"]))
    launches = sum(v[0] for v in want["kernels"].values())
    ns = sum(v[1] for v in want["kernels"].values())
    check((got["kernel_launches"], got["kernel_ns"]) == (launches, ns),
          "%s: kernel_launches/ns %d/%d, want %d/%d"
          % (name, got["kernel_launches"], got["kernel_ns"], launches, ns))
    copies = {k: (v["count"], v["bytes"], v["ns"]) for k, v in got["copies"].items()}
    check(copies == want["copies"], "%s: copies %s, want %s" % (name, copies, want["copies"]))
    check((got["sync"]["count"], got["sync"]["ns"]) == want["sync"],
          "%s: sync %s, want %s" % (name, got["sync"], want["sync"]))
    check(got["dropped"] == want["dropped"],
          "%s: dropped %d, want %d" % (name, got["dropped"], want["dropped"]))
    if len(checks.fails) == before:
        print("%s: exact" % name)


def run(prog, double, records, cudart, switch, *more):
    out = tempfile.mkdtemp(prefix="gpu_region_")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_OUTPUT_DIRECTORY=out, LD_LIBRARY_PATH=double,
               PAPI_EVENTS="perf::TASK-CLOCK")
    if switch != "-":
        env["PAPI_GPU_ACTIVITY"] = switch
    p = subprocess.run([prog, cudart, records, *more], env=env, capture_output=True, text=True,
                       timeout=60)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    run.stdout = p.stdout
    files = glob.glob(os.path.join(out, "papi_hl_output", "*.json"))
    if p.returncode != 0 or len(files) != 1:
        print("FAIL: gpu_region exited with %d, %d reports" % (p.returncode, len(files)))
        sys.exit(1)
    return json.load(open(files[0])), p.stderr


def main():
    prog, double, records, mode = sys.argv[1:5]
    if mode in ("on", "shutdown"):
        more = ("shutdown",) if mode == "shutdown" else ()
        d, err = run(prog, double, records, sys.argv[5], "-", *more)
        status = d["gpu_activity"]
        print("gpu_activity:", status)
        reason = "stopped by PAPI_shutdown: later GPU work is not recorded" if more else ""
        check(status["on"] and status["reason"] == reason and status["dropped"] == 5,
              "gpu_activity %s: want on, %r, 5 dropped" % (status, reason))
        if more:
            check("after PAPI_shutdown: 0 subscribed, 0 kinds enabled" in run.stdout,
                  "CUPTI still subscribed or recording after PAPI_shutdown")
        # every record filed: a twice, b, c (9 + 9 + 2 + 1 records: drops are no records)
        check(status["records"] == 7 + 7 + 2 + 1, "records %d, want 17" % status["records"])
        check("CUPTI dropped 5 records" in err, "the drops not said on stderr")
        regions = d["gpu_regions"]["0"]
        check_section("compute", regions["compute"], add(A, A))
        check_section("outer", regions["outer"], add(A, B))
        check(set(regions) == {"compute", "outer"},
              "regions %s, want compute and outer" % sorted(regions))
    else:
        cudart, switch, reason = sys.argv[5:8]
        d, err = run(prog, double, records, cudart, switch)
        status = d.get("gpu_activity")
        print("gpu_activity:", status)
        if reason == "-":  # a program that uses no GPU: its file says nothing of GPUs
            check(status is None, "gpu_activity %s: want none" % status)
        else:
            check(status and not status["on"] and status["reason"] == reason,
                  "gpu_activity %s: want off, %r" % (status, reason))
        check("gpu_regions" not in d, "gpu_regions written with the layer off")
    return verdict("check_gpu_region")


if __name__ == "__main__":
    sys.exit(main())
