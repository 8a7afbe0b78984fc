"""papi_report.load.mpi_rows: what the ranks of an MPI job left in its output directory, read
once for papi_mpi_collect and `papi_report DIR` (a job that died): papi_mpi_report.json
(MPI_Finalize reached) and each rank's row, papi_mpi_rank<N>.partial.json (its exit
path), .checkpoint.json (its last snapshot) or .checkpoint.prev.json (the snapshot
before: the only one a rank killed while it replaced its snapshot leaves). Each file is
checked before use as papi_report checks its other inputs (load.py: its schema,
mpi_report or mpi_row, then what a schema cannot say: MPI time above the wall time, a
series running backwards, NaN); a file that fails is named in one line and left out
(the rank's next row, if it has one, stands for it). Only the newest run's files count (newest_run: a run id starts with its start time,
else its files' time), so what an earlier run left in the same directory is never taken for this run's. The load layer:
the standard library only, so papi_mpi_collect uses it without pandas."""
import os
import re

from .check import MalformedInput, ReportError, _Checker, _check_samples, _finite, _load_json, finite, forget
from .load import _follows_schema, load_mpi

REPORT = "papi_mpi_report.json"
#: A rank's rows, in the order one wins over another of the same run: the exit path's row
#: is the rank's end, the last snapshot comes before it, the one before that last.
ROW_KINDS = ("partial", "checkpoint", "checkpoint.prev")
ROW_NAME = re.compile(r"papi_mpi_rank(\d+)\.(partial|checkpoint|checkpoint\.prev)\.json")


def run_time(run_id):
    """A run id's start time (seconds, nanoseconds), (-1, -1) when it has none."""
    m = re.match(r"(\d+)\.(\d+)", run_id if isinstance(run_id, str) else "")
    return (int(m.group(1)), int(m.group(2))) if m else (-1, -1)


def newest_run(run_paths):
    """The newest of the runs {run_id: [paths of its files]}, None when there is none. A
    run's time is the start its id begins with (the wrapper's own id, time.ns-pid); a run
    whose id does not (papi_run's, which the wrapper takes from PAPI_RUN_ID: the
    launcher's job, or host-pid-start) counts from when its newest file was written: a
    killed earlier run's files are older than this run's start, and this run's files
    newer than that run's start."""
    def when(run_id):
        t = run_time(run_id)
        if t != (-1, -1):
            return t
        ns = -1
        for p in run_paths[run_id]:
            try:
                ns = max(ns, os.stat(p).st_mtime_ns)
            except OSError:
                pass
        return divmod(ns, 10**9) if ns >= 0 else (-1, -1)
    return max(run_paths, key=when, default=None)


def row_names(directory):
    """{file name: (rank, kind)} of the rows in directory."""
    try:
        names = os.listdir(directory)
    except OSError:
        return {}
    out = {}
    for n in names:
        m = ROW_NAME.fullmatch(n)
        if m:
            out[n] = (int(m.group(1)), m.group(2))
    return out


def load_row(path):
    """A rank's row, checked: its schema (mpi_row.schema.json) and what a schema cannot
    say (MPI time within the wall time, a series never going back, no NaN or Infinity).
    MalformedInput naming the file and what is wrong, ReportError when it cannot be read."""
    row = _load_json(path)
    try:
        if not isinstance(row, dict):
            raise MalformedInput("%s is not a rank's row (a JSON object)" % path)
        _follows_schema(path, row, "mpi_row")
        c = _Checker(path)
        wall, mpi = row.get("wall_s"), row.get("mpi_s")
        if _finite(wall) and _finite(mpi) and mpi > wall * (1 + 1e-9) + 1e-6:
            c.bad("$.mpi_s", "is %g s, more than the rank's wall time ($.wall_s %g s)" % (mpi, wall))
        series = row.get("series")
        if isinstance(series, dict):
            _check_samples(c, series.get("samples"), "$.series.samples", [])
        finite(c, row)
    finally:
        forget(row)
    if not isinstance(row.get("rank"), int) or isinstance(row["rank"], bool):  # without the schema files
        raise MalformedInput("%s: $.rank is missing or not a rank number" % path)
    return row


class Found:
    """What a directory holds of one run: run_id (the newest run's), report (its
    papi_mpi_report.json, or None), rows ({rank: (kind, file name, row)}: the row that wins
    of each rank), ignored (file names of earlier runs), malformed (one line per file left
    out: "FILE: what is wrong"), directory (where they are)."""

    def __init__(self, directory):
        self.run_id, self.report, self.rows, self.ignored, self.malformed = None, None, {}, [], []
        self.directory = directory


def read(directory, report=True):
    """Found of directory: every row (and, with report, papi_mpi_report.json) checked, the
    newest run's taken, each rank's row by ROW_KINDS."""
    found = Found(directory)
    docs = []  # (run_id, kind, file name, doc)
    path = os.path.join(directory, REPORT)
    if report and os.path.exists(path):
        try:
            rep = load_mpi(path)
            docs.append((rep.get("run_id"), "report", REPORT, rep))
        except ReportError as e:
            if isinstance(e, MalformedInput) or os.path.exists(path):
                found.malformed.append(str(e))
    for name, (rank, kind) in sorted(row_names(directory).items()):
        try:
            row = load_row(os.path.join(directory, name))
        except ReportError as e:
            if isinstance(e, MalformedInput) or os.path.exists(os.path.join(directory, name)):
                found.malformed.append(str(e))
            continue  # else gone since it was listed: a live run's snapshot moved to .prev
        if row["rank"] != rank:
            found.malformed.append("%s: $.rank is %d, not the rank of its name" % (
                os.path.join(directory, name), row["rank"]))
            continue
        docs.append((row.get("run_id"), kind, name, row))
    paths = {}
    for run_id, _, name, _ in docs:
        paths.setdefault(run_id, []).append(os.path.join(directory, name))
    found.run_id = newest_run(paths)
    found.ignored = sorted(d[2] for d in docs if d[0] != found.run_id)
    for run_id, kind, name, doc in docs:
        if run_id != found.run_id:
            continue
        if kind == "report":
            found.report = doc
            continue
        have = found.rows.get(doc["rank"])
        if have is None or ROW_KINDS.index(kind) < ROW_KINDS.index(have[0]):
            found.rows[doc["rank"]] = (kind, name, doc)
    return found


def has_rows(directory):
    """Does directory hold a rank's row (a job that did not finish)?"""
    return os.path.isdir(directory) and bool(row_names(directory))
