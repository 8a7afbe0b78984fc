"""papi_report --merge-trace OUT FILE...: the per-rank Chrome trace-event JSON files of one
job (each rank's own trace_*.json, written with its own time base) as one file that
Perfetto's UI and chrome://tracing open with every rank on one time axis. Each file's
times are shifted by its base_ns minus the earliest base; flows need nothing: their ids
are computed alike on both ends (src-c/common/trace_json.c). A directory of a job that
died before MPI_Finalize gives the trace of its ranks' event logs (event_logs.py); an MPI
job's index, papi_mpi_trace.index.json, its ranks' files streamed (trace_index.py). OUT is
always a new file: never one of the inputs (`--merge-trace trace_rank_*.json`, whose glob
made rank 0's trace OUT) and never a file that exists. Plain Python, no pandas."""
import errno
import json
import os
import tempfile

from ..load import event_logs, trace_file, trace_index


class TraceMergeError(Exception):
    """A file that is not a papi-compat JSON trace, or one that cannot be read."""


def load(path):
    """The trace at path, checked against trace_json.schema.json (trace_file.py)."""
    try:
        return trace_file.load(path)
    except trace_file.TraceError as e:
        raise TraceMergeError(str(e))


def merge(paths, notes=None):
    """The merged document of the traces at paths (notes: what a dead job's event logs
    left out, event_logs.load)."""
    if len(paths) == 1 and trace_index.is_index(paths[0]):  # a job's files rank by rank
        try:
            return trace_index.document(paths[0])  # its events a generator: streamed
        except trace_index.TraceIndexError as e:
            raise TraceMergeError(str(e))
    if len(paths) == 1 and os.path.isdir(paths[0]):  # a dead job's event logs
        try:
            return event_logs.trace(paths[0], notes)
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


def refuse_out(out, paths):
    """Why OUT cannot be written (one line), or None: it is one of the inputs, or exists."""
    for p in paths:
        try:
            same = os.path.samefile(out, p)
        except OSError:
            continue
        if same:
            return ("--merge-trace OUT %s is one of the traces to merge (OUT comes first: "
                    "papi_report --merge-trace merged.json TRACE...): nothing written" % out)
    if os.path.lexists(out):
        return ("--merge-trace OUT %s exists: papi_report never writes over a file, name a "
                "new OUT (the first name after --merge-trace is OUT: with a glob alone, as "
                "--merge-trace trace_rank_*.json, it is the first trace): nothing written" % out)
    return None


def write(doc, out):
    """Written whole under a temporary name, then linked into place: a file that appeared
    at OUT meanwhile is kept (FileExistsError). The events are written one at a time (a
    generator's too). Returns their number."""
    d = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".trace.", dir=d)
    n = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write('{"traceEvents":[\n')
            for e in doc["traceEvents"]:
                f.write((",\n" if n else "") + json.dumps(e, separators=(",", ":")))
                n += 1
            f.write('\n],\n"displayTimeUnit":"ns",\n"otherData":%s}\n'
                    % json.dumps(doc["otherData"], separators=(",", ":")))
        os.chmod(tmp, 0o644)
        try:
            os.link(tmp, out)  # fails on an existing OUT, unlike a rename
        except OSError as e:
            if e.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
                raise
            os.close(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))  # no hard links here
            os.replace(tmp, out)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
    return n


def main(out, paths):
    """0 done, 2 bad input or an OUT that exists (nothing written), or a torn last line of
    an event log (the trace written without it, the line said), 1 the output could not be
    written (one line on stderr)."""
    import sys
    why = refuse_out(out, paths)
    if why:
        print("papi_report: %s" % why, file=sys.stderr)
        return 2
    notes = []
    try:
        doc = merge(paths, notes)
    except TraceMergeError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2
    try:
        n = write(doc, out)
    except trace_index.TraceIndexError as e:  # a rank's file, read while written
        print("papi_report: %s: nothing written" % e, file=sys.stderr)
        return 2
    except FileExistsError:
        print("papi_report: %s" % refuse_out(out, paths), file=sys.stderr)
        return 2
    except OSError as e:
        print("papi_report: cannot write %s: %s" % (out, e.strerror), file=sys.stderr)
        return 1
    print("papi_report: wrote %s (%d ranks, %d events)" % (out, doc["otherData"]["ranks"], n))
    for r in doc["otherData"].get("unfinished", []):
        print(event_logs.unfinished_line(r))
    for note in notes:
        print("papi_report: %s: left out" % note, file=sys.stderr)
    return 2 if notes else 0
