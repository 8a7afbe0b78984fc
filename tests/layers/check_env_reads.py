#!/usr/bin/env python3
"""check_env_reads.py SRC_C: every environment variable of the library and the tools
(src-c/) is read through src-c/common/env.h, never with a plain getenv:

- no getenv( or secure_getenv( call outside src-c/common/env.c (comments and strings
  do not count);
- env_is_set(), which does not refuse anything in a privileged process, names only the
  variables of the libraries that read their own (HWLOC_*, LIBPFM_*) or passes a name on
  (scoped_env.c); a PAPI_* variable goes through env_get, which ignores it there.
"""
import os
import re
import sys

CALL = re.compile(r"\b(secure_getenv|getenv)\s*\(")
IS_SET = re.compile(r"\benv_is_set\s*\(\s*([^)]*)\)")


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


def main():
    root = sys.argv[1]
    failures, files = [], 0
    for base, _, names in os.walk(root):
        for name in names:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(base, name)
            rel = os.path.relpath(path, root)
            text = code_only(open(path, encoding="utf-8", errors="replace").read())
            files += 1
            for m in CALL.finditer(text):
                if rel != os.path.join("common", "env.c"):
                    line = text.count("\n", 0, m.start()) + 1
                    failures.append(f"{rel}:{line}: {m.group(1)}() outside common/env.c: "
                                    "use env_get (env.h)")
            for m in IS_SET.finditer(text if not rel.startswith(os.path.join("common", "env.")) else ""):
                arg = m.group(1).strip()
                ok = arg == "name" or re.fullmatch(r'"(HWLOC|LIBPFM)_[A-Z_]+"', arg)
                if not ok:
                    line = text.count("\n", 0, m.start()) + 1
                    failures.append(f"{rel}:{line}: env_is_set({arg}): only another library's "
                                    "own variable; read ours with env_get")
    for f in failures:
        print("FAIL:", f)
    if files < 50:
        print(f"FAIL: only {files} source files under {root}")
        return 1
    print(f"check_env_reads: {'FAILED' if failures else 'PASSED'} ({files} files)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
