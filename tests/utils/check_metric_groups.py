#!/usr/bin/env python3
"""check_metric_groups.py PAPI_METRIC_AVAIL MACHINES: papi_metric_avail lists the metric
groups (name, metrics, description) in its text output and in --json, exactly as the
table defines them: on this machine (the generic table's eight groups, whatever the CPU
the table for it adds) and on a recorded Sapphire Rapids (spr_node: eleven groups, MEM
and TOPDOWN_L2 among them). A group listed is one -m accepts."""
import json
import os
import subprocess
import sys

GENERIC = {
    "FLOPS_DP": (["DP_FLOPS", "IPC", "CPU_UTILIZATION"],
                 "Double-precision floating-point rate, with IPC and CPU utilization"),
    "FLOPS_SP": (["SP_FLOPS", "IPC", "CPU_UTILIZATION"],
                 "Single-precision floating-point rate, with IPC and CPU utilization"),
    "CACHE": (["L1D_MISS_RATIO", "L2_MISS_RATIO", "L3_MISS_RATIO"],
              "Miss ratios of the cache levels"),
    "BRANCH": (["BR_MISP_RATIO", "IPC"], "Branch misprediction ratio, with IPC"),
    "ENERGY": (["CPU_ENERGY", "CPU_POWER", "PKG_ENERGY", "DRAM_ENERGY", "J_PER_INS", "EDP"],
               "CPU energy and mean power, per instruction and energy-delay"),
    "POWER": (["CPU_POWER", "PKG_POWER", "CORE_POWER", "UNCORE_POWER", "DRAM_POWER", "PSYS_POWER"],
              "Mean power of each kind of powercap zone"),
    "GPU": (["GPU_SM_ACTIVE", "GPU_SM_OCCUPANCY", "GPU_TENSOR_ACTIVE", "GPU_DRAM_BW",
             "GPU_PCIE_RX_BW", "GPU_PCIE_TX_BW"], "NVIDIA GPU activity and traffic from NVML's GPM"),
    "GPU_CUDA": (["GPU_FP64_FLOPS", "GPU_FP32_FLOPS", "GPU_DRAM_BYTES", "GPU_DRAM_READ_BW",
                  "GPU_DRAM_WRITE_BW", "GPU_ACHIEVED_OCCUPANCY", "GPU_IPC"],
                 "NVIDIA GPU FLOP rates, DRAM traffic, occupancy and IPC from CUPTI"),
}
SPR_MORE = {
    "MEM": (["MEM_READ_BW", "MEM_WRITE_BW", "MEM_BW"], "Memory bandwidth"),
    "TOPDOWN": (["TOPDOWN_RETIRING", "TOPDOWN_BAD_SPECULATION", "TOPDOWN_FRONTEND_BOUND",
                 "TOPDOWN_BACKEND_BOUND"], "Top-down level 1: where the pipeline slots go"),
    "FLOPS_HP": (["HP_FLOPS", "IPC", "CPU_UTILIZATION"],
                 "Half-precision floating-point rate, with IPC and CPU utilization"),
}
bad = []


def run(tool, args, root=None):
    env = dict(os.environ)
    env.pop("PAPI_METRICS_FILE", None)
    env.pop("PAPI_FSROOT", None)
    if root:
        env["PAPI_FSROOT"] = root
    p = subprocess.run([tool] + args, env=env, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        bad.append("%s %s exited %d: %s" % (tool, " ".join(args), p.returncode, p.stderr))
    return p.stdout


def check(tool, root, want, label):
    groups = {g["name"]: (g["metrics"], g["description"])
              for g in json.loads(run(tool, ["--json"], root)).get("groups", [])}
    for name, (metrics, descr) in want.items():
        if groups.get(name) != (metrics, descr):
            bad.append("%s: --json group %s is %s, want %s" % (label, name, groups.get(name),
                                                                (metrics, descr)))
    if label == "this machine" and set(groups) != set(want):
        bad.append("%s: --json groups %s, want %s" % (label, sorted(groups), sorted(want)))
    text = run(tool, [], root)
    lines = text.splitlines()
    for name, (metrics, descr) in want.items():
        # "NAME  M1, M2: description" on the group's line (the description may wrap).
        at = [i for i, l in enumerate(lines) if l.split()[:1] == [name]]
        block = " ".join(" ".join(lines[at[0]:at[0] + 3]).split()) if at else ""
        if not block.startswith("%s %s: %s" % (name, ", ".join(metrics), descr)):
            bad.append("%s: text line of group %s: %r" % (label, name, block[:160]))
    if "groups: %d." % len(groups) not in text:
        bad.append("%s: the total does not count %d groups" % (label, len(groups)))
    for name in want:
        out = json.loads(run(tool, ["-m", name, "--json"], root))
        got = [m["name"] for m in out["metrics"]]
        if got != want[name][0]:
            bad.append("%s: -m %s gives %s" % (label, name, got))
    print("%s: %d groups listed: %s" % (label, len(groups), ", ".join(sorted(groups))))
    return groups


def main():
    tool, machines = sys.argv[1], sys.argv[2]
    check(tool, None, GENERIC, "this machine")
    spr = check(tool, os.path.join(machines, "spr_node"), dict(GENERIC, **SPR_MORE), "spr_node")
    if "TOPDOWN_L2" not in spr or len(spr["TOPDOWN_L2"][0]) != 8:
        bad.append("spr_node: TOPDOWN_L2 %s" % (spr.get("TOPDOWN_L2"),))
    for b in bad:
        print("FAIL: " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
