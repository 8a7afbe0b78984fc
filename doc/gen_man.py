#!/usr/bin/env python3
"""gen_man.py OUTDIR PAPI_H PAPIF_API_DEF [UTILITY=SOURCE=EXECUTABLE ...]

Writes the manual pages, generated from their one source each:
  man3/PAPI_*.3   the doc comment (/** ... */) above each function in papi.h;
  man3/PAPIF_*.3  each routine of papif_api.def, with the C function's doc comment;
  man1/papi_*.1   each utility: the opening comment of its source file (what it does)
                  and its --help (usage and options).
A function in papi.h without a doc comment is an error: every public call has a page."""
import os
import re
import subprocess
import sys

VERSION = "7.0.0"
DATE = "2026"


def esc(text):
    """Plain text as troff: backslashes and leading dots/quotes made literal."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + l) if l.startswith((".", "'")) else l for l in text.split("\n"))


def page(title, section, name, summary, sections):
    out = ['.TH "%s" "%s" "%s" "papi-compat %s" "PAPI"' % (title, section, DATE, VERSION),
           ".SH NAME", "%s \\- %s" % (esc(name), esc(summary))]
    for head, body, verbatim in sections:
        out.append(".SH %s" % head)
        if verbatim:
            out += [".nf", esc(body), ".fi"]
        else:
            out += [esc(p) + "\n.PP" for p in body.split("\n\n")]
            out[-1] = out[-1][:-4]
    return "\n".join(out) + "\n"


def first_sentence(text):
    m = re.match(r"(.+?\.)(\s|$)", text, re.S)
    s = (m.group(1) if m else text).strip()
    return re.sub(r"\s+", " ", s)


def c_functions(header):
    """{name: (prototype, doc)} for every function declared in papi.h; doc is None when
    the declaration has no /** */ comment right above it."""
    text = open(header, encoding="utf-8").read()
    decl = re.compile(r"^((?:int|void|char \*|long long|unsigned long|const \w+ \*)\s*"
                      r"\(?(PAPI_\w+)\)?\([^;]*\);)", re.M)
    funcs = {}
    for m in decl.finditer(text):
        before = text[:m.start()].rstrip()
        doc = None
        if before.endswith("*/"):
            start = before.rfind("/*")
            if before[start:start + 3] == "/**":
                body = before[start + 3:-2]
                doc = re.sub(r"\s*\n\s*\*\s?", " ", body).strip()
        # "void(PAPI_perror)(...)": the parentheses only keep a macro of that name away
        proto = re.sub(r"\(?\b(%s)\b\)?\(" % m.group(2), r" \1(", m.group(1), count=1)
        proto = re.sub(r"\s+", " ", proto).replace("* ", "*")
        funcs[m.group(2)] = (proto, doc)
    return funcs


FORTRAN_TYPES = {"int": "INTEGER", "long_long": "INTEGER*8", "float": "REAL",
                 "ulong": "INTEGER*8", "int[]": "INTEGER, DIMENSION(*)",
                 "long_long[]": "INTEGER*8, DIMENSION(*)", "string": "CHARACTER*(*)",
                 "func": "INTEGER, EXTERNAL"}


def fortran_routines(def_file):
    """[(name, [(intent, type, arg)], C function)] from papif_api.def."""
    out = []
    for line in open(def_file, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith(("generic ", "const")) or "|" not in line:
            continue
        name, args, call = (f.strip() for f in line.split("|"))
        params = [tuple(a.split()) for a in args.split(",") if a.strip()]
        m = re.search(r"\b(PAPI_\w+|papifh_(\w+))\(", call)
        cfunc = ("PAPI_" + m.group(2)) if m and m.group(2) else (m.group(1) if m else None)
        out.append(("PAPIF_" + name, params, cfunc))
    return out


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def c_pages(outdir, funcs):
    for name, (proto, doc) in sorted(funcs.items()):
        see = sorted(n + "(3)" for n in re.findall(r"\bPAPI_\w+", doc)
                     if n in funcs and n != name)
        # A name that is also a macro over numbered forms (PAPI_perror -> PAPI_perror1,
        # PAPI_perror3) shows the forms the macro picks between.
        forms = [funcs[f][0] for f in sorted(funcs) if re.fullmatch(re.escape(name) + r"\d", f)]
        if forms:
            proto += "\n\n/* the macro %s(...) calls, by number of arguments: */\n" % name
            proto += "\n".join(forms)
        sections = [("SYNOPSIS", "#include <papi.h>\n\n" + proto, True),
                    ("DESCRIPTION", doc, False)]
        if see:
            sections.append(("SEE ALSO", ", ".join(dict.fromkeys(see)), False))
        write(os.path.join(outdir, "man3", name + ".3"),
              page(name, "3", name, first_sentence(doc), sections))


def fortran_pages(outdir, routines, funcs):
    for name, params, cfunc in routines:
        args = ", ".join(p[2] for p in params)
        decls = "\n".join("%-26s %s   ! %s" % (FORTRAN_TYPES.get(t, t), a, i)
                          for i, t, a in params)
        doc = funcs.get(cfunc, (None, None))[1] if cfunc else None
        summary = "Fortran binding of %s" % cfunc if cfunc else "Fortran routine"
        body = ("The Fortran form of %s(3); arguments are passed by reference in the order "
                "shown, and the C return value is the last argument when there is one "
                "(check). Use fpapi.h (or f77papi.h, f90papi.h) for the constants, or the "
                "module: use papi.\n\n%s" % (cfunc, doc or "")).strip()
        sections = [("SYNOPSIS", '#include "fpapi.h"\n\nCALL %s(%s)\n%s' % (name, args, decls), True),
                    ("DESCRIPTION", body, False)]
        if cfunc:
            sections.append(("SEE ALSO", cfunc + "(3)", False))
        write(os.path.join(outdir, "man3", name + ".3"), page(name, "3", name, summary, sections))


def opening_comment(source):
    """What a utility does: the opening comment of its C file, or a Python docstring."""
    text = open(source, encoding="utf-8").read()
    m = re.match(r"\s*/\*(.*?)\*/", text, re.S) or re.search(r'"""(.*?)"""', text, re.S)
    body = re.sub(r"\n\s*\* ?", "\n", m.group(1)).strip() if m else ""
    name, _, what = body.partition(":")
    return re.sub(r"\s*\n\s*", " ", what.strip().split("\n\n")[0]).strip()


def utility_page(outdir, name, source, exe):
    what = opening_comment(source)
    p = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0 or not p.stdout.strip():
        sys.exit("gen_man.py: %s --help failed (%d): %s" % (exe, p.returncode, p.stderr))
    sections = [("DESCRIPTION", what, False), ("USAGE AND OPTIONS", p.stdout.rstrip(), True),
                ("SEE ALSO", "papi_avail(1), papi_native_avail(1), PAPI_library_init(3)", False)]
    write(os.path.join(outdir, "man1", name + ".1"),
          page(name, "1", name, first_sentence(what), sections))


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    outdir, header, def_file = argv[1:4]
    for sub in ("man1", "man3"):
        os.makedirs(os.path.join(outdir, sub), exist_ok=True)
    funcs = c_functions(header)
    missing = sorted(n for n, (_, doc) in funcs.items() if not doc)
    if missing:
        sys.exit("gen_man.py: no /** */ doc comment in %s for: %s" % (header, ", ".join(missing)))
    c_pages(outdir, funcs)
    fortran_pages(outdir, fortran_routines(def_file), funcs)
    for spec in argv[4:]:
        name, source, exe = spec.split("=", 2)
        utility_page(outdir, name, source, exe)


if __name__ == "__main__":
    main(sys.argv)
