#!/usr/bin/env python3
"""check_layers.py ROOT MAP: the sources under ROOT only reach down the layers MAP names.

Reads every .c and .h file under ROOT (and under the folders outside ROOT that MAP names,
such as ../common), and every .py file when ROOT is a Python package (an __init__.py at
its top: papi_report), and finds, per file:
  - its includes: #include "x.h" or <x.h> naming a header of the tree (by path relative
    to the including file, else by path suffix anywhere in the tree: the library builds
    with every folder on the include path, so <x.h> finds a project header too); headers
    not in the tree (papi.h, libc) are ignored;
  - its uses: identifiers (calls, and reads or writes of variables) naming a function or
    a variable that another file of the tree defines with external linkage. The body of
    a #define counts as code of the file that defines the macro (its parameters aside):
    that file is the one that reaches the name, and every user of the macro includes it,
    so the edge user -> definer -> name is in the graph without expanding each use;
  - a Python file's imports of the tree's modules (relative ones, and absolute ones
    through the package ROOT is), at the top or inside a function alike:
    `from ..load import registry` reaches load/registry.py.

MAP lists the layers top down, one per line, each with the folders (relative to ROOT,
shell patterns allowed; a pattern with a dot names files instead) whose files belong to
it, and optional rules:

    layer api: highlevel overflow
    layer core: core
    layer sdk: sdk
    layer common: ../common                 # a folder beside ROOT, checked with it
    deny components components/*: papi_globals.h   # folders that must not include it
    private components/*: components/registry.c    # see below
    acyclic: .                              # no cycle between files of these folders
    interpose: pthread_create _exit         # libc's names a preloaded library takes over

  private PATTERN...[: FILE...]  a header or a function or variable of a folder matching
      PATTERN (the shortest leading part of its path that matches) is that folder's own:
      no file outside it includes or uses it, except the FILEs named after ':';
  acyclic: PATTERN...  within a folder matching PATTERN, files form no cycle either (a
      file x.c and its header x.h are one concept and count as one).
  interpose: NAME...  functions of the C library that files of the tree define to take
      their place (papi_run's preloaded libraries wrap pthread_create and _exit): a use
      of such a name is the C library's, no edge to the files that define it.

Fails (exit 1, one line per finding) when
  - a file includes or uses something of a higher layer than its own;
  - files of different folders or of different layers form a cycle (an include or use
    path from each to the other, through any files), or files of an acyclic folder do;
  - a folder includes a header that a deny line forbids it, or a file reaches into a
    private folder it is not part of;
  - a file of the tree belongs to no layer (a new folder must be placed in the map).
Comments, strings and preprocessor lines other than #include and #define are ignored.
The parse is a C tokeniser, not a compiler: it needs definitions at file scope, as the
sources have. A file-scope call of a function-like macro of the tree without a ';'
(an X-macro list) is a statement of its own.
"""
import ast
import fnmatch
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = set("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static
struct switch typedef union unsigned void volatile while _Bool _Atomic _Thread_local
_Static_assert _Noreturn _Alignas _Alignof _Generic __attribute__ __thread __typeof__
typeof asm __asm__ bool __VA_ARGS__ defined""".split())


def blank_literals(text, i=0, stop=None):
    """Comments, string and character literals of text[i:stop] blanked (newlines kept)."""
    out, n = [], len(text) if stop is None else stop
    while i < n:
        c = text[i]
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
    return "".join(out)


def strip_source(text):
    """(code, includes, macros): code with comments, literals and directives blanked;
    includes as written (quoted or angled); macros as (name, params or None, body)."""
    out, includes, macros, i, n = [], [], [], 0, len(text)
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
            raw = text[i:k]
            m = re.match(r'#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.sub(r"/\*.*?\*/", " ", raw, flags=re.S))
            if m:
                includes.append(m.group(1) or m.group(2))
            directive = blank_literals(raw).replace("\\\n", " \n")
            m = re.match(r"#\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?(.*)", directive, flags=re.S)
            if m:
                params = None if m.group(2) is None else [p.strip() for p in m.group(3).split(",")]
                macros.append((m.group(1), params, m.group(4)))
            out.append("\n" * text.count("\n", i, k))
            i = k
            continue
        line_start = c == "\n"
        if text.startswith("/*", i) or text.startswith("//", i) or c in "\"'":
            # one comment or literal at a time, so a '#' after it is still seen at a line start
            if c in "\"'":
                j = i + 1
                while j < n and text[j] != c and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                k = j + 1
            elif c == "/" and text[i + 1] == "*":
                k = text.find("*/", i + 2)
                k = n if k < 0 else k + 2
            else:
                k = text.find("\n", i)
                k = n if k < 0 else k
            out.append(blank_literals(text, i, k))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out), includes, macros


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


def definitions(code, fmacros):
    """(functions, variables) defined with external linkage at file scope. fmacros: the
    tree's function-like macros, whose file-scope calls end a statement without ';'."""
    funcs, vars_ = set(), set()
    i, n, stmt_start = 0, len(code), 0
    while i < n:
        c = code[i]
        if c == "(":
            head = code[stmt_start:i].strip()
            i = skip_group(code, i, "(", ")")
            rest = code[i:].lstrip()
            if head in fmacros and rest[:1] not in (";", "{", ""):
                stmt_start = i  # e.g. PAPI_COMPONENT_LIST(DECLARE) then a definition
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


def macro_uses(macros):
    """The names the bodies of a file's macros use (their parameters and the '#'
    stringified or '##' pasted tokens aside)."""
    names = set()
    for name, params, body in macros:
        body = re.sub(r"#\s*[A-Za-z_]\w*|\w*\s*##\s*\w*", " ", body)
        names |= used_names(body) - set(params or ()) - {name}
    return names


def py_module_file(parts, files):
    """The file of module parts (["load", "registry"]): a module, else a package's
    __init__.py; None when the tree has neither."""
    for cand in ("/".join(parts) + ".py", "/".join(parts + ["__init__.py"])):
        if cand in files:
            return cand
    return None


def py_imports(text, rel, root, files):
    """The files of the tree a Python file imports: relative imports from its package,
    absolute ones through the package name of ROOT (its folder's name), wherever the
    import statement is."""
    pkg = os.path.basename(os.path.abspath(root))
    here = [p for p in folder_of(rel).split("/") if p != "."]
    out = set()
    for node in ast.walk(ast.parse(text, rel)):
        if isinstance(node, ast.ImportFrom):
            mod = (node.module or "").split(".") if node.module else []
            if node.level:
                base = here[:len(here) - (node.level - 1)] if node.level - 1 <= len(here) else None
            elif mod and mod[0] == pkg:
                base, mod = [], mod[1:]
            else:
                continue
            if base is None:
                continue
            for a in node.names:  # a submodule of that name, else a name in the module
                t = py_module_file(base + mod + [a.name], files) or py_module_file(base + mod, files)
                if t:
                    out.add(t)
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                t = py_module_file(parts[1:], files) if parts[0] == pkg and len(parts) > 1 else None
                if t:
                    out.add(t)
    return out


def read_map(path):
    rules = {"layers": [], "deny": [], "private": [], "acyclic": [], "interpose": []}
    with open(path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            kind, _, rest = line.partition(" ")
            head, _, body = rest.partition(":")
            if kind == "layer":
                rules["layers"].append((head.strip(), body.split()))
            elif kind == "deny":
                rules["deny"].append((head.split(), body.split()))
            elif kind == "private":
                rules["private"].append((head.split(), body.split()))
            elif kind == "acyclic:" or (kind == "acyclic" and not head.strip()):
                rules["acyclic"] += (rest if kind == "acyclic:" else body).split()
            elif kind == "interpose:" or (kind == "interpose" and not head.strip()):
                rules["interpose"] += (rest if kind == "interpose:" else body).split()
            else:
                sys.exit(f"FAILED: {path}: unknown line '{raw.strip()}'")
    if not rules["layers"]:
        sys.exit(f"FAILED: {path} names no layer")
    return rules


def folder_of(rel):
    d = os.path.dirname(rel)
    return d if d else "."


def matches(folder, patterns):
    return any("." not in p.lstrip("./") and fnmatch.fnmatchcase(folder, p) for p in patterns)


def layer_of(folder, layers):
    for rank, (name, patterns) in enumerate(layers):
        if matches(folder, patterns):
            return rank, name
    return None, None


def layer_of_file(rel, layers):
    """A pattern with a dot names files (mpi-wrappers/ is one folder in several layers);
    otherwise the file's folder decides."""
    for rank, (name, patterns) in enumerate(layers):
        if any("." in p.lstrip("./") and fnmatch.fnmatchcase(rel, p) for p in patterns):
            return rank, name
    return layer_of(folder_of(rel), layers)


def private_root(rel, patterns):
    """The private folder rel lies in: the shortest leading part of its folder that
    matches one of patterns, or None."""
    parts = folder_of(rel).split("/")
    for k in range(1, len(parts) + 1):
        prefix = "/".join(parts[:k])
        if prefix not in (".", "..") and any(fnmatch.fnmatchcase(prefix, p) for p in patterns):
            return prefix
    return None


def inside(rel, folder):
    return rel.startswith(folder + "/")


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


def tree_files(root, layers):
    """Every .c and .h under ROOT and under the folders outside it that layers name; .py
    too when ROOT is a Python package (a C tree's scripts are no part of its layers)."""
    tops = [root] + sorted({os.path.normpath(os.path.join(root, p))
                            for _, patterns in layers for p in patterns
                            if p.startswith("../") and not any(ch in p for ch in "*?[")})
    exts = (".c", ".h", ".py") if os.path.isfile(os.path.join(root, "__init__.py")) else (".c", ".h")
    files = set()
    for top in tops:
        for d, _, fs in os.walk(top):
            files |= {os.path.relpath(os.path.join(d, f), root) for f in fs if f.endswith(exts)}
    return sorted(files)


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: check_layers.py ROOT MAP")
    root, map_path = argv[1], argv[2]
    rules = read_map(map_path)
    layers = rules["layers"]
    files = tree_files(root, layers)
    if len(files) < 2:
        sys.exit(f"FAILED: only {len(files)} source files under {root}")
    code, incs, macros, defined, fmacros, pyimports = {}, {}, {}, {}, set(), {}
    for rel in files:
        with open(os.path.join(root, rel), errors="replace") as f:
            text = f.read()
        if rel.endswith(".py"):  # imports only: no C to read
            pyimports[rel] = py_imports(text, rel, root, files)
            text = ""
        code[rel], incs[rel], macros[rel] = strip_source(text)
        fmacros |= {name for name, params, _ in macros[rel] if params is not None}
    for rel in files:
        if rel.endswith(".c"):
            funcs, vars_ = definitions(code[rel], fmacros)
            for name in (funcs | vars_) - set(rules["interpose"]):
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
        for patterns, allowed in rules["private"]:
            own = private_root(b, patterns)
            if own and not inside(a, own) and a not in allowed:
                problems.append(f"{a} {why} {b}, private to {own}/ (private in {map_path})")

    for rel in files:
        folder = folder_of(rel)
        rank, _ = layer_of_file(rel, layers)
        if rank is None:
            problems.append(f"{rel}: folder '{folder}' is in no layer of {map_path}")
        for inc in incs[rel]:
            near = os.path.normpath(os.path.join(folder, inc))
            targets = [near] if near in code else [t for t in files if t == inc or t.endswith("/" + inc)]
            for t in targets:
                edge(rel, t, "includes")
            for folders, headers in rules["deny"]:
                if matches(folder, folders) and os.path.basename(inc) in headers:
                    problems.append(f"{rel} includes {inc}, which {folder}/ may not (deny in {map_path})")
        for t in sorted(pyimports.get(rel, ())):
            edge(rel, t, "imports")
        for name in sorted(used_names(code[rel]) | macro_uses(macros[rel])):
            for t in sorted(defined.get(name, ())):
                if t != rel:
                    edge(rel, t, f"uses {name} of")
    for comp in sccs(files, edges):
        folders = sorted({folder_of(f) for f in comp})
        names = sorted({layer_of_file(f, layers)[1] or "?" for f in comp})
        if len(folders) > 1:
            problems.append("cycle between folders " + ", ".join(folders) + ": " + " ".join(sorted(comp)))
        elif len(names) > 1:
            problems.append("cycle between layers " + ", ".join(names) + ": " + " ".join(sorted(comp)))
    # Within an acyclic folder: the same on concepts (x.c with x.h), one folder at a time.
    concept = {f: os.path.splitext(f)[0] for f in files}
    cedges = {}
    for a, targets in edges.items():
        for b in targets:
            if folder_of(a) == folder_of(b) and concept[a] != concept[b]:
                cedges.setdefault(concept[a], set()).add(concept[b])
    for comp in sccs(sorted(set(concept.values())), cedges):
        folder = folder_of(comp[0])
        members = sorted(f for f in files if concept[f] in comp)
        if len(comp) > 1 and matches(folder, rules["acyclic"]) and \
                len({layer_of_file(f, layers) for f in members}) == 1:  # else reported above
            problems.append(f"cycle between files of {folder}/ (acyclic in {map_path}): " + " ".join(members))
    for p in problems:
        print(p)
    if problems:
        print(f"FAILED: {len(problems)} finding(s) in {len(files)} files under {root}")
        return 1
    nedges = sum(len(v) for v in edges.values())
    print(f"PASSED: {len(files)} files, {nedges} include/use edges, every one pointing down "
          f"the {len(layers)} layers of {os.path.basename(map_path)}; no cycle between folders "
          f"or layers" + (f", none within {' '.join(rules['acyclic'])}" if rules["acyclic"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
