#!/usr/bin/env python3
"""gen_man.py [--version=X] OUTDIR PAPI_H PAPIF_API_DEF [UTILITY=SOURCE=EXECUTABLE ...]

Writes the manual pages, generated from their one source each:
  man3/PAPI_*.3   the doc comment (/** ... */) above each function in papi.h, with the
                  sections of man_content.py (arguments, return values, errors, example,
                  Fortran synopsis);
  man3/PAPIF_*.3  each routine of papif_api.def, with the C function's doc comment;
  man3/papi_types.3  the types of papi.h (doc/types.txt), and a .so page per type name;
                  PAPIf_hl_* (PAPI 7's Fortran high-level names) open the PAPIF_hl_* pages;
  man1/papi_*.1   each utility: the opening comment of its source file (what it does)
                  and its --help (usage and options), with the sections of its
                  doc/utilities/<name>.1.txt when it has one (UTILITY=SOURCE=EXE=EXTRA);
  man5, man7      the hand-written pages of doc/pages/ (report formats, the MPI wrapper
                  library, environment variables);
  html/           every page above as HTML, with an index.
A function in papi.h without a doc comment, with a parameter arguments.txt does not
explain, without an entry in api_errors.txt or without a program of doc/examples that
calls it, is an error: every public call has a full page.

Why a generator of our own and not Doxygen, Sphinx or help2man: doc/README.md.
"""
import glob
import json
import os
import re
import subprocess
import sys
sys.dont_write_bytecode = True  # imports below live in the checkout: no __pycache__ there

import man_content as mc

VERSION = "0"  # the project version, from --version= (CMake passes PROJECT_VERSION)
DATE = "2026"


def esc(text):
    """Plain text as troff: backslashes and leading dots/quotes made literal."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + l) if l.startswith((".", "'")) else l for l in text.split("\n"))


HTML_PAGES = []  # (title, section, summary, sections) of every page written
DOC_DIR = os.path.dirname(os.path.abspath(__file__))


def page(title, section, name, summary, sections):
    HTML_PAGES.append((title, section, summary, sections))
    out = ['.TH "%s" "%s" "%s" "papi-compat %s" "PAPI"' % (title, section, DATE, VERSION),
           ".SH NAME", "%s \\- %s" % (esc(name), esc(summary))]
    for head, body, verbatim in sections:
        out.append(".SH %s" % head)
        if verbatim == "list":  # "term\n    text" items: a tagged paragraph each
            for item in re.split(r"\n(?! )", body):
                term, _, text = item.partition("\n")
                out += [".TP", esc(term), esc(re.sub(r"\s+", " ", text.strip()))]
        elif verbatim:
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
        if re.match(r"^PAPI[A-Z]*F_", name):
            continue  # an extension's routine (PAPIMF_): on its own page (papi_metrics(3))
        params = [tuple(a.split()) for a in args.split(",") if a.strip()]
        # The PAPI_ function the routine calls (inside a helper's arguments too), else the
        # helper's name (papifh_get_domain: the Fortran-only PAPIF_get_domain).
        m = re.search(r"\b(PAPI_[a-z]\w*)\(", call) or re.search(r"\bpapifh_(\w+)\(", call)
        cfunc = (m.group(1) if m.group(1).startswith("PAPI_") else "PAPI_" + m.group(1)) if m else None
        out.append(("PAPIF_" + name, params, cfunc))
        FORTRAN_CALLS["PAPIF_" + name] = call
    return out


FORTRAN_CALLS = {}  # PAPIF_name: the C expression papif_api.def gives (fortran_routines)
FORTRAN_STATUS = ("PAPI_OK (0) when it succeeds; otherwise a negative error code, one of those "
                  "under ERRORS.")


def fortran_returns(name, params, cfunc, proto, doc, ctx):
    """RETURN VALUES of a PAPIF_ page: which argument receives what."""
    call = FORTRAN_CALLS.get(name, "")
    target = re.match(r"\s*(\w+)\s*=", call)
    if not target:
        return "Nothing: the routine has no result argument."
    arg = target.group(1)
    if not proto or "papifh_" in call:
        return "In %s: %s" % (arg, FORTRAN_STATUS)  # a helper: PAPI_OK or a code
    text = mc.returns_text(cfunc, proto, doc, ctx["api_errors"][cfunc],
                           ctx["api_errors"]["notes"].get((cfunc, "returns")))
    return "In %s: %s" % (arg, text)


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def example(name, examples, comment):
    """The example program of doc/examples whose Shows: line names the call: a complete
    program the build compiles and ctest runs. A call no program shows is an error."""
    if name not in examples:
        sys.exit("gen_man.py: no program of doc/examples shows %s (name it on a Shows: line)" % name)
    fname, text = examples[name]
    return "%s\n%s" % (comment % ("doc/examples/" + fname), text.rstrip())


def c_pages(outdir, funcs, ctx):
    for name, (proto, doc) in sorted(funcs.items()):
        see = sorted(n + "(3)" for n in re.findall(r"\bPAPI_\w+", doc)
                     if n in funcs and n != name)
        # A name that is also a macro over numbered forms (PAPI_perror -> PAPI_perror1,
        # PAPI_perror3) shows the forms the macro picks between.
        forms = [funcs[f][0] for f in sorted(funcs) if re.fullmatch(re.escape(name) + r"\d", f)]
        shown = proto
        if forms:
            shown += "\n\n/* the macro %s(...) calls, by number of arguments: */\n" % name
            shown += "\n".join(forms)
        fortran = mc.fortran_synopsis(name, ctx["routines"], FORTRAN_TYPES)
        synopsis = "#include <papi.h>\n\n" + shown
        if fortran:
            synopsis += "\n\nFortran (#include \"fpapi.h\", or use papi):\n" + "\n".join(fortran)
        args, missing = mc.argument_lines(name, proto, ctx["args"])
        if missing:
            sys.exit("gen_man.py: doc/arguments.txt does not explain %s of %s" % (missing, name))
        long = ctx["descriptions"].get(name)
        try:
            errs = mc.error_lines(name, doc, ctx["api_errors"], ctx["meanings"])
            returns = mc.returns_text(name, proto, doc, ctx["api_errors"][name],
                                      ctx["api_errors"]["notes"].get((name, "returns")))
        except ValueError as e:
            sys.exit("gen_man.py: %s" % e)
        sections = [("SYNOPSIS", synopsis, True),
                    ("DESCRIPTION", mc.description_text(proto, doc) + ("\n\n" + long if long else ""), False),
                    ("ARGUMENTS", "\n".join(args) if args else "None.", "list" if args else False),
                    ("RETURN VALUES", returns, False),
                    ("ERRORS", "\n".join(errs) if isinstance(errs, list) else errs,
                     "list" if isinstance(errs, list) else False)]
        sections.append(("EXAMPLE", example(name, ctx["examples"], "/* %s */"), True))
        see = [s for s in see] + [f.split("(")[0].split()[-1] + "(3)" for f in fortran]
        if see:
            sections.append(("SEE ALSO", ", ".join(dict.fromkeys(see)), False))
        write(os.path.join(outdir, "man3", name + ".3"),
              page(name, "3", name, first_sentence(doc), sections))


FORTRAN_ARG = {"check": "out: the result of the C call: PAPI_OK, a PAPI error code, or the "
                         "value the C function returns (a version, a count)."}


def fortran_pages(outdir, routines, funcs, ctx):
    for name, params, cfunc in routines:
        args = ", ".join(p[2] for p in params)
        decls = "\n".join("%-26s %s   ! %s" % (FORTRAN_TYPES.get(t, t), a, i)
                          for i, t, a in params)
        proto, doc = funcs.get(cfunc, (None, None)) if cfunc else (None, None)
        if cfunc and cfunc not in funcs:  # a routine of the Fortran interface alone
            cfunc = None
        own = ctx["descriptions"].get(name)  # a routine of the Fortran interface alone
        summary = "Fortran binding of %s" % cfunc if cfunc else first_sentence(own or name)
        body = ("%s Arguments are passed by reference in the order shown, and the C return "
                "value is the last argument when there is one (check). Use fpapi.h (or "
                "f77papi.h, f90papi.h) for the constants, or the module: use papi. Strings "
                "are Fortran CHARACTER values: trailing blanks are dropped on the way in and "
                "the result is blank-padded on the way out.\n\n%s"
                % ("The Fortran form of %s(3)." % cfunc if cfunc else own,
                   mc.description_text(proto, doc) if doc else "")).strip()
        if not cfunc and not own:
            sys.exit("gen_man.py: doc/descriptions.txt does not describe %s" % name)
        arg_lines = []
        for intent, _, a in params:
            text = FORTRAN_ARG.get(a) or ctx["args"].get("%s.%s" % (name, a)) \
                or (proto and ctx["args"].get("%s.%s" % (cfunc, a))) \
                or ctx["args"].get("Fortran." + a) or ctx["args"].get(a)
            if not text:
                sys.exit("gen_man.py: doc/arguments.txt does not explain %s of %s" % (a, name))
            arg_lines.append("%s (%s)\n    %s" % (a, intent, text))
        sections = [("SYNOPSIS", '#include "fpapi.h"\n\nCALL %s(%s)\n%s' % (name, args, decls), True),
                    ("DESCRIPTION", body, False),
                    ("ARGUMENTS", "\n".join(arg_lines) or "None.", "list" if arg_lines else False),
                    ("RETURN VALUES", fortran_returns(name, params, cfunc, proto, doc, ctx), False)]
        try:
            errs = mc.error_lines(cfunc or name, doc or "", ctx["api_errors"], ctx["meanings"])
        except ValueError as e:
            sys.exit("gen_man.py: %s" % e)
        sections.append(("ERRORS", "\n".join(errs) if isinstance(errs, list) else errs,
                         "list" if isinstance(errs, list) else False))
        sections.append(("EXAMPLE", example(name, ctx["examples"], "! %s"), True))
        used = re.findall(r"\b(PAPI_[a-z]\w*)\(", FORTRAN_CALLS.get(name, ""))
        if cfunc or used:
            sections.append(("SEE ALSO", ", ".join(dict.fromkeys(f + "(3)" for f in ([cfunc] if cfunc else used))), False))
        write(os.path.join(outdir, "man3", name + ".3"), page(name, "3", name, summary, sections))


SCHEMA_DIR = os.path.join(DOC_DIR, "..", "schema")


def load_schema(schema_file):
    with open(os.path.join(SCHEMA_DIR, schema_file), encoding="utf-8") as f:
        return json.load(f)


def schema_fields(schema_file):
    """"path\n    description" items of every field a report schema describes (the file's
    own words): the FIELDS section of a format's page is generated from its schema. A $ref
    to another schema file (mpi_row -> mpi_report's row) is followed; csv_tables.schema.json
    gives each CSV file's columns in order, with their units."""
    root = load_schema(schema_file)
    ident = [root]  # the schema node a resolved node stands for (its $ref's target)
    if "properties" not in root and any("x-columns" in d for d in root.get("$defs", {}).values()):
        return csv_columns(root)
    items = []

    def in_file(node, doc):
        """node with its local $refs ("#/...") naming doc's file."""
        if isinstance(node, list):
            return [in_file(v, doc) for v in node]
        if not isinstance(node, dict):
            return node
        own = doc["$id"].rsplit("/", 1)[-1]
        return {k: own + v if k == "$ref" and v.startswith("#") else in_file(v, doc)
                for k, v in node.items()}

    def resolve(node, doc):
        """(node, the document its local $refs point into) with every $ref followed."""
        ident[0] = node
        while isinstance(node, dict) and "$ref" in node:
            name, _, frag = node["$ref"].partition("#")
            target = load_schema(name) if name else doc
            desc = node.get("description")
            sub = target
            for part in [x for x in frag.split("/") if x]:
                sub = sub[part]
            ident[0] = sub  # what a recursion comes back to
            # what the referring node adds besides the $ref (required, a description, its
            # own properties: their local $refs still name the referring file)
            extra = {k: v for k, v in node.items() if k not in ("$ref", "$schema", "$id", "title")}
            node = dict(sub, **(in_file(extra, doc) if name else extra))
            if desc:
                node["description"] = desc
            doc = target
        return node, doc

    def walk(node, doc, path, depth, seen):
        node, doc = resolve(node, doc)
        if not isinstance(node, dict) or depth > 10:
            return
        key = id(ident[0])
        if key in seen:
            return
        seen = seen | {key}
        for name, sub in (node.get("properties") or {}).items():
            sub_r = resolve(sub, doc)[0]
            desc = (sub.get("description") if isinstance(sub, dict) else None) or \
                (sub_r.get("description") if isinstance(sub_r, dict) else "")
            p = "%s.%s" % (path, name) if path else name
            items.append("%s\n    %s" % (p, desc or ""))
            walk(sub, doc, p, depth + 1, seen)  # resolved again there: its $ref's target is seen
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, doc, "%s.<name>" % path if path else "<name>", depth + 1, seen)
        if isinstance(node.get("items"), dict):
            walk(node["items"], doc, path + "[]", depth + 1, seen)
        for alt in (node.get("oneOf") or []) + (node.get("allOf") or []):
            if isinstance(alt, dict) and "properties" in resolve(alt, doc)[0]:
                walk(alt, doc, path, depth + 1, seen)

    walk(root, root, "", 0, frozenset())
    return "\n".join(dict.fromkeys(items))


def csv_columns(root):
    """"FILE.csv: column\n    description (unit)" items, each file's columns in order, then
    those only some of its files have."""
    items = []
    for name, d in root["$defs"].items():
        items.append("%s.csv\n    %s" % (name, d.get("description", "")))
        order = d.get("x-columns", [])  # then the columns only some files have
        for col in order + [c for c in d.get("properties", {}) if c not in order]:
            prop = d["properties"][col]
            unit = prop.get("x-unit")
            items.append("%s.csv: %s\n    %s%s" % (name, col, prop.get("description", ""),
                                                   " Unit: %s." % unit if unit else ""))
        more = d.get("additionalProperties")
        if isinstance(more, dict):
            items.append("%s.csv: <event>\n    %s" % (name, more.get("description", "")))
    return "\n".join(items)


def expand_schema_sections(sections):
    """A section whose body is "schema: FILE" becomes the list of FILE's fields."""
    out = []
    for h, b, v in sections:
        m = re.fullmatch(r"\s*schema:\s*(\S+\.schema\.json)\s*", b)
        out.append((h, schema_fields(m.group(1)), "list") if m else (h, b, v))
    return out


def extra_pages(outdir):
    """The hand-written pages of doc/pages (formats, the wrapper library, environment)."""
    pdir = os.path.join(DOC_DIR, "pages")
    for fname in sorted(os.listdir(pdir)):
        name, section, summary, sections = mc.read_page_source(os.path.join(pdir, fname))
        sections = [(h, b, b.startswith("    ") or "\n    " in b) for h, b, _ in sections]
        sections = expand_schema_sections(sections)
        os.makedirs(os.path.join(outdir, "man" + section), exist_ok=True)
        write(os.path.join(outdir, "man" + section, "%s.%s" % (name, section)),
              page(name, section, name, summary, sections))
        if section == "3":  # each call its synopsis declares opens the page
            for h, b, _ in sections:
                if h == "SYNOPSIS":
                    for fn in sorted(set(re.findall(r"\b(PAPI\w*|papi_sde_\w+)\(", b))):
                        alias_page(outdir, fn, name)


def alias_page(outdir, name, target):
    """man NAME shows page target (a roff .so link, as distributions make them); the HTML
    version points there too."""
    write(os.path.join(outdir, "man3", name + ".3"), ".so man3/%s.3\n" % target)
    ALIASES.append((name, target))


ALIASES = []  # (name, target) of the alias pages, for the HTML index


def type_definitions(header):
    """[(name, definition)] of every PAPI_*_t / PAPI_*_e typedef of papi.h, in its order."""
    text = open(header, encoding="utf-8").read()
    out = []
    for m in re.finditer(r"^typedef\b.*?;\s*$", text, re.M | re.S):
        block = m.group(0)
        if "{" in block:  # a struct, union or enum: up to its closing "} NAME;"
            end = re.compile(r"^\}\s*(\w+)\s*;", re.M).search(text, m.start())
            block = text[m.start():end.end()]
            name = end.group(1)
        else:
            found = re.search(r"\(\*(\w+)\)|(\w+)\s*;\s*$", block)
            name = found.group(1) or found.group(2)
        if re.fullmatch(r"PAPI_\w+_[te]", name) and all(n != name for n, _ in out):
            out.append((name, block.strip()))
    return out


def types_page(outdir, header):
    """papi_types(3): every type of papi.h, described in doc/types.txt, defined as papi.h
    defines it; `man PAPI_hw_info_t` (and each other type) opens it."""
    described = mc.load_arguments(os.path.join(DOC_DIR, "types.txt"))
    defs = type_definitions(header)
    names = [n for n, _ in defs]
    missing = [n for n in names if n not in described]
    unknown = [n for n in described if n not in names]
    if missing or unknown:
        sys.exit("gen_man.py: doc/types.txt lacks %s / describes no type of papi.h: %s" % (missing, unknown))
    items = "\n".join("%s\n    %s" % (n, described[n]) for n in sorted(names))
    sections = [("SYNOPSIS", "#include <papi.h>\n\n" + "\n".join("%s;" % n for n in sorted(names)), True),
                ("DESCRIPTION", "The structures, unions, enumerations and function types of papi.h "
                 "(PAPI 7.0 and the PAPI 3.5 names beside them). One page holds them all: most are "
                 "a few fields that only make sense with the call that fills or takes them, named "
                 "under each type below. Every name has its own entry in the manual (man "
                 "PAPI_hw_info_t) that opens this page.", False),
                ("TYPES", items, "list"),
                ("DEFINITIONS", "\n\n".join(d for _, d in defs), True),
                ("SEE ALSO", "PAPI_get_opt(3), PAPI_set_opt(3), PAPI_get_hardware_info(3), "
                 "PAPI_get_event_info(3), PAPI_get_component_info(3)", False)]
    write(os.path.join(outdir, "man3", "papi_types.3"),
          page("papi_types", "3", "papi_types", "the data types of papi.h", sections))
    for n in names:
        alias_page(outdir, n, "papi_types")


def html_pages(outdir):
    hdir = os.path.join(outdir, "html")
    os.makedirs(hdir, exist_ok=True)
    links = {(t, s) for t, s, _, _ in HTML_PAGES}
    for title, section, summary, sections in HTML_PAGES:
        write(os.path.join(hdir, "%s.%s.html" % (title, section)),
              mc.html_page(title, section, summary, sections, links))
    for name, target in ALIASES:
        write(os.path.join(hdir, "%s.3.html" % name),
              '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" '
              'content="0; url=%s.3.html"><title>%s</title></head><body><a href="%s.3.html">%s(3)</a>'
              '</body></html>\n' % (target, name, target, target))
    write(os.path.join(hdir, "index.html"),
          mc.html_index([(t, s, summ) for t, s, summ, _ in HTML_PAGES]))


def opening_comment(source):
    """What a utility does: the opening comment of its C file, or a Python docstring."""
    text = open(source, encoding="utf-8").read()
    m = re.match(r"\s*/\*(.*?)\*/", text, re.S) or re.search(r'"""(.*?)"""', text, re.S)
    body = re.sub(r"\n\s*\* ?", "\n", m.group(1)).strip() if m else ""
    name, _, what = body.partition(":")
    return re.sub(r"\s*\n\s*", " ", what.strip().split("\n\n")[0]).strip()


def utility_page(outdir, name, source, exe, extra=None):
    what = opening_comment(source)
    p = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0 or not p.stdout.strip():
        sys.exit("gen_man.py: %s --help failed (%d): %s" % (exe, p.returncode, p.stderr))
    # A Python tool run from the sources calls itself NAME.py; installed it is NAME.
    usage = re.sub(r"\b%s\.py\b" % re.escape(name), name, p.stdout.rstrip())
    sections = [("DESCRIPTION", what, False), ("USAGE AND OPTIONS", usage, True),
                ("VERSION", "%s --version prints the papi-compat release (%s) and the PAPI API "
                 "level the library implements." % (name, VERSION), False),
                ("ENVIRONMENT", "The library's variables apply (papi_environment(7)), such as "
                 "PAPI_CSV_EVENT_FILE for the preset table and LIBPFM_FORCE_PMU.", False),
                ("SEE ALSO", "papi_avail(1), papi_native_avail(1), PAPI_library_init(3), "
                 "papi_environment(7)", False)]
    if extra:  # the utility's own sections: in place of the generic ones of the same
        added = 2  # name, the others after USAGE AND OPTIONS
        for head, body, _ in mc.read_page_source(extra)[3]:
            verbatim = body.startswith("    ") or "\n    " in body
            heads = [h for h, _, _ in sections]
            (head, body, verbatim), = expand_schema_sections([(head, body, verbatim)])
            if head in heads:
                sections[heads.index(head)] = (head, body, verbatim)
            else:
                sections.insert(added, (head, body, verbatim))
                added += 1
    write(os.path.join(outdir, "man1", name + ".1"),
          page(name, "1", name, first_sentence(what), sections))


def main(argv):
    global VERSION
    if len(argv) > 1 and argv[1].startswith("--version="):
        VERSION = argv[1].split("=", 1)[1]
        argv = argv[:1] + argv[2:]
    if len(argv) < 4:
        sys.exit(__doc__)
    outdir, header, def_file = argv[1:4]
    for sub in ("man1", "man3"):
        os.makedirs(os.path.join(outdir, sub), exist_ok=True)
    funcs = c_functions(header)
    missing = sorted(n for n, (_, doc) in funcs.items() if not doc)
    if missing:
        sys.exit("gen_man.py: no /** */ doc comment in %s for: %s" % (header, ", ".join(missing)))
    # The PAPI_strerror table: errors.c in one of the library's layer folders.
    errors_c = (glob.glob(os.path.join(os.path.dirname(header), "..", "lib", "*", "errors.c")) or [""])[0]
    try:
        examples = mc.load_examples(os.path.join(DOC_DIR, "examples"))
    except ValueError as e:
        sys.exit("gen_man.py: %s" % e)
    ctx = {"args": mc.load_arguments(os.path.join(DOC_DIR, "arguments.txt")),
           "api_errors": mc.load_api_errors(os.path.join(DOC_DIR, "api_errors.txt")),
           "meanings": mc.load_error_meanings(errors_c),
           "examples": examples,
           "routines": fortran_routines(def_file),
           "descriptions": mc.load_descriptions(os.path.join(DOC_DIR, "descriptions.txt"))}
    c_pages(outdir, funcs, ctx)
    fortran_pages(outdir, ctx["routines"], funcs, ctx)
    # PAPI 7 names its Fortran high-level routines PAPIf_hl_*: Fortran does not tell the
    # case apart, so they are these routines, and man PAPIf_hl_region_begin finds them.
    for name, _, _ in ctx["routines"]:
        if name.startswith("PAPIF_hl_"):
            alias_page(outdir, "PAPIf_" + name[len("PAPIF_"):], name)
    types_page(outdir, header)
    for spec in argv[4:]:
        name, source, exe, *extra = spec.split("=", 3)
        utility_page(outdir, name, source, exe, *extra)
    extra_pages(outdir)
    html_pages(outdir)


if __name__ == "__main__":
    main(sys.argv)
