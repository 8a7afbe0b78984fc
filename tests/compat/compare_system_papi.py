#!/usr/bin/env python3
"""Our papi.h and libpapi against the system's PAPI 7 (Debian libpapi-dev): every macro
and function its papi.h declares and every symbol its libpapi.so exports must exist in
ours, so code written for PAPI builds and links unchanged.

  compare_system_papi.py CC OUR_INCLUDE_DIR NM OUR_LIBPAPI PENDING_LIST [no-fortran]

PENDING_LIST names what is known to be missing and not done yet; each name is printed
as PENDING, and the test fails when anything else is missing or when a pending name
has arrived (so the list only shrinks). Exit 77 when the system PAPI is not installed.
"no-fortran": a build without the Fortran API (PAPI_WITH_FORTRAN=OFF) is not asked for
the PAPIF_* entry points."""

import glob
import re
import subprocess
import sys

SYS_HEADERS = ["/usr/include/papi.h", "/usr/include/papiStdEventDefs.h"]
SYS_LIB = (glob.glob("/usr/lib/*-linux-gnu/libpapi.so") or ["/usr/lib/libpapi.so"])[0]
GUARDS = {"_PAPI", "_PAPISTDEVENTDEFS"}  # include guards: PAPI's own file names


def our_macros(cc, incdir):
    out = subprocess.run([cc, "-E", "-dM", "-I", incdir, "-"], input='#include "papi.h"\n',
                         check=True, capture_output=True, text=True).stdout
    return {re.split(r"[ (]", ln, 3)[1] for ln in out.splitlines() if ln.startswith("#define ")}


def system_names():
    macros, functions = set(), set()
    for h in SYS_HEADERS:
        text = re.sub(r"/\*.*?\*/", " ", open(h, errors="replace").read(), flags=re.S)
        macros |= set(re.findall(r"^\s*#\s*define\s+(\w+)", text, re.M)) - GUARDS
        functions |= set(re.findall(r"^[\w \t\*]*?\b(PAPI_\w+)\s*\(", text, re.M))
    return macros, functions - macros


def exported(nm, lib):
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True,
                         text=True).stdout
    return {f[2] for f in (ln.split() for ln in out.splitlines()) if len(f) == 3}


def main():
    cc, incdir, nm, ourlib, pending_file = sys.argv[1:6]
    try:
        sys_macros, sys_functions = system_names()
        sys_symbols = exported(nm, SYS_LIB)
        if sys.argv[6:] == ["no-fortran"]:
            sys_symbols = {n for n in sys_symbols if not n.lower().startswith("papif_")}
    except (OSError, subprocess.CalledProcessError) as e:
        print("SKIPPED: the system PAPI (libpapi-dev) is not installed: %s" % e)
        return 77
    pending = {ln.split("#")[0].strip() for ln in open(pending_file)} - {""}
    ours_macros = our_macros(cc, incdir)
    ours_text = open(incdir + "/papi.h").read()
    ours_symbols = exported(nm, ourlib)
    missing = sorted((sys_macros - ours_macros) | {f for f in sys_functions
                     if not re.search(r"\b%s\b" % f, ours_text)} | (sys_symbols - ours_symbols))
    print("system PAPI: %d macros, %d functions, %d symbols" %
          (len(sys_macros), len(sys_functions), len(sys_symbols)))
    for name in missing:
        print(("PENDING: " if name in pending else "MISSING: ") + name)
    arrived = sorted(pending - set(missing))
    for name in arrived:
        print("ARRIVED (remove it from %s): %s" % (pending_file, name))
    bad = [n for n in missing if n not in pending] + arrived
    print("compare_system_papi: %s" % ("FAILED" if bad else "PASSED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
