#!/usr/bin/env python3
"""check_layers.py ROOT MAP: the sources under ROOT only reach down the layers MAP names.

Reads every .c and .h file under ROOT and finds, per file:
  - its includes: #include "x.h" naming a header under ROOT (by path relative to the
    including file, else by file name anywhere under ROOT: the library builds with every
    folder on the include path); headers not under ROOT (papi.h, libc) are ignored;
  - its uses: identifiers (calls, and reads or writes of variables) naming a function or
    a variable that another file under ROOT defines with external linkage.

MAP lists the layers top down, one per line, each with the folders (relative to ROOT,
shell patterns allowed) whose files belong to it:

    layer api: highlevel overflow
    layer core: core
    layer sdk: sdk
    deny components components/*: papi_globals.h   # folders that must not include it

Fails (exit 1, one line per finding) when
  - a file includes or uses something of a higher layer than its own;
  - files of different folders form a cycle (an include or use path from each to the
    other, through any files);
  - a folder includes a header that a deny line forbids it;
  - a file under ROOT belongs to no layer (a new folder must be placed in the map).
Comments, strings and preprocessor lines other than #include are ignored. The parse is a
C tokeniser, not a compiler: it needs definitions at file scope, as the sources have.
"""
import fnmatch
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = set("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Bool _Atomic _Thread_local
_Static_assert _Noreturn _Alignas _Alignof _Generic __attribute__ __thread __typeof__
typeof asm __asm__ bool""".split())


def strip_source(text):
    """Comments, string and character literals blanked; #include lines kept apart."""
    out, includes, i, n = [], [], 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":
            j = i
            while True:  # the directive with its continuation lines
                k = text.find("\n", j)
                k = n if k < 0 else k
                if k > i and text[k - 1] == "\\":
                    j = k + 1
                    continue
                break
            directive = re.sub(r"/\*.*?\*/", " ", text[i:k], flags=re.S)
            m = re.match(r'#\s*include\s*"([^"]+)"', directive)
            if m:
                includes.append(m.group(1))
            out.append("\n" * text.count("\n", i, k))
            i = k
            continue
        line_start = c == "\n"
        if text.startswith("/*", i):
            k = text.find("*/", i + 2)
            k = n if k < 0 else k + 2
            out.append(" " + "\n" * text.count("\n", i, k))
            i = k
        elif text.startswith("//", i):
            k = text.find("\n", i)
            i = n if k < 0 else k
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out), includes


def skip_group(text, i, open_c, close_c):
    """Index just past the group opening at text[i]."""
    depth = 0
    while i < len(text):
        if text[i] == open_c:
            depth += 1
        elif text[i] == close_c:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def declared_name(decl):
    """The name a file-scope variable declaration (up to its '=') defines, or None."""
    decl = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", decl, flags=re.S)
    m = re.search(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)", decl)  # a function pointer variable
    if m:
        return m.group(1)
    decl = re.sub(r"_Atomic\s*\([^)]*\)|\[[^\]]*\]", " ", decl)
    names = [w for w in IDENT.findall(decl) if w not in KEYWORDS and not w.isupper()]
    return names[-1] if names else None  # (upper case: a macro, e.g. a visibility attribute)


def function_name(head):
    """The name before the parameter list of a definition's head (it ends with ')')."""
    depth, j = 0, len(head) - 1
    while j >= 0:
        if head[j] == ")":
            depth += 1
        elif head[j] == "(":
            depth -= 1
            if depth == 0:
                break
        j -= 1
    m = re.search(r"([A-Za-z_]\w*)\s*$", head[:j])
    return m.group(1) if m else None


def definitions(code):
    """(functions, variables) defined with external linkage at file scope."""
    funcs, vars_ = set(), set()
    i, n, stmt_start = 0, len(code), 0
    while i < n:
        c = code[i]
        if c == "(":
            i = skip_group(code, i, "(", ")")
        elif c == "{":
            head = code[stmt_start:i].rstrip()
            i = skip_group(code, i, "{", "}")
            if head.endswith(")") and "=" not in head:  # a function's body
                name = function_name(head)
                if name and "static" not in IDENT.findall(head):
                    funcs.add(name)
                stmt_start = i
            # else an initialiser or a type's body: the declaration goes on to its ';'
        elif c == ";":
            stmt = code[stmt_start:i]
            words = set(IDENT.findall(stmt))
            stmt_start = i = i + 1
            if not words or words & {"static", "extern", "typedef", "_Static_assert"}:
                continue
            decl = stmt.split("=")[0]
            while re.search(r"\{[^{}]*\}", decl):  # a type's body: its members are not ours
                decl = re.sub(r"\{[^{}]*\}", " ", decl)
            if re.fullmatch(r"\s*(struct|union|enum)\s+\w+\s*", decl):
                continue  # a type, no variable
            bare = re.sub(r"__attribute__\s*\(\(.*?\)\)|_Atomic\s*\([^)]*\)", " ", decl, flags=re.S)
            if "(" in bare and not re.search(r"\(\s*\*\s*\w+\s*\)", bare):
                continue  # a prototype
            name = declared_name(decl)
            if name:
                vars_.add(name)
        else:
            i += 1
    return funcs, vars_


def without_type_bodies(code):
    """The code with the bodies of struct, union and enum types blanked: their members
    and constants are no uses of the functions or variables that share their names."""
    out, i = [], 0
    for m in re.finditer(r"\b(struct|union|enum)\s*\w*\s*\{", code):
        if m.start() < i:
            continue  # nested in a body already blanked
        out.append(code[i:m.end() - 1])
        i = skip_group(code, m.end() - 1, "{", "}")
    out.append(code[i:])
    return " ".join(out)


def used_names(code):
    """Identifiers not reached through '.' or '->' (members are not symbols)."""
    code = without_type_bodies(code)
    names = set()
    for m in IDENT.finditer(code):
        before = code[max(0, m.start() - 2): m.start()].rstrip()
        if before.endswith(".") or before.endswith("->"):
            continue
        names.add(m.group(0))
    return names - KEYWORDS


def read_map(path):
    layers, deny = [], []
    with open(path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            kind, _, rest = line.partition(" ")
            head, _, body = rest.partition(":")
            if kind == "layer":
                layers.append((head.strip(), body.split()))
            elif kind == "deny":
                deny.append((head.split(), body.split()))
            else:
                sys.exit(f"FAILED: {path}: unknown line '{raw.strip()}'")
    if not layers:
        sys.exit(f"FAILED: {path} names no layer")
    return layers, deny


def folder_of(rel):
    d = os.path.dirname(rel)
    return d if d else "."


def layer_of(folder, layers):
    for rank, (name, patterns) in enumerate(layers):
        if any(fnmatch.fnmatchcase(folder, p) for p in patterns):
            return rank, name
    return None, None


def layer_of_file(rel, layers):
    """A pattern with a dot names files (mpi-wrappers/ is one folder in several layers);
    otherwise the file's folder decides."""
    for rank, (name, patterns) in enumerate(layers):
        if any("." in p and fnmatch.fnmatchcase(rel, p) for p in patterns):
            return rank, name
    return layer_of(folder_of(rel), layers)


def sccs(nodes, edges):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: check_layers.py ROOT MAP")
    root, map_path = argv[1], argv[2]
    layers, deny = read_map(map_path)
    files = sorted(os.path.relpath(os.path.join(d, f), root)
                   for d, _, fs in os.walk(root) for f in fs if f.endswith((".c", ".h")))
    if len(files) < 2:
        sys.exit(f"FAILED: only {len(files)} source files under {root}")
    by_name = {}
    for rel in files:
        by_name.setdefault(os.path.basename(rel), []).append(rel)
    code, incs, defined = {}, {}, {}
    for rel in files:
        with open(os.path.join(root, rel), errors="replace") as f:
            code[rel], incs[rel] = strip_source(f.read())
        if rel.endswith(".c"):
            funcs, vars_ = definitions(code[rel])
            for name in funcs | vars_:
                defined.setdefault(name, set()).add(rel)
    problems, edges = [], {}

    def edge(a, b, why):
        if a == b:
            return
        edges.setdefault(a, set()).add(b)
        ra, la = layer_of_file(a, layers)
        rb, lb = layer_of_file(b, layers)
        if ra is not None and rb is not None and rb < ra:
            problems.append(f"{a} ({la}) {why} {b} ({lb}): a lower layer reaches up")

    for rel in files:
        folder = folder_of(rel)
        rank, _ = layer_of_file(rel, layers)
        if rank is None:
            problems.append(f"{rel}: folder '{folder}' is in no layer of {map_path}")
        for inc in incs[rel]:
            near = os.path.normpath(os.path.join(folder, inc))
            targets = [near] if near in code else by_name.get(os.path.basename(inc), [])
            for t in targets:
                edge(rel, t, "includes")
            for folders, headers in deny:
                if any(fnmatch.fnmatchcase(folder, p) for p in folders) and os.path.basename(inc) in headers:
                    problems.append(f"{rel} includes {inc}, which {folder}/ may not (deny in {map_path})")
        for name in sorted(used_names(code[rel])):
            for t in sorted(defined.get(name, ())):
                if t != rel:
                    edge(rel, t, f"uses {name} of")
    for comp in sccs(files, edges):
        folders = sorted({folder_of(f) for f in comp})
        if len(folders) > 1:
            problems.append("cycle between folders " + ", ".join(folders) + ": " + " ".join(sorted(comp)))
    for p in problems:
        print(p)
    if problems:
        print(f"FAILED: {len(problems)} finding(s) in {len(files)} files under {root}")
        return 1
    nedges = sum(len(v) for v in edges.values())
    print(f"PASSED: {len(files)} files, {nedges} include/use edges, every one pointing down "
          f"the {len(layers)} layers of {os.path.basename(map_path)}; no cycle between folders")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
