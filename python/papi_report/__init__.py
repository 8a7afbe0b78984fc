"""papi_report: the MPI wrapper's report and the region files as pandas DataFrames,
pictures and one HTML page.

    import papi_report
    t = papi_report.tables(mpi="run/", regions="run/papi_hl_output")
    t["mpi_ranks"].sort_values("compute_s")        # compute time per rank
    papi_report.region_tree_literal("run/")        # for hatchet.GraphFrame.from_literal

The tables and their columns are described in papi_report.tables; `papi_report --help`
is the command line. Installed under <prefix>/share/papi/python (add it to PYTHONPATH).

Layers, bottom up; a module imports only its own layer and those below, never inside a
function to dodge a cycle (tests/report/check_import_graph.py checks the import graph):
  load     registry (the one list of tables, views, figures and checks: a leaf),
           check (the values a schema cannot refuse), schema_check, load, inputs, units,
           device_events (a device's, a package's or a thread's event, its unit),
           profile (papi_run --sample's files: found, merged, folded), mpi_rows (a
           dead MPI job's rows, checked: papi_mpi_collect's reader too), mpi_rules
           (the wait kinds and collectives' wait kinds, from the MPI wrapper's lists)
  tables   tables, series, series_metrics, metric_tables (pandas DataFrames), views,
           metric_views (what the page and text show of them), profile_tables (the
           sampled profiles), catalog (loads the
           registered modules; tables(): every table of the inputs)
  figures  figures (its helpers and the MPI and region figures), metric_figures,
           series_figures, series_metric_figures (matplotlib), profile_figures (the
           flame graphs as inline SVG, the function x rank heat map)
  page     html, text, compare, profile_compare (--compare by function)

Adding tables or figures: write a module (say waits.py) that registers each where it is
defined (@registry.table("regions"), @registry.figure(id, title, section),
registry.view(name, heading, rows), @registry.check("mpi")) and add ONE line to
registry.MODULES: ("waits", "tables") or ("waits", "figures") when it draws (it may
import figures' helpers at the top). Its place in MODULES is its place in the report."""
from .catalog import tables  # noqa: F401
from .check import MalformedInput, ReportError  # noqa: F401
from .load import load_mpi, load_regions  # noqa: F401
from .tables import (mpi_call_sizes, mpi_call_summary, mpi_callsites, mpi_calls,  # noqa: F401
                     mpi_counters, mpi_matrix, mpi_ranks, mpi_region_call_summary,
                     mpi_region_calls, mpi_region_summary, mpi_regions, mpi_run, mpi_sizes,
                     region_instances, region_reads, region_run, region_totals, region_tree,
                     region_tree_literal)
