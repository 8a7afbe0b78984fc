#!/usr/bin/env python3
"""check_api_errors.py SRC: the ERRORS and RETURN VALUES sections of the manual agree with
the implementation and with each other.

doc/api_errors.txt lists the error codes of every call of papi.h (and of the Fortran
routines that only fpapi/ implements); doc/error_scan.py reads from the sources which
codes each call can produce or pass on. Checked:
  - every public call (and Fortran-only routine) has an entry;
  - a listed code is one the call's code can return (reachable);
  - every code the call's own body produces is listed;
  - an int call that can return a code has a list, not a "--" text, and a "--" call
    indeed returns no code (not int, or nothing reachable);
  - a "CALL.CODE: when" note names a listed code;
  - RETURN VALUES names no code that ERRORS lacks (man_content.returns_text refuses it),
    and a call whose success is PAPI_OK says exactly that.
Exit 0 pass, 1 fail."""
import os
import re
import sys
sys.dont_write_bytecode = True  # imports below live in the checkout: no __pycache__ there

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails as FAILURES  # noqa: E402 (tests/common/checks.py)


def main():
    src = sys.argv[1]
    sys.path.insert(0, os.path.join(src, "doc"))
    import error_scan
    import gen_man
    import man_content as mc
    direct, reach = error_scan.reachable(src)
    funcs = gen_man.c_functions(os.path.join(src, "src-c", "include", "papi.h"))
    errs = mc.load_api_errors(os.path.join(src, "doc", "api_errors.txt"))
    mc.load_error_meanings(os.path.join(src, "src-c", "lib", "sdk", "errors.c"))
    notes = errs.pop("notes")
    routines = gen_man.fortran_routines(os.path.join(src, "src-fortran", "papif_api.def"))
    fortran_only = {n: "papifh_" + n[len("PAPIF_"):] for n, _, c in routines if c not in funcs}
    calls = {n: (n, funcs[n][0]) for n in funcs}
    calls.update({n: (h, "int") for n, h in fortran_only.items()})
    for name, (impl, proto) in sorted(calls.items()):
        entry = errs.get(name)
        check(entry is not None, "%s: no entry in doc/api_errors.txt" % name)
        if entry is None:
            continue
        can = reach.get(impl)
        check(can is not None or isinstance(entry, str),
              "%s: no implementation %s found in the sources" % (name, impl))
        can = can or set()
        if isinstance(entry, str):
            check(not proto.startswith("int") or not can,
                  "%s: listed as returning no code, but its code can return %s" % (name, sorted(can)))
            continue
        check(proto.startswith("int"), "%s returns %s, not an error code: use a '--' text" % (name, proto))
        extra = [c for c in entry if c not in can]
        check(not extra, "%s lists %s, which its code cannot return (it can: %s)" % (name, extra, sorted(can)))
        missing = sorted(direct.get(impl, set()) - set(entry))
        check(not missing, "%s returns %s itself, not listed" % (name, missing))
        check(len(entry) == len(set(entry)), "%s lists a code twice" % name)
    for name in errs:
        check(name in calls, "doc/api_errors.txt names %s, which is no call" % name)
    for (name, code), _ in notes.items():
        if code == "returns":
            continue
        check(isinstance(errs.get(name), list) and code in errs[name],
              "note %s.%s: %s does not list %s" % (name, code, name, code))
    for name, (proto, doc) in sorted(funcs.items()):
        entry = errs.get(name)
        if entry is None:
            continue
        try:
            text = mc.returns_text(name, proto, doc, entry, notes.get((name, "returns")))
        except ValueError as e:
            check(False, str(e))
            continue
        if mc.is_status_call(proto, doc) and (name, "returns") not in notes:
            check(text.startswith("PAPI_OK (0) when it succeeds"), "%s: RETURN VALUES %r" % (name, text))
        check(not re.search(r"\bPAPI_E[A-Z_]+", mc.description_text(proto, doc).split(".", 1)[-1])
              or all(c in (entry if isinstance(entry, list) else [])
                     for c in re.findall(r"\bPAPI_E[A-Z_]+\b", mc.description_text(proto, doc))
                     if c in error_scan.CODES),
              "%s: the description names a code ERRORS lacks" % name)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("api errors: %d calls checked against the implementation: PASSED" % len(calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
