#!/usr/bin/env python3
"""check_native_avail.py UTILS_DIR: papi_native_avail on a recorded machine
(PAPI_FSROOT, set by ctest: the hybrid Meteor Lake of tests/machines/mtl_hybrid) lists
its events grouped by PMU with the route that describes them, in text and in JSON:

- each PMU's events come together, under one header, every event named <pmu>::...;
- the routes: libpfm4 for its generic tables (perf, perf_raw), the kernel's sysfs for the
  recorded core PMUs (cpu_core, cpu_atom, each with its CPUs) and msr; libpfm4's tables of
  this host's own CPU are not listed for a recorded machine;
- every named event file of the recorded core PMUs is listed (the count papi_component_avail
  reports equals the events listed), and libpfm4's generic events say they are summed
  over the two core types;
- text and JSON list the same events.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, verdict  # noqa: E402


def run(tool, *args):
    out = subprocess.run([os.path.join(sys.argv[1], tool), *args], capture_output=True,
                         text=True, timeout=120)
    check(out.returncode == 0, f"{tool} {' '.join(args)} exited {out.returncode}: {out.stderr}")
    return out.stdout


def main():
    root = os.environ.get("PAPI_FSROOT", "")
    if not root:
        print("SKIPPED: PAPI_FSROOT is not set (ctest sets it to tests/machines/mtl_hybrid)")
        return 77
    devices = os.path.join(root, "sys/bus/event_source/devices")
    files = {p: sorted(os.listdir(os.path.join(devices, p, "events")))
             for p in ("cpu_core", "cpu_atom")}

    # ---- text: "| PMU <name> <route>" headers, then "| <pmu>::<event>" lines ----
    text = run("papi_native_avail", "--noumasks")
    headers, events, current = [], {}, None
    for line in text.splitlines():
        if line.startswith("| PMU "):
            parts = line[6:].rstrip("|").split(None, 1)
            current = parts[0]
            headers.append((current, parts[1].strip() if len(parts) > 1 else ""))
            events.setdefault(current, [])
        elif line.startswith("| ") and line[2:3] != " " and "::" in line and current:
            name = line[2:].split()[0]
            check(name.startswith(current + "::"), f"{name} is listed under PMU {current}")
            events[current].append(name)
    names = [h[0] for h in headers]
    print("text groups:", ", ".join(f"{h[0]} ({len(events[h[0]])})" for h in headers))
    check(len(names) == len(set(names)), f"a PMU's events are split into groups: {names}")
    route = dict(headers)
    for pmu in ("perf", "perf_raw"):
        check("libpfm4" in route.get(pmu, ""), f"PMU {pmu}: route '{route.get(pmu)}'")
    for pmu, cpus in (("cpu_core", "CPUs 0-11"), ("cpu_atom", "CPUs 12-21")):
        check("sysfs" in route.get(pmu, "") and cpus in route.get(pmu, ""),
              f"PMU {pmu}: header '{route.get(pmu)}' lacks the sysfs route or {cpus}")
        listed = sorted(n.split("::", 1)[1] for n in events.get(pmu, []))
        check(listed == files[pmu], f"{pmu} lists {listed}, its events/ has {files[pmu]}")
    check("sysfs" in route.get("msr", ""), f"PMU msr: route '{route.get('msr')}'")
    # The recorded uncore PMUs (mtl_hybrid's free-running memory counters) are the
    # machine's too, listed by the perf_event_uncore component.
    uncore = ("uncore_imc_free_running_0", "uncore_imc_free_running_1")
    host = [n for n in names if n not in ("perf", "perf_raw", "cpu_core", "cpu_atom", "msr",
                                          "procio") + uncore]
    check(not host, f"PMUs that are not the recorded machine's are listed: {host}")

    # ---- JSON: the same events, each with its PMU and route ----
    doc = json.loads(run("papi_native_avail", "--json", "--noumasks"))
    perf = next(c for c in doc["components"] if c["component"] == "perf_event")
    by_pmu = {}
    for e in perf["events"]:
        check(e["name"].startswith(e["pmu"] + "::"), f"JSON {e['name']} has pmu {e['pmu']}")
        by_pmu.setdefault(e["pmu"], []).append(e)
    for pmu, want in (("perf", "libpfm4"), ("perf_raw", "libpfm4"), ("cpu_core", "sysfs"),
                      ("cpu_atom", "sysfs"), ("msr", "sysfs")):
        got = {e["route"] for e in by_pmu.get(pmu, [])}
        check(got == {want}, f"JSON PMU {pmu}: routes {got}, want {want}")
    check(sorted(e["name"] for e in perf["events"])
          == sorted(n for p in names if p != "procio" and p not in uncore for n in events[p]),
          "text and JSON list different perf_event events")
    ins = next((e for e in by_pmu.get("perf", []) if e["name"] == "perf::INSTRUCTIONS"), None)
    check(ins is not None and "summed over the core types" in ins["description"]
          and "cpu_core" in ins["description"] and "cpu_atom" in ins["description"],
          f"perf::INSTRUCTIONS does not say it is summed over cpu_core and cpu_atom: {ins}")

    # ---- the component's event count is what is listed ----
    comp = json.loads(run("papi_component_avail", "--json"))
    c0 = next(c for c in comp["components"] if c["name"] == "perf_event")
    check(c0["native_events"] == len(perf["events"]),
          f"papi_component_avail counts {c0['native_events']}, {len(perf['events'])} listed")
    check("cpu_core" in c0["pmus"] and "cpu_atom" in c0["pmus"], f"pmus: {c0['pmus']}")
    return verdict("check_native_avail")


if __name__ == "__main__":
    sys.exit(main())
