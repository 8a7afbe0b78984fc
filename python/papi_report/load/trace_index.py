"""papi_report.load.trace_index: an MPI job's JSON trace written rank by rank
(PAPI_MPI_TRACE=json): the index papi_mpi_trace.index.json (trace_index.schema.json) and
its ranks' files, papi_mpi_trace.ranks/rank_NNNNNN.json, each a Chrome trace of one rank.
The files share the index's base_ns, so their events go into one trace as they are, rank
after rank. Each file is read one line at a time (the wrapper writes one event a line,
src-c/common/trace_json.c), so a merge holds one event, whatever the job's size.
--merge-trace OUT INDEX takes it (page/trace_merge.py). The load layer: no pandas."""
import json
import os

from . import schema_check
from .input_file import InputRefused, read_text

FORMAT = "papi-compat trace index"


class TraceIndexError(Exception):
    """An index or a rank's file that cannot be used (the message, one line, says which
    and why)."""


def _no_constant(name):
    raise ValueError("%s is not JSON (RFC 8259 has no NaN or Infinity)" % name)


def is_index(path):
    """Whether path names an index (by its name: <base>.index.json, a regular file)."""
    return path.endswith(".index.json") and os.path.isfile(path)


def load(path):
    """The index at path, checked against its schema; TraceIndexError otherwise."""
    try:
        doc = json.loads(read_text(path), parse_constant=_no_constant)
    except OSError as e:
        raise TraceIndexError("%s: cannot read: %s" % (path, e.strerror))
    except InputRefused as e:
        raise TraceIndexError(str(e))
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise TraceIndexError("%s: not JSON: %s" % (path, e))
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


def rank_events(path, base_ns):
    """The events of one rank's file, one at a time; TraceIndexError when it is missing,
    not a trace of the wrapper's layout, or counts from another base."""
    state, tail = "head", []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                text = line.rstrip("\n")
                if state == "head":
                    if text != '{"traceEvents":[':
                        raise TraceIndexError("%s: line 1: not a JSON trace written rank by rank" % path)
                    state = "events"
                elif state == "events" and text.startswith("]"):
                    state = "tail"
                elif state == "events":
                    try:
                        yield json.loads(text.rstrip(","), parse_constant=_no_constant)
                    except ValueError as e:
                        raise TraceIndexError("%s: line %d: not JSON: %s" % (path, n, e))
                else:
                    tail.append(text)
    except OSError as e:
        raise TraceIndexError("%s: cannot read: %s" % (path, e.strerror))
    except UnicodeDecodeError as e:
        raise TraceIndexError("%s: not UTF-8: %s" % (path, e))
    try:
        other = json.loads("{" + "".join(tail)).get("otherData", {})
    except ValueError:
        other = None
    if not isinstance(other, dict) or other.get("base_ns") != base_ns:
        raise TraceIndexError("%s: its end is not a trace's of base_ns %d (the index's): a file "
                              "of another run, or cut short" % (path, base_ns))


def events(path, index):
    """Every rank's events, rank after rank (a generator: one event in memory)."""
    for p in rank_files(path, index):
        yield from rank_events(p, index["base_ns"])


def document(path):
    """The merged trace of the index at path, as trace_merge writes documents: its
    traceEvents a generator (streamed as it is written), otherData the index's."""
    index = load(path)
    other = {"format": "papi-compat trace", "version": 1, "base_ns": index["base_ns"],
             "ranks": index["ranks"], "dropped": index["dropped"]}
    for k in ("program", "run_id", "creator"):
        if k in index:
            other[k] = index[k]
    return {"traceEvents": events(path, index), "displayTimeUnit": "ns", "otherData": other}
