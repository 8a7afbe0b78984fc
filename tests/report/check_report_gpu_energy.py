#!/usr/bin/env python3
"""check_report_gpu_energy.py PAPI_REPORT: GPU energy in papi_report (issue 56 item 1: a
region with nvml:::...:total_energy_consumption gave region_energy.csv and rank_energy.csv
headers and no rows, and the region tree showed the GPU's energy and power twice, "(own)"
and "(all threads)", in mJ and mW).

gpu_h200/rank_000000.json looks like a region file recorded on an NVIDIA H200: nvml's
energy (mJ), power (mW) and allocated memory (B) beside perf::TASK-CLOCK, the main
thread's "gpu_solve" (2,700,000 mJ own, 2,700,500 all threads) around "transfer" (300,000
and 300,100) and a second thread's "gpu_solve" (2,690,000), no powercap event.
1. region_energy.csv: a row per thread and region with gpu_j in J (2700, 300, 2690) and
   gpu_w = gpu_j / real time (600, 500 W), the CPU columns empty; report.txt shows them.
2. region_tree.csv: the device events once (no "(all threads)" column for them), their
   value the device's over the region (2,700,500: the most of the threads, not their
   sum); report.txt's tree in J, W and GB ("... (J)" 2700.5, 612 W, 0.64494 GB), never
   "(own)" beside them.
3. Two ranks on one host read one GPU: the tree keeps 2,700,500; on two hosts, the sum.
4. A file's marker (event_definitions' "scope": "device", "units": "mJ") on a component
   papi_report does not know gives the same rows.
5. An MPI report whose ranks count nvml energy and powercap: rank_energy.csv has each
   rank's gpu_j (J) and gpu_w beside energy_j.
Exit 0 pass, 1 fail."""
import copy
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)

report_check.guard()

TOOL = sys.argv[1]
PY = "/usr/bin/python3"
D = "nvml:::NVIDIA_H200:device_0:"
E, P, M = D + "total_energy_consumption", D + "power", D + "allocated_memory"
from checks import check_said as check, verdict  # noqa: E402 (tests/common/checks.py)


def fixture():
    with open(os.path.join(HERE, "gpu_h200", "rank_000000.json")) as f:
        return json.load(f)


def write(d, docs):
    os.makedirs(d)
    for doc in docs:
        with open(os.path.join(d, "rank_%06d.json" % doc["rank"]), "w") as f:
            json.dump(doc, f)
    return d


def report(tmp, name, *inputs):
    out = os.path.join(tmp, name)
    p = subprocess.run([PY, TOOL, *inputs, "-o", out], capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, "%s: papi_report exits 0 (%s)" % (name, p.stderr.strip()[-300:]))
    return out


def rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(v):
    return float(v) if v not in ("", None) else None


def energy_rows(out):
    return {(r["rank"], r["thread"], r["path"]): r for r in rows(os.path.join(out, "region_energy.csv"))}


def tree(out):
    return {r["path"]: r for r in rows(os.path.join(out, "region_tree.csv"))}


def renamed(doc, old, new):
    """doc with every event name starting old starting new instead."""
    text = json.dumps(doc).replace(old, new)
    return json.loads(text)


def icicle_units(regions):
    """The region tree's icicle (figures.region_tree): the device events' boxes say the
    tables' units, "2700 J" and "612 W" (issue 69: they said "2.7 M" and "691 k" of mJ and
    mW), their panels' titles too."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(TOOL)))
    import papi_report
    from papi_report.tables import catalog
    catalog.load("figures")
    from papi_report.figures import figures
    fig = figures.region_tree(papi_report.tables(regions=[regions]))
    if not check(not isinstance(fig, str), "the region tree figure is drawn"):
        return
    panels = {a.get_title(): [t.papi_labels[-1] for t in a.texts if hasattr(t, "papi_labels")]
              for a in fig.axes}
    energy = next((v for k, v in panels.items() if E + " (J)" in k), None)
    power = next((v for k, v in panels.items() if P + " (W)" in k), None)
    check(energy is not None and "2700 J" in energy and all(v.endswith(" J") for v in energy),
          "the icicle's GPU energy in J: %s" % energy)
    check(power is not None and "612 W" in power and all(v.endswith(" W") for v in power),
          "the icicle's GPU power in W: %s (panels %s)" % (power, list(panels)))


def main():
    if not os.path.exists(PY):
        print("SKIPPED: no /usr/bin/python3 (with pandas) for papi_report")
        return 77
    tmp = tempfile.mkdtemp(prefix="papi_gpu_energy.")
    out = report(tmp, "one", "--regions", os.path.join(HERE, "gpu_h200"))
    # 1. The energy table.
    got = energy_rows(out)
    solve, transfer, worker = (got.get(("0", "0", "gpu_solve")), got.get(("0", "0", "gpu_solve/transfer")),
                               got.get(("0", "1", "gpu_solve")))
    print("     region_energy:", [(k, r["gpu_j"], r["gpu_w"]) for k, r in got.items()])
    check(solve is not None and num(solve["gpu_j"]) == 2700.0 and num(solve["gpu_w"]) == 600.0,
          "gpu_solve: 2700 J of GPU energy (2,700,000 mJ), 600 W over its 4.5 s")
    check(transfer is not None and num(transfer["gpu_j"]) == 300.0 and num(transfer["gpu_w"]) == 500.0,
          "transfer: 300 J, 500 W")
    check(worker is not None and num(worker["gpu_j"]) == 2690.0, "the second thread's gpu_solve: 2690 J")
    check(solve is not None and all(solve[c] == "" for c in ("energy_j", "package_j", "power_w")),
          "no CPU energy counted: its columns are empty, not 0")
    with open(os.path.join(out, "report.txt")) as f:
        txt = f.read()
    check("GPU energy and power beside" in txt and "gpu_j" in txt and " 2700 " in txt,
          "report.txt shows the energy table with the GPU's joules")
    # 2. The region tree: once, in J, W and GB.
    t = tree(out)
    cols = list(t["gpu_solve"].keys()) if "gpu_solve" in t else []
    check(E in cols and E + " (all threads)" not in cols and P + " (all threads)" not in cols,
          "region_tree.csv: the device events once, no all-thread column (%s)" % cols)
    check(t and int(t["gpu_solve"][E]) == 2700500 and int(t["gpu_solve/transfer"][E]) == 300100,
          "region_tree.csv: gpu_solve's energy the device's, 2,700,500 mJ (not the threads' sum)")
    tree_txt = txt[txt.find("Region tree"):]
    tree_txt = tree_txt[:tree_txt.find("\n\n")]
    check(E + " (J)" in tree_txt and P + " (W)" in tree_txt and M + " (GB)" in tree_txt and
          "2700.5" in tree_txt and " 612 " in tree_txt and "0.64494" in tree_txt,
          "report.txt's tree: energy in J (2700.5), power in W (612), memory in GB (0.64494)")
    check(E + " (own)" not in tree_txt and E + " (all threads)" not in tree_txt,
          "report.txt's tree: never (own) beside (all threads) for a device event")
    with open(os.path.join(out, "report.html")) as f:
        page = f.read()
    check(E + " (J)" in page and E + " (own)" not in page, "report.html's tree: the same")
    icicle_units(os.path.join(HERE, "gpu_h200"))
    # 3. Ranks on one host share the GPU; on two hosts each has its own.
    r1 = fixture()
    r1["rank"] = 1
    same = report(tmp, "same_host", "--regions", write(os.path.join(tmp, "same"), [fixture(), r1]))
    r1b = copy.deepcopy(r1)
    r1b["run"]["host"] = "gpu-node-18"
    two = report(tmp, "two_hosts", "--regions", write(os.path.join(tmp, "two"), [fixture(), r1b]))
    a, b = tree(same).get("gpu_solve", {}), tree(two).get("gpu_solve", {})
    check(a and int(a[E]) == 2700500, "two ranks on one host: the GPU counted once (%s)" % a.get(E))
    check(b and int(b[E]) == 5401000, "two ranks on two hosts: each host's GPU (%s)" % b.get(E))
    check(len(energy_rows(same)) == 6, "region_energy.csv: a row per rank, thread and region (6)")
    # 4. The file's marker for a component papi_report does not know by name.
    marked = renamed(fixture(), "nvml:::", "gpux:::")
    for name, d in marked["event_definitions"].items():
        if name.startswith("gpux:::"):
            d.update(scope="device", units={"total_energy_consumption": "mJ", "power": "mW",
                                            "allocated_memory": "B"}[name.rsplit(":", 1)[1]])
    m_out = report(tmp, "marked", "--regions", write(os.path.join(tmp, "marked_in"), [marked]))
    got = energy_rows(m_out).get(("0", "0", "gpu_solve"))
    mt = tree(m_out).get("gpu_solve", {})
    check(got is not None and num(got["gpu_j"]) == 2700.0 and
          "gpux:::NVIDIA_H200:device_0:total_energy_consumption (all threads)" not in mt,
          "the file's scope/units marker: the same GPU energy, shown once")
    # 5. rank_energy of an MPI report.
    ranks = [{"rank": r, "finished": True, "threads": 1, "wall_s": 10.0, "mpi_s": 1.0,
              "counters": {E: 5000000 + 1000 * r, "powercap:::ENERGY_UJ:TOTAL": 1500000000},
              "calls": {"MPI_Barrier": {"calls": 2, "time_s": 1.0}}} for r in range(2)]
    mdir = os.path.join(tmp, "mpi")
    os.makedirs(mdir)
    with open(os.path.join(mdir, "papi_mpi_report.json"), "w") as f:
        json.dump({"tool": "papi_mpi", "nranks": 2, "events": [E, "powercap:::ENERGY_UJ:TOTAL"],
                   "ranks": ranks}, f)
    r_out = report(tmp, "mpi_out", mdir)
    re_ = {r["rank"]: r for r in rows(os.path.join(r_out, "rank_energy.csv"))}
    print("     rank_energy:", re_)
    check(len(re_) == 2 and num(re_["0"]["gpu_j"]) == 5000.0 and num(re_["1"]["gpu_j"]) == 5001.0
          and num(re_["0"]["gpu_w"]) == 500.0 and num(re_["0"]["energy_j"]) == 1500.0,
          "rank_energy.csv: each rank's GPU energy in J (5000, 5001) and 500 W beside 1500 J of CPU")
    return verdict("check_report_gpu_energy", scratch=tmp)


if __name__ == "__main__":
    sys.exit(main())
