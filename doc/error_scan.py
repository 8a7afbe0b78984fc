#!/usr/bin/env python3
"""error_scan.py SRC [CALL ...]: the PAPI error codes each public call can return, read
from the library's sources (src-c/lib, src-c/common, and fpapi/ for the C helpers of the
Fortran routines: papifh_get_domain is what PAPIF_get_domain returns).

A code counts where a function produces it: `return PAPI_EX`, `papi_error(PAPI_EX, ...)`,
an assignment to a variable (`ret = PAPI_EX`), a conditional (`? PAPI_EX : ...`) or a
macro whose body does so (PAPI_CALL_GUARD: PAPI_ENOINIT). Comparisons (`== PAPI_EX`,
`case PAPI_EX:`), table indexes and values stored in a structure (`c->disabled = PAPI_EX`)
do not. A call reaches the codes of every library function it calls, directly or through a
component's or a hook's function pointer (`x->start(...)` reaches every function that a
designated initialiser assigns to `.start`), transitively, unless the call's value is
thrown away (`f(...);` as a statement of its own, `(void)f(...)`) or the callee returns
something other than int (a pointer, a time: NULL or a value, never a code). The result is what the code can
produce, a little more than what a given call meets in practice (a shared helper's codes
all count); doc/api_errors.txt is reviewed against it by tests/utils/check_api_errors.py:
every code the ERRORS section of a page names must be reachable, and every code the call
produces in its own body must be named.

Without CALL arguments it prints every public call (declared in papi.h) and its codes."""
import glob
import os
import re
import sys

# Codes that are aliases of others (papi.h): PAPI_ESBSTR is PAPI_ECMP.
ALIASES = {"PAPI_ESBSTR": "PAPI_ECMP"}
CODES = set()  # the error codes papi.h defines (negative PAPI_E* values), set by load_codes


def load_codes(src):
    text = open(os.path.join(src, "src-c", "include", "papi.h"), encoding="utf-8").read()
    CODES.update(re.findall(r"^#define\s+(PAPI_E\w+)\s+-\d+", text, re.M))


def strip(text):
    """Comments out, string and char literals emptied (their text is no code)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(?:\\.|[^'\\\n])*'", "''", text)


def produced(body):
    """The codes a piece of code produces itself (not those it only compares with)."""
    out = set()
    # Not produced: compared with (==, !=, case), a table index ([-PAPI_EX]), or stored in
    # a structure's member (c->disabled = PAPI_EX: a state, not a return).
    for m in re.finditer(r"(==|!=|\bcase|\[|(?:->|\.)\w+\s*=)?\s*\(?\s*-?\s*(PAPI_E\w+)\b", body):
        if m.group(1) or m.group(2) not in CODES:
            continue
        out.add(ALIASES.get(m.group(2), m.group(2)))
    return out


def functions(src):
    """{name: body} of every function defined in the library's .c files, and the macros
    that produce codes {name: codes}."""
    files = glob.glob(os.path.join(src, "src-c", "lib", "**", "*.c"), recursive=True) + \
        glob.glob(os.path.join(src, "src-c", "common", "*.c")) + \
        glob.glob(os.path.join(src, "fpapi", "*.c"))  # the Fortran routines' C helpers
    headers = glob.glob(os.path.join(src, "src-c", "lib", "**", "*.h"), recursive=True)
    bodies, macros, pointers, aliases, no_codes = {}, {}, {}, {}, set()
    for path in headers + files:
        text = strip(open(path, encoding="utf-8").read())
        for m in re.finditer(r"^#\s*define\s+(\w+)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)", text, re.M):
            codes = produced(m.group(3))
            if codes and "papi_error" in m.group(3):
                macros[m.group(1)] = codes
        for m in re.finditer(r"\.(\w+)\s*=\s*&?(\w+)\s*[,}\n]", text):
            pointers.setdefault(m.group(1), set()).add(m.group(2))
        # A member set from another (es->fast_read = ... es->cmp->read_values): an alias.
        for m in re.finditer(r"->(\w+)\s*=[^;=]*?->(\w+)\s*[:;]", text):
            aliases.setdefault(m.group(1), set()).add(m.group(2))
        # The same stored atomically (__atomic_store_n(&es->fast_read, ... ->read_values ...)).
        for m in re.finditer(r"__atomic_store_n\(\s*&[\w.>-]*?->(\w+)\s*,[^;]*?->(\w+)\s*[:,)]", text):
            aliases.setdefault(m.group(1), set()).add(m.group(2))
        if not path.endswith(".c"):
            continue
        attr = r"(?:__attribute__\s*\(\([^()]*(?:\([^()]*\)[^()]*)*\)\)\s*)?"
        for m in re.finditer(r"^(?:[A-Za-z_][\w \t\*]*?\s)?%s[\w \t\*]*?\b(\w+)\s*\(([^;{}()]|\([^()]*\))*\)\s*\{" % attr,
                             text, re.M):
            name, start, depth = m.group(1), m.end(), 1
            i = start
            while depth and i < len(text):
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            if name not in ("if", "for", "while", "switch"):
                bodies[name] = bodies.get(name, "") + text[start:i - 1]
                # Only a function returning int returns codes (a pointer or a time does not).
                rtype = m.group(0)[:m.group(0).index(name)]
                if not re.search(r"\bint\s*$", rtype):
                    no_codes.add(name)
    for member, others in aliases.items():
        for o in others:
            pointers.setdefault(member, set()).update(pointers.get(o, ()))
    return bodies, macros, pointers, no_codes


def reachable(src):
    """{function: set of codes it can return or pass on}."""
    load_codes(src)
    bodies, macros, pointers, no_codes = functions(src)
    direct, calls = {}, {}
    for name, body in bodies.items():
        codes = produced(body)
        callees = set()
        for m in re.finditer(r"(->|\.)?\s*\b(\w+)\s*\(", body):
            callee = m.group(2)
            # A call whose value is thrown away (a statement of its own: after ; { } else
            # or a condition's closing parenthesis, or cast to void) passes nothing on.
            before = body[:m.start()].rstrip()
            if m.group(1):
                head = re.search(r"[\w\[\]\.>-]*$", before)
                before = before[:head.start()].rstrip() if head else before
            if before.endswith((";", "{", "}", ")")) or re.search(r"\belse$", before):
                if callee not in macros:
                    continue
            if m.group(1):  # through a function pointer member
                callees |= {f for f in pointers.get(callee, ()) if f in bodies}
            elif callee in bodies and callee != name:
                callees.add(callee)
            elif callee in macros:
                codes |= macros[callee]
        direct[name], calls[name] = codes, callees
    reach = {n: set(c) for n, c in direct.items()}
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            before = len(reach[name])
            for c in callees:
                if c not in no_codes:
                    reach[name] |= reach[c]
            changed |= len(reach[name]) != before
    return direct, reach


def public_calls(src):
    text = open(os.path.join(src, "src-c", "include", "papi.h"), encoding="utf-8").read()
    return sorted(set(re.findall(r"^(?:int|void|char \*|long long|unsigned long|const \w+ \*)\s*"
                                 r"\(?(PAPI_\w+)\)?\(", text, re.M)))


def main(argv):
    src = argv[1]
    direct, reach = reachable(src)
    for name in argv[2:] or public_calls(src):
        print("%s: %s  (own: %s)" % (name, " ".join(sorted(reach.get(name, ()))),
                                     " ".join(sorted(direct.get(name, ())))))


if __name__ == "__main__":
    main(sys.argv)
