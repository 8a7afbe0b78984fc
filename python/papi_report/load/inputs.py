"""What a path given to papi_report holds: an MPI report, region files, or both (a run's
directory)."""
import os


def classify(path):
    """[("mpi", path) and/or ("regions", path)] for what path holds, or None."""
    if os.path.isfile(path):
        if os.path.basename(path).startswith("rank_") and path.endswith(".json"):
            return [("regions", path)]
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
    return found or None
