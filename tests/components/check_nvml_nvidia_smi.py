#!/usr/bin/env python3
"""On a machine with an NVIDIA GPU: the nvml component's power and memory readings of
device 0 against nvidia-smi's (power within 10 % or 10 W, they sample at different
moments; used memory within 64 MiB). SKIPPED where nvidia-smi or a GPU is absent."""
import re
import shutil
import subprocess
import sys


def skip(why):
    print("SKIPPED: " + why)
    sys.exit(77)


def main():
    papi_command_line = sys.argv[1]
    if not shutil.which("nvidia-smi"):
        skip("no nvidia-smi here (no NVIDIA driver): nvml is tested on its double only")
    q = subprocess.run(["nvidia-smi", "--query-gpu=name,power.draw,memory.used",
                        "--format=csv,noheader,nounits", "-i", "0"],
                       capture_output=True, text=True, timeout=60)
    if q.returncode != 0 or not q.stdout.strip():
        skip("nvidia-smi finds no GPU: %s" % (q.stderr.strip() or q.stdout.strip()))
    name, watts, mib = [f.strip() for f in q.stdout.strip().splitlines()[0].split(",")]
    ev = "nvml:::%s:device_0:" % name.replace(" ", "_")
    p = subprocess.run([papi_command_line, ev + "power", ev + "allocated_memory"],
                       capture_output=True, text=True, timeout=60)
    print(p.stdout + p.stderr)
    vals = dict(re.findall(r"(nvml:::\S+)\s*:\s*(-?\d+)", p.stdout))
    if p.returncode != 0 or len(vals) != 2:
        print("FAIL: papi_command_line could not read %spower and allocated_memory" % ev)
        return 1
    mw, used = int(vals[ev + "power"]), int(vals[ev + "allocated_memory"])
    smi_mw, smi_used = float(watts) * 1000, float(mib) * 1048576
    print("power: nvml %d mW, nvidia-smi %.0f mW; used: nvml %d B, nvidia-smi %.0f B"
          % (mw, smi_mw, used, smi_used))
    ok = abs(mw - smi_mw) <= max(0.1 * smi_mw, 10000) and abs(used - smi_used) <= 64 << 20
    print("nvml_vs_nvidia_smi: %s" % ("PASSED" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
