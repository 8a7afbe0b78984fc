#!/usr/bin/env python3
"""check_env_reads.py TOP: what the caller of a program chooses (its environment, a library
path it names) is taken through the secure path in every C source we ship: the library,
the tools and every folder that has tools (src-c/: lib, common, utils, utils/papi_run,
connectors, sde; mpi-wrappers/, fpapi/, src-fortran/, and any new folder with C sources;
tests/, bench/, examples/ and doc/ are not shipped). In a privileged process (AT_SECURE:
setuid, setgid, setcap cap_perfmon) that caller is not the user the program acts for.

- no getenv( or secure_getenv( call outside src-c/common/env.c, in any folder (the
  library, the tools, the connectors, the MPI wrappers ...): every read is env_get
  (env.h), which ignores the variable in a privileged process and says so once;
- env_is_set(), which does not refuse anything in a privileged process, names only the
  variables of the libraries that read their own (HWLOC_*, LIBPFM_*) or passes a name on
  (scoped_env.c); a PAPI_* variable goes through env_get, which ignores it there;
- dlopen( and dlmopen( load only a name fixed when the program is built (a literal, a
  macro, an array of those indexed, a variable only ever assigned one, or a parameter
  every caller passes one), or with RTLD_NOLOAD (nothing new is loaded); a path a user
  names goes through user_dlopen (src-c/common/user_dlopen.c), which loads nothing in a
  privileged process. Comments and character literals do not count.
"""
import os
import re
import sys

CALL = re.compile(r"\b(secure_getenv|getenv)\s*\(")
IS_SET = re.compile(r"\benv_is_set\s*\(\s*([^)]*)\)")
DLOPEN = re.compile(r"\b(dlopen|dlmopen)\s*\(")
SKIP = {"tests", "bench", "examples", "doc", ".git"}  # not shipped
# Every folder with tools or library code: a scan that missed one would pass silently.
MUST_SCAN = ["src-c/lib", "src-c/common", "src-c/utils", "src-c/utils/papi_run",
             "src-c/utils/papi_validate", "src-c/connectors/kokkos", "src-c/sde",
             "src-c/ompt", "mpi-wrappers", "fpapi"]
ENV_C = os.path.join("src-c", "common", "env.c")
USER_DLOPEN = os.path.join("src-c", "common", "user_dlopen.c")


def code_only(text):
    """The text with comments and character literals blanked (lines kept); strings stay,
    env_is_set's argument is one."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(c if c == "\n" else " " for c in text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1] if q == '"' else "' '")
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def sources(top):
    """{relative path: code_only text} of every shipped .c/.h under top, and the CMake
    files' text (compile definitions name fixed libraries too)."""
    files, cmake = {}, ""
    for base, dirs, names in os.walk(top):
        # a build tree (CMakeCache.txt) or an install is not source
        dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.startswith(("build", "_"))
                         and not os.path.exists(os.path.join(base, d, "CMakeCache.txt")))
        for name in names:
            path = os.path.join(base, name)
            if name.endswith((".c", ".h", ".cc", ".cpp")):
                text = open(path, encoding="utf-8", errors="replace").read()
                files[os.path.relpath(path, top)] = code_only(text)
            elif name == "CMakeLists.txt" or name.endswith(".cmake"):
                cmake += open(path, encoding="utf-8", errors="replace").read()
    return files, cmake


def split_args(text, start):
    """The top-level arguments of the call whose '(' is at start, and the end."""
    args, depth, cur, i = [], 0, "", start + 1
    while i < len(text):
        c = text[i]
        if c == '"':  # a string: skip it whole
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur += text[i:j + 1]
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append(cur.strip())
                return args, i
            depth -= 1
        elif c == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    return args, i


FUNC = re.compile(r"^[A-Za-z_][^;{}()#]*?\b([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*\{", re.M)


def enclosing(text, pos):
    """(name, parameter names) of the function whose body holds pos, or None."""
    best = None
    for m in FUNC.finditer(text[:pos]):
        best = m
    if not best:
        return None
    params = [re.findall(r"\w+", p)[-1] if re.findall(r"\w+", p) else ""
              for p in best.group(2).split(",")]
    return best.group(1), params


class Fixed:
    """Whether an expression names a library fixed when the program is built."""

    def __init__(self, files, cmake):
        self.files, self.cmake = files, cmake

    def macro(self, name):
        if re.search(r"\b%s=" % re.escape(name), self.cmake):
            return True
        for t in self.files.values():
            d = re.search(r"#\s*define\s+%s\s+(.+)" % re.escape(name), t)
            if d:
                return self.expr(d.group(1).strip(), "", "", 0, 3)
        return False

    def expr(self, e, rel, text, pos, depth):
        e = e.strip()
        if depth > 4 or not e:
            return False
        if re.fullmatch(r'"(?:[^"\\]|\\.)*"', e):
            return True
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", e):
            return self.macro(e)
        m = re.fullmatch(r"([A-Za-z_]\w*)\s*\[[^\]]*\]", e)
        if m:  # an array of fixed names, indexed
            a = re.search(r"\b%s\s*\[\s*\]\s*=\s*\{([^}]*)\}" % re.escape(m.group(1)), text)
            return bool(a) and all(self.expr(x, rel, text, pos, depth + 1)
                                   for x in a.group(1).split(",") if x.strip())
        if not re.fullmatch(r"[A-Za-z_]\w*", e):
            return False
        fn = enclosing(text, pos)
        if fn and e in fn[1]:  # a parameter: what every caller passes there
            return self.callers(fn[0], fn[1].index(e), depth)
        sets = [(r, t, a.start(), a.group(1)) for r, t in self.files.items()
                for a in re.finditer(r"(?<![=!<>])\b%s\s*=(?!=)\s*([^;,]+)" % re.escape(e), t)]
        return bool(sets) and all(self.expr(v, r, t, p, depth + 1) for r, t, p, v in sets)

    def callers(self, fn, index, depth):
        calls = 0
        for r, t in self.files.items():
            for m in re.finditer(r"\b%s\s*\(" % re.escape(fn), t):
                args, _ = split_args(t, m.end() - 1)
                if FUNC.match(t, t.rfind("\n", 0, m.start()) + 1) or len(args) <= index:
                    continue  # the definition or a prototype
                if args[index].startswith("const ") or re.fullmatch(r"\w+(\s+|\s*\*+\s*)\w+", args[index]):
                    continue  # a declaration's parameter
                calls += 1
                if not self.expr(args[index], r, t, m.start(), depth + 1):
                    return False
        return calls > 0


def check_env(rel, text, failures):
    for m in CALL.finditer(text):
        if rel == ENV_C:
            continue
        line = text.count("\n", 0, m.start()) + 1
        failures.append(f"{rel}:{line}: {m.group(1)}() outside src-c/common/env.c: use env_get (env.h)")
    if rel.startswith(os.path.join("src-c", "common", "env.")):
        return
    for m in IS_SET.finditer(text):
        arg = m.group(1).strip()
        if not (arg == "name" or re.fullmatch(r'"(HWLOC|LIBPFM)_[A-Z_]+"', arg)):
            line = text.count("\n", 0, m.start()) + 1
            failures.append(f"{rel}:{line}: env_is_set({arg}): only another library's "
                            "own variable; read ours with env_get")


def check_dlopen(rel, text, fixed, failures):
    if rel == USER_DLOPEN:
        return 0
    n = 0
    for m in DLOPEN.finditer(text):
        args, _ = split_args(text, m.end() - 1)
        if args and args[0].startswith("const "):
            continue  # a prototype
        n += 1
        name = args[1] if m.group(1) == "dlmopen" and len(args) > 1 else (args[0] if args else "")
        if "RTLD_NOLOAD" in " ".join(args) or fixed.expr(name, rel, text, m.start(), 0):
            continue
        line = text.count("\n", 0, m.start()) + 1
        failures.append(f"{rel}:{line}: {m.group(1)}({name}): a name not fixed at build time; a "
                        "path the user names goes through user_dlopen (user_dlopen.h), which "
                        "loads nothing in a privileged process")
    return n


def main():
    top = sys.argv[1]
    files, cmake = sources(top)
    fixed = Fixed(files, cmake)
    failures, loads = [], 0
    for rel, text in sorted(files.items()):
        check_env(rel, text, failures)
        loads += check_dlopen(rel, text, fixed, failures)
    for folder in MUST_SCAN:
        if not any(r.startswith(folder.replace("/", os.sep) + os.sep) for r in files):
            failures.append(f"{folder}: no C source scanned there (moved? update MUST_SCAN)")
    for f in failures:
        print("FAIL:", f)
    if len(files) < 200 or loads < 5:
        print(f"FAIL: only {len(files)} source files and {loads} dlopen calls under {top}")
        return 1
    print(f"check_env_reads: {'FAILED' if failures else 'PASSED'} ({len(files)} files, "
          f"{loads} dlopen calls)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
