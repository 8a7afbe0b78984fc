#!/usr/bin/env python3
"""check_import_graph.py PACKAGE_DIR: papi_report's modules in layers with no import cycle.

Reads every module's imports of the package (top level and inside functions alike) and
fails on: a cycle; an import that points up a layer (load < tables < figures < page); a
function-local import of a package module (one that dodges a cycle) other than the few
listed in LOCAL_OK; a module in no layer; registry.py importing anything of the package;
a module that registers tables, views, figures or checks without its line in
registry.MODULES (it would never be loaded), or a line there naming no module. Then
loads the registry and checks its ids are unique. Exit 0 pass, 1 fail."""
import ast
import os
import sys

LAYERS = ("load", "tables", "figures", "page")
#: Modules registry.MODULES does not list (they register nothing), by layer.
FIXED = {"registry": "load", "check": "load", "load": "load", "schema_check": "load",
         "inputs": "load", "schema_fast": "load", "units": "load", "device_events": "load", "deep_json": "load", "catalog": "tables",
         "html": "page", "text": "page", "compare": "page", "__init__": "page",
         "profile": "load", "trace_merge": "page", "event_logs": "load", "mpi_rows": "load",
         "profile_compare": "page", "pop_compare": "page", "compare_page": "page",
         "compare_units": "page", "trace_file": "load", "profile_metrics": "load",
         "csv_check": "load", "input_file": "load", "mpi_rules": "load"}
#: (importer, imported): function-local imports that are not about cycles.
LOCAL_OK = {("compare_page", "figures"): "the ratio charts need matplotlib; the text and CSV do not"}
REGISTERS = ("table", "view", "figure", "check")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails as FAILURES, verdict  # noqa: E402 (tests/common/checks.py)


def imports(tree, name):
    """[(module imported, local?, line)] of the package's modules."""
    out = []

    def visit(node, local):
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level == 1 and base:
                    out.append((base.split(".")[0], local, child.lineno))
                elif child.level == 1:
                    out.extend((a.name, local, child.lineno) for a in child.names)
                elif base.split(".")[0] == "papi_report" and child.level == 0:
                    parts = base.split(".")
                    out.extend([(parts[1], local, child.lineno)] if len(parts) > 1 else
                               [(a.name, local, child.lineno) for a in child.names])
            elif isinstance(child, ast.Import):
                for a in child.names:
                    parts = a.name.split(".")
                    if parts[0] == "papi_report" and len(parts) > 1:
                        out.append((parts[1], local, child.lineno))
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


def find_cycle(graph):
    state, stack = {}, []

    def dfs(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = dfs(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None
    for n in sorted(graph):
        if n not in state:
            c = dfs(n)
            if c:
                return c
    return None


def main():
    pkg = sys.argv[1]
    trees = {}
    for f in sorted(os.listdir(pkg)):
        if f.endswith(".py"):
            with open(os.path.join(pkg, f), encoding="utf-8") as fh:
                trees[f[:-3]] = ast.parse(fh.read(), f)
    listed = registered_modules(trees["registry"])
    check(listed, "registry.py has no MODULES list")
    layer = dict(FIXED)
    for mod, lay in listed:
        check(mod in trees, "registry.MODULES names %s, which is no module of %s" % (mod, pkg))
        check(lay in LAYERS[1:3], "registry.MODULES puts %s in layer %r (tables or figures)" % (mod, lay))
        layer[mod] = lay
    graph, locals_seen = {}, 0
    for mod, tree in trees.items():
        check(mod in layer, "%s.py is in no layer: list it in registry.MODULES (or FIXED here)" % mod)
        if registers(tree) and mod != "registry":
            check(mod in dict(listed), "%s.py registers tables or figures but registry.MODULES "
                  "does not list it: it would never be loaded" % mod)
        for dep, local, line in imports(tree, mod):
            if dep not in trees:
                continue
            graph.setdefault(mod, set()).add(dep)
            if mod == "registry":
                check(False, "registry.py:%d imports %s: the registry must be a leaf" % (line, dep))
            if local:
                locals_seen += 1
                check((mod, dep) in LOCAL_OK, "%s.py:%d imports %s inside a function: import at "
                      "the top (a cycle it would make is a layering fault)" % (mod, line, dep))
            if mod in layer and dep in layer and mod != "__init__":
                check(LAYERS.index(layer[dep]) <= LAYERS.index(layer[mod]),
                      "%s.py:%d (layer %s) imports %s (layer %s): upwards" % (
                          mod, line, layer[mod], dep, layer[dep]))
    cycle = find_cycle({m: d - {"__init__"} for m, d in graph.items() if m != "__init__"})
    check(cycle is None, "import cycle: %s" % " -> ".join(cycle or []))
    edges = sum(len(d) for d in graph.values())
    print("papi_report: %d modules, %d import edges, %d function-local (allowed: %s), layers %s"
          % (len(trees), edges, locals_seen, ", ".join("%s->%s" % k for k in LOCAL_OK),
             " < ".join(LAYERS)))
    # The registry itself: every module loads, ids unique, and each figure, table and view
    # registered once whatever the order of imports.
    sys.path.insert(0, os.path.dirname(os.path.abspath(pkg)))
    try:
        from papi_report import catalog, figures, html, registry  # noqa: F401
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
    print("registry: %d tables, %d views, %d figures" % (len(registry.TABLES), len(views), len(ids)))
    return verdict("check_import_graph")


if __name__ == "__main__":
    sys.exit(main())
