#!/usr/bin/env python3
"""check_import_graph.py PACKAGE_DIR: papi_report's registry and its modules' places.

The layers themselves are folders (load/, tables/, figures/, page/ under the package)
and layers.map's: ctest layers_report checks that no import points up and none makes a
cycle. This checks what only papi_report has: every module is in a layer's folder;
registry.MODULES names each module that registers tables, views, figures or checks
(else it would never be loaded), in the folder of the layer it gives it (tables or
figures), and names no module that is not there; registry.py imports nothing of the
package (a leaf); no module imports one of the package inside a function (one that
dodges a cycle) other than the few listed in LOCAL_OK. Then loads the registry and
checks its ids are unique, and that every table (written as NAME.csv) has its row schema,
$defs/NAME of schema/csv_tables.schema.json (a CSV without one is never checked). Exit 0 pass, 1 fail, 77 skipped (no pandas or matplotlib)."""
import ast
import json
import os
import sys

LAYERS = ("load", "tables", "figures", "page")
#: (importer, imported): function-local imports that are not about cycles.
LOCAL_OK = {("compare_page", "figures"): "the ratio charts need matplotlib; the text and CSV do not"}
REGISTERS = ("table", "view", "figure", "check")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails as FAILURES, verdict  # noqa: E402 (tests/common/checks.py)


def package_imports(tree, modules):
    """[(module imported, local?, line)]: the package's modules a module imports, by name
    (module names are unique across the layers' folders)."""
    out = []

    def named(node):
        if isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".")
            if not node.level and parts[0] != "papi_report":
                return []
            if parts[-1] in modules:
                return [parts[-1]]
            return [a.name for a in node.names if a.name in modules]
        if isinstance(node, ast.Import):
            return [a.name.split(".")[-1] for a in node.names
                    if a.name.startswith("papi_report.") and a.name.split(".")[-1] in modules]
        return []

    def visit(node, local):
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            out.extend((m, local, child.lineno) for m in named(child))
            visit(child, inner)
    visit(tree, False)
    return out


def registered_modules(tree):
    """registry.MODULES as written: [(module, layer)]."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "MODULES" for t in node.targets):
            return ast.literal_eval(node.value)
    return []


def registers(tree):
    """Does the module call registry.table/view/figure/check?"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in REGISTERS and getattr(node.func.value, "id", "") == "registry":
            return True
    return False


def read_package(pkg):
    """{module: (folder, tree)} of every module under pkg (a folder's __init__.py aside)."""
    out = {}
    for d, dirs, files in os.walk(pkg):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        folder = os.path.relpath(d, pkg)
        for f in sorted(files):
            if f.endswith(".py") and (f != "__init__.py" or folder == "."):
                name = f[:-3]
                check(name not in out, "two modules named %s: in %s/ and %s/" % (
                    name, out.get(name, ("?",))[0], folder))
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    out[name] = (folder, ast.parse(fh.read(), f))
    return out


def main():
    pkg = sys.argv[1]
    modules = read_package(pkg)
    check("registry" in modules, "no registry.py under %s" % pkg)
    listed = registered_modules(modules["registry"][1]) if "registry" in modules else []
    check(listed, "registry.py has no MODULES list")
    for mod, lay in listed:
        check(mod in modules, "registry.MODULES names %s, which is no module of %s" % (mod, pkg))
        check(lay in LAYERS[1:3], "registry.MODULES puts %s in layer %r (tables or figures)" % (mod, lay))
        check(modules.get(mod, (lay,))[0] == lay, "registry.MODULES puts %s in layer %r, but it is in "
              "%s/: the folder is its layer" % (mod, lay, modules.get(mod, ("?",))[0]))
    edges = locals_seen = 0
    for mod, (folder, tree) in sorted(modules.items()):
        check(folder in LAYERS or mod == "__init__", "%s.py is in %s/, no layer's folder (%s)" % (
            mod, folder, ", ".join(LAYERS)))
        if registers(tree) and mod != "registry":
            check(mod in dict(listed), "%s.py registers tables or figures but registry.MODULES "
                  "does not list it: it would never be loaded" % mod)
        for dep, local, line in package_imports(tree, modules):
            edges += 1
            if mod == "registry":
                check(False, "registry.py:%d imports %s: the registry must be a leaf" % (line, dep))
            if local:
                locals_seen += 1
                check((mod, dep) in LOCAL_OK, "%s.py:%d imports %s inside a function: import at "
                      "the top (a cycle it would make is a layering fault)" % (mod, line, dep))
    print("papi_report: %d modules in %s, %d imports of its own, %d function-local (allowed: %s)"
          % (len(modules), "/ ".join(LAYERS) + "/", edges, locals_seen,
             ", ".join("%s->%s" % k for k in LOCAL_OK)))
    # The registry itself: every module loads, ids unique, and each figure, table and view
    # registered once whatever the order of imports.
    sys.path.insert(0, os.path.dirname(os.path.abspath(pkg)))
    try:
        from papi_report.tables import catalog
        from papi_report.figures import figures
        from papi_report.page import html  # noqa: F401
        from papi_report.load import registry
    except ImportError as e:
        print("SKIPPED: %s" % e)
        return 77 if not FAILURES else 1
    catalog.load("figures")
    catalog.load("figures")
    ids = [f[0] for f in registry.FIGURES]
    views = [v[0] for v in registry.VIEWS]
    check(len(ids) == len(set(ids)), "figure ids registered twice: %s" % ids)
    check(len(views) == len(set(views)), "views registered twice: %s" % views)
    check(figures.FIGURES is registry.FIGURES, "figures.FIGURES is not the registry's list")
    check(all(v in registry.TABLES for v in views), "a view of no table: %s" % (
        [v for v in views if v not in registry.TABLES]))
    defs = json.load(open(os.path.join(os.path.dirname(os.path.abspath(pkg)), "..", "schema",
                                       "csv_tables.schema.json")))["$defs"]
    for name in registry.TABLES:
        check(name in defs, "table %s (written as %s.csv) has no row schema: add $defs/%s to "
              "schema/csv_tables.schema.json" % (name, name, name))
    print("registry: %d tables, %d views, %d figures" % (len(registry.TABLES), len(views), len(ids)))
    return verdict("check_import_graph")


if __name__ == "__main__":
    sys.exit(main())
