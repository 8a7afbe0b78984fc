"""Reader of papif_api.def, the one description of the Fortran API.

Shared by the generators of the C shims, the `papi` module, the include files and the
constant tests, so that every one of them sees the same routines and constants."""

import re

TYPES = {"int", "long_long", "float", "double", "ulong", "string", "int[]", "long_long[]", "func"}
INTENTS = {"in", "out", "inout"}

# C and Fortran spelling of each argument type (C: the pointer a Fortran caller passes).
C_TYPE = {"int": "int", "long_long": "long long", "float": "float", "double": "double",
          "ulong": "long"}
F_KIND = {"int": "integer(c_int)", "long_long": "integer(c_long_long)",
          "float": "real(c_float)", "double": "real(c_double)", "ulong": "integer(c_long)"}
# A routine named PREFIX_name with PREFIX other than PAPIF (PAPIMF_evaluate) is an
# extension with a prefix of its own: its entry points are prefix_name_, ..., PREFIX_NAME
# and its core prefix_core_name, never a PAPIF_ name (PAPI's ABI is unchanged).
OWN_PREFIX = re.compile(r"^(PAPI[A-Z]*F)_(\w+)$")


class Arg:
    def __init__(self, intent, type_, name):
        self.intent, self.type, self.name = intent, type_, name

    @property
    def base(self):
        return self.type.rstrip("[]")

    @property
    def is_array(self):
        return self.type.endswith("[]")

    @property
    def is_string(self):
        return self.type == "string"


class Routine:
    def __init__(self, name, args, target, expr, line):
        self.name, self.args, self.target, self.expr, self.line = name, args, target, expr, line
        m = OWN_PREFIX.match(name)
        self.prefix, self.base = (m.group(1), m.group(2)) if m else ("PAPIF", name)

    @property
    def fname(self):
        """The Fortran name: PAPIF_read, PAPIMF_evaluate."""
        return "%s_%s" % (self.prefix, self.base)

    @property
    def core(self):
        """The C core the module binds to: papif_core_read, papimf_core_evaluate."""
        return "%s_core_%s" % (self.prefix.lower(), self.base)

    @property
    def has_strings(self):
        return any(a.is_string for a in self.args)

    def c_functions(self):
        """PAPI_* functions of libpapi the routine calls (it exists only if they do)."""
        return set(re.findall(r"\b(PAPIM?_[A-Za-z0-9_]+)\s*\(", self.expr))


def parse(path):
    routines, constants, presets, generics = [], [], False, {}
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            where = "%s:%d" % (path, lineno)
            if line == "const_presets":
                presets = True
                continue
            if line.startswith("generic "):
                m = re.match(r"^generic\s+(\w+)\s*=\s*([\w\s]+)$", line)
                if not m:
                    raise SystemExit("%s: expected 'generic name = routine routine...'" % where)
                generics[m.group(1)] = m.group(2).split()
                continue
            if line.startswith("const "):
                constants.extend(line.split()[1:])
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) != 3:
                raise SystemExit("%s: expected 'name | arguments | C call'" % where)
            name, argtext, call = fields
            args = []
            for a in filter(None, (x.strip() for x in argtext.split(","))):
                parts = a.split()
                if len(parts) != 3 or parts[0] not in INTENTS or parts[1] not in TYPES:
                    raise SystemExit("%s: bad argument '%s'" % (where, a))
                args.append(Arg(*parts))
            target, expr = None, call
            m = re.match(r"^([A-Za-z_]\w*)\s*=\s*(.+)$", call)
            if m:
                target, expr = m.group(1), m.group(2)
                if target not in [a.name for a in args]:
                    raise SystemExit("%s: target '%s' is not an argument" % (where, target))
            routines.append(Routine(name, args, target, expr, where))
    names = [r.name for r in routines]
    if len(set(names)) != len(names):
        raise SystemExit("%s: a routine is described twice" % path)
    if len(set(constants)) != len(constants):
        raise SystemExit("%s: a constant is listed twice" % path)
    for g, members in generics.items():
        if any(m not in names for m in members):
            raise SystemExit("%s: generic %s names an unknown routine" % (path, g))
    return routines, constants, presets


def parse_generics(path):
    """Module generic names: "generic perror = perror perror_message" lines."""
    generics = {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            m = re.match(r"^generic\s+(\w+)\s*=\s*([\w\s]+)$", line)
            if m:
                generics[m.group(1)] = m.group(2).split()
    return generics


def read_symbols(path):
    """Names of the functions libpapi defines (one per line)."""
    with open(path, encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip()}


def available(routines, symbols):
    return [r for r in routines if r.c_functions() <= symbols]


def read_constant_values(path):
    """NAME VALUE pairs printed by the constant dump program, values as 32-bit ints:
    masks above 2^31-1 become the equivalent negative number."""
    values = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            name, value = line.split()
            v = int(value)
            if 2**31 <= v < 2**32:
                v -= 2**32
            if not -2**31 <= v < 2**31:
                raise SystemExit("constant %s = %d does not fit a Fortran INTEGER" % (name, v))
            values.append((name, v))
    return values


def fortran_int(v):
    """A Fortran literal for v; -2^31 cannot be written directly."""
    return "(-2147483647-1)" if v == -2**31 else str(v)


def write_file(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_if_changed(path, text):
    """For outputs whose consumers should rebuild only on a real change (the symbol list)."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
