#!/usr/bin/env python3
"""On a machine with an NVIDIA GPU: the nvml component's readings of device 0 against
nvidia-smi's: power within 10 % or 10 W (they sample at different moments), used memory
within 64 MiB, and, where the component lists reserved_memory (NVML's
nvmlDeviceGetMemoryInfo_v2) and nvidia-smi knows memory.reserved, the reserve within 64
MiB. nvidia-smi's memory.used leaves the driver's reserve out where NVML has _v2 (the
component's allocated_memory then does too) and counts it where NVML has only v1 (an
older driver: so does the component). SKIPPED where nvidia-smi or a GPU is absent."""
import re
import shutil
import subprocess
import sys

MIB = 1048576


def skip(why):
    print("SKIPPED: " + why)
    sys.exit(77)


def smi(fields):
    """nvidia-smi's csv line for device 0 as a list, or None when it refuses the query."""
    q = subprocess.run(["nvidia-smi", "--query-gpu=" + ",".join(fields),
                        "--format=csv,noheader,nounits", "-i", "0"],
                       capture_output=True, text=True, timeout=60)
    lines = q.stdout.strip().splitlines()
    if q.returncode != 0 or not lines:
        return None, (q.stderr.strip() or q.stdout.strip())
    return [f.strip() for f in lines[0].split(",")], ""


def papi(ev, names):
    """The component's values of names (event suffixes), or None when one is not listed."""
    p = subprocess.run([sys.argv[1]] + [ev + n for n in names],
                       capture_output=True, text=True, timeout=60)
    print(p.stdout + p.stderr)
    vals = dict(re.findall(r"(nvml:::\S+)\s*:\s*(-?\d+)", p.stdout))
    if p.returncode != 0 or len(vals) != len(names):
        return None
    return [int(vals[ev + n]) for n in names]


def main():
    if not shutil.which("nvidia-smi"):
        skip("no nvidia-smi here (no NVIDIA driver): nvml is tested on its double only")
    row, err = smi(["name", "power.draw", "memory.used", "memory.reserved"])
    if row is None:  # an nvidia-smi that knows no memory.reserved (or no GPU)
        row, err = smi(["name", "power.draw", "memory.used"])
    if row is None:
        skip("nvidia-smi finds no GPU: %s" % err)
    name, watts, mib = row[:3]
    smi_reserved = float(row[3]) * MIB if len(row) > 3 and row[3] != "[N/A]" else None
    ev = "nvml:::%s:device_0:" % name.replace(" ", "_")
    vals = papi(ev, ["power", "allocated_memory", "reserved_memory"])
    if vals is None:  # an NVML without _v2: no reserved_memory
        vals = papi(ev, ["power", "allocated_memory"])
    if vals is None:
        print("FAIL: papi_command_line could not read %spower and allocated_memory" % ev)
        return 1
    mw, used = vals[0], vals[1]
    reserved = vals[2] if len(vals) > 2 else None
    smi_mw, smi_used = float(watts) * 1000, float(mib) * MIB
    ok = abs(mw - smi_mw) <= max(0.1 * smi_mw, 10000) and abs(used - smi_used) <= 64 * MIB
    line = ("power: nvml %d mW, nvidia-smi %.0f mW; used: nvml %d B, nvidia-smi %.0f B"
            % (mw, smi_mw, used, smi_used))
    if reserved is not None and smi_reserved is not None:
        line += "; reserved: nvml %d B, nvidia-smi %.0f B" % (reserved, smi_reserved)
        ok = ok and abs(reserved - smi_reserved) <= 64 * MIB
    else:
        line += "; reserved: not compared (%s)" % (
            "nvidia-smi has no memory.reserved" if reserved is not None
            else "the component has no reserved_memory: its NVML lacks "
                 "nvmlDeviceGetMemoryInfo_v2")
    print(line)
    print("nvml_vs_nvidia_smi: %s" % ("PASSED" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
