#!/usr/bin/env python3
"""check_energy_report.py PAPI_REPORT WORKLOAD MACHINES_DIR: energy in papi_report.

Two runs of the region workload on a replayed two-socket powercap tree (PAPI_FSROOT)
with known energy per region: A spends 3.001 J in "solve" (package 0: 3 J, package 1:
1 mJ, DRAM 0.5 J beside) and 0.25 J in "io"; B twice as much in "solve".
1. papi_report A: region_energy.csv has each region's exact joules per kind (energy_j:
   the packages only, DRAM beside) and its mean power (energy over the region's real
   time); report.txt shows the table with the rule in its heading.
2. papi_report --compare A B: compare.csv's energy_a_j / energy_b_j are each region's
   CPU energy on each side (3.001 / 6.002 on solve's rows, 0.25 / 0.25 on io's), and
   compare.txt shows them."""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

TOOL, WORKLOAD, MACHINES = sys.argv[1], sys.argv[2], sys.argv[3]
PY = "/usr/bin/python3"
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)
TMP = tempfile.TemporaryDirectory()
P = "powercap:::ENERGY_UJ:"


def run(scale):
    root = tempfile.mkdtemp(dir=TMP.name)
    shutil.copytree(os.path.join(MACHINES, "rapl_two_socket"), root, dirs_exist_ok=True)
    out = tempfile.mkdtemp(dir=TMP.name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    env.update(PAPI_FSROOT=root, PAPI_OUTPUT_DIRECTORY=out, PAPI_METRICS="ENERGY",
               PAPI_EVENTS=",".join(P + k for k in ("TOTAL", "PACKAGE", "DRAM")))
    ops = ["begin:solve", "add:intel-rapl:0:%d" % (3000000 * scale),
           "add:intel-rapl:1:%d" % (1000 * scale), "add:intel-rapl:0:1:%d" % (500000 * scale),
           "end:solve", "begin:io", "add:intel-rapl:0:250000", "end:io"]
    p = subprocess.run([WORKLOAD, os.path.join(root, "sys/class/powercap")] + ops, env=env,
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, "workload x%d exits 0 (%s)" % (scale, p.stderr.strip()))
    return out


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


if not os.path.exists(PY):
    print("SKIPPED: no /usr/bin/python3 (with pandas) for papi_report")
    sys.exit(77)
a, b = run(1), run(2)
rep = os.path.join(TMP.name, "rep")
p = subprocess.run([PY, TOOL, "--regions", os.path.join(a, "papi_hl_output"), "-o", rep],
                   capture_output=True, text=True, timeout=120)
check(p.returncode == 0, "papi_report exits 0 (%s)" % p.stderr.strip()[-300:])
got = {r["region"]: r for r in rows(os.path.join(rep, "region_energy.csv"))}
s, io = got.get("solve", {}), got.get("io", {})
print("     region_energy solve:", s)
check(s and float(s["energy_j"]) == 3.001 and float(s["package_j"]) == 3.001 and
      float(s["dram_j"]) == 0.5, "solve: 3.001 J (the packages only), DRAM 0.5 J beside")
check(s and abs(float(s["power_w"]) - 3.001 / float(s["real_time_s"])) < 1e-9 * float(s["power_w"]),
      "solve: mean power = energy / the region's real time")
check(io and float(io["energy_j"]) == 0.25 and float(io["dram_j"]) == 0, "io: 0.25 J, no DRAM")
check("top-level powercap zones only" in s.get("rule", ""), "the rule is named in the table")
with open(os.path.join(rep, "report.txt")) as f:
    txt = f.read()
check("CPU energy and mean power per region" in txt and "never a package plus its own subzones"
      in txt, "report.txt shows the energy table with the rule")

cmp_dir = os.path.join(TMP.name, "cmp")
p = subprocess.run([PY, TOOL, "--compare", a, b, "-o", cmp_dir], capture_output=True, text=True,
                   timeout=120)
check(p.returncode == 0, "papi_report --compare exits 0 (%s)" % p.stderr.strip()[-300:])
c = rows(os.path.join(cmp_dir, "compare.csv"))
solve = [r for r in c if r["scope"] == "region" and r["entity"] == "solve"]
io = [r for r in c if r["scope"] == "region" and r["entity"] == "io"]
print("     solve rows:", [(r["quantity"], r["energy_a_j"], r["energy_b_j"]) for r in solve][:4])
check(solve and all(float(r["energy_a_j"]) == 3.001 and float(r["energy_b_j"]) == 6.002
                    for r in solve), "compare: solve's rows carry 3.001 J (A) and 6.002 J (B)")
check(io and all(float(r["energy_a_j"]) == 0.25 and float(r["energy_b_j"]) == 0.25 for r in io),
      "compare: io's rows carry 0.25 J on both sides")
ce = [r for r in solve if r["quantity"] == "CPU_ENERGY"]
check(ce and ce[0]["verdict"] == "higher" and abs(float(ce[0]["ratio"]) - 2.0) < 1e-12,
      "compare: solve's CPU_ENERGY 2 x, higher")
with open(os.path.join(cmp_dir, "compare.txt")) as f:
    txt = f.read()
check("energy J (A / B)" in txt and "3.001 / 6.002" in txt, "compare.txt shows the energy column")

if failures:
    print("check_energy_report: %d failure(s)" % len(failures))
    sys.exit(1)
print("check_energy_report: passed")
