"""papi_report: the MPI wrapper's report and the region files as pandas DataFrames,
pictures and one HTML page.

    import papi_report
    t = papi_report.tables(mpi="run/", regions="run/papi_hl_output")
    t["mpi_ranks"].sort_values("compute_s")        # compute time per rank
    papi_report.region_tree_literal("run/")        # for hatchet.GraphFrame.from_literal

The tables and their columns are described in papi_report.tables; `papi_report --help`
is the command line. Installed under <prefix>/share/papi/python (add it to PYTHONPATH)."""
from .tables import (MalformedInput, ReportError, load_mpi, load_regions, mpi_call_sizes,  # noqa: F401
                     mpi_call_summary, mpi_callsites, mpi_calls, mpi_counters, mpi_matrix,
                     mpi_ranks, mpi_region_call_summary, mpi_region_calls, mpi_region_summary,
                     mpi_regions, mpi_run, mpi_sizes,
                     region_instances, region_reads, region_run, region_totals, region_tree,
                     region_tree_literal, tables)
