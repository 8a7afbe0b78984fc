"""papi_report.load.trace_index: an MPI job's JSON trace written rank by rank
(PAPI_MPI_TRACE=json): the index papi_mpi_trace.index.json (trace_index.schema.json) and
its ranks' files, papi_mpi_trace.ranks/rank_NNNNNN.json, each a Chrome trace of one rank
counting from the index's base_ns. --merge-trace OUT INDEX reads the files as it reads any
traces (page/trace_merge.py: trace_file.py, one event at a time), checking each against
the index here. The load layer: no pandas."""
import os

from . import schema_check, trace_file

FORMAT = "papi-compat trace index"


class TraceIndexError(Exception):
    """An index or a rank's file that cannot be used (the message, one line, says which
    and why)."""


def is_index(path):
    """Whether path names an index (by its name: <base>.index.json, a regular file)."""
    return path.endswith(".index.json") and os.path.isfile(path)


def load(path):
    """The index at path, checked against its schema; TraceIndexError otherwise."""
    doc = trace_file.read_json(path, TraceIndexError)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise TraceIndexError("%s: not a papi-compat trace index (format)" % path)
    try:
        why = schema_check.check_document(path, doc, "trace_index")
    except schema_check.SchemaUnavailable:
        why = None
    if why:
        raise TraceIndexError(why)
    return doc


def rank_files(path, index):
    """Each rank's file, rank 0 first (paths beside the index)."""
    d = os.path.dirname(os.path.abspath(path))
    return [os.path.join(d, index["files"] % r) for r in range(index["ranks"])]


def rank_file_fault(path, other, index):
    """Why a rank's file, its otherData other (trace_file.scan), does not belong to the
    index (one line), or None: it is one rank's trace counting from the index's base_ns."""
    if other.get("base_ns") != index["base_ns"]:
        return ("%s: otherData.base_ns %s is not the index's %d: a file of another run"
                % (path, other.get("base_ns"), index["base_ns"]))
    if other.get("ranks") != 1:
        return "%s: otherData.ranks %s: not one rank's trace" % (path, other.get("ranks"))
    return None


def other_data(index):
    """The merged trace's otherData, from the index."""
    other = {"format": "papi-compat trace", "version": 1, "base_ns": index["base_ns"],
             "ranks": index["ranks"], "dropped": index["dropped"]}
    for k in ("program", "run_id", "creator"):
        if k in index:
            other[k] = index[k]
    return other
