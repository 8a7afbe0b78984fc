#!/usr/bin/env python3
"""check_utility.py UTILITY BINDIR [XMLDIR]: run one papi_* utility the ways a user does
and check its exit status, the fields it prints and that --json parses. Exit 0 pass,
1 fail, 77 skipped."""
import json
import os
import platform
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails as FAILURES  # noqa: E402 (tests/common/checks.py)
LABELS = ["PAPI version", "Operating system", "Vendor string and code", "Model string and code",
          "CPU revision", "CPU Max MHz", "CPU Min MHz", "Total cores", "SMT threads per core",
          "Cores per socket", "Sockets", "Cores per NUMA region", "NUMA regions",
          "Running in a VM", "Number Hardware Counters", "Max Multiplex Counters",
          "Fast counter read (rdpmc)"]
# The core PMU: "cpu" (x86, POWER), "cpu_core"/"cpu_atom" (hybrid), Arm's names, s390's
# cpum_cf. Not "power": on x86 that is the RAPL energy PMU, which a VM may list.
CORE_PMU_PREFIXES = ("cpu", "armv8", "armv7", "arm_", "cpum_cf")


def run(args, env=None, expect=0):
    full_env = dict(os.environ)
    full_env.update(env or {})
    p = subprocess.run(args, capture_output=True, text=True, env=full_env, timeout=120)
    check(p.returncode == expect, "%s exited %d, expected %d\nstdout:%s\nstderr:%s" %
          (" ".join(args), p.returncode, expect, p.stdout[-2000:], p.stderr[-2000:]))
    return p


def run_json(args, env=None, expect=0):
    p = run(args, env, expect)
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        check(False, "%s: output is not JSON: %s" % (" ".join(args), e))
        return {}


def machine_has_core_pmu():
    try:
        names = os.listdir("/sys/bus/event_source/devices")
    except OSError:
        return False
    return any(n.startswith(CORE_PMU_PREFIXES) for n in names)


def check_header(text, data):
    for label in LABELS:
        check(any(line.startswith(label) and ":" in line for line in text.splitlines()),
              "header label '%s' missing" % label)
    counters = data.get("counters", {})
    n = counters.get("number_hardware_counters")
    check(isinstance(n, int), "JSON counters.number_hardware_counters missing")
    if not machine_has_core_pmu():
        check(n == 0, "no core PMU under sysfs, yet %r hardware counters" % n)
        check("Number Hardware Counters : 0" in text, "text header does not say 0 counters")
        check("No hardware counters can be used" in text, "no explanation for 0 counters")
        check("perf::" in counters.get("no_counters_reason", ""),
              "the reason does not name the software events that can be counted")
        with open("/proc/sys/kernel/perf_event_paranoid") as f:
            paranoid = int(f.read())
        check("Permissions: kernel.perf_event_paranoid is %d" % paranoid in text,
              "the explanation does not give perf_event_paranoid (%d)" % paranoid)
        check(counters.get("perf_event_paranoid") == paranoid, "JSON perf_event_paranoid")
    hw = data.get("hardware", {})
    check(hw.get("total_cores", 0) == os.cpu_count(),
          "total_cores %r vs os.cpu_count() %r" % (hw.get("total_cores"), os.cpu_count()))


def common(exe, usage_word="Usage"):
    p = run([exe, "--help"])
    check(usage_word in p.stdout, "%s --help prints no usage" % exe)
    run([exe, "--no-such-option"], expect=2)


def t_papi_avail(b, _):
    exe = os.path.join(b, "papi_avail")
    common(exe)
    text = run([exe]).stdout
    data = run_json([exe, "--json"])
    check_header(text, data)
    presets = data.get("presets", [])
    summary = data.get("summary", {})
    check(len(presets) == summary.get("possible") and len(presets) >= 100,
          "presets listed %d, summary %r" % (len(presets), summary))
    names = [p["name"] for p in presets]
    for want in ("PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_L1_DCM", "PAPI_FP_OPS"):
        check(want in names, "%s not listed" % want)
    avail = sum(1 for p in presets if p["available"])
    check(avail == summary.get("available"), "available count mismatch")
    check("Of %d possible events, %d are available" % (len(presets), avail) in text,
          "text summary line missing or different from JSON")
    table = [l for l in text.splitlines() if l.startswith("PAPI_")]
    check(len(table) == len(presets), "text table has %d rows, JSON %d" % (len(table), len(presets)))
    only = run([exe, "-a"]).stdout
    rows = [l for l in only.splitlines() if l.startswith("PAPI_")]
    check(len(rows) == avail and all(" Yes " in l for l in rows), "-a lists unavailable presets")
    detail = run([exe, "-d"]).stdout
    check("|Total cycles|" in detail, "-d does not print descriptions")
    e = run([exe, "-e", "PAPI_TOT_CYC"]).stdout
    check("Event name:                   PAPI_TOT_CYC" in e, "-e PAPI_TOT_CYC: no event name")
    ej = run_json([exe, "-e", "perf::PAGE-FAULTS", "--json"])
    check(ej.get("event", {}).get("kind") == "native", "-e native event: %r" % ej.get("event"))
    bad = run([exe, "-e", "NO_SUCH_EVENT_XYZ"], expect=1)
    check("NO_SUCH_EVENT_XYZ" in bad.stderr, "-e unknown event: no message")


def t_papi_native_avail(b, _):
    exe = os.path.join(b, "papi_native_avail")
    common(exe)
    text = run([exe]).stdout
    check("perf::PAGE-FAULTS" in text, "perf::PAGE-FAULTS not listed")
    check("Native Events in Component: perf_event" in text, "component banner missing")
    data = run_json([exe, "--json", "--check"])
    events = [e for c in data.get("components", []) for e in c["events"]]
    check(len(events) == data.get("total_events"), "total_events mismatch")
    by = {e["name"]: e for e in events}
    check(by.get("perf::PAGE-FAULTS", {}).get("can_add") is True, "PAGE-FAULTS cannot be added")
    check(data.get("events_that_add") == sum(1 for e in events if e["can_add"]), "check total")
    if not machine_has_core_pmu():
        cyc = by.get("perf::CYCLES", {})
        check(cyc.get("can_add") is False and cyc.get("reason"), "perf::CYCLES: %r" % cyc)
    filt = run_json([exe, "--json", "-i", "FAULTS"])
    names = [e["name"] for c in filt.get("components", []) for e in c["events"]]
    check(names and all("FAULTS" in n for n in names), "-i filter: %r" % names[:5])
    one = run([exe, "-e", "perf::TASK-CLOCK"]).stdout
    check("Can be added here:            yes" in one, "-e perf::TASK-CLOCK: %s" % one[-300:])
    run([exe, "-e", "NO_SUCH_EVENT_XYZ"], expect=1)


def hwloc_caches():
    """The caches above PU 0 as hwloc-info sees this machine (its Linux backend's sysfs,
    else its x86 backend's cpuid), as papi_mem_info's JSON names them; None without
    hwloc-info."""
    try:
        p = subprocess.run(["hwloc-info", "--ancestors", "pu:0"], capture_output=True,
                           text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode != 0:
        return None
    caches, cur = [], None
    for line in p.stdout.splitlines():
        if " = parent #" in line:
            cur = {} if "Cache" in line.split()[0] else None
            if cur is not None:
                caches.append(cur)
        elif cur is not None and line.strip().startswith("attr cache "):
            key, _, val = line.strip()[len("attr cache "):].partition(" = ")
            cur[key] = val
    out = []
    for c in caches:
        size, line = int(c.get("size", 0)), int(c.get("line size", 0))
        if size > 0 and line > 0:
            ways = int(c.get("ways", 0))
            out.append((int(c["depth"]), c["type"], size, line, size // line,
                        ways if ways > 0 else 0))
    return sorted(out)


def mem_info_caches(data):
    return sorted((c["level"], c["type"], c["size_bytes"], c["line_size"], c["num_lines"],
                   c["associativity"]) for c in data.get("caches", []))


def sysfs_hidden_json(exe):
    """papi_mem_info --json with cpu0/cache hidden (an empty directory mounted over it in a
    user and mount namespace): the fallback this machine's sysfs would not exercise.
    None where such a namespace cannot be made."""
    script = ('d=$(mktemp -d) && mount --bind "$d" /sys/devices/system/cpu/cpu0/cache && '
              '[ -z "$(ls /sys/devices/system/cpu/cpu0/cache)" ] && exec "$0" --json')
    try:
        p = subprocess.run(["unshare", "-rm", "sh", "-c", script, exe], capture_output=True,
                           text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode != 0:
        print("note: no namespace to hide cpu0/cache in (%s): the fallback is checked only "
              "where sysfs lacks it" % p.stderr.strip()[-200:])
        return None
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        check(False, "papi_mem_info --json with cpu0/cache hidden: not JSON: %s" % e)
        return {}


def t_papi_mem_info(b, xmldir):
    exe = os.path.join(b, "papi_mem_info")
    common(exe)
    text = run([exe]).stdout
    check("Cache Information." in text and "L1 Data Cache:" in text, "no cache table")
    data = run_json([exe, "--json"])
    check(len(data.get("caches", [])) >= 1, "JSON has no caches")
    # Every cache as hwloc sees this machine: from sysfs where it lists cpu0/cache, else
    # (a VM's kernel may list none) from cpuid, as hwloc's x86 backend reads it.
    want = hwloc_caches()
    if want is None:
        print("note: no hwloc-info: the caches are not compared with hwloc's")
    else:
        sysfs = os.path.isdir("/sys/devices/system/cpu/cpu0/cache") and \
            bool(os.listdir("/sys/devices/system/cpu/cpu0/cache"))
        print("hwloc-info's caches of PU 0 (%s): %r" % ("sysfs" if sysfs else "cpuid", want))
        check(mem_info_caches(data) == want, "papi_mem_info's caches %r, hwloc-info's %r"
              % (mem_info_caches(data), want))
        l1d = [c for c in want if c[:2] == (1, "Data")]
        if l1d:
            kb = l1d[0][2] // 1024
            check(re.search(r"L1 Data Cache:\n  Total size: +%d KB\n" % kb, text),
                  "text L1 data entry: want %d KB" % kb)
        if sysfs and platform.machine() in ("x86_64", "i686", "i386"):
            hidden = sysfs_hidden_json(exe)
            if hidden is not None:
                print("with cpu0/cache hidden: %r" % mem_info_caches(hidden))
                check(mem_info_caches(hidden) == want,
                      "with cpu0/cache hidden (the cpuid fallback): %r, hwloc-info's %r"
                      % (mem_info_caches(hidden), want))
    if xmldir:
        env = {"HWLOC_XMLFILE": os.path.join(xmldir, "two_socket_smt2.xml")}
        data = run_json([exe, "--json"], env)
        got = sorted((c["level"], c["type"], c["size_bytes"], c["line_size"], c["num_lines"],
                      c["associativity"]) for c in data.get("caches", []))
        want = sorted([(1, "Data", 49152, 64, 768, 12), (1, "Instruction", 32768, 64, 512, 8),
                       (2, "Unified", 1048576, 64, 16384, 8),
                       (3, "Unified", 33554432, 64, 524288, 16)])
        check(got == want, "two-socket caches %r" % got)
        check(data.get("tlbs") == [], "a replayed topology must not report this CPU's TLBs")
        check(data["hardware"]["sockets"] == 2 and data["hardware"]["smt_threads_per_core"] == 2,
              "two-socket header %r" % data.get("hardware"))
        text = run([exe], env).stdout
        check("L2 Unified Cache:\n  Total size:         1024 KB" in text, "text L2 entry")


def t_papi_clockres(b, _):
    exe = os.path.join(b, "papi_clockres")
    common(exe)
    text = run([exe, "-n", "2000"]).stdout
    check("PAPI_get_real_nsec" in text and "PAPI_get_virt_usec" in text, "timers missing")
    data = run_json([exe, "-n", "2000", "--json"])
    timers = {t["timer"]: t for t in data.get("timers", [])}
    check(len(timers) == 6, "timers %r" % list(timers))
    ns = timers.get("PAPI_get_real_nsec", {})
    check(ns.get("mean", 0) > 0 and ns.get("min", -1) >= 0, "real_nsec stats %r" % ns)
    run([exe, "-n", "1"], expect=2)


def t_papi_cost(b, _):
    exe = os.path.join(b, "papi_cost")
    common(exe)
    data = run_json([exe, "-t", "300", "--json"])
    m = {x["test"]: x for x in data.get("measurements", [])}
    check(len(m) == 6, "measurements %r" % list(m))
    for name in ("PAPI_start/stop", "PAPI_read", "PAPI_accum", "PAPI_reset"):
        x = m.get(name, {})
        check(x.get("mean_cycles", 0) > 0 and x.get("min_cycles", 0) <= x.get("max_cycles", -1),
              "%s stats %r" % (name, x))
    check(len(data.get("events", [])) == 2, "events %r" % data.get("events"))
    if not machine_has_core_pmu():
        check(data["events"][0].startswith("perf::") and "note" in data,
              "no PMU: expected the software-event fallback with a note")
    text = run([exe, "-t", "200", "-s", "-d", "-b", "4"]).stdout
    check("std deviation:" in text and "distribution" in text, "-s / -d output missing")
    one = run_json([exe, "-t", "100", "-e", "perf::PAGE-FAULTS", "--json"])
    check(one.get("events") == ["perf::PAGE-FAULTS"], "-e events %r" % one.get("events"))
    run([exe, "-e", "NO_SUCH_EVENT_XYZ", "-t", "10"], expect=1)
    run([exe, "-t", "0"], expect=2)


def t_papi_command_line(b, _):
    exe = os.path.join(b, "papi_command_line")
    common(exe)
    p = run([exe, "perf::PAGE-FAULTS"])
    line = [l for l in p.stdout.splitlines() if l.startswith("perf::PAGE-FAULTS :")]
    check(len(line) == 1, "no count line: %s" % p.stdout)
    if line:
        n = int(line[0].split(":")[-1])
        check(1000 <= n <= 1100, "PAGE-FAULTS count %d for a 1000-page workload" % n)
    if machine_has_core_pmu():
        p = run([exe, "PAPI_TOT_INS"], expect=0)
    else:
        p = run([exe, "PAPI_TOT_CYC"], expect=1)
        check("Failed adding: PAPI_TOT_CYC" in p.stdout and "because: " in p.stdout,
              "no reason printed: %s" % p.stdout)
        long = [l for l in p.stdout.splitlines() if len(l) > 80 and "utility lets you" not in l]
        check(not long, "reason lines wider than a terminal (80): %s" % long)
        data = run_json([exe, "--json", "PAPI_TOT_CYC", "perf::PAGE-FAULTS"], expect=1)
        ev = data.get("events", [])
        check(len(ev) == 2 and ev[0]["added"] is False and ev[0].get("reason"),
              "JSON reason %r" % ev)
        check(len(ev) == 2 and ev[1].get("count", 0) >= 1000, "JSON count %r" % ev)
    run([exe], expect=2)


def t_papi_event_chooser(b, _):
    exe = os.path.join(b, "papi_event_chooser")
    common(exe)
    data = run_json([exe, "--json", "NATIVE", "perf::PAGE-FAULTS"])
    names = [e["name"] for e in data.get("compatible", [])]
    check("perf::TASK-CLOCK" in names, "TASK-CLOCK not compatible with PAGE-FAULTS: %r" % names)
    check("perf::PAGE-FAULTS" not in names, "the given event is listed again")
    check(data.get("total") == len(names), "total mismatch")
    text = run([exe, "PRESET", "perf::PAGE-FAULTS"]).stdout
    check("Total events reported:" in text, "no total line")
    if not machine_has_core_pmu():
        p = run([exe, "PRESET", "PAPI_TOT_CYC"], expect=1)
        check("PAPI_TOT_CYC" in p.stderr, "no reason for PAPI_TOT_CYC")
    run([exe, "NATIVE"], expect=2)


def t_papi_component_avail(b, _):
    exe = os.path.join(b, "papi_component_avail")
    common(exe)
    text = run([exe, "-d"]).stdout
    data = run_json([exe, "--json"])
    check_header(text, data)
    comps = {c["name"]: c for c in data.get("components", [])}
    check(comps.get("perf_event", {}).get("active") is True, "perf_event not active")
    check(comps.get("perf_event", {}).get("native_events", 0) > 0, "no native events")
    check("Name:   perf_event" in text and "Native events:" in text, "text listing / -d")


def main():
    if len(sys.argv) < 3:
        print("usage: check_utility.py UTILITY BINDIR [XMLDIR]")
        return 2
    util, bindir = sys.argv[1], sys.argv[2]
    xmldir = sys.argv[3] if len(sys.argv) > 3 else None
    fn = globals().get("t_" + util)
    if not fn:
        print("unknown utility", util)
        return 2
    fn(bindir, xmldir)
    print("%s: %s" % (util, "FAILED (%d)" % len(FAILURES) if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
