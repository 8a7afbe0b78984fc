"""man_content.py: the sections of the PAPI_*(3) and PAPIF_*(3) pages beyond the doc
comment of papi.h, each from its one source in doc/:
  DESCRIPTION     descriptions.txt adds paragraphs to the doc comment of the main calls;
  ARGUMENTS       arguments.txt (what each parameter name means; per-call overrides);
  RETURN VALUES   PAPI_OK or an error code under ERRORS (status calls), else the
                  "Return ..." sentences of the doc comment (a count, a pointer, ...);
                  a code named there that ERRORS lacks stops the generator;
  ERRORS          api_errors.txt (the codes each call returns, read from the
                  implementation by error_scan.py, checked by ctest doc_api_errors), each
                  with the library's own PAPI_strerror text (src-c/lib/sdk/errors.c) and
                  when this call returns it (the doc comment's "CODE when ..." clauses);
  EXAMPLE         the program of doc/examples/ whose "Shows:" line names the call (they
                  are built and run by ctest, so no example on a page is stale);
  Fortran synopsis  the PAPIF_* routines of papif_api.def that call the C function.
Also the hand-written pages of doc/pages/ (the MPI wrapper library, report formats,
environment variables), and the HTML rendering of every page (one source, two outputs)."""
import html
import os
import re


def load_arguments(path):
    args = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or ":" not in line:
            continue
        key, text = line.split(":", 1)
        args[key.strip()] = text.strip()
    return args


def load_descriptions(path):
    """{function: paragraphs} from descriptions.txt ("== NAME" blocks)."""
    out = {}
    text = "\n".join(l for l in open(path, encoding="utf-8").read().split("\n")
                     if not l.startswith("#"))
    for block in text.split("\n== ")[1:]:
        name, _, body = block.partition("\n")
        out[name.strip()] = body.strip()
    return out


def load_api_errors(path):
    """{call: [codes]} or {call: "text"} (a call that returns no error code), and the
    per-call notes {(call, code): text}, from api_errors.txt."""
    errs, notes = {}, {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or ":" not in line:
            continue
        key, rest = (f.strip() for f in line.split(":", 1))
        if "." in key:
            notes[tuple(key.split(".", 1))] = rest
        elif rest.startswith("--"):
            errs[key] = rest[2:].strip()
        else:
            errs[key] = rest.split()
    errs["notes"] = notes
    return errs


def load_error_meanings(errors_c):
    """{PAPI_EXXX: text} from the PAPI_strerror table of errors.c."""
    text = open(errors_c, encoding="utf-8").read()
    out = {}
    for m in re.finditer(r"\[-(PAPI_E\w+)\]\s*=\s*\(?((?:\s*\"[^\"]*\")+)", text):
        out[m.group(1)] = "".join(re.findall(r"\"([^\"]*)\"", m.group(2)))
    out.setdefault("PAPI_ESBSTR", out.get("PAPI_ECMP", ""))  # the 3.x alias of PAPI_ECMP
    KNOWN_CODES.update(out)
    return out


def load_examples(exdir):
    """{function: (file name, program text)}: the first example whose Shows: names it."""
    out = {}
    for name in sorted(os.listdir(exdir)):
        text = open(os.path.join(exdir, name), encoding="utf-8").read()
        m = re.search(r"Shows:(.*?)(\*/|\n\s*program|\n\s*#include)", text, re.S | re.I)
        if not m:
            continue
        body = text[m.end():]
        for func in re.findall(r"\b(PAPIF?_\w+)", m.group(1)):
            # A page shows the program for a call it makes, not one it only names.
            if not re.search(r"\b%s\s*\(" % func, body, re.I):
                raise ValueError("doc/examples/%s: Shows: %s, which it never calls" % (name, func))
            out.setdefault(func, (name, text))
    return out


def parameters(proto):
    """[(declaration, name)] of a C prototype."""
    inside = proto[proto.index("(") + 1:proto.rindex(")")]
    out = []
    for decl in re.split(r",(?![^()]*\))", inside):
        decl = decl.strip()
        if decl in ("", "void", "..."):
            continue
        m = re.search(r"\(\s*\*\s*(\w+)\)", decl) or re.search(r"(\w+)\s*(\[\s*\])?$", decl)
        out.append((decl, m.group(1)))
    return out


def argument_lines(name, proto, args):
    lines, missing = [], []
    for decl, pname in parameters(proto):
        text = args.get("%s.%s" % (name, pname)) or args.get(pname)
        if text is None:
            missing.append(pname)
            continue
        lines.append("%s\n    %s" % (pname, text))
    return lines, missing


RETURNS = re.compile(r"(Returns?\b[^.]*(?:\.\d[^.]*)*\.)")
CODE = re.compile(r"\bPAPI_E[A-Z_]+\b")
KNOWN_CODES = set()  # the error codes of errors.c (load_error_meanings): not PAPI_EXEINFO


def codes_in(text):
    return [c for c in CODE.findall(text) if c in KNOWN_CODES]


def is_status_call(proto, doc):
    """An int call whose success value is PAPI_OK (not a count, a version or a level)."""
    sentences = RETURNS.findall(doc)
    return proto.startswith("int") and (not sentences or
                                        re.match(r"Returns? PAPI_OK\b", sentences[0]) is not None)


def description_text(proto, doc):
    """The doc comment without its "Returns ..." sentences after the first (they are the
    RETURN VALUES and ERRORS sections, in full there)."""
    first = re.match(r"(.+?\.)(\s|$)", doc, re.S)
    head = first.group(1) if first else doc
    rest = doc[len(head):]
    return (head + RETURNS.sub("", rest)).strip() if re.search(r"\bReturns\b", rest) else doc


def returns_text(name, proto, doc, errors, override=None):
    """RETURN VALUES: consistent with ERRORS by construction (errors: the codes listed);
    override: the api_errors.txt "CALL.returns:" text of a call the doc comment does not
    describe fully (PAPI_get_opt returns the value of most options)."""
    if override:
        stray = [c for c in codes_in(override) if isinstance(errors, str) or c not in errors]
        if stray:
            raise ValueError("%s: RETURN VALUES names %s, which ERRORS does not list" % (name, stray))
        return override
    if is_status_call(proto, doc):
        return ("PAPI_OK (0) when it succeeds; otherwise a negative error code, one of those "
                "under ERRORS. PAPI_strerror(3) names it, PAPI_perror(3) prints it with the "
                "reason the library recorded for the calling thread.")
    sentences = " ".join(RETURNS.findall(doc))
    if not sentences and proto.startswith("void"):
        return "Nothing."
    text = sentences or "The value described above."
    stray = [c for c in codes_in(text) if isinstance(errors, str) or c not in errors]
    if stray:
        raise ValueError("%s: RETURN VALUES names %s, which ERRORS does not list" % (name, stray))
    if proto.startswith("int") and not isinstance(errors, str):
        text += " A negative value is an error code, one of those under ERRORS."
    return text


def when_notes(doc):
    """{code: clause} from the doc comment's "PAPI_EX when/for ..." clauses."""
    out = {}
    for sentence in RETURNS.findall(doc):
        for m in re.finditer(r"\b(PAPI_E[A-Z_]+) ((?:when|for|at|while|once)\b[^,;]*?)(?=[,;]|\.$| or PAPI_)",
                             sentence):
            out.setdefault(m.group(1), m.group(2).strip())
    return out


def error_lines(name, doc, api_errors, meanings):
    """ERRORS: a list of "CODE\n    meaning: when" items, or the text of a call that
    returns no error code. Every call has an entry in api_errors.txt (the generator
    refuses a call without one)."""
    entry = api_errors.get(name)
    if entry is None:
        raise ValueError("doc/api_errors.txt has no entry for %s" % name)
    if isinstance(entry, str):
        return entry[0].upper() + entry[1:]
    when = when_notes(doc)
    notes = api_errors["notes"]
    out = []
    for c in entry:
        text = meanings.get(c, "see PAPI_strerror(3)")
        if c not in meanings:
            raise ValueError("%s: %s is no PAPI error code" % (name, c))
        extra = notes.get((name, c)) or when.get(c)
        out.append("%s\n    %s%s" % (c, text, (": " + extra) if extra else "") + ".")
    return out


def fortran_synopsis(cfunc, routines, types):
    out = []
    for fname, params, called in routines:
        if called != cfunc:
            continue
        decls = ", ".join("%s %s" % (types.get(t, t), a) for _, t, a in params)
        out.append("CALL %s(%s)\n    ! %s" % (fname, ", ".join(p[2] for p in params), decls))
    return out


def read_page_source(path):
    """A hand-written page: 'NAME: ...', 'SECTION: n', 'SUMMARY: ...' then '== HEAD' blocks
    (a block starting with ' ' lines is verbatim)."""
    text = open(path, encoding="utf-8").read()
    head, _, body = text.partition("\n== ")
    meta = dict(l.split(":", 1) for l in head.splitlines() if ":" in l and not l.startswith("#"))
    sections = []
    for block in ("== " + body).split("\n== ")[0:]:
        block = block[3:] if block.startswith("== ") else block
        title, _, content = block.partition("\n")
        sections.append((title.strip(), content.strip("\n"), False))
    return meta["NAME"].strip(), meta["SECTION"].strip(), meta["SUMMARY"].strip(), sections


def html_page(title, section, summary, sections, links):
    """One page as HTML; names of other pages (NAME(n)) become links."""
    def linked(text):
        text = html.escape(text)
        return re.sub(r"\b((?:PAPIF?|papi|libpapi)_?\w*)\((\d)\)",
                      lambda m: ('<a href="%s.%s.html">%s(%s)</a>' % (m.group(1), m.group(2),
                                                                      m.group(1), m.group(2))
                                 if (m.group(1), m.group(2)) in links else m.group(0)), text)
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>%s(%s)</title>" % (html.escape(title), section),
           "<style>body{max-width:52em;margin:2em auto;font-family:sans-serif}"
           "pre{background:#f4f4f4;padding:.5em;overflow-x:auto}</style></head><body>",
           '<p><a href="index.html">papi-compat manual</a></p>',
           "<h1>%s(%s)</h1><p>%s</p>" % (html.escape(title), section, html.escape(summary))]
    for head, body, verbatim in sections:
        out.append("<h2>%s</h2>" % html.escape(head))
        if verbatim == "list":
            out.append("<dl>%s</dl>" % "".join(
                "<dt><code>%s</code></dt><dd>%s</dd>" % (linked(t), linked(d.strip()))
                for t, _, d in (i.partition("\n") for i in re.split(r"\n(?! )", body))))
        elif verbatim:
            out.append("<pre>%s</pre>" % linked(body))
        else:
            out += ["<p>%s</p>" % linked(p) for p in body.split("\n\n")]
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def html_index(pages):
    rows = {}
    for title, section, summary in sorted(pages):
        rows.setdefault(section, []).append(
            '<li><a href="%s.%s.html">%s(%s)</a> &mdash; %s</li>' %
            (title, section, html.escape(title), section, html.escape(summary)))
    names = {"1": "Programs", "3": "Library calls (C and Fortran)", "5": "File formats",
             "7": "Overviews and environment"}
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>papi-compat manual</title></head><body><h1>papi-compat manual</h1>"]
    for sec in sorted(rows):
        out.append("<h2>%s</h2><ul>%s</ul>" % (names.get(sec, "Section " + sec), "\n".join(rows[sec])))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
