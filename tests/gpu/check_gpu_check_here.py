#!/usr/bin/env python3
"""check_gpu_check_here.py PREFIX: what of the prepared GPU check runs without a GPU.
1. run_gpu_check.py with PATH holding no nvidia-smi: exit 2, one "MISSING: nvidia-smi"
   line, and gpu_check.json saying so (nothing run); with a prefix that holds no
   papi-compat: exit 2, each missing piece named.
2. gpu_check.cu builds with the machine's nvcc (-arch=sm_90, the H100/H200's; no GPU
   needed) and the prefix's papi.h and libpapi: SKIPPED (77) where there is no nvcc."""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_gpu_check  # noqa: E402

FAILS = []


def check(cond, what):
    print("%s: %s" % ("ok  " if cond else "FAIL", what))
    if not cond:
        FAILS.append(what)
    return cond


def run(prefix, out, path_dir):
    env = dict(os.environ, PATH=path_dir, CUDA_HOME="/nonexistent")
    return subprocess.run([sys.executable, os.path.join(HERE, "run_gpu_check.py"), "--prefix",
                           prefix, "--out", out], capture_output=True, text=True, env=env,
                          timeout=120)


def host_checks(prefix, h, said):
    """The host CPU's facts (issue 71 item 6) are recorded even where the GPU is missing,
    and agree with papi_component_avail asked here directly: a PMU exposed or not, and the
    reason where not; papi_validate run only where one is; one line says it."""
    papi, _ = run_gpu_check.find_papi(prefix)
    env = run_gpu_check.env_with(os.path.dirname(papi["libpapi"]))
    direct = json.loads(subprocess.run([papi["papi_component_avail"], "--json"], capture_output=True,
                                       text=True, env=env, timeout=60).stdout)["counters"]
    exposed = bool(direct["number_hardware_counters"])
    if not check(isinstance(h, dict) and h["pmu_exposed"] is exposed and not h["missing"],
                 "host_cpu: PMU exposed %s, as papi_component_avail says here (%s)" % (
                     h and h.get("pmu_exposed"), exposed)):
        return
    check(h["presets_available"] is not None and (h["presets_available"] > 0 or not exposed),
          "host_cpu: %s presets available" % h["presets_available"])
    if exposed:
        v = h["validate"]
        check(v["ran"] and v["passed"] is not None and v["passed"] > 0,
              "host_cpu: papi_validate ran where the PMU is: %s" % v)
    else:
        check(h["why"] == direct["no_counters_reason"] and h["why"] and not h["validate"]["ran"],
              "host_cpu: the reason, no papi_validate: %s" % h["why"][:80])
    check(h["conformance"]["ran"] is False and "papi-examples" in h["conformance"]["why"],
          "host_cpu: PAPI 7's suites said not run, with why")
    check(sum(1 for ln in said.splitlines() if ln.startswith("gpu check: host CPU ")) == 1,
          "one line says the host CPU's facts")


def main():
    prefix = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as d:
        empty = os.path.join(d, "bin")
        os.mkdir(empty)
        p = run(prefix, os.path.join(d, "a"), empty)
        print(p.stderr)
        doc = json.load(open(os.path.join(d, "a", "gpu_check.json")))
        check(p.returncode == 2, "no nvidia-smi: exit 2 (%d)" % p.returncode)
        check("gpu check: MISSING: nvidia-smi (the NVIDIA driver's tools)" in p.stderr,
              "no nvidia-smi: said in one line")
        check(doc["pass"] is False and any("nvidia-smi" in m for m in doc["missing"])
              and doc["verdicts"] == {}, "gpu_check.json: %s" % doc)
        host_checks(prefix, doc.get("host_cpu"), p.stderr)
        p = run(os.path.join(d, "nothing"), os.path.join(d, "b"), empty)
        print(p.stderr)
        check(p.returncode == 2 and "MISSING: papi-compat's papi_run" in p.stderr and
              "MISSING: papi-compat's libpapi" in p.stderr, "no papi-compat: each piece named")
        cuda, _ = run_gpu_check.find_cuda()
        papi, missing = run_gpu_check.find_papi(prefix)
        check(not missing, "the install under test has every piece: %s" % missing)
        if not cuda["nvcc"]:
            print("SKIPPED: no nvcc here (no CUDA toolkit): gpu_check.cu not built")
            return 77 if not FAILS else 1
        libdir = os.path.dirname(papi["libpapi"])
        for prog in ("gpu_check", "gpu_counters"):
            b = subprocess.run([cuda["nvcc"], "-O2", "-arch=sm_90", "-I" + os.path.dirname(
                papi["papi_h"]), "-o", os.path.join(d, prog), os.path.join(HERE, prog + ".cu"),
                "-L" + libdir, "-lpapi"], capture_output=True, text=True, timeout=600)
            print(b.stdout + b.stderr)
            check(b.returncode == 0 and glob.glob(os.path.join(d, prog)),
                  "%s.cu builds with %s" % (prog, cuda["nvcc"]))
    print("check_gpu_check_here: %s" % ("FAILED" if FAILS else "PASSED"))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
