"""What a path given to papi_report holds: an MPI report, region files, the OMPT tool's
tables, or several (a run's directory)."""
import glob
import os

from .openmp_files import FILE_RE, FOLDER


def classify(path):
    """[("mpi", path), ("regions", path) and/or ("openmp", path)] for what path holds, or
    None."""
    if os.path.isfile(path):
        if os.path.basename(path).startswith("rank_") and path.endswith(".json"):
            return [("regions", path)]
        if FILE_RE.fullmatch(os.path.basename(path)):
            return [("openmp", path)]
        return [("mpi", path)] if path.endswith(".json") else None
    if not os.path.isdir(path):
        return None
    found = []
    if os.path.isfile(os.path.join(path, "papi_mpi_report.json")):
        found.append(("mpi", os.path.join(path, "papi_mpi_report.json")))
    if os.path.isdir(os.path.join(path, "papi_hl_output")):
        found.append(("regions", os.path.join(path, "papi_hl_output")))
    elif os.path.isdir(os.path.join(path, "papi_run_output")):  # papi_run -o DIR
        found.append(("regions", os.path.join(path, "papi_run_output")))
    elif any(n.startswith("rank_") and n.endswith(".json") for n in os.listdir(path)):
        found.append(("regions", path))
    if os.path.isdir(os.path.join(path, FOLDER)):  # PAPI_OMPT_OUTPUT_DIR's default
        found.append(("openmp", os.path.join(path, FOLDER)))
    elif any(FILE_RE.fullmatch(os.path.basename(n)) for n in glob.glob(os.path.join(path, "ompt_*.json"))):
        found.append(("openmp", path))
    return found or None
