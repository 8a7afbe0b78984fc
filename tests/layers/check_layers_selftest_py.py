#!/usr/bin/env python3
"""check_layers_selftest_py.py CHECKER: the layer checker reads a Python package's imports
(papi_report's layers.map): on a small package written here it finds each broken rule
exactly (an import up a layer, at the top and inside a function, relative and absolute;
a cycle between files of an acyclic folder; a module in no layer), then passes the same
package with those fixed; and a C tree's scripts (a .py beside C files, no __init__.py at
its top) stay out of its layers."""
import os
import subprocess
import sys
import tempfile

MAP = """layer api: .
layer page: page
layer tables: tables
layer load: load
acyclic: . page tables load
"""
#: path -> source; the broken package. FIXED below replaces some of them.
BROKEN = {
    "__init__.py": "from .tables.table import rows\n",
    "page/__init__.py": "", "tables/__init__.py": "", "load/__init__.py": "",
    "page/html.py": "from ..tables import table\nfrom ..load.read import read\n",
    "tables/table.py": "from ..load import read\n\ndef rows():\n    from ..page import html\n    return html\n",
    "load/read.py": "import pkg.tables.table\nfrom . import check\n",
    "load/check.py": "from .read import read\n",
    "extra/x.py": "from ..load import read\n",
}
FIXED = {
    "tables/table.py": "from ..load import read\n\ndef rows():\n    return read\n",
    "load/read.py": "from . import check\n\ndef read():\n    pass\n",
    "load/check.py": "",
    "extra/x.py": None,
}
EXPECTED = [
    "tables/table.py (tables) imports page/html.py (page): a lower layer reaches up",
    "load/read.py (load) imports tables/table.py (tables): a lower layer reaches up",
    "extra/x.py: folder 'extra' is in no layer of",
    "cycle between folders load, page, tables: load/check.py load/read.py page/html.py tables/table.py",
    "cycle between files of load/ (acyclic in",
    "FAILED: 5 finding(s) in 9 files",
]


def write(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        if text is None:
            os.remove(path)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def run(checker, root, map_path):
    p = subprocess.run([sys.executable, checker, root, map_path], capture_output=True, text=True)
    print(p.stdout + p.stderr)
    return p.returncode, p.stdout.splitlines()


def main():
    checker, fails = sys.argv[1], []
    with tempfile.TemporaryDirectory(prefix="layers_py_") as tmp:
        root, map_path = os.path.join(tmp, "pkg"), os.path.join(tmp, "layers.map")
        with open(map_path, "w", encoding="utf-8") as f:
            f.write(MAP)
        write(root, BROKEN)
        rc, lines = run(checker, root, map_path)
        fails += ["exit status %d, expected 1" % rc] if rc != 1 else []
        fails += ["no line starts with: " + e for e in EXPECTED if not any(x.startswith(e) for x in lines)]
        fails += ["%d lines, expected %d" % (len(lines), len(EXPECTED))] if len(lines) != len(EXPECTED) else []
        write(root, FIXED)
        rc, lines = run(checker, root, map_path)
        fails += ["the fixed package: exit status %d, expected 0" % rc] if rc != 0 else []
        # A C tree with a script: the script is in no layer, and no finding either.
        c_tree = os.path.join(tmp, "ctree")
        write(c_tree, {"a/a.c": "int a_fn(void) { return 0; }\n", "b/b.c": "int b_fn(void);\n",
                       "gen.py": "import os\n"})
        with open(os.path.join(tmp, "c.map"), "w", encoding="utf-8") as f:
            f.write("layer a: a\nlayer b: b\n")
        rc, lines = run(checker, c_tree, os.path.join(tmp, "c.map"))
        fails += ["a C tree's script: exit status %d, expected 0" % rc] if rc != 0 else []
    for f in fails:
        print("FAIL: " + f)
    print("check_layers_selftest_py: " + ("FAILED" if fails else "PASSED"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
