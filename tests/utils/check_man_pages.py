#!/usr/bin/env python3
"""check_man_pages.py CMAKE BUILDDIR PREFIX PAPI_H PAPIF_API_DEF GEN_MAN UTILITY...

Installs the build into PREFIX and checks that `man -w` finds, with MANPATH=PREFIX/share/man,
a page for every function declared in papi.h, every PAPIF_* routine of papif_api.def
(an extension's routine with a prefix of its own, PAPIMF_evaluate, opens its C calls'
page, papi_metrics(3)) and every utility, and that each page carries the function's prototype. Also checks that the
generator refuses a header with an undocumented function. Exit 0 pass, 1 fail, 77 skipped
(no man command)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails as FAILURES  # noqa: E402 (tests/common/checks.py)


def declared_functions(header):
    text = open(header, encoding="utf-8").read()
    return sorted(set(re.findall(r"^(?:int|void|char \*|long long|unsigned long|const \w+ \*)\s*"
                                 r"\(?(PAPI_\w+)\)?\(", text, re.M)))


def fortran_routines(def_file):
    out = []
    for line in open(def_file, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line and "|" in line and not line.startswith(("generic ", "const")):
            name = line.split("|")[0].strip()
            if not re.match(r"^PAPI[A-Z]*F_", name):  # PAPIMF_: an extension's, below
                out.append("PAPIF_" + name)
    return out


def extension_routines(def_file):
    """The routines with a prefix of their own (PAPIMF_evaluate): on their C calls' page."""
    out = []
    for line in open(def_file, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        name = line.split("|")[0].strip() if "|" in line else ""
        if re.match(r"^PAPI[A-Z]*F_", name):
            out.append(name)
    return out


def roff_source(man_dir, rel, hops=0):
    """The roff text of an installed page, following ".so man3/other.3" as man does."""
    path = os.path.join(man_dir, rel)
    check(os.path.isfile(path), "no installed page %s" % path)
    text = open(path, encoding="utf-8").read()
    m = re.match(r"\.so\s+(\S+)\s*$", text)
    if m and hops < 4:
        return roff_source(man_dir, m.group(1), hops + 1)
    return text


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
    for name in extension_routines(def_file):  # papi_metrics(3) documents PAPIMF_evaluate
        w = subprocess.run(["man", "-w", "3", name], capture_output=True, text=True, env=env)
        want = os.path.join(prefix, "share", "man", "man3", "papi_metrics.3")
        check(w.stdout.strip() == want, "man -w 3 %s: %r (want %s)" % (name, w.stdout.strip(), want))
    # The page shows the prototype from papi.h and a description.
    for name in ("PAPI_start", "PAPI_flops", "PAPI_hl_region_begin", "PAPI_perror"):
        page = subprocess.run(["man", "-P", "cat", "3", name], capture_output=True, text=True,
                              env=env).stdout
        check("#include <papi.h>" in page and name + "(" in page and "DESCRIPTION" in page,
              "man %s lacks synopsis or description:\n%s" % (name, page[:600]))
    page = subprocess.run(["man", "-P", "cat", "1", "papi_avail"], capture_output=True,
                          text=True, env=env).stdout
    check("Usage: papi_avail" in page and "-a" in page, "man papi_avail lacks the options")
    # Every C and Fortran page has the sections of a full page. These checks read the
    # installed roff (what man renders: a ".SH X" line is the heading X); rendering each of
    # the ~260 pages through man and groff took 0.25 s a page, twice.
    man3 = os.path.join(prefix, "share", "man")
    for name, section in names:
        if section != "3":
            continue
        page = roff_source(man3, "man3/%s.3" % name)
        for head in ("SYNOPSIS", "DESCRIPTION", "RETURN VALUES", "ERRORS", "EXAMPLE"):
            check(re.search(r'^\.SH "?%s"?$' % head, page, re.M), "man %s has no %s section" % (name, head))
        if "(void)" not in re.split(r'^\.SH "?DESCRIPTION', page, 1, re.M)[0]:
            check(re.search(r'^\.SH "?ARGUMENTS"?$', page, re.M), "man %s has no ARGUMENTS" % name)
    start = subprocess.run(["man", "-P", "cat", "3", "PAPI_start"], capture_output=True, text=True,
                           env=env).stdout
    check("CALL PAPIF_start(EventSet, check)" in start, "man PAPI_start lacks the Fortran synopsis")
    check("PAPI_ENOEVST" in start.split("ERRORS")[-1], "man PAPI_start lists no PAPI_ENOEVST")
    # Every example is a program of doc/examples (built and run by ctest), no fragment; no
    # page claims a call cannot fail where ERRORS lists nothing.
    for name, section in names:
        if section != "3":
            continue
        page = roff_source(man3, "man3/%s.3" % name)
        example = re.split(r'^\.SH "?EXAMPLE', page, 1, re.M)[-1]
        page = " ".join(page.split())  # a phrase may be wrapped across source lines
        check("doc/examples/" in example and ("int main(void)" in example or "program " in example),
              "man %s: the example is no program of doc/examples" % name)
        check("cannot fail once its arguments" not in page and "None of its own" not in page,
              "man %s still says the call cannot fail" % name)
    # papi.h's types: one page, and each type's name opens it; PAPI 7's PAPIf_hl_* names
    # open the Fortran high-level pages.
    for name, want in (("PAPI_hw_info_t", "papi_types"), ("PAPI_event_info_t", "papi_types"),
                       ("PAPI_option_t", "papi_types"), ("PAPIf_hl_region_begin", "PAPIF_hl_region_begin"),
                       ("PAPIf_hl_read", "PAPIF_hl_read"), ("PAPIf_hl_region_end", "PAPIF_hl_region_end"),
                       ("PAPIf_hl_stop", "PAPIF_hl_stop")):
        page = subprocess.run(["man", "-P", "cat", "3", name], capture_output=True, text=True,
                              env=env).stdout
        check(page.lstrip().startswith(want + "(3)"), "man %s does not open %s(3): %r" % (name, want, page[:80]))
    types = subprocess.run(["man", "-P", "cat", "3", "papi_types"], capture_output=True, text=True,
                           env=env).stdout
    check("} PAPI_hw_info_t;" in types and "DEFINITIONS" in types, "papi_types(3) lacks the definitions")
    # The pages beyond the calls: the wrapper library, the formats, the environment.
    for name, section in (("libpapi_mpi", "7"), ("libpapi_kokkos", "7"), ("papi_environment", "7"),
                          ("papi_hl_report", "5"), ("papi_mpi_report", "5")):
        w = subprocess.run(["man", "-w", section, name], capture_output=True, text=True, env=env)
        check(w.returncode == 0, "no page %s(%s)" % (name, section))
    # Every environment variable the sources read is on papi_environment(7).
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(header))))
    read = set()
    for d in ("src-c", "mpi-wrappers"):
        for root, _, files in os.walk(os.path.join(top, d)):
            for f in files:
                if f.endswith((".c", ".h")):
                    t = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
                    read |= set(re.findall(r'(?:getenv|env_get|env_is_set|scoped_env_begin)\("([A-Z_]+)"', t))
                    read |= set(re.findall(r'#define \w+_ENV(?:_ALIAS)?\s+"([A-Z_]+)"', t))
    envpage = subprocess.run(["man", "-P", "cat", "7", "papi_environment"], capture_output=True,
                             text=True, env=env).stdout
    for var in sorted(read):
        check(var in envpage, "papi_environment(7) does not explain %s" % var)
    check(len(read) >= 15, "only %d environment variables found in the sources" % len(read))
    # The HTML manual: an index linking every page.
    index = os.path.join(prefix, "share", "doc", "papi-compat", "html", "index.html")
    check(os.path.exists(index), "no HTML manual at %s" % index)
    if os.path.exists(index):
        text = open(index, encoding="utf-8").read()
        for name, section in names:
            check('href="%s.%s.html"' % (name, section) in text, "HTML index lacks %s" % name)
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
