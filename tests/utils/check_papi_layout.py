#!/usr/bin/env python3
"""check_papi_layout.py BINDIR: where our utilities say more than PAPI 7's (why counters
are missing, which component), the lines scripts parse in PAPI 7's output keep their
form: header labels and their column, the preset table (header, rows, order), the summary
lines, `papi_avail -e` fields, and papi_component_avail's two sections. Compared with
Debian's papi-tools (/usr/bin) run on this machine. Exit 0 pass, 1 fail, 77 skipped."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_utility import FAILURES, check  # noqa: E402

PAPI_BIN = "/usr/bin"
LABEL = re.compile(r"^([A-Za-z][A-Za-z ()]*?)\s*: ")    # "Sockets                  : 1"
ROW = re.compile(r"^(PAPI_\w+)\s+(0x[0-9a-f]{8})\s+(Yes|No)\s+(Yes|No)\s")
FIELD = re.compile(r"^([A-Z][A-Za-z' ]+:)(\s*)(\|?)")    # "Short Description:           |"


def out(exe, *args):
    return subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=120).stdout


def header_labels(text):
    """label -> column of its colon, for the header block (before the first blank line)."""
    labels = {}
    for line in text.split("\n\n")[0].splitlines():
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = line.index(":")
    return labels


def papi_avail(ours_dir):
    ours, theirs = out(os.path.join(ours_dir, "papi_avail")), out(os.path.join(PAPI_BIN, "papi_avail"))
    ol, tl = header_labels(ours), header_labels(theirs)
    for label, col in tl.items():
        if label == "VM Vendor":
            continue  # PAPI prints the hypervisor's cpuid signature; hwloc may not know it
        check(ol.get(label) == col, "header label '%s' at column %r, PAPI's at %d" % (label, ol.get(label), col))
    for line in ("    Name        Code    Avail Deriv Description (Note)", "  PAPI Preset Events"):
        check(line in ours.splitlines(), "table line %r missing" % line)
    orows = [m.groups()[:2] for m in map(ROW.match, ours.splitlines()) if m]
    trows = [m.groups()[:2] for m in map(ROW.match, theirs.splitlines()) if m]
    # PAPI 7.3's half-precision presets follow 7.0's rows (Debian ships 7.0).
    added_73 = [("PAPI_HP_OPS", "0x8000006c"), ("PAPI_VEC_HP", "0x8000006d")]
    if orows[len(trows):] == added_73 and not any(r[0] in dict(added_73) for r in trows):
        orows = orows[:len(trows)]
    check(orows == trows, "preset rows (name, code) differ from PAPI's: %d vs %d rows" % (len(orows), len(trows)))
    extra = [l for l in ours.splitlines() if l.startswith("PAPI_") and not ROW.match(l)]
    check(not extra, "lines that look like table rows but are not: %r" % extra[:3])
    summary = re.compile(r"^Of \d+ possible events, \d+ are available, of which \d+ are derived\.$", re.M)
    check(summary.search(ours) is not None, "summary line")
    if "No events detected!" in theirs:
        check("No events detected!  Check papi_component_avail to find out why." in ours,
              "PAPI's 'No events detected!' line missing")
    oe = out(os.path.join(ours_dir, "papi_avail"), "-e", "PAPI_TOT_CYC")
    te = out(os.path.join(PAPI_BIN, "papi_avail"), "-e", "PAPI_TOT_CYC")
    ofields = {m.group(1): (len(m.group(1) + m.group(2)), m.group(3)) for m in map(FIELD.match, oe.splitlines()) if m}
    compared = 0
    for m in filter(None, map(FIELD.match, te.splitlines())):
        name = m.group(1)
        compared += 1
        check(ofields.get(name) == (len(name + m.group(2)), m.group(3)),
              "-e field %r: ours %r, PAPI's %r" % (name, ofields.get(name), (len(name + m.group(2)), m.group(3))))
    check(compared >= 7, "only %d -e fields compared" % compared)
    code = re.search(r"^Event Code:\s+(\S+)$", oe, re.M)
    check(code is not None and code.group(1) == "0x8000003b", "Event Code line %r" % (code and code.group(0)))
    if "is NOT available on this architecture!" in te:
        check("PRESET event PAPI_TOT_CYC is NOT available on this architecture!" in oe,
              "PAPI's 'NOT available' sentence missing")


def sections(text):
    parts = {}
    current = None
    for line in text.splitlines():
        if line in ("Compiled-in components:", "Active components:"):
            current = parts.setdefault(line, [])
        elif current is not None and line.startswith("-----"):
            current = None
        elif current is not None and line.strip():
            current.append(line)
    return parts


def papi_component_avail(ours_dir):
    ours = sections(out(os.path.join(ours_dir, "papi_component_avail")))
    theirs = sections(out(os.path.join(PAPI_BIN, "papi_component_avail")))
    check(set(ours) == set(theirs) == {"Compiled-in components:", "Active components:"},
          "sections %r vs PAPI's %r" % (sorted(ours), sorted(theirs)))
    compiled = ours.get("Compiled-in components:", [])
    for line in compiled:
        check(re.match(r"^Name:   \S+\s+\S", line) or line.startswith("   \\-> Disabled: ")
              or line.startswith(" " * 17), "compiled-in section line PAPI does not write: %r" % line)
    active = ours.get("Active components:", [])
    names = [i for i, l in enumerate(active) if l.startswith("Name:   ")]
    check(names, "no active component")
    for i in names:
        check(i + 1 < len(active) and re.match(r"^ {32}Native: \d+, Preset: \d+, Counters: \d+$", active[i + 1]),
              "active component %r not followed by PAPI's counts line" % active[i])


def main():
    if not os.access(os.path.join(PAPI_BIN, "papi_avail"), os.X_OK):
        print("SKIPPED: PAPI 7's papi-tools are not installed in %s" % PAPI_BIN)
        return 77
    papi_avail(sys.argv[1])
    papi_component_avail(sys.argv[1])
    print("layout: %s" % ("FAILED (%d)" % len(FAILURES) if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
