"""papi_report.load.deep_check: papi_report --check after a file's JSON Schema: what the
loaders refuse besides (the rules of check.py, openmp_files.py, plausible.py, a profile's,
a trace's and an event log's), so a file --check passes is one papi_report reads (issue
69). The load layer: no pandas."""
import os
import re

from . import event_log_read, profile, trace_file
from .check import ReportError
from .inputs import kind_by_content
from .load import load_gpu_file, load_mpi, load_ompt, load_regions


def deep_check(path):
    """One line saying what the loaders refuse in the file at path, or None. CSV tables
    and other JSON-lines files have their schema's check alone."""
    base = os.path.basename(path)
    try:
        kind = None if base.endswith((".csv", ".jsonl")) else kind_by_content(path)
        if re.fullmatch(r"papi_mpi_rank\d+\.events\.jsonl", base):
            return event_log_read.line_faults(path)
        if kind == "mpi":
            load_mpi(path)
        elif kind == "regions":
            load_regions([path], say=lambda _line: None)
        elif kind == "openmp":
            load_ompt([path])
        elif base.startswith("gpu_activity_") and base.endswith(".json"):
            load_gpu_file(path)
        elif re.fullmatch(r"(job_)?profile_.*\.json", base):
            profile._checked(path)  # read and checked, never merged
        elif base.startswith("trace_rank_") and base.endswith(".json") or base == "papi_mpi_trace.json":
            trace_file.load(path)
    except (ReportError, trace_file.TraceError) as e:
        return str(e)
    return None
