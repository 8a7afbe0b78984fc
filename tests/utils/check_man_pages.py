#!/usr/bin/env python3
"""check_man_pages.py CMAKE BUILDDIR PREFIX PAPI_H PAPIF_API_DEF GEN_MAN UTILITY...

Installs the build into PREFIX and checks that `man -w` finds, with MANPATH=PREFIX/share/man,
a page for every function declared in papi.h, every PAPIF_* routine of papif_api.def and
every utility, and that each page carries the function's prototype. Also checks that the
generator refuses a header with an undocumented function. Exit 0 pass, 1 fail, 77 skipped
(no man command)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def declared_functions(header):
    text = open(header, encoding="utf-8").read()
    return sorted(set(re.findall(r"^(?:int|void|char \*|long long|unsigned long|const \w+ \*)\s*"
                                 r"\(?(PAPI_\w+)\)?\(", text, re.M)))


def fortran_routines(def_file):
    out = []
    for line in open(def_file, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line and "|" in line and not line.startswith(("generic ", "const")):
            out.append("PAPIF_" + line.split("|")[0].strip())
    return out


def main():
    if len(sys.argv) < 8:
        print(__doc__)
        return 2
    cmake, build, prefix, header, def_file, gen_man = sys.argv[1:7]
    utilities = sys.argv[7:]
    if not shutil.which("man"):
        print("SKIPPED: no man command (install man-db)")
        return 77
    shutil.rmtree(prefix, ignore_errors=True)
    p = subprocess.run([cmake, "--install", build, "--prefix", prefix], capture_output=True,
                       text=True, timeout=300)
    check(p.returncode == 0, "cmake --install failed: %s" % p.stderr[-2000:])
    env = dict(os.environ, MANPATH=os.path.join(prefix, "share", "man"), MANWIDTH="200")
    funcs = declared_functions(header)
    check(len(funcs) >= 90 and "PAPI_strerror" in funcs, "only %d functions found in papi.h" % len(funcs))
    names = [(f, "3") for f in funcs] + [(f, "3") for f in fortran_routines(def_file)] + \
            [(u, "1") for u in utilities]
    for name, section in names:
        w = subprocess.run(["man", "-w", section, name], capture_output=True, text=True, env=env)
        want = os.path.join(prefix, "share", "man", "man" + section, "%s.%s" % (name, section))
        check(w.returncode == 0 and w.stdout.strip() == want,
              "man -w %s %s: %r (want %s)" % (section, name, w.stdout.strip() or w.stderr, want))
    # The page shows the prototype from papi.h and a description.
    for name in ("PAPI_start", "PAPI_flops", "PAPI_hl_region_begin", "PAPI_perror"):
        page = subprocess.run(["man", "-P", "cat", "3", name], capture_output=True, text=True,
                              env=env).stdout
        check("#include <papi.h>" in page and name + "(" in page and "DESCRIPTION" in page,
              "man %s lacks synopsis or description:\n%s" % (name, page[:600]))
    page = subprocess.run(["man", "-P", "cat", "1", "papi_avail"], capture_output=True,
                          text=True, env=env).stdout
    check("Usage: papi_avail" in page and "-a" in page, "man papi_avail lacks the options")
    # A function without a doc comment makes the generator fail (so a new call cannot
    # be added to papi.h without its page).
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, "papi.h")
        with open(bad, "w") as f:
            f.write(open(header, encoding="utf-8").read() + "\nint PAPI_undocumented_call(int x);\n")
        g = subprocess.run([sys.executable, gen_man, os.path.join(d, "man"), bad, def_file],
                           capture_output=True, text=True)
        check(g.returncode != 0 and "PAPI_undocumented_call" in g.stderr + g.stdout,
              "the generator accepted an undocumented function: %s" % g.stderr)
    print("checked %d pages: %s" % (len(names), "FAILED (%d)" % len(FAILURES) if FAILURES else "PASSED"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
