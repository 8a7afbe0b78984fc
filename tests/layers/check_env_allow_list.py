#!/usr/bin/env python3
"""check_env_allow_list.py TOP ALLOW_LIST: every environment variable that the library, the
MPI wrappers, the tools and the Python module read is on the allow-list, and every name on
the list is still read.

Why: a variable is input from whoever starts the program. In a process with privileges
(AT_SECURE: setuid, setgid, setcap cap_perfmon) that is not the user the program acts for,
so each name must be one we decided to read: through env_get (ignored there), or a third-party library's own (HWLOC_*, LIBPFM_*), hidden from that library
there (src-c/lib/sdk/scoped_env.c). A new getenv of a new name fails this test until the
list says what the variable does and why reading it is safe.

How names are found in C (comments ignored): the argument of env_get, env_is_set,
secure_getenv and getenv is a string literal; a macro defined as one; an array of
literals indexed (vars[i]); a local assigned literals (var = "X"); or a parameter of the
enclosing function, then the literal each call of that function passes first. In Python:
os.environ.get / os.getenv / os.environ[...] with a literal. A name that cannot be
resolved fails the test (make it resolvable, don't hide it)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_env_reads import code_only  # noqa: E402 (comments blanked, strings kept)

C_ROOTS = ["src-c", "mpi-wrappers", "fpapi", "src-fortran"]
# Every shipped folder with Python (the module, the tools, the MPI collector, the
# generators the build runs).
PY_ROOTS = ["python", "src-c/utils", "mpi-wrappers", "src-fortran"]
SKIP_DIRS = {"bench"}  # benchmarks are not shipped: they read their own knobs
MECHANISM = {os.path.join("src-c", "common", "env.c")}  # env_get itself

CALL = re.compile(r"\b(env_get|env_is_set|secure_getenv|getenv)\s*\(\s*([^()]*?)\s*\)")
OPEN = re.compile(r"\b(env_get|env_is_set|secure_getenv|getenv)\s*\(")
PY_CALL = re.compile(r"os\.(?:environ\.get|getenv)\(\s*([^,)]+)|os\.environ\[\s*([^\]]+)\]")
LIT = re.compile(r'^"([A-Za-z_][A-Za-z0-9_]*)"$')


def enclosing_function(text, pos):
    """The name of the C function whose body holds pos (the last top-level definition)."""
    best = None
    for m in re.finditer(r"^[A-Za-z_][^;{}()]*?\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{", text[:pos], re.M):
        best = m.group(1)
    return best


def resolve(arg, rel, text, pos, files):
    """The variable names an argument can be, or None when it cannot be told."""
    m = LIT.match(arg)
    if m:
        return {m.group(1)}
    ident = re.fullmatch(r"([A-Za-z_]\w*)(\[\w+\])?", arg)
    if not ident:
        return None
    name = ident.group(1)
    for t in files.values():  # a macro
        d = re.search(r"#\s*define\s+%s\s+\"([A-Za-z_]\w*)\"" % re.escape(name), t)
        if d:
            return {d.group(1)}
    if ident.group(2):  # an array of literals
        a = re.search(r"\b%s\s*\[\s*\]\s*=\s*\{([^}]*)\}" % re.escape(name), text)
        return set(re.findall(r'"([A-Za-z_]\w*)"', a.group(1))) if a else None
    local = set(re.findall(r"\b%s\s*=\s*\"([A-Za-z_]\w*)\"" % re.escape(name), text))
    if local:
        return local
    fn = enclosing_function(text, pos)  # a parameter: what the callers pass
    if not fn:
        return None
    names = set()
    for t in files.values():
        names |= set(re.findall(r"\b%s\s*\(\s*\"([A-Za-z_]\w*)\"" % re.escape(fn), t))
    return names or None


def scan(top):
    files = {}
    for root in C_ROOTS:
        for base, dirs, names in os.walk(os.path.join(top, root)):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            for n in names:
                if n.endswith((".c", ".h", ".cc", ".cpp")):
                    p = os.path.join(base, n)
                    files[os.path.relpath(p, top)] = code_only(open(p, errors="replace").read())
    reads, unresolved = {}, []
    for rel, text in files.items():
        if rel in MECHANISM:
            continue
        for m in OPEN.finditer(text):
            if not CALL.match(text, m.start()):
                line = text.count("\n", 0, m.start()) + 1
                unresolved.append(f"{rel}:{line}: {text[m.start():m.start() + 60].splitlines()[0]}")
        for m in CALL.finditer(text):
            if m.group(2).startswith("const "):  # a declaration, not a call
                continue
            got = resolve(m.group(2), rel, text, m.start(), files)
            line = text.count("\n", 0, m.start()) + 1
            if got is None:
                unresolved.append(f"{rel}:{line}: {m.group(1)}({m.group(2)})")
                continue
            for name in got:
                reads.setdefault(name, set()).add(f"{rel}:{line}")
    for root in PY_ROOTS:
        for base, dirs, names in os.walk(os.path.join(top, root)):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            for n in names:
                if not n.endswith(".py"):
                    continue
                p = os.path.join(base, n)
                rel = os.path.relpath(p, top)
                text = open(p, errors="replace").read()
                for m in PY_CALL.finditer(text):
                    arg = (m.group(1) or m.group(2)).strip()
                    lit = re.fullmatch(r"[\"']([A-Za-z_]\w*)[\"']", arg)
                    line = text.count("\n", 0, m.start()) + 1
                    if lit:
                        reads.setdefault(lit.group(1), set()).add(f"{rel}:{line}")
                    else:
                        unresolved.append(f"{rel}:{line}: os.environ({arg})")
    return reads, unresolved, len(files)


def load_allow_list(path):
    allowed = {}
    for no, line in enumerate(open(path), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        name, _, why = s.partition(" ")
        if not re.fullmatch(r"[A-Za-z_]\w*", name) or len(why.strip()) < 20:
            sys.exit(f"{path}:{no}: want 'NAME  what it does and why reading it is safe'")
        allowed[name] = why.strip()
    return allowed


def main():
    top, listing = sys.argv[1], sys.argv[2]
    reads, unresolved, nfiles = scan(top)
    allowed = load_allow_list(listing)
    fails = [f"cannot tell which variable is read: {u}" for u in unresolved]
    for name in sorted(reads):
        if name not in allowed:
            fails.append(f"{name} is read ({', '.join(sorted(reads[name]))}) but not on "
                         f"{os.path.basename(listing)}: add it with what it does and why it is safe")
    for name in sorted(allowed):
        if name not in reads:
            fails.append(f"{name} is on the allow-list but nothing reads it: remove it")
    for f in fails:
        print("FAIL:", f)
    if nfiles < 100 or len(reads) < 20:
        print(f"FAIL: only {nfiles} files and {len(reads)} variables found under {top}")
        return 1
    print(f"check_env_allow_list: {'FAILED' if fails else 'PASSED'} "
          f"({len(reads)} variables read in {nfiles} C files and the Python sources)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
