#!/usr/bin/env python3
"""papi_component_avail on a machine without a GPU lists nvml, rocm_smi, amdgpu, cuda and
rocp_sdk as disabled, each with the library or device it looked for (issue 50's check;
rocp_sdk's, issue 71's). SKIPPED on a machine with a GPU or a GPU driver's files."""
import os
import re
import subprocess
import sys


def main():
    if os.path.exists("/dev/nvidia0") or os.path.exists("/sys/class/drm/card0"):
        print("SKIPPED: this machine has a GPU (/dev/nvidia0 or /sys/class/drm/card0)")
        return 77
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    p = subprocess.run([sys.argv[1]], env=env, capture_output=True, text=True, timeout=60)
    out = re.sub(r"\s+", " ", p.stdout)
    want = {
        "nvml": r"Name: nvml .*?\\-> Disabled: libnvidia-ml\.so\.1 not found",
        "rocm_smi": r"Name: rocm_smi .*?\\-> Disabled: no GPU: /sys/class/drm lists no AMD GPU",
        "amdgpu": r"Name: amdgpu .*?\\-> Disabled: no GPU: /sys/class/drm",
        "cuda": r"Name: cuda .*?\\-> Disabled: (libcupti not found|no NVIDIA driver: libcuda\.so\.1 not found)",
        "rocp_sdk": r"Name: rocp_sdk .*?\\-> Disabled: librocprofiler-sdk\.so\.0 not found .*?no ROCm with rocprofiler-sdk here",
    }
    failures = 0
    for name, rx in want.items():
        m = re.search(rx, out)
        print("%s: %s" % (name, "disabled with the reason" if m else "NOT FOUND (%s)" % rx))
        failures += not m
    print("check_gpu_component_avail: %s" % ("FAILED" if failures or p.returncode else "PASSED"))
    return 1 if failures or p.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
