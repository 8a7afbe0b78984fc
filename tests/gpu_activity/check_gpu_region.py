#!/usr/bin/env python3
"""A region's GPU work through the region API and the GPU activity layer on the CUPTI
double: run gpu_region (gpu_region.c says what it launches where) and check its report.
    check_gpu_region.py PROG DOUBLE_DIR RECORDS_DIR on|shutdown|trace CUDART
        the layer started by itself (PAPI_GPU_ACTIVITY unset, the program loaded CUDA):
        "compute" (2 instances), "outer" (1) exact, the losses said; with shutdown the
        program calls PAPI_shutdown last: CUPTI unsubscribed, the same sums, the status
        "stopped by PAPI_shutdown"; with trace (PAPI_TRACE=json) the trace's GPU tracks
        (one per device and stream) hold each operation exact
        and the whole run's host/device POP factors (gpu_run_pop) exact from all its
        records (c.txt's, outside every region, too) over its own wall time
    check_gpu_region.py PROG DOUBLE_DIR RECORDS_DIR half CUDART
        one region of 1 s holding a 500 ms synchronisation: the run's device offload
        efficiency 0.5 (to 1e-2 plus the run's share outside the region: the run's wall
        time is measured, from the layer's start in the region's begin to the file's
        writing at exit, longer on a loaded machine) and exactly (wall -
        runtime) / wall of the file's own figures, runtime 0.5 s exactly, the GPU factors
        null (no GPU work); papi_report's region_gpu_pop the file's figures
    check_gpu_region.py PROG DOUBLE_DIR RECORDS_DIR off CUDART|- SWITCH|- REASON|-
        the layer off (PAPI_GPU_ACTIVITY=SWITCH, or unset with -): gpu_activity says
        REASON (-: no gpu_activity at all), no gpu_regions
Every report is checked against region.schema.json (report_check)."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import checks  # noqa: E402
import cupti_records  # noqa: E402
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from papi_report.page import compare  # noqa: E402
from papi_report.tables import gpu, timeline_data  # noqa: E402

report_check.guard()

# a.txt once: per device busy time, kernels, copies, synchronisation (a.txt's comments).
A = {"devices": {0: 2200, 1: 300}, "kernels": {("square(float*, int)", 0, 7): (3, 2700),
                                                ("plain_kernel", 1, 2): (1, 300)},
     "copies": {"HtoD": (1, 4096, 500), "DtoH": (1, 1000, 100)}, "sync": (1, 700), "dropped": 0}
# What each region launched itself (CUPTI's links of its launches): compute a twice; outer
# only b (a's launches were compute's, the innermost region then).
LAUNCHED = {"compute": {"kernel_launches": 8, "kernel_ns": 6000,
                        "copies": {"HtoD": {"count": 2, "bytes": 8192},
                                   "DtoH": {"count": 2, "bytes": 2000}},
                        "memset": {"count": 0, "bytes": 0}},
            "outer": {"kernel_launches": 1, "kernel_ns": 5000,
                      "copies": {"HtoD": {"count": 1, "bytes": 100}},
                      "memset": {"count": 0, "bytes": 0}}}
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


def check_pop(name, pop, wall_ns, want):
    """A region's host/device POP factors (gpu_pop: pop_factors.h) over this one process:
    from its staged records U (busy), A (U + copies) and its synchronisation exact; the
    ratios with its wall time as its own region_totals give them."""
    if not check(pop is not None, "%s: gpu_pop has it" % name):
        return
    print("%s: gpu_pop %s" % (name, pop))
    u = sum(want["devices"].values())
    a = u + sum(c[2] for c in want["copies"].values())
    sync, wall = want["sync"][1], wall_ns
    exact = {"gpus": 1, "useful_sum_s": u * 1e-9, "useful_max_s": u * 1e-9,
             "active_max_s": a * 1e-9, "runtime_s": sync * 1e-9, "load_balance": 1.0,
             "communication_efficiency": round(u / a, 6)}
    for key, value in exact.items():
        check(abs(pop[key] - value) < 1e-12, "%s: gpu_pop %s %s, want %s" % (name, key, pop[key], value))
    formed = {"offload_efficiency": (wall - sync) / wall, "orchestration_efficiency": a / wall,
              "parallel_efficiency": u / wall}
    for key, value in formed.items():
        check(abs(pop[key] - value) < 2e-6, "%s: gpu_pop %s %s, want %.6f" % (name, key, pop[key], value))


# The GPU tracks of the trace (PAPI_TRACE=json): per device and stream its operations in
# time order, (name, ns); an operation starting before the previous one on its stream
# ends is cut there (a.txt's second kernel, b.txt's kernel after its copy).
A_TRACK7 = [("square(float*, int)", 1000), ("square(float*, int)", 1000), ("memcpy HtoD", 500),
            ("square(float*, int)", 200), ("memcpy DtoH", 100)]
TRACKS = {"GPU 0 stream 7": A_TRACK7 * 2,
          "GPU 1 stream 2": [("plain_kernel", 300)] * 2,
          "GPU 0 stream 3": [("memcpy HtoD", 10), ("other_kernel", 4990), ("late_kernel", 700)]}
# With d.txt launched in the first region before any other begins.
TRACKS_FIRST = dict(TRACKS, **{"GPU 2 stream 1": [("first_kernel", 400)]})


def gpu_tracks(out):
    """{track name: [(name, ns)]} of the trace's GPU tracks."""
    (path,) = glob.glob(os.path.join(out, "papi_hl_trace", "trace_rank_*.json"))
    ev = json.load(open(path))
    ev = ev["traceEvents"] if isinstance(ev, dict) else ev
    names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name"}
    tracks, open_ = {}, {}
    for e in ev:
        name = names.get(e.get("tid"), "")
        if not name.startswith("GPU ") or e.get("ph") not in ("B", "E"):
            continue
        if e["ph"] == "B":
            open_[e["tid"]] = e
        else:
            b = open_.pop(e["tid"])
            tracks.setdefault(name, []).append((b["name"], round((e["ts"] - b["ts"]) * 1000)))
    return tracks


def check_timeline_lanes(out):
    """papi_report's timeline (tables/timeline_data.py): each GPU track a lane of its own,
    its kernels "gpu_kernel" and its copies "gpu_copy" spans, exact, no computation."""
    paths = glob.glob(os.path.join(out, "papi_hl_trace", "trace_rank_*.json"))
    spans, _ = timeline_data.spans_from_events(timeline_data.read_events(paths)[0])
    lanes = spans.attrs.get("gpu_lanes", {})
    got = {}
    for lane, track in lanes.items():
        mine = spans[spans["lane"] == lane].sort_values("t0_s")
        got[track] = [(r["name"], round((r["t1_s"] - r["t0_s"]) * 1e9)) for _, r in mine.iterrows()]
        kinds = {("gpu_copy" if n.startswith(("memcpy", "memset")) else "gpu_kernel")
                 for n, _ in got[track]}
        check(set(mine["kind"]) == kinds, "timeline lane %s: kinds %s" % (track, set(mine["kind"])))
    check(got == TRACKS_FIRST, "timeline GPU lanes %s, want %s" % (got, TRACKS_FIRST))


def check_sums(d, status, err):
    """The on modes' sums: records, links, launched, drops, both regions' sections."""
    # every record filed: a twice, b, c (9 + 9 + 2 + 1 records: drops are no records)
    check(status["records"] == 7 + 7 + 2 + 1, "records %d, want 17" % status["records"])
    check(status["launch_links"] and status["unlinked_launches"] == 1,
          "launch links %s: want on, 1 unlinked launch (c.txt's)" % status)
    for name, want in LAUNCHED.items():
        got = d["gpu_regions"]["0"][name].get("launched")
        print("%s launched: %s" % (name, got))
        check(got == want, "%s launched %s, want %s" % (name, got, want))
    check("CUPTI dropped 5 records" in err, "the drops not said on stderr")
    regions = d["gpu_regions"]["0"]
    check_section("compute", regions["compute"], add(A, A))
    check_section("outer", regions["outer"], add(A, B))
    # papi_report's region_gpu_kernels: one process (rank 0), devices and streams summed
    got = {(r["scope"], r["kernel"]): (r["ranks"], r["launches"], round(r["total_s"] * 1e9),
                                       r["rank_max"])
           for r in gpu.region_gpu_kernels([(None, d)]).to_dict("records")}
    want = {("region compute", "square(float*, int)"): (1, 6, 5400, 0),
            ("region compute", "plain_kernel"): (1, 2, 600, 0),
            ("region outer", "square(float*, int)"): (1, 3, 2700, 0),
            ("region outer", "plain_kernel"): (1, 1, 300, 0),
            ("region outer", "other_kernel"): (1, 1, 5000, 0)}
    check(got == want, "papi_report's region_gpu_kernels %s, want %s" % (got, want))
    for name, want in (("compute", add(A, A)), ("outer", add(A, B))):
        check_pop(name, d.get("gpu_pop", {}).get("0", {}).get(name),
                  d["region_totals"]["0"][name]["real_time_nsec"], want)
    check(set(regions) == {"compute", "outer"},
          "regions %s, want compute and outer" % sorted(regions))


# The whole run (a twice, b, c): busy 10100 ns on device 0 and 600 on device 1, copies
# 1210 ns, synchronisation 1400 ns.
RUN_U, RUN_A, RUN_SYNC = 10700, 10700 + 1210, 1400


def check_run_pop(d):
    """gpu_run_pop: every record of the run exact, the ratios over its own wall_s."""
    run = d.get("gpu_run_pop")
    if not check(run is not None, "gpu_run_pop written"):
        return
    print("gpu_run_pop:", run)
    pop, wall = run["pop"], run["wall_s"]
    outer = d["region_totals"]["0"]["outer"]["real_time_nsec"] * 1e-9
    check(outer <= wall < outer + 60, "run wall %s s holds region outer's %s s" % (wall, outer))
    exact = {"gpus": 1, "useful_sum_s": RUN_U * 1e-9, "useful_max_s": RUN_U * 1e-9,
             "active_max_s": RUN_A * 1e-9, "runtime_s": RUN_SYNC * 1e-9, "load_balance": 1.0,
             "communication_efficiency": round(RUN_U / RUN_A, 6)}
    for key, value in exact.items():
        check(abs(pop[key] - value) < 1e-12, "run: %s %s, want %s" % (key, pop[key], value))
    formed = {"offload_efficiency": (wall - RUN_SYNC * 1e-9) / wall,
              "orchestration_efficiency": RUN_A * 1e-9 / wall,
              "parallel_efficiency": RUN_U * 1e-9 / wall}
    for key, value in formed.items():
        check(abs(pop[key] - value) < 2e-6, "run: %s %s, want %.6f" % (key, pop[key], value))
    check_pop_table(d)


def check_pop_table(d):
    """papi_report's region_gpu_pop: the run's row and each region's, the file's figures."""
    rows = gpu.region_gpu_pop([(None, d)]).to_dict("records")
    run = [r for r in rows if r["scope"] == "run"]
    want = dict(d["gpu_run_pop"]["pop"], wall_s=d["gpu_run_pop"]["wall_s"])
    check(len(run) == 1 and all(run[0][k] == v or (v is None and run[0][k] != run[0][k])
                                for k, v in want.items()),
          "papi_report's region_gpu_pop run row %s, want %s" % (run, want))
    regions = {(r["scope"], r["thread"]) for r in rows if r["scope"] != "run"}
    want_regions = {("region " + n, int(t)) for t, rs in d.get("gpu_pop", {}).items() for n in rs}
    check(regions == want_regions, "region_gpu_pop's regions %s, want %s" % (regions, want_regions))


def check_half(d):
    run = d.get("gpu_run_pop")
    if not check(run is not None, "half: gpu_run_pop written"):
        return
    print("gpu_run_pop:", run)
    pop, wall = run["pop"], run["wall_s"]
    region = d["region_totals"]["0"]["half"]["real_time_nsec"] * 1e-9
    check(1.0 <= region <= wall, "half: run wall %s s holds region half's %s s (>= 1 s)"
          % (wall, region))
    check(pop["runtime_s"] == 0.5 and pop["gpus"] == 0 and pop["useful_sum_s"] == 0,
          "half: runtime 0.5 s, no GPU work: %s" % pop)
    off = pop["offload_efficiency"]
    check(off is not None and abs(off - (wall - 0.5) / wall) < 2e-6,
          "half: offload %s, want (%.9f - 0.5) / %.9f exactly" % (off, wall, wall))
    # 0.5 where the run is the region: the run's time outside it (its start before the
    # region's begin, its exit after the end: longer on a loaded machine) is host time
    # without the runtime, which raises it by (wall - region) / wall at most.
    extra = (wall - region) / wall
    check(off is not None and abs(off - 0.5) <= 1e-2 + extra,
          "half: offload %s, want 0.5 (+- 0.01 + %.4f, the run's time outside the region)"
          % (off, extra))
    nulls = ("parallel_efficiency", "load_balance", "communication_efficiency",
             "orchestration_efficiency")
    check(all(pop[k] is None for k in nulls), "half: the GPU factors null: %s" % pop)
    check_pop_table(d)


def compare_slower(prog, double, records, out_a):
    """papi_report --compare by kernel: a second run whose kernels are 4 times as long
    gives each region's kernels' time B/A 4, "slower", their launches the same."""
    slow = tempfile.mkdtemp(prefix="gpu_region_slow_")
    cupti_records.slower(records, slow, 4)
    run(prog, double, slow, sys.argv[5], "-")
    df = compare.compare(out_a, run.out)
    got = {(r["entity"], r["quantity"]): (round(r["ratio"], 6), r["verdict"])
           for r in df[df["scope"] == "kernel"].to_dict("records")}
    want = {}
    for ent in ("square(float*, int) @ compute", "plain_kernel @ compute",
                "square(float*, int) @ outer", "plain_kernel @ outer", "other_kernel @ outer"):
        want[(ent, "kernel_s")] = (4.0, "slower")
        want[(ent, "launches")] = (1.0, "same")
    check(got == want, "--compare by kernel %s, want %s" % (got, want))


def run(prog, double, records, cudart, switch, *more):
    out = tempfile.mkdtemp(prefix="gpu_region_")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_OUTPUT_DIRECTORY=out, LD_LIBRARY_PATH=double,
               PAPI_EVENTS="perf::TASK-CLOCK")
    if switch != "-":
        env["PAPI_GPU_ACTIVITY"] = switch
    if "trace" in more or "trace_otf2" in more:
        env["PAPI_TRACE"] = "otf2" if "trace_otf2" in more else "json"
        more = tuple(m for m in more if not m.startswith("trace"))
    p = subprocess.run([prog, cudart, records, *more], env=env, capture_output=True, text=True,
                       timeout=60)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    run.stdout = p.stdout
    files = glob.glob(os.path.join(out, "papi_hl_output", "*.json"))
    if p.returncode != 0 or len(files) != 1:
        print("FAIL: gpu_region exited with %d, %d reports" % (p.returncode, len(files)))
        sys.exit(1)
    run.out = out
    return json.load(open(files[0])), p.stderr


def main():
    prog, double, records, mode = sys.argv[1:5]
    if mode == "trace_otf2" and not shutil.which("otf2-print"):
        print("SKIPPED: no otf2-print (otf2-tools) to read the OTF2 trace")
        return 77
    if mode == "half":
        d, _ = run(prog, double, records, sys.argv[5], "-", "half")
        check_half(d)
        return verdict("check_gpu_region")
    if mode in ("on", "shutdown", "trace", "trace_otf2"):
        more = (mode,) if mode != "on" else ()
        if mode.startswith("trace"):
            more += ("first",)  # d.txt in the first region, before any other begins
        d, err = run(prog, double, records, sys.argv[5], "-", *more)
        status = d["gpu_activity"]
        print("gpu_activity:", status)
        reason = "stopped by PAPI_shutdown: later GPU work is not recorded" if mode == "shutdown" else ""
        check(status["on"] and status["reason"] == reason and status["dropped"] == 5,
              "gpu_activity %s: want on, %r, 5 dropped" % (status, reason))
        if mode == "trace_otf2":
            (anchor,) = glob.glob(os.path.join(run.out, "papi_hl_trace", "*", "traces.otf2"))
            defs = subprocess.run(["otf2-print", "-G", anchor], capture_output=True, text=True,
                                  timeout=60).stdout
            locs = {m.group(1): int(m.group(2)) for m in re.finditer(
                r'Name: "rank 0 (GPU [^"]*)" <\d+>, Type: ACCELERATOR_STREAM, # Events: (\d+)',
                defs)}
            want = {name: 2 * len(ops) for name, ops in TRACKS_FIRST.items()}
            print("OTF2 GPU locations:", locs)
            check(locs == want, "OTF2 GPU locations %s, want %s" % (locs, want))
        if mode == "trace":
            tracks = gpu_tracks(run.out)
            print("GPU tracks:", tracks)
            check(tracks == TRACKS_FIRST, "GPU tracks %s, want %s" % (tracks, TRACKS_FIRST))
            check_timeline_lanes(run.out)
        if mode == "shutdown":
            check("after PAPI_shutdown: 0 subscribed, 0 kinds enabled" in run.stdout,
                  "CUPTI still subscribed or recording after PAPI_shutdown")
        if not mode.startswith("trace"):  # there d.txt changed the sums: the tracks count
            check_sums(d, status, err)
            check_run_pop(d)
        if mode == "on":
            compare_slower(prog, double, records, run.out)
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
        check("gpu_regions" not in d and "gpu_pop" not in d and "gpu_run_pop" not in d,
              "gpu_regions, gpu_pop or gpu_run_pop written with the layer off")
        if switch not in ("-", "0"):
            check("no GPU activity: " + reason in err, "a bad PAPI_GPU_ACTIVITY not said on stderr")
    return verdict("check_gpu_region")


if __name__ == "__main__":
    sys.exit(main())
