"""papi_report.load.rank_rows: the MPI report's rank rows read from its file one at a time
(json_stream.py), never the whole document: a report of 100,000 ranks costs papi_report
one row's memory to read. read() checks the file as load_mpi always did (its schema, the
rows an item at a time: schema_check.part_check; check.py's row rules, MpiRowRules; no
NaN or Infinity anywhere) and returns its other members with a RankRows in place of
the rows, which reads them again, one at a time, each time it is iterated (the tables
take a pass each). The load layer: the standard library only."""
import collections.abc
import itertools
import os

from . import json_stream, schema_check
from .check import MalformedInput, MpiRowRules, _Checker, finite, json_errors
from .input_file import open_text

KIND = "mpi_report"


def _constant(name):  # NaN, Infinity: read, then refused by check.finite naming where
    return float(name)


def _rows_of(path):
    """(key, value) of the report's members, its rows an iterator (json_stream.members);
    what reading them raises as check.json_errors says it, the rows' too."""
    with json_errors(path):
        with open_text(path) as f:
            try:
                for k, v in json_stream.members(f, ("ranks",), _constant):
                    yield k, (_items(path, v) if hasattr(v, "__next__") else v)
            except json_stream.NotAnObject:  # JSON perhaps, but not a report
                raise MalformedInput("%s is not an MPI report of the papi MPI wrapper (not a "
                                     "JSON object with a 'ranks' list)" % path)


def _items(path, items):
    """The rows as they are read, a fault among them said as json_errors says it."""
    with json_errors(path):
        yield from items


class RankRows(collections.abc.Sequence):
    """The report's rank rows as a sequence read from the file on demand: len() and
    iteration (one row in memory), rows[i] and rows[a:b] (read up to them: slow, for a
    user's look at a few). A file changed since read() checked it (another inode, size or
    mtime) raises MalformedInput."""

    def __init__(self, path, n, stamp):
        self.path, self.n, self.stamp = path, n, stamp

    def __len__(self):
        return self.n

    def __iter__(self):
        if _stamp(self.path) != self.stamp:  # another file now: its rows were never checked
            raise MalformedInput("%s changed since papi_report checked it (its rank rows are "
                                 "read again for each table): run papi_report again" % self.path)
        for k, v in _rows_of(self.path):
            if k == "ranks" and hasattr(v, "__next__"):
                yield from v
                return

    def __getitem__(self, i):
        if isinstance(i, slice):
            return list(itertools.islice(self, *i.indices(self.n)))
        j = i + self.n if i < 0 else i
        if not 0 <= j < self.n:
            raise IndexError("rank row %d of %d" % (i, self.n))
        return next(itertools.islice(self, j, None))

    def __bool__(self):
        return self.n > 0


def read(path, whole_check):
    """The report at path, its "ranks" a RankRows, checked a row at a time; whole_check
    (path, top): the schema check of the other members (load._follows_schema's), given the
    first row that broke the row's schema in their "ranks". MalformedInput (one line: the
    file, the JSON path, the rule) on the first fault, ReportError when unreadable."""
    c, top, ok = _Checker(path), {}, schema_check.part_check(KIND, "$defs", "row")
    stamp = _stamp(path)
    rules, bad, fault = None, None, None
    for k, v in _rows_of(path):
        if k in top:
            raise MalformedInput("%s: $.%s: the member is given twice" % (path, k))
        if k == "ranks" and hasattr(v, "__next__"):
            rules = MpiRowRules(c, top.get("nranks") if _int(top.get("nranks")) else None)
            for i, r in enumerate(v):
                if bad is None and ok is not None and not ok(r):
                    bad = (i, r)  # said by the schema check below, where it says it
                if fault is None:
                    try:
                        rules.row(i, r)
                        finite(c, r, "$.ranks[%d]" % i)
                    except MalformedInput as e:
                        fault = e  # said after the schema's fault, as for a whole document
            v = []
        top[k] = v
    if not isinstance(top.get("ranks"), list):
        raise MalformedInput("%s is not an MPI report of the papi MPI wrapper (no 'ranks' list)" % path)
    whole_check(path, top, bad)
    if fault is not None:
        raise fault
    rules.end(top.get("nranks") if _int(top.get("nranks")) else None, top.get("finished_ranks"))
    finite(c, top)
    top["ranks"] = RankRows(path, rules.n, stamp)
    return top


def _stamp(path):
    """What tells the file read by read() from another at path: its inode, size, mtime."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)
