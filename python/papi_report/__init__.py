"""papi_report: the MPI wrapper's report and the region files as pandas DataFrames,
pictures and one HTML page.

    import papi_report
    t = papi_report.tables(mpi="run/", regions="run/papi_hl_output")
    t["mpi_ranks"].sort_values("compute_s")        # compute time per rank
    papi_report.tables(openmp="run/papi_ompt_output")["openmp_regions"]  # OMPT tool's
    papi_report.region_tree_literal("run/")        # for hatchet.GraphFrame.from_literal

The tables and their columns are described in papi_report.tables.tables; `papi_report
--help` is the command line (python/papi_report.py, installed as bin/papi_report).
Installed under <prefix>/share/papi/python (add it to PYTHONPATH).

`papi_report.tables` is the function above and `papi_report.compare` the module of
--compare (page/compare.py), both imported at their first use with the tables' functions
(pandas); the layers' modules are imported by name (`from papi_report.tables import
series`), never as attributes of the package.

Layers, one folder each, bottom up (README.md beside this file lists the modules); a
module imports only its own layer and those below, never inside a function to dodge a
cycle (layers.map; tests/report/check_import_graph.py checks the import graph):
  load/     the input files read and checked, and the registry (a leaf)
  tables/   pandas DataFrames and what the page and text show of them; catalog
            (loads the registered modules; tables(): every table of the inputs)
  figures/  matplotlib and inline SVG, drawn from the tables alone
  page/     the HTML page, the text report, --compare, --merge-trace

Adding tables or figures: write a module in its layer's folder (say tables/waits.py)
that registers each where it is defined (@registry.table("regions"),
@registry.figure(id, title, section), registry.view(name, heading, rows),
@registry.check("mpi")) and add ONE line to load/registry.MODULES: ("waits", "tables")
or ("waits", "figures") when it draws (it may import figures' helpers at the top). Its
place in MODULES is its place in the report, its layer the folder it is in."""
import importlib
import sys
import types

# The load layer (the standard library alone) at once; the tables, compare and their
# pandas, numpy and matplotlib (a second or more) at the first use of one of their names,
# so `from papi_report.load import schema_check` and papi_report --check, --advise and
# --merge-trace never import pandas.
from .load.check import MalformedInput, ReportError  # noqa: F401,E402
from .load.load import load_gpu_runs, load_mpi, load_ompt, load_regions  # noqa: F401,E402

#: name -> the module (relative to this package) it is taken from when first used
_LAZY = dict.fromkeys(("mpi_call_sizes", "mpi_call_summary", "mpi_callsites", "mpi_calls",
                       "mpi_counters", "mpi_matrix", "mpi_ranks", "mpi_region_call_summary",
                       "mpi_region_calls", "mpi_region_summary", "mpi_regions", "mpi_run",
                       "mpi_sizes", "region_instances", "region_reads", "region_run",
                       "region_totals", "region_tree", "region_tree_literal"), ".tables.tables")


class _Package(types.ModuleType):
    """The package, whose `tables` is catalog's function: the import system names the
    tables/ folder here when it is first imported (its setter ignores that)."""

    @property
    def tables(self):
        return importlib.import_module(".tables.catalog", __name__).tables

    @tables.setter
    def tables(self, _subpackage):
        pass

    @property
    def compare(self):
        """papi_report.compare.compare(A, B), as papi_report(1) names it (page/compare.py)."""
        return importlib.import_module(".page.compare", __name__)

    def __getattr__(self, name):
        if name not in _LAZY:
            raise AttributeError("module %r has no attribute %r" % (__name__, name))
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        setattr(self, name, value)
        return value

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(_LAZY) | {"tables", "compare"})


sys.modules[__name__].__class__ = _Package
