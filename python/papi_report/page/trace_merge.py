"""papi_report --merge-trace OUT FILE...: the per-rank Chrome trace-event JSON files of one
job (each rank's own trace_*.json, written with its own time base) as one file that
Perfetto's UI and chrome://tracing open with every rank on one time axis. Each file's
times are shifted by its base_ns minus the earliest base; flows need nothing: their ids
are computed alike on both ends (src-c/common/trace_json.c). Each file is read twice, one
event at a time (checked, then written): memory independent of the number of events. An
MPI job's index, papi_mpi_trace.index.json, names its ranks' files (trace_index.py): they
are merged so too. A directory of a job that died before MPI_Finalize gives the trace of
its ranks' event logs (event_logs.py). A finished job's traces whose event logs lie beside
them (or in the directory above: papi_mpi_trace.ranks/) also get the job's critical path
and each wait linked to its root causes (trace_causes.py: the per-wait data held, the
events still streamed; every rank's calls held for the analysis, as --advise holds
them); without logs the merged file is what it always was. OUT is
always a new file: never one of the inputs (`--merge-trace trace_rank_*.json`, whose glob
made rank 0's trace OUT) and never a file that exists. Plain Python, no pandas."""
import errno
import json
import os
import tempfile

from ..load import event_logs, trace_causes, trace_file, trace_index
from ..load import progress


class TraceMergeError(Exception):
    """A file that is not a papi-compat JSON trace, or one that cannot be read."""


def scan(path):
    """(otherData, events) of the trace at path, checked against trace_json.schema.json
    one event at a time (trace_file.py)."""
    try:
        return trace_file.scan(path)
    except trace_file.TraceError as e:
        raise TraceMergeError(str(e))


class Merged:
    """The merged trace: other (its otherData), count (its events: at most that many, the
    writer says how many it wrote) and events() (an iterator: each file read again, one
    event at a time, its times shifted)."""

    def __init__(self, other, count, events, said=()):
        self.other, self.count, self.events, self.said = other, count, events, said


def merge(paths, notes=None):
    """The merged trace of the traces at paths (notes: what a dead job's event logs left
    out, event_logs.load), its events streamed: memory independent of their number."""
    if len(paths) == 1 and os.path.isdir(paths[0]):  # a dead job's event logs
        try:
            other, count, events = event_logs.trace(paths[0], notes)
        except event_logs.EventLogError as e:
            raise TraceMergeError(str(e))
        return Merged(other, count, _checked(events))
    index = None
    if len(paths) == 1 and trace_index.is_index(paths[0]):  # a job's files rank by rank
        try:
            index = trace_index.load(paths[0])
        except trace_index.TraceIndexError as e:
            raise TraceMergeError(str(e))
        paths = trace_index.rank_files(paths[0], index)
    scanned = _scan_all(paths, index)
    base = min(o["base_ns"] for o, _n in scanned)
    other = _joined_other(base, scanned) if index is None else trace_index.other_data(index)
    said = []
    causes = _causes(paths, base, other, said)
    tag = causes.tag if causes is not None else None

    def events():
        for p, (o, _n) in zip(paths, scanned):
            shift_us = (o["base_ns"] - base) / 1000.0
            for e in trace_file.events(p):
                if "ts" in e and shift_us:
                    e = dict(e, ts=round(e["ts"] + shift_us, 3))
                yield tag(e) if tag else e
        if causes is not None:
            yield from causes.extra()
            other["root_causes"] = causes.summary()  # written after the events
    count = sum(n for _o, n in scanned) + (causes.count() if causes is not None else 0)
    return Merged(other, count, _checked(events()), said)


def _causes(paths, base, other, said):
    """trace_causes.Causes of the job's event logs beside the traces, or None: none there,
    or logs that cannot be used (why said: a line in said, the trace merged without them;
    a torn last line of a log is said too, the analysis made without it)."""
    torn = []
    try:
        causes = trace_causes.load(paths, base, other["ranks"], other.get("run_id"), torn)
    except (trace_causes.TraceCausesError, event_logs.EventLogError) as e:
        said.append("%s: the trace has no critical path and no root causes" % e)
        return None
    said += ["%s: left out of the root causes" % why for why in torn]
    return causes


def _joined_other(base, scanned):
    """The merged trace's otherData: the files' ranks and dropped summed, the first's run."""
    first = scanned[0][0]
    other = {"format": "papi-compat trace", "version": 1, "base_ns": base,
             "ranks": sum(o["ranks"] for o, _n in scanned),
             "dropped": sum(o["dropped"] for o, _n in scanned)}
    for k in ("program", "run_id", "creator"):
        if k in first:
            other[k] = first[k]
    return other


def _scan_all(paths, index):
    """[(otherData, number of events)] of each trace, checked one event at a time; a rank's
    file of an index is also of one rank and counts from the index's base_ns."""
    checking, scanned = progress.Progress("checking the traces", len(paths), "files"), []
    for p in paths:
        other, n = scan(p)
        if index is not None:
            why = trace_index.rank_file_fault(p, other, index)
            if why:
                raise TraceMergeError(why)
            other = {"base_ns": other["base_ns"]}  # all the merge needs of it: 10^5 ranks
        scanned.append((other, n))
        checking.step()
    checking.done()
    if not scanned:
        raise TraceMergeError("no trace to merge")
    return scanned


def _checked(events):
    """The events, an error while they are read again (a file changed) a TraceMergeError."""
    try:
        yield from events
    except (trace_file.TraceError, event_logs.EventLogError) as e:
        raise TraceMergeError(str(e))


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


def write(merged, out):
    """Written under a temporary name, event by event, then linked into place: a file that
    appeared at OUT meanwhile is kept (FileExistsError). The number of events written."""
    d = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".trace.", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write('{"traceEvents":[\n')
            sep, n, writing = "", 0, progress.Progress("writing " + out, merged.count, "events")
            for e in merged.events:
                f.write(sep)
                f.write(json.dumps(e, separators=(",", ":")))
                sep, n = ",\n", n + 1
                if not n & 4095:
                    writing.at(n)
            writing.done()
            f.write('\n],\n"displayTimeUnit":"ns",\n"otherData":%s}\n'
                    % json.dumps(merged.other, separators=(",", ":")))
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
        try:
            merged = merge(paths, notes)
            written = write(merged, out)
        finally:
            progress.clear()  # an error is said on a line of its own
    except TraceMergeError as e:
        print("papi_report: %s" % e, file=sys.stderr)
        return 2
    except FileExistsError:
        print("papi_report: %s" % refuse_out(out, paths), file=sys.stderr)
        return 2
    except OSError as e:
        print("papi_report: cannot write %s: %s" % (out, e.strerror), file=sys.stderr)
        return 1
    print("papi_report: wrote %s (%d ranks, %d events)" % (out, merged.other["ranks"],
                                                            written))
    found = merged.other.get("root_causes")
    if found:
        print("papi_report: with the critical path (%.6f s of the wall time %.6f s) and %d "
              "waits linked to their root causes, from the event logs in %s"
              % (found["critical_path_s"], found["wall_s"], found["waits_linked"],
                 found["event_logs"]))
    for line in merged.said:
        print("papi_report: %s" % line, file=sys.stderr)
    for r in merged.other.get("unfinished", []):
        print(event_logs.unfinished_line(r))
    for note in notes:
        print("papi_report: %s: left out" % note, file=sys.stderr)
    return 2 if notes else 0
