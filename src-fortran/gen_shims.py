#!/usr/bin/env python3
"""Generate the C side of the Fortran API from papif_api.def.

  gen_shims.py API.def SYMBOLS OUT.c

For every routine whose PAPI_* functions libpapi defines (SYMBOLS, from nm):
  papif_core_<name>   the C call; strings as NUL-terminated input or (buffer, capacity)
                      output. The `papi` module binds to it directly (bind(C)).
  papif_<name>_, papif_<name>, papif_<name>__, PAPIF_<NAME>
                      the four Fortran manglings for code without an interface: they take
                      CHARACTER arguments with hidden lengths (size_t, after all others)."""

import re
import sys
sys.dont_write_bytecode = True  # imports below live in the checkout: no __pycache__ there

import papif_api  # noqa: E402 (beside this script)

# Routines whose mangled entry points are written by hand (the core is still generated):
# PAPIF_perror takes two signatures through one name (see papif_perror.c).
HAND_WRITTEN = {"perror"}

# Names PAPI's libpapi also exports beyond the four manglings (codes may link to them).
EXTRA_NAMES = {"num_hwctrs": ["PAPIF_num_hwctrs"], "num_cmp_hwctrs": ["PAPIF_num_cmp_hwctrs"],
               "unlock": ["PAPIF_unlock"]}

MANGLINGS = [lambda p, n: "%s_%s_" % (p.lower(), n), lambda p, n: "%s_%s" % (p.lower(), n),
             lambda p, n: "%s_%s__" % (p.lower(), n), lambda p, n: "%s_%s" % (p, n.upper())]


def c_param(a, core):
    """Declaration of one argument: in the core (core=True) or in a mangled shim."""
    p = "f_" + a.name
    if a.type == "func":
        return "int (*%s)(void)" % p
    if a.is_string:
        if not core:
            return "char *%s" % p
        return ("const char *%s" % p) if a.intent == "in" else "char *%s, int %s_cap" % (p, p)
    const = "const " if a.intent == "in" and not a.is_array else ""
    return "%s%s *%s" % (const, papif_api.C_TYPE[a.base], p)


def params(r, core):
    ps = [c_param(a, core) for a in r.args]
    if not core:
        ps += ["size_t f_%s_len" % a.name for a in r.args if a.is_string]
    return ", ".join(ps) if ps else "void"


def c_expression(r):
    """The C call with argument names replaced by the core's variables."""
    by_name = {a.name: a for a in r.args}

    def subst(m):
        a = by_name.get(m.group(0))
        if a is None:
            return m.group(0)
        if a.is_string and a.intent != "in":
            return "f_%s_tmp" % a.name
        if a.intent == "in" and not a.is_array and not a.is_string and a.type != "func":
            return "(*f_%s)" % a.name
        return "f_" + a.name

    return re.sub(r"\b[A-Za-z_]\w*\b", subst, r.expr)


def core_function(r):
    out = ["void %s(%s);\n" % (r.core, params(r, True)),
           "void %s(%s)\n{\n" % (r.core, params(r, True))]
    outs = [a for a in r.args if a.is_string and a.intent != "in"]
    for a in outs:
        out.append('    char f_%s_tmp[PAPI_HUGE_STR_LEN] = "";\n' % a.name)
    call = c_expression(r)
    out.append("    %s%s;\n" % ("*f_%s = " % r.target if r.target else "", call))
    for a in outs:
        out.append("    papifh_copy_c_string(f_%s_tmp, f_%s, f_%s_cap);\n" % (a.name, a.name, a.name))
    out.append("}\n\n")
    return "".join(out)


def mangled_body(r):
    """Body of a mangled entry point: convert CHARACTER arguments, call the core."""
    ins = [a for a in r.args if a.is_string and a.intent == "in"]
    outs = [a for a in r.args if a.is_string and a.intent != "in"]
    check = any(a.name == "check" and a.intent == "out" for a in r.args)
    body = []
    for a in ins:
        body.append("    char *f_%s_c = papifh_string_from_fortran(f_%s, f_%s_len);\n"
                    % (a.name, a.name, a.name))
    for a in outs:
        body.append("    char f_%s_buf[PAPI_HUGE_STR_LEN];\n" % a.name)
    if ins:
        body.append("    if (%s) {\n" % " || ".join("!f_%s_c" % a.name for a in ins))
        if check:
            body.append("        *f_check = PAPI_ENOMEM;\n")
        body.append("        goto done;\n    }\n")
    cargs = []
    for a in r.args:
        if a.is_string and a.intent == "in":
            cargs.append("f_%s_c" % a.name)
        elif a.is_string:
            cargs.append("f_%s_buf, (int)sizeof f_%s_buf" % (a.name, a.name))
        else:
            cargs.append("f_" + a.name)
    body.append("    %s(%s);\n" % (r.core, ", ".join(cargs)))
    for a in outs:
        body.append("    papifh_string_to_fortran(f_%s_buf, f_%s, f_%s_len);\n"
                    % (a.name, a.name, a.name))
    if ins:
        body.append("done:\n")
        body += ["    free(f_%s_c);\n" % a.name for a in ins]
    return "".join(body)


def shims(r):
    out = []
    body = mangled_body(r) if r.has_strings else \
        "    %s(%s);\n" % (r.core, ", ".join("f_" + a.name for a in r.args))
    for name in [mangle(r.prefix, r.base) for mangle in MANGLINGS] + EXTRA_NAMES.get(r.name, []):
        out.append("void %s(%s);\n" % (name, params(r, False)))
        out.append("void %s(%s)\n{\n%s}\n\n" % (name, params(r, False), body))
    return "".join(out)


def main():
    api, symbols, out = sys.argv[1:4]
    routines, _, _ = papif_api.parse(api)
    have = papif_api.available(routines, papif_api.read_symbols(symbols))
    missing = [r.name for r in routines if r not in have]
    text = ["/* Generated by src-fortran/gen_shims.py from src-fortran/papif_api.def: do not edit. */\n",
            "#include <stdlib.h>\n\n#include \"papi.h\"\n#include \"papi_metrics.h\"\n"
            "#include \"papif_helpers.h\"\n\n",
            "/* Left out, their C functions are not in libpapi yet: %s */\n\n"
            % (" ".join(missing) or "none")]
    for r in have:
        text.append(core_function(r))
        if r.name not in HAND_WRITTEN:
            text.append(shims(r))
    papif_api.write_file(out, "".join(text))


if __name__ == "__main__":
    main()
