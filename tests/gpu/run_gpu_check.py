#!/usr/bin/env python3
"""run_gpu_check.py --prefix DIR [--out DIR]: the prepared check of issue 59 on a machine
with an NVIDIA GPU (README.md). DIR is an install prefix (bin/papi_run, lib/libpapi.so,
include/papi.h) or a build tree of this repository. It builds gpu_check.cu with nvcc,
runs it under papi_run --gpu with the region API while nvidia-smi dmon samples GPM,
reads nvml through papi_command_line beside nvidia-smi, and writes OUT/gpu_check.json:
each verdict (gpu_verdicts.py) with its figures. Exit 0: every verdict passed; 1: one
failed; 2: something the check needs is missing (said first, one line each, and in the
file's "missing")."""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import counter_verdicts  # noqa: E402
import gpu_verdicts  # noqa: E402
import host_cpu  # noqa: E402

HOST_TOOLS = ("papi_avail", "papi_component_avail", "papi_validate")

REPO = os.path.normpath(os.path.join(HERE, "..", ".."))


def first(paths):
    for p in paths:
        for m in sorted(glob.glob(p)):
            if os.path.exists(m):
                return m
    return None


def find_papi(prefix):
    """The pieces of papi-compat under an install prefix or a build tree, and what is missing."""
    tool = lambda n: first([os.path.join(prefix, "bin", n),  # noqa: E731
                            os.path.join(prefix, "src-c", "utils", n),
                            os.path.join(prefix, "src-c", "utils", n, n)])
    found = {"papi_run": tool("papi_run"), "papi_command_line": tool("papi_command_line"),
             "papi_native_avail": tool("papi_native_avail"),
             "libpapi": first([os.path.join(prefix, d, "libpapi.so") for d in
                               ("lib", "lib64", "lib/*-linux-gnu", "src-c")]),
             "papi_h": first([os.path.join(prefix, "include", "papi.h"),
                              os.path.join(REPO, "src-c", "include", "papi.h")])}
    missing = ["papi-compat's %s (under %s)" % (k, prefix) for k, v in found.items() if not v]
    for n in HOST_TOOLS:  # the host CPU's facts (host_cpu.py): said there where one is absent
        found[n] = tool(n)
    return found, missing


def find_cuda():
    found = {"nvcc": shutil.which("nvcc") or first([os.path.join(os.environ.get(
        "CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc"), "/usr/local/cuda*/bin/nvcc"]),
             "nvidia_smi": shutil.which("nvidia-smi")}
    missing = []
    if not found["nvcc"]:
        missing.append("nvcc (a CUDA toolkit: PATH, CUDA_HOME or /usr/local/cuda)")
    if not found["nvidia_smi"]:
        missing.append("nvidia-smi (the NVIDIA driver's tools)")
    else:
        p = subprocess.run([found["nvidia_smi"], "-L"], capture_output=True, text=True)
        if p.returncode != 0 or "GPU 0" not in p.stdout:
            missing.append("an NVIDIA GPU (nvidia-smi -L: %s)"
                           % (p.stdout + p.stderr).strip().replace("\n", " ")[:200])
    return found, missing


def env_with(libdir, **more):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"]
                                       if env.get("LD_LIBRARY_PATH") else "")
    env.update(more)
    return env


def nvml_events(papi, env):
    """nvml's event names from papi_native_avail --json: {suffix: name} for device 0."""
    p = subprocess.run([papi["papi_native_avail"], "--json"], capture_output=True, text=True,
                       env=env, timeout=60)
    names = {}
    try:
        for c in json.loads(p.stdout).get("components", []):
            for e in c.get("events", []) if c.get("component") == "nvml" else []:
                if ":device_0:" in e["name"]:
                    names[":" + e["name"].rsplit(":", 1)[1]] = e["name"]
    except ValueError:
        pass
    return names


def host_facts(papi):
    """The host CPU's facts (host_cpu.py), said in one line; None without libpapi."""
    if not papi["libpapi"]:
        return None
    h = host_cpu.facts({n: papi[n] for n in HOST_TOOLS}, env_with(os.path.dirname(papi["libpapi"])))
    v = h["validate"]
    print("gpu check: host CPU %s: %s" % (
        h["cpu"], "a PMU with %s counters, %s presets; papi_validate %s" % (
            h["hardware_counters"], h["presets_available"],
            "%s passed, %s failed, %s not countable" % (v["passed"], v["failed"], v["not_countable"])
            if v["ran"] else "not run (%s)" % v["why"]) if h["pmu_exposed"] else
        "no CPU PMU exposed (%s)" % (h["why"] or "no tool said")), file=sys.stderr)
    return h


def cuda_listing(papi, libdir, out):
    """The cuda component's metric list twice, the first with an empty cache (a cache folder
    of its own): (first s, second s, first's events, second's events)."""
    env = env_with(libdir, XDG_CACHE_HOME=os.path.join(out, "cache"))
    got = []
    for _ in range(2):
        t = time.monotonic()
        p = subprocess.run([papi["papi_native_avail"], "--json"], capture_output=True, text=True,
                           env=env, timeout=120)
        s = round(time.monotonic() - t, 2)
        try:
            n = sum(len(c.get("events", [])) for c in json.loads(p.stdout).get("components", [])
                    if c.get("component") == "cuda")
        except ValueError:
            n = 0
        got.append((s, n))
    return got[0][0], got[1][0], got[0][1], got[1][1]


def counter_check(papi, cuda, libdir, out):
    """gpu_counters.cu built and run (its cases read through the cuda component), the
    listing timed, and Nsight Compute's values for the same kernels where ncu is: the
    verdicts (counter_verdicts.py), and what failed to build or run said."""
    exe = os.path.join(out, "gpu_counters")
    b = subprocess.run([cuda["nvcc"], "-O2", "-arch=native", "-I" + os.path.dirname(papi["papi_h"]),
                        "-o", exe, os.path.join(HERE, "gpu_counters.cu"), "-L" + libdir, "-lpapi",
                        "-Xlinker", "-rpath=" + libdir], capture_output=True, text=True, timeout=300)
    counted = None
    if b.returncode != 0:
        print(b.stdout + b.stderr + "gpu check: FAILED: gpu_counters.cu did not build", file=sys.stderr)
    else:
        path = os.path.join(out, "counters.json")
        r = subprocess.run([exe, path], capture_output=True, text=True, timeout=120,
                           env=env_with(libdir))
        print(r.stdout + r.stderr, file=sys.stderr)
        try:
            counted = json.load(open(path))
        except (OSError, ValueError):
            print("gpu check: FAILED: gpu_counters wrote no file (exit %d)" % r.returncode,
                  file=sys.stderr)
    ncu, ncu_text = shutil.which("ncu") or first(["/usr/local/cuda*/bin/ncu"]), None
    if ncu and b.returncode == 0:
        metrics = sorted({ev.split(":::", 1)[1].split(":device=")[0]
                          for c in (counted or {}).values() for ev in c.get("events", {})})
        r = subprocess.run([ncu, "--csv", "--metrics", ",".join(metrics), exe, "--plain"],
                           capture_output=True, text=True, timeout=180)
        ncu_text = r.stdout if r.returncode == 0 else ""
    v = counter_verdicts.all_counter_verdicts(counted, cuda_listing(papi, libdir, out), ncu_text)
    if b.returncode == 0:
        v["cuda_per_kernel"] = per_kernel_check(papi, libdir, out, exe)
    return v


def per_kernel_check(papi, libdir, out, exe):
    """papi_run --gpu-counters over `gpu_counters --plain` (the same kernels without PAPI):
    the per-kernel mode's rows, judged by counter_verdicts.per_kernel_verdict."""
    kout = os.path.join(out, "per_kernel")
    r = subprocess.run([papi["papi_run"], "--quiet", "-o", kout, "--gpu-counters",
                        ",".join(counter_verdicts.PER_KERNEL_METRICS), "--", exe, "--plain"],
                       capture_output=True, text=True, timeout=180, env=env_with(libdir))
    print(r.stdout + r.stderr, file=sys.stderr)
    files = sorted(glob.glob(os.path.join(kout, "papi_run_output", "gpu_activity_*.json")))
    try:
        doc = json.load(open(files[0])) if files else None
    except ValueError:
        doc = None
    return counter_verdicts.per_kernel_verdict(doc)


def write(out, doc):
    path = os.path.join(out, "gpu_check.json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prefix", required=True, help="papi-compat's install prefix or build tree")
    ap.add_argument("--out", default=None, help="where to write (default: a new temp dir)")
    a = ap.parse_args()
    t0 = time.monotonic()
    out = a.out or tempfile.mkdtemp(prefix="papi_gpu_check_")
    os.makedirs(out, exist_ok=True)
    papi, missing = find_papi(os.path.abspath(a.prefix))
    cuda, more = find_cuda()
    missing += more
    host = host_facts(papi)  # a fact of the machine either way, never a verdict
    if missing:
        for m in missing:
            print("gpu check: MISSING: %s" % m, file=sys.stderr)
        path = write(out, {"pass": False, "missing": missing, "verdicts": {}, "host_cpu": host})
        print("gpu check: not run (%d missing); %s" % (len(missing), path), file=sys.stderr)
        return 2
    libdir = os.path.dirname(papi["libpapi"])
    env = env_with(libdir)
    exe = os.path.join(out, "gpu_check")
    build = [cuda["nvcc"], "-O2", "-arch=native", "-I" + os.path.dirname(papi["papi_h"]),
             "-o", exe, os.path.join(HERE, "gpu_check.cu"), "-L" + libdir, "-lpapi",
             "-Xlinker", "-rpath=" + libdir]
    p = subprocess.run(build, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        print(p.stdout + p.stderr, file=sys.stderr)
        print("gpu check: MISSING: a build of gpu_check.cu (%s)" % " ".join(build), file=sys.stderr)
        write(out, {"pass": False, "missing": ["gpu_check.cu did not build"], "verdicts": {},
                    "host_cpu": host})
        return 2
    names = nvml_events(papi, env)
    gpm = [names[s] for s in (":gpm_sm_activity_ns", ":gpm_dram_bandwidth_ns") if s in names]
    if len(gpm) < 2:
        print("gpu check: no GPM counter events in nvml (papi_component_avail says why): "
              "gpm_vs_dmon will fail", file=sys.stderr)
    dmon_path = os.path.join(out, "dmon.txt")
    with open(dmon_path, "w") as dmon_out:
        dmon = subprocess.Popen([cuda["nvidia_smi"], "dmon", "-i", "0", "--gpm-metrics", "2,10",
                                 "-o", "DT", "-d", "1"], stdout=dmon_out,
                                stderr=subprocess.STDOUT)
        time.sleep(1.5)  # its first samples before the work
        truth_path = os.path.join(out, "truth.json")
        run = subprocess.run([papi["papi_run"], "--gpu", "--quiet", "-o", out, "--", exe,
                              truth_path], capture_output=True, text=True, timeout=300,
                             env=env_with(libdir, PAPI_EVENTS=",".join(gpm or
                                                                        ["perf::TASK-CLOCK"])))
        time.sleep(1.5)
        dmon.terminate()
        dmon.wait(timeout=10)
    print(run.stdout + run.stderr, file=sys.stderr)
    if run.returncode != 0:
        print("gpu check: FAILED: gpu_check under papi_run exited %d" % run.returncode,
              file=sys.stderr)
    nv = [names[s] for s in gpu_verdicts.NVML_VS_SMI if s in names]

    def smi_read():
        return subprocess.run([cuda["nvidia_smi"], "-i", "0", "--query-gpu=" +
                               ",".join(gpu_verdicts.SMI_FIELDS), "--format=csv,noheader,nounits"],
                              capture_output=True, text=True, timeout=60).stdout.strip()
    smi_before = smi_read()  # ours bracketed: idle clocks and power move between reads
    pcl = subprocess.run([papi["papi_command_line"], "--json"] + nv, capture_output=True,
                         text=True, env=env, timeout=60) if nv else None
    smi_after = smi_read()

    def load(pattern):
        files = sorted(glob.glob(os.path.join(out, pattern)))
        try:
            return json.load(open(files[0])) if files else None
        except ValueError:
            return None
    truth, region = load("truth.json"), load("papi_hl_output/rank_*.json")
    run_gpu = load("papi_run_output/gpu_activity_*.json")
    lost = [n for n, d in (("gpu_check's truth.json", truth), ("the region file", region),
                           ("papi_run --gpu's file", run_gpu)) if d is None]
    if lost:
        for n in lost:
            print("gpu check: FAILED: no %s in %s" % (n, out), file=sys.stderr)
        write(out, {"pass": False, "missing": ["%s (not written)" % n for n in lost],
                    "verdicts": {}, "run_exit": run.returncode, "host_cpu": host})
        return 1
    try:
        nvml_json = json.loads(pcl.stdout) if pcl else None
    except ValueError:
        nvml_json = None
    doc = gpu_verdicts.all_verdicts(truth, region, run_gpu, open(dmon_path).read(), nvml_json,
                                    smi_before + "\n" + smi_after + "\n", time.monotonic() - t0)
    doc["verdicts"].update(counter_check(papi, cuda, libdir, out))
    doc["verdicts"]["time"] = gpu_verdicts.time_verdict(time.monotonic() - t0)
    doc.update({"run_exit": run.returncode, "out": out, "gpm_events": gpm, "host_cpu": host})
    doc["pass"] = all(v["pass"] for v in doc["verdicts"].values()) and run.returncode == 0
    path = write(out, doc)
    for name, v in doc["verdicts"].items():
        print("gpu check: %-20s %s  %s" % (name, "PASS" if v["pass"] else "FAIL", v["detail"]))
    print("gpu check: %s; %s" % ("PASSED" if doc["pass"] else "FAILED", path))
    return 0 if doc["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
