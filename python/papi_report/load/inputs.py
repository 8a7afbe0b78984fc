"""What a path given to papi_report holds: an MPI report, region files, the OMPT tool's
tables, or several (a run's directory: papi_run's folder and the program's region files
both, issue 69). A file is told by its content where its name does not say (a region file
renamed, as --check tells it), read a member at a time so an MPI report of any size is
never held for it."""
import glob
import json
import os

from . import json_stream
from .input_file import InputRefused, open_text
from .openmp_files import FILE_RE, FOLDER

#: The folders a run's directory holds region files in: the region API's and papi_run -o's.
REGION_FOLDERS = ("papi_hl_output", "papi_run_output")


def _refuse_constant(name):
    raise ValueError(name)


def kind_by_content(path):
    """"mpi", "regions" or "openmp" by the file's top-level members (the OMPT tool's "tool",
    the region format's "threads" or "event_definitions", an MPI report's "ranks"), None
    when it is none of them or cannot be read (the loader it falls to then says why)."""
    try:
        with open_text(path) as f:
            for key, value in json_stream.members(f, ("ranks", "traceEvents"), _refuse_constant):
                if key == "tool" and value == "papi_ompt":
                    return "openmp"
                if key == "event_definitions" or key == "threads" and isinstance(value, dict):
                    return "regions"  # (an MPI rank row's "threads" is a number)
                if key == "ranks":
                    return "mpi"
                if key in ("traceEvents", "kind"):
                    return None  # a trace, a profile, GPU activity, an event log: none of the three
    except (OSError, ValueError, InputRefused, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return None


def classify(path):
    """[("mpi", path), ("regions", path) and/or ("openmp", path)] for what path holds, or
    None. A directory's region folders are each one entry (papi_run_output and
    papi_hl_output side by side: load.load_regions counts a process once)."""
    if os.path.isfile(path):
        base = os.path.basename(path)
        if base.startswith("rank_") and path.endswith(".json"):
            return [("regions", path)]
        if FILE_RE.fullmatch(base):
            return [("openmp", path)]
        if base == "papi_mpi_report.json":
            return [("mpi", path)]
        kind = kind_by_content(path)
        if kind is not None:
            return [(kind, path)]
        return [("mpi", path)] if path.endswith(".json") else None
    if not os.path.isdir(path):
        return None
    found = []
    if os.path.isfile(os.path.join(path, "papi_mpi_report.json")):
        found.append(("mpi", os.path.join(path, "papi_mpi_report.json")))
    folders = [os.path.join(path, d) for d in REGION_FOLDERS if os.path.isdir(os.path.join(path, d))]
    holding = [d for d in folders if glob.glob(os.path.join(d, "rank_*.json"))]
    found += [("regions", d) for d in holding or folders[:1]]  # none: the loader says so
    if not folders and any(n.startswith("rank_") and n.endswith(".json") for n in os.listdir(path)):
        found.append(("regions", path))
    if os.path.isdir(os.path.join(path, FOLDER)):  # PAPI_OMPT_OUTPUT_DIR's default
        found.append(("openmp", os.path.join(path, FOLDER)))
    elif any(FILE_RE.fullmatch(os.path.basename(n)) for n in glob.glob(os.path.join(path, "ompt_*.json"))):
        found.append(("openmp", path))
    return found or None
