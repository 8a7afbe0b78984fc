#!/usr/bin/env python3
"""check_lock_table.py SRC: HACKING.md's lock tables against the code.

Every pthread_mutex_t declared in src-c/ and mpi-wrappers/ (a variable, an array or a
struct member) must have a row in one of the "Locks and their order" tables, in a row
whose file is in the same folder; every lock a row names must still be declared there.
A lock named `owner.member` in the table is the member `member` (declared in the struct's
header); `name[]` is an array. Function parameters (`pthread_mutex_t *m`) are not locks."""
import os
import re
import sys

DECL = re.compile(r"\bpthread_mutex_t\s+(\w+)\s*(\[[^\]]*\])?\s*[;=]")
ROW = re.compile(r"^\|\s*[\w-]+\s*\|(.*?)\|(.*?)\|")
TREES = {"src-c": "src-c/lib", "mpi-wrappers": "mpi-wrappers"}


def code_locks(src):
    """{(folder, name): file} of every mutex declared in the code."""
    found = {}
    for tree in TREES:
        for d, _, names in os.walk(os.path.join(src, tree)):
            for n in names:
                if not n.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, n)
                with open(path, encoding="utf-8") as f:
                    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", f.read(), flags=re.S)
                for m in DECL.finditer(text):
                    line_start = text.rfind("\n", 0, m.start()) + 1
                    if "const" in text[line_start:m.start()]:
                        continue  # a constant initialiser to copy from, not a lock
                    found[(os.path.relpath(d, src), m.group(1))] = os.path.relpath(path, src)
    return found


def table_locks(src):
    """[(folder, name, line)] of the locks the tables of HACKING.md name."""
    rows = []
    section = None
    with open(os.path.join(src, "HACKING.md"), encoding="utf-8") as f:
        lines = f.readlines()
    in_locks = False
    for no, line in enumerate(lines, 1):
        if line.startswith("## "):
            in_locks = line.strip() == "## Locks and their order"
        if not in_locks:
            continue
        if line.startswith("The MPI wrapper library"):
            section = "mpi-wrappers"
        elif line.startswith("libsde ("):
            section = "src-c/sde"
        m = ROW.match(line)
        if not m or "---" in line or m.group(1).strip() == "lock":
            continue
        files = re.findall(r"`([^`]+\.[ch])`", m.group(2))
        # The locks of the row: mutex names (a function in parentheses, a condition
        # variable or an atomic flag beside them are not).
        cell = re.sub(r"\([^)]*\)", "", m.group(1))
        names = [n for n in re.findall(r"`([\w.]+)(?:\[\])?`", cell)
                 if re.search(r"(lock|locks|mutex)$", n)]
        base = TREES.get(section, section) if section else TREES["src-c"]
        folders = {os.path.normpath(os.path.join(base, os.path.dirname(f))) for f in files}
        for name in names:
            member = name.split(".")[-1]
            rows.append((folders, member, no, name))
    return rows


def main():
    src = sys.argv[1]
    code = code_locks(src)
    rows = table_locks(src)
    problems = []
    documented = set()
    for folders, member, no, name in rows:
        hits = [(fo, member) for fo in folders if (fo, member) in code]
        if not hits and "." not in name:
            problems.append("HACKING.md:%d: `%s` is not declared in %s" % (no, name, ", ".join(sorted(folders))))
        if "." in name:  # a struct member: declared in a header of the folder
            hits = [k for k in code if k[1] == member and k[0] in folders]
            if not hits:
                problems.append("HACKING.md:%d: member `%s` is not declared in %s" % (no, name, ", ".join(sorted(folders))))
        documented.update(hits)
    for key, path in sorted(code.items()):
        if key not in documented:
            problems.append("%s: mutex `%s` has no row in HACKING.md's lock tables" % (path, key[1]))
    for p in problems:
        print("FAIL:", p)
    print("check_lock_table: %d mutexes, %d table entries: %s" % (
        len(code), len(rows), "FAILED" if problems else "PASSED"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
