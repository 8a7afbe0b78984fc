#!/usr/bin/env python3
"""test_gpu_verdicts.py: the prepared GPU check's verdicts (gpu_verdicts.py) on recorded
inputs (recorded/: hand-made in the formats gpu_check.cu, the region API, papi_run --gpu,
papi_command_line and nvidia-smi write; dmon's times in UTC, so TZ=UTC here): every
verdict passes on them with the figures they imply, and each fails, saying why, when one
input is changed past its tolerance."""
import copy
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_verdicts as gv  # noqa: E402

os.environ["TZ"] = "UTC"
time.tzset()
REC = os.path.join(HERE, "recorded")
FAILS = []


def load(name):
    with open(os.path.join(REC, name)) as f:
        return f.read() if not name.endswith(".json") else json.load(f)


def inputs():
    return dict(truth=load("truth.json"), region=load("region.json"),
                run_gpu=load("gpu_activity_run.json"), dmon_text=load("dmon.txt"),
                nvml_json=load("papi_command_line.json"), smi_line=load("nvidia_smi.csv"),
                elapsed_s=61.0)


def check(cond, what):
    print("%s: %s" % ("ok  " if cond else "FAIL", what))
    if not cond:
        FAILS.append(what)


def verdict_after(change, name):
    """The verdict name after change(inputs) (which edits them in place)."""
    i = copy.deepcopy(inputs())
    change(i)
    return gv.all_verdicts(**i)["verdicts"][name]


def main():
    doc = gv.all_verdicts(**inputs())
    for name, v in doc["verdicts"].items():
        check(v["pass"], "recorded: %s passes (%s)" % (name, v["detail"]))
    check(doc["pass"], "recorded: the whole check passes")
    f = doc["figures"]
    check(f["fp64_gflops"] == round(2 * 17716740096 / 53100000, 1),
          "fp64 GFLOP/s from the FMA count and the kernel's time: %s" % f["fp64_gflops"])
    check(f["dram_copy_gbs"] == round(402653184000 / 2990000000, 1),
          "DRAM copy GB/s: %s" % f["dram_copy_gbs"])
    gpm = doc["verdicts"]["gpm_vs_dmon"]
    check(gpm["sm"]["dmon_samples"] == 2 and gpm["sm"]["dmon_pct"] == 98.0,
          "dmon: the 2 samples inside region sm less its first and last second: %s" % gpm["sm"])
    check(abs(gpm["dram"]["gpm_pct"] - 90.0) < 1e-9, "GPM DRAM %%: %s" % gpm["dram"])
    names, rows = gv.parse_dmon(load("dmon.txt"))
    check(names == ["date", "time", "gpu", "smact", "dramact"] and len(rows) == 13,
          "dmon parsed: %s, %d rows" % (names, len(rows)))
    dur = doc["verdicts"]["durations"]["kernels"]["spin_kernel<2>"]
    check(dur["event_mean_ns"] == 5010333 and dur["cupti_mean_ns"] == 5006333,
          "spin_kernel<2>: CUPTI's mean beside the events' %s" % dur)

    def region0(i):
        return i["region"]["gpu_regions"]["0"]

    def drop_launch(i):
        k = region0(i)["spin"]["kernels"][0]
        k["launches"] -= 1
    v = verdict_after(drop_launch, "kernel_count")
    check(not v["pass"] and "spin: launches" in v["detail"], "a launch missing: %s" % v["detail"])

    def slow(factor):
        def change(i):
            k = region0(i)["spin"]["kernels"][2]
            k["total_ns"] = int(3 * 10013000 * factor)
        return change
    v = verdict_after(slow(1.06), "durations")
    check(not v["pass"] and "spin_kernel<3>" in v["detail"], "6 %% slower fails: %s" % v["detail"])
    v = verdict_after(slow(1.04), "durations")
    check(v["pass"], "4 %% slower passes: %s" % v["detail"])

    def byte_off(i):
        region0(i)["copy"]["copies"]["DtoH"]["bytes"] -= 1
    v = verdict_after(byte_off, "bytes")
    check(not v["pass"] and "copy" in v["detail"], "a byte short: %s" % v["detail"])

    def moved(i):
        r = region0(i)
        r["sm"]["kernels"].append(r["fp64"]["kernels"].pop())
    v = verdict_after(moved, "kernels_in_regions")
    check(not v["pass"] and "sm holds fma64_kernel of fp64" in v["detail"],
          "a kernel in another region: %s" % v["detail"])

    def gpm_low(i):
        t = i["region"]["region_totals"]["0"]["sm"]
        t[[k for k in t if k.endswith("gpm_sm_activity_ns")][0]] = int(0.86 * 4010000000)
    v = verdict_after(gpm_low, "gpm_vs_dmon")
    check(not v["pass"] and "sm: GPM 86.0 %, dmon 98.0 %" in v["detail"],
          "GPM 12 points under dmon: %s" % v["detail"])

    def header(i):
        i["dmon_text"] = i["dmon_text"].replace("smact", "sm_what")
    v = verdict_after(header, "gpm_vs_dmon")
    check(not v["pass"] and "no dmon column" in v["detail"] and "sm_what" in v["detail"],
          "an unknown dmon header said with the header: %s" % v["detail"])

    def no_gpm(i):
        i["region"]["region_totals"]["0"] = {}
    v = verdict_after(no_gpm, "gpm_vs_dmon")
    check(not v["pass"] and "no GPM counter in region sm" in v["detail"],
          "no GPM events: %s" % v["detail"])

    def power(i):
        i["smi_line"] = i["smi_line"].replace("121.30", "133.00")
    v = verdict_after(power, "nvml_vs_nvidia_smi")
    check(not v["pass"] and "power.draw" in v["detail"], "power 11 %% off: %s" % v["detail"])

    def na(i):
        i["smi_line"] = i["smi_line"].replace(" 36,", " [N/A],")
    v = verdict_after(na, "nvml_vs_nvidia_smi")
    check(not v["pass"] and "temperature.gpu: papi 36.0, nvidia-smi None" in v["detail"],
          "nvidia-smi's [N/A]: %s" % v["detail"])

    def slow_run(i):
        i["elapsed_s"] = 121.0
    check(not verdict_after(slow_run, "time")["pass"], "over two minutes fails")

    def run_short(i):
        i["run_gpu"]["gpu"]["total"]["kernel_launches"] -= 1
    v = verdict_after(run_short, "kernel_count")
    check(not v["pass"] and "papi_run --gpu's file: 1551 launches, want 1552" in v["detail"], "papi_run's total: %s"
          % v["detail"])
    print("test_gpu_verdicts: %s" % ("FAILED (%d)" % len(FAILS) if FAILS else "PASSED"))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
