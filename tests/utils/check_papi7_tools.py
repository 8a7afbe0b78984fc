#!/usr/bin/env python3
"""check_papi7_tools.py UTILITY BINDIR: the utilities PAPI 7 has beyond the first nine
(papi_version, papi_error_codes, papi_xml_event_info, papi_hardware_avail,
papi_multiplex_cost): their output, --json, exit statuses, and where PAPI 7's own tool
runs here (/usr/bin, Debian's papi-tools), the same layout as its output.
Exit 0 pass, 1 fail."""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_utility import FAILURES, check, common, machine_has_core_pmu, run, run_json  # noqa: E402

PAPI_BIN = "/usr/bin"


def papi_tool(name):
    """Output of PAPI 7's own tool, or None when it is not installed here."""
    exe = os.path.join(PAPI_BIN, name)
    if not os.access(exe, os.X_OK):
        print("note: %s not installed, layout comparison left out" % exe)
        return None
    return subprocess.run([exe], capture_output=True, text=True, timeout=120).stdout


def t_papi_version(b):
    exe = os.path.join(b, "papi_version")
    common(exe)
    out = run([exe]).stdout
    # PAPI's line first (scripts read it), then this project's release on a line of its own.
    text, _, ours = out.partition("\n")
    text += "\n"
    form = re.compile(r"^PAPI Version: (\d+)\.(\d+)\.(\d+)\.(\d+)\n$")
    m = form.match(text)
    check(m is not None, "papi_version prints %r" % out)
    check(re.fullmatch(r"papi-compat Version: \d+\.\d+\.\d+\n", ours) is not None,
          "papi_version's second line %r" % ours)
    theirs = papi_tool("papi_version")
    if theirs is not None:
        check(form.match(theirs) is not None, "PAPI's papi_version layout changed: %r" % theirs)
    data = run_json([exe, "--json"])
    if m:
        check(data.get("version") == ".".join(m.groups()), "JSON %r vs text %r" % (data, text))
        check(data.get("major") == int(m.group(1)) == 7, "major version %r" % data.get("major"))


ERROR_LINE = re.compile(r"^Error code +(-?\d+): (.+)$")


def shape(text):
    """The layout of papi_error_codes' output with the texts and version taken out."""
    out = []
    for line in text.split("\n"):
        m = ERROR_LINE.match(line)
        if m:
            line = "Error code %4d: <text>" % int(m.group(1))
        out.append(re.sub(r"Version: [\d.]+", "Version: <v>", line))
    return out


def t_papi_error_codes(b):
    exe = os.path.join(b, "papi_error_codes")
    common(exe)
    text = run([exe]).stdout
    codes = [int(m.group(1)) for m in map(ERROR_LINE.match, text.split("\n")) if m]
    check(codes == list(range(0, -28, -1)), "codes listed %r" % codes)
    check("There are 28 error codes defined" in text, "no total line")
    theirs = papi_tool("papi_error_codes")
    if theirs is not None:
        check(shape(text) == shape(theirs), "layout differs from PAPI's:\n%s\n---\n%s" %
              ("\n".join(shape(text)), "\n".join(shape(theirs))))
    data = run_json([exe, "--json"])
    by_name = {e["name"]: e["code"] for e in data.get("error_codes", [])}
    for name, value in (("PAPI_OK", 0), ("PAPI_EINVAL", -1), ("PAPI_ENOEVNT", -7),
                        ("PAPI_EPERM", -15), ("PAPI_EMULPASS", -27)):
        check(by_name.get(name) == value, "%s = %r, PAPI's value is %d" % (name, by_name.get(name), value))
    texts = {m.group(1): m.group(2) for m in map(ERROR_LINE.match, text.split("\n")) if m}
    for e in data.get("error_codes", []):
        check(texts.get(str(e["code"])) == e["text"], "JSON text of %d differs" % e["code"])


# What PAPI's papi_xml_event_info writes: elements and the attributes each carries.
XML_ATTRS = {"eventinfo": set(), "hardware": set(), "cpuID": set(), "component": {"index", "type", "id"},
             "eventset": {"type"}, "event": {"index", "name", "desc"}, "modifier": {"name", "desc"}}
HW_ELEMENTS = ["vendor", "vendorCode", "model", "modelCode", "cpuRevision", "cpuID",
               "cpuMaxMegahertz", "cpuMinMegahertz", "threads", "cores", "sockets", "nodes",
               "cpuPerNode", "totalCPUs"]


def parse_xml(text, what):
    try:
        return ET.fromstring(text)
    except ET.ParseError as e:
        check(False, "%s is not well-formed XML: %s" % (what, e))
        return ET.Element("broken")


def check_xml_names(root, what):
    for el in root.iter():
        if el.tag in XML_ATTRS:
            check(set(el.attrib) == XML_ATTRS[el.tag],
                  "%s: <%s> has attributes %r" % (what, el.tag, sorted(el.attrib)))
        else:
            check(el.tag in HW_ELEMENTS + ["family", "model", "stepping"] and set(el.attrib) <=
                  {"value", "string"}, "%s: unknown element <%s %r>" % (what, el.tag, el.attrib))


def t_papi_xml_event_info(b):
    exe = os.path.join(b, "papi_xml_event_info")
    common(exe)
    text = run([exe]).stdout
    check(text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<eventinfo>'), "XML prolog")
    root = parse_xml(text, "output")
    check_xml_names(root, "output")
    hw = root.find("hardware")
    check(hw is not None and [c.tag for c in hw] == HW_ELEMENTS, "hardware elements %r" %
          ([c.tag for c in hw] if hw is not None else None))
    if hw is not None:
        check(hw.find("totalCPUs").get("value") == str(os.cpu_count()), "totalCPUs")
    theirs = papi_tool("papi_xml_event_info")
    if theirs is not None:
        troot = parse_xml(theirs, "PAPI's output")
        thw = troot.find("hardware")
        check([c.tag for c in thw] == [c.tag for c in hw], "hardware elements differ from PAPI's")
        check(thw.find("vendor").get("string") == hw.find("vendor").get("string"), "vendor differs")
        comp = troot.find("component")
        check(comp is not None and set(comp.attrib) == XML_ATTRS["component"],
              "PAPI's component attributes changed")
    events = {e.get("name"): e for e in root.iter("event")}
    check("perf::PAGE-FAULTS" in events, "perf::PAGE-FAULTS not listed")
    if not machine_has_core_pmu():
        check("perf::CYCLES" not in events, "perf::CYCLES listed though it cannot be counted")
        why = run([exe, "--why", "-n"]).stdout
        parse_xml(why, "--why output")
        check(re.search(r"<!-- perf::CYCLES left out: .+ -->", why) is not None,
              "--why gives no reason for perf::CYCLES")
    natives = parse_xml(run([exe, "-n"]).stdout, "-n output")
    check(natives.find(".//eventset[@type='PRESET']") is None, "-n lists presets")
    presets = parse_xml(run([exe, "-p"]).stdout, "-p output")
    check(presets.find(".//eventset[@type='NATIVE']") is None, "-p lists native events")
    data = run_json([exe, "--json"])
    jnames = {e["name"] for c in data.get("components", []) for e in c.get("native", []) + c.get("preset", [])}
    check(jnames == set(events), "JSON lists %d events, XML %d" % (len(jnames), len(events)))
    run([exe, "NO_SUCH_EVENT_XYZ"], expect=1)
    run([exe, "-c", "99"], expect=2)


def labels(text, section):
    part = text.split(section, 1)[1] if section in text else ""
    return [l.split(":")[0].rstrip() for l in part.split("\n") if " : " in l]


def t_papi_hardware_avail(b):
    exe = os.path.join(b, "papi_hardware_avail")
    common(exe)
    text = run([exe]).stdout
    data = run_json([exe, "--json"])
    cpu = data.get("devices", [{}])[0]
    check(cpu.get("type") == "cpu", "first device %r" % cpu)
    # The sysdetect API's counts: every hardware thread, whole cores per socket.
    sockets, cores, threads_n = cpu.get("sockets", 0), cpu.get("cores", 0), cpu.get("threads", 0)
    check(threads_n == os.cpu_count(), "threads %r != %d CPUs: %r" % (threads_n, os.cpu_count(), cpu))
    check(sockets > 0 and cores >= sockets and cores % sockets == 0 and threads_n % cores == 0,
          "sockets %r, cores %r, threads %r do not divide" % (sockets, cores, threads_n))
    check("Sockets                               : %d" % sockets in text, "text Sockets line")
    if sockets:
        check("Cores per socket                      : %d" % (cores // sockets) in text,
              "text Cores per socket line")
    check(cpu.get("status") and "status" in cpu, "CPU status from PAPI_get_dev_type_attr: %r" % cpu)
    threads = re.search(r"Numa Node 0 Threads\s+: ([\d ]+)", text)
    listed = sorted(int(x) for x in threads.group(1).split()) if threads else []
    if cpu.get("numa_regions") == 1:
        check(listed == list(range(os.cpu_count())), "NUMA node 0 threads %r" % listed)
        check(len(cpu.get("numa_nodes", [])) == 1 and cpu["numa_nodes"][0]["memory_mb"] > 0,
              "NUMA node memory %r" % cpu.get("numa_nodes"))
    for gpu in data.get("devices", [])[1:]:
        check(gpu["count"] == 0 and "component" in gpu["status"], "GPU row %r" % gpu)
    theirs = papi_tool("papi_hardware_avail")
    if theirs is not None:
        check(labels(text, "Device Information") == labels(theirs, "Device Information"),
              "labels differ from PAPI's: %r vs %r" % (labels(text, "Device Information"),
                                                       labels(theirs, "Device Information")))
        ours_vendors = re.findall(r"^(\S.*?)\s+\((\d+)\)$", text, re.M)
        their_vendors = re.findall(r"^(\S.*?)\s+\((\d+)\)$", theirs, re.M)
        check([v for v, _ in ours_vendors] == [v for v, _ in their_vendors],
              "device summary rows %r vs PAPI's %r" % (ours_vendors, their_vendors))


DAT_FILES = ["papi_startstop.dat", "papi_read.dat", "papi_read_ts.dat", "papi_accum.dat",
             "papi_reset.dat"]
PAPI_DAT_HEADER = "#number of events\tmin cycles\tmax cycles\tmean cycles\tstd deviation"


def t_papi_multiplex_cost(b):
    exe = os.path.join(os.path.abspath(b), "papi_multiplex_cost")
    common(exe)
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([exe, "-t", "300", "-x", "3"], capture_output=True, text=True, cwd=d,
                           timeout=120)
        check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
        check("Kernel multiplexing read" in p.stdout, "no test list")
        if not machine_has_core_pmu():
            check("software events" in p.stdout, "the header does not say only software events ran")
        for f in DAT_FILES:
            path = os.path.join(d, f)
            check(os.path.exists(path), "%s not written" % f)
            if not os.path.exists(path):
                continue
            rows = open(path).read().splitlines()
            check(rows[0].startswith(PAPI_DAT_HEADER), "%s header %r" % (f, rows[0]))
            nums = [r.split() for r in rows[1:]]
            check([int(r[0]) for r in nums] == [1, 2, 3], "%s rows %r" % (f, nums))
            for r in nums:
                lo, hi, mean = int(r[1]), int(r[2]), float(r[3])
                check(0 < lo <= mean <= hi and len(r) == 9, "%s row %r" % (f, r))
    data = run_json([exe, "-t", "200", "-m", "2", "-x", "2", "-k", "--json"])
    m = data.get("measurements", [])
    check(len(m) == 5 and all("multiplexed" not in x and x["number_of_events"] == 2 for x in m),
          "-k --json measurements %r" % m)
    check(data.get("software_events_only") is (not machine_has_core_pmu()), "software_events_only")
    run([exe, "-m", "3", "-x", "2"], expect=2)
    run([exe, "-x", "99"], expect=2)


def main():
    util, bindir = sys.argv[1], sys.argv[2]
    globals()["t_" + util](bindir)
    print("%s: %s" % (util, "FAILED (%d)" % len(FAILURES) if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
