#!/usr/bin/env python3
"""check_energy_regions.py WORKLOAD MACHINES_DIR PAPI_RUN: energy per region in the region
API, and over a run (papi_run -m).

Replayed powercap trees (PAPI_FSROOT, a scratch copy of tests/machines/NAME) whose
energy_uj the workload rewrites inside its regions; PAPI_EVENTS of powercap sums and
PAPI_METRICS of energy metrics:
1. Two-socket Intel (package, core, dram): per instance and per region the exact
   microjoules and joules; ENERGY_UJ:TOTAL and CPU_ENERGY are the packages only, never
   a package plus its core or dram subzones; package 1 wraps inside a region
   (max_energy_range_uj); CPU_POWER and EDP from the region's own real time.
2. Intel client with psys: CPU_ENERGY is psys alone (it covers the package).
3. Package 1's energy_uj not a number: the sums that need it are skipped with the
   reason in skipped_events, package 0 and DRAM still exact.
4. Arm with no powercap tree: CPU_ENERGY skipped with "no powercap tree", the program
   runs.
5. papi_run -m CPU_ENERGY,PKG_ENERGY,DRAM_ENERGY over a command that adds 2 J to package 0:
   the run's exact joules, DRAM 0, package 1 untouched."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

WORKLOAD, MACHINES, PAPI_RUN = sys.argv[1], sys.argv[2], sys.argv[3]
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)
TMP = tempfile.TemporaryDirectory()
RANGE = 262143328850  # rapl_two_socket's packages: max_energy_range_uj


def run(machine, ops, events, metrics, prepare=None):
    root = tempfile.mkdtemp(dir=TMP.name)
    shutil.copytree(os.path.join(MACHINES, machine), root, dirs_exist_ok=True)
    tree = os.path.join(root, "sys/class/powercap")
    if prepare:
        prepare(tree)
    out = tempfile.mkdtemp(dir=TMP.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_FSROOT=root, PAPI_OUTPUT_DIRECTORY=out)
    if events:
        env["PAPI_EVENTS"] = events
    if metrics:
        env["PAPI_METRICS"] = metrics
    p = subprocess.run([WORKLOAD, tree] + ops, env=env, capture_output=True, text=True,
                       timeout=60)
    check(p.returncode == 0, f"{machine}: the workload exits 0 ({p.returncode}: {p.stderr})")
    files = glob.glob(os.path.join(out, "papi_hl_output", "*.json"))
    check(len(files) == 1, f"{machine}: one region report ({files})")
    with open(files[0]) as f:
        return json.load(f)


def only_thread(doc):
    return next(iter(doc["threads"].values()))


def instances(doc):
    """[(name, counts)] in the order the regions began."""
    regs = only_thread(doc)["regions"]
    return [(r["name"], r) for _, r in sorted(regs.items(), key=lambda kv: int(kv[0]))]


def metric_thread(doc):
    return next(iter(doc.get("metrics", {}).get("threads", {}).values()), {})


def near(a, b):
    return a is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))


P = "powercap:::ENERGY_UJ:"

# 1. Two sockets: exact per instance and region, the hierarchy, a wrap.
ops = ["set:intel-rapl:1:%d" % (RANGE - 50),
       "begin:solve", "add:intel-rapl:0:3000000", "set:intel-rapl:1:949",
       "add:intel-rapl:0:1:500000", "add:intel-rapl:1:1:400000", "add:intel-rapl:0:0:111",
       "end:solve",
       "begin:io", "add:intel-rapl:0:250000", "end:io",
       "begin:solve", "add:intel-rapl:0:1000000", "add:intel-rapl:1:7", "end:solve"]
doc = run("rapl_two_socket", ops,
          ",".join(P + k for k in ("ZONE0", "PACKAGE", "TOTAL", "DRAM", "CORE")),
          "CPU_ENERGY,PKG_ENERGY,DRAM_ENERGY,CORE_ENERGY,CPU_POWER,EDP")
inst = instances(doc)
got = [(n, r.get(P + "ZONE0"), r.get(P + "PACKAGE"), r.get(P + "TOTAL"), r.get(P + "DRAM"),
        r.get(P + "CORE")) for n, r in inst]
print("     instances (name, ZONE0, PACKAGE, TOTAL, DRAM, CORE):", got)
check(got == [("solve", 3000000, 3001000, 3001000, 900000, 111),
              ("io", 250000, 250000, 250000, 0, 0),
              ("solve", 1000000, 1000007, 1000007, 0, 0)],
      "per instance: exact uJ, package 1 wrapped (50 + 1 + 949), TOTAL = the packages only")
tot = doc["region_totals"]
solve = next(iter(tot.values()))["solve"]
check(solve.get(P + "TOTAL") == 4001007 and solve.get(P + "DRAM") == 900000,
      f"region solve: TOTAL 4001007 uJ, DRAM 900000 uJ ({solve})")
mt = metric_thread(doc)
ms = mt.get("regions", {}).get("solve", {})
secs = solve["real_time_nsec"] / 1e9
print("     region solve metrics:", {k: v for k, v in ms.items() if k != "running_fraction"})
check(near(ms.get("CPU_ENERGY"), 4.001007) and near(ms.get("PKG_ENERGY"), 4.001007),
      "region solve: CPU_ENERGY = PKG_ENERGY = 4.001007 J (no subzone added)")
check(near(ms.get("DRAM_ENERGY"), 0.9) and near(ms.get("CORE_ENERGY"), 0.000111),
      "region solve: DRAM 0.9 J, core 0.000111 J, beside")
check(near(ms.get("CPU_POWER"), 4.001007 / secs) and near(ms.get("EDP"), 4.001007 * secs),
      "region solve: CPU_POWER = J / its real time, EDP = J x its real time")
mi = [m for _, m in sorted(mt.get("instances", {}).items(), key=lambda kv: int(kv[0]))]
check([round(m.get("CPU_ENERGY", -1), 9) for m in mi] == [3.001, 0.25, 1.000007],
      f"per instance CPU_ENERGY 3.001, 0.25, 1.000007 J ({[m.get('CPU_ENERGY') for m in mi]})")
check(doc["metrics"]["definitions"].get("CPU_ENERGY", {}).get("unit") == "J" and
      doc["metrics"]["definitions"].get("CPU_POWER", {}).get("unit") == "W",
      "the report defines CPU_ENERGY in J and CPU_POWER in W")

# 2. Intel client with psys: the total is psys alone.
doc = run("rapl_psys_client",
          ["begin:r", "add:intel-rapl:0:5000000", "add:intel-rapl:0:0:3000000",
           "add:intel-rapl:0:1:750000", "add:intel-rapl:1:9000000", "end:r"],
          None, "ENERGY,POWER")
r = instances(doc)[0][1]
check(r.get(P + "TOTAL") == 9000000 and r.get(P + "PACKAGE") == 5000000,
      f"psys client: TOTAL 9000000 uJ (psys alone), PACKAGE 5000000 ({r})")
m = metric_thread(doc).get("regions", {}).get("r", {})
check(near(m.get("CPU_ENERGY"), 9.0) and near(m.get("PKG_ENERGY"), 5.0) and
      near(m.get("CORE_POWER", 0) * r["real_time_nsec"] / 1e9, 3.0) and
      near(m.get("UNCORE_POWER", 0) * r["real_time_nsec"] / 1e9, 0.75),
      f"psys client: CPU_ENERGY 9 J, PKG_ENERGY 5 J, core 3 J, uncore 0.75 J ({m})")
sk = [s["name"] for s in doc.get("skipped_events", [])]
check(any("DRAM" in s for s in sk), f"psys client: DRAM skipped (no dram zone): {sk}")


# 3. A malformed zone: the reason, nothing else lost.
def garbage(tree):
    with open(os.path.join(tree, "intel-rapl:1/energy_uj"), "w") as f:
        f.write("garbage\n")


doc = run("rapl_two_socket",
          ["begin:r", "add:intel-rapl:0:123456", "add:intel-rapl:1:1:654321", "end:r"],
          ",".join(P + k for k in ("ZONE0", "PACKAGE", "DRAM")), "CPU_ENERGY", garbage)
r = instances(doc)[0][1]
check(r.get(P + "ZONE0") == 123456 and r.get(P + "DRAM") == 654321 and P + "PACKAGE" not in r,
      f"malformed package 1: ZONE0 and DRAM exact, PACKAGE not counted ({r})")
sk = {s["name"]: s["reason"] for s in doc.get("skipped_events", [])}
print("     skipped:", sk)
check("not a number" in sk.get(P + "PACKAGE", "") and "intel-rapl:1" in sk.get(P + "PACKAGE", ""),
      "PACKAGE skipped: package 1's energy_uj is not a number")
check("not a number" in sk.get("CPU_ENERGY", ""), "CPU_ENERGY skipped with the same reason")

# 4. Arm: no powercap tree.
doc = run("arm64", ["begin:r", "end:r"], None, "CPU_ENERGY")
sk = {s["name"]: s["reason"] for s in doc.get("skipped_events", [])}
check("no powercap tree" in sk.get("CPU_ENERGY", ""),
      f"arm64: CPU_ENERGY skipped, no powercap tree ({sk})")

# 5. Over a run: papi_run -m.
root = tempfile.mkdtemp(dir=TMP.name)
shutil.copytree(os.path.join(MACHINES, "rapl_two_socket"), root, dirs_exist_ok=True)
f0 = os.path.join(root, "sys/class/powercap/intel-rapl:0/energy_uj")
with open(f0) as f:
    v0 = int(f.read())
env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
env["PAPI_FSROOT"] = root
p = subprocess.run([PAPI_RUN, "-x", ",", "-o", os.path.join(TMP.name, "run"), "-m",
                    "CPU_ENERGY,PKG_ENERGY,DRAM_ENERGY", "--", "sh", "-c",
                    "echo %d > %s" % (v0 + 2000000, f0)], env=env, capture_output=True,
                   text=True, timeout=60)
lines = {l.split(",")[2] if len(l.split(",")) > 2 else "": l.split(",")
         for l in (p.stdout + p.stderr).splitlines()}
print("     papi_run:", {k: v[0] for k, v in lines.items() if "ENERGY" in k})
check(p.returncode == 0, f"papi_run exits 0 ({p.stderr[-300:]})")
val = {k: float(v[0]) for k, v in lines.items() if k in ("CPU_ENERGY", "PKG_ENERGY", "DRAM_ENERGY")
       and v[0] not in ("", "<not counted>")}
check(val == {"CPU_ENERGY": 2.0, "PKG_ENERGY": 2.0, "DRAM_ENERGY": 0.0},
      f"over the run: CPU_ENERGY 2 J, PKG_ENERGY 2 J, DRAM_ENERGY 0 ({val})")

if failures:
    print(f"check_energy_regions: {len(failures)} failure(s)")
    sys.exit(1)
print("check_energy_regions: passed")
