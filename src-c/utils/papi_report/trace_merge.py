"""papi_report --merge-trace OUT FILE...: the per-rank Chrome trace-event JSON files of one
job (each rank's own trace_*.json, written with its own time base) as one file that
Perfetto's UI and chrome://tracing open with every rank on one time axis. Each file's
times are shifted by its base_ns minus the earliest base; flows need nothing: their ids
are computed alike on both ends (src-c/common/trace_json.c). A directory of a job that
died before MPI_Finalize gives the trace of its ranks' event logs (event_logs.py). Plain
Python, no pandas."""
import json
import os
import tempfile

from . import event_logs, trace_file


class TraceMergeError(Exception):
    """A file that is not a papi-compat JSON trace, or one that cannot be read."""


def load(path):
    """The trace at path, checked against trace_json.schema.json (trace_file.py)."""
    try:
        return trace_file.load(path)
    except trace_file.TraceError as e:
        raise TraceMergeError(str(e))


def merge(paths):
    """The merged document of the traces at paths."""
    if len(paths) == 1 and os.path.isdir(paths[0]):  # a dead job's event logs
        try:
            return event_logs.trace(paths[0])
        except event_logs.EventLogError as e:
            raise TraceMergeError(str(e))
    docs = [load(p) for p in paths]
    if not docs:
        raise TraceMergeError("no trace to merge")
    base = min(d["otherData"]["base_ns"] for d in docs)
    events = []
    for d in docs:
        shift_us = (d["otherData"]["base_ns"] - base) / 1000.0
        for e in d["traceEvents"]:
            if "ts" in e and shift_us:
                e = dict(e, ts=round(e["ts"] + shift_us, 3))
            events.append(e)
    first = docs[0]["otherData"]
    other = {"format": "papi-compat trace", "version": 1, "base_ns": base,
             "ranks": sum(d["otherData"]["ranks"] for d in docs),
             "dropped": sum(d["otherData"]["dropped"] for d in docs)}
    for k in ("program", "run_id", "creator"):
        if k in first:
            other[k] = first[k]
    return {"traceEvents": events, "displayTimeUnit": "ns", "otherData": other}


def write(doc, out):
    """Written whole under a temporary name, then renamed into place."""
    d = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".trace.", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write('{"traceEvents":[\n')
            f.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in doc["traceEvents"]))
            f.write('\n],\n"displayTimeUnit":"ns",\n"otherData":%s}\n'
                    % json.dumps(doc["otherData"], separators=(",", ":")))
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise


def main(out, paths):
    """0 done, 2 bad input, 1 the output could not be written (one line on stderr)."""
    import sys
    try:
        doc = merge(paths)
    except TraceMergeError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2
    try:
        write(doc, out)
    except OSError as e:
        print("papi_report: cannot write %s: %s" % (out, e.strerror), file=sys.stderr)
        return 1
    print("papi_report: wrote %s (%d ranks, %d events)" % (out, doc["otherData"]["ranks"],
                                                            len(doc["traceEvents"])))
    for r in doc["otherData"].get("unfinished", []):
        print("papi_report: rank %d did not finish: %s" % (r["rank"], r["exit_reason"]))
    return 0
