#!/usr/bin/env python3
"""check_metric_avail.py PAPI_METRIC_AVAIL MACHINES_DIR: papi_metric_avail as a site uses it.

1. Recorded Granite and Emerald Rapids: DP_FLOPS, MEM_BW and TOPDOWN_RETIRING resolve,
   MEM_BW to every memory controller's read and write CAS event (uncore_imc_0 and _1,
   each shown in MiB by the kernel's scale), TOPDOWN_RETIRING to topdown-retiring and
   slots; a recorded Zen 5: the same three, MEM_BW to amd_umc_0's read and write CAS
   commands, TOPDOWN_RETIRING over 8 dispatch slots per cycle.
2. The JSON lists the same, and this machine's CPU_UTILIZATION is countable;
   papi_native_avail shows a memory-controller event's kernel scale and unit.
3. Bad input: an unknown metric exits 2 naming it, an unknown option exits 2, a
   malformed PAPI_METRICS_FILE exits 1 naming file and line."""
import json
import os
import subprocess
import sys

TOOL, MACHINES = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check_said as check, fails as failures  # noqa: E402 (tests/common/checks.py)


def run(args, **env):
    e = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
    e.update(env)
    return subprocess.run([TOOL] + args, env=e, capture_output=True, text=True, timeout=60)


def blocks(text):
    out, cur = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            cur = line.split(" ")[0]
            out[cur] = []
        elif cur:
            out[cur].append(line.strip())
    return out


MEM_EVENTS = {
    "gnr_node": ["uncore_imc_0::cas_count_read_sch0", "uncore_imc_1::cas_count_read_sch0",
                 "uncore_imc_0::cas_count_read_sch1", "uncore_imc_1::cas_count_read_sch1",
                 "uncore_imc_0::cas_count_write_sch0", "uncore_imc_1::cas_count_write_sch0",
                 "uncore_imc_0::cas_count_write_sch1", "uncore_imc_1::cas_count_write_sch1"],
    "emr_node": ["uncore_imc_0::cas_count_read", "uncore_imc_1::cas_count_read",
                 "uncore_imc_0::cas_count_write", "uncore_imc_1::cas_count_write"],
    "zen5_node": ["amd_umc_0::event=0x0a,rdwrmask=0x1", "amd_umc_0::event=0x0a,rdwrmask=0x2"],
}

for machine in ("gnr_node", "emr_node", "zen5_node"):
    root = os.path.join(MACHINES, machine)
    names = "DP_FLOPS,TOPDOWN_RETIRING,MEM_BW"
    p = run(["-m", names], PAPI_FSROOT=root)
    check(p.returncode == 0, f"{machine}: -m {names} exits 0 ({p.returncode}: {p.stderr.strip()})")
    b = blocks(p.stdout)
    for n in names.split(","):
        lines = b.get(n, [])
        check("Resolves:     yes" in lines, f"{machine}: {n} resolves")
        check(any(l.startswith("Event  1:") for l in lines), f"{machine}: {n} lists its events")
    ev = [l.split(":", 1)[1].strip() for l in b.get("MEM_BW", []) if l.startswith("Event")]
    check(ev == MEM_EVENTS[machine],
          f"{machine}: MEM_BW sums every memory controller's CAS events: {ev}")
    scaled = [l for l in b.get("MEM_BW", []) if "counts scaled to MiB by the kernel" in l]
    check(len(scaled) == (len(MEM_EVENTS[machine]) if machine != "zen5_node" else 0),
          f"{machine}: each CAS event's kernel unit shown where sysfs has one ({len(scaled)})")
    if machine != "zen5_node":
        td = [l for l in b.get("TOPDOWN_RETIRING", []) if l.startswith("Event")]
        check(any("cpu::topdown-retiring" in l for l in td) and any("cpu::slots" in l for l in td),
              f"{machine}: TOPDOWN_RETIRING is topdown-retiring over slots")
    else:
        form = [l for l in b.get("TOPDOWN_RETIRING", []) if l.startswith("Formula")]
        check(form and "8 *" in form[0], f"{machine}: Zen 5's slots are 8 per cycle: {form}")
    j = run(["--json"], PAPI_FSROOT=root)
    doc = json.loads(j.stdout)
    got = {m["name"]: m for m in doc["metrics"]}
    check(all(got.get(n, {}).get("resolved") for n in names.split(",")),
          f"{machine}: --json says the same")

# papi_native_avail shows the kernel's scale and unit with the event, and lists the
# .scale/.unit files as no event of their own.
NATIVE = os.path.join(os.path.dirname(TOOL), "papi_native_avail")
gnr = {k: v for k, v in os.environ.items() if not k.startswith("PAPI_")}
gnr["PAPI_FSROOT"] = os.path.join(MACHINES, "gnr_node")
p = subprocess.run([NATIVE, "-e", "uncore_imc_0::cas_count_read_sch0"], env=gnr,
                   capture_output=True, text=True, timeout=60)
check(p.returncode == 0 and "|MiB|" in p.stdout and "6.103515625e-05 MiB" in p.stdout,
      "gnr_node: papi_native_avail -e shows cas_count_read_sch0's unit and scale")
p = subprocess.run([NATIVE], env=gnr, capture_output=True, text=True, timeout=60)
check(p.returncode == 0 and "cas_count_read_sch0 " in p.stdout + " " and ".scale" not in p.stdout
      and ".unit" not in p.stdout, "gnr_node: the listing has cas_count_read_sch0, no .scale/.unit")

p = run(["--json"])
doc = json.loads(p.stdout)
cu = [m for m in doc["metrics"] if m["name"] == "CPU_UTILIZATION"]
check(p.returncode == 0 and cu and cu[0]["countable"] and cu[0]["events"] == ["perf::TASK-CLOCK"],
      "this machine: CPU_UTILIZATION countable from perf::TASK-CLOCK")

p = run(["-m", "NOPE"])
check(p.returncode == 2 and "'NOPE'" in p.stderr, f"unknown metric: exit 2, named ({p.stderr.strip()})")
p = run(["-m", "HP_FLOPS"], PAPI_FSROOT=os.path.join(MACHINES, "zen5_node"))
check(p.returncode == 2 and "'HP_FLOPS' is not defined for this CPU (metric table "
      "'amd64_fam1ah_zen5')" in p.stderr,
      f"a standard metric the CPU's table lacks: which table, and why ({p.stderr.strip()})")
p = run(["--bogus"])
check(p.returncode == 2, "unknown option: exit 2")
p = run([], PAPI_METRICS_FILE=os.path.join(HERE, "bad_metrics.csv"))
check(p.returncode == 1 and "bad_metrics.csv:3:" in p.stderr,
      f"malformed table: exit 1 with file and line ({p.stderr.strip()})")

if failures:
    print(f"check_metric_avail: {len(failures)} failure(s)")
    sys.exit(1)
print("check_metric_avail: passed")
