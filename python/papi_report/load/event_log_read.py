"""papi_report.load.event_log_read: the event logs of a dead MPI job
(papi_mpi_rank<N>.events.jsonl, schema/mpi_event_log.schema.json) read one line at a time:
scan() checks every line and keeps only what each line says of itself (its run, rank,
first record and how many: no record), records() reads a rank's records again, in their
order. So the readers' memory is bounded by one line (a checkpoint's records, at most
about 7,000: event_log_file.c's LINE_CAP) and what they keep per record, not by the
logs. A log's records are its newest run's, by index (a record appended twice, by a
checkpoint and an exit path at once, has the same index both times: the later line's
copy is taken), up to the first index no line has. The load layer: no pandas."""
import glob
import os
import re

from . import mpi_rows, schema_check
from .plausible import MAX_NS
from .input_file import BrokenLine, InputRefused, iter_json_lines
from .progress import Progress

PATTERN = "papi_mpi_rank*.events.jsonl"


#: A site's key in a line's "sites" (the schema's propertyNames).
_SITE_KEY = re.compile(r"0x[0-9a-f]{1,16}\Z")
#: The most site names kept per rank (the wrapper names 2048 at most: site_names.c); a
#: file with more keeps the first, the rest shown as addresses.
MAX_SITE_NAMES = 4096


class EventLogError(Exception):
    """No event log in a directory, or one that cannot be read."""


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def _line_fault(where, doc):
    """None when a line of an event log follows mpi_event_log.schema.json, else one line
    naming the file, the line, the JSON path and the rule. Without the schema files, the
    shape this module needs is checked here."""
    try:
        return schema_check.check_document(where, doc, "mpi_event_log")
    except schema_check.SchemaUnavailable:
        pass
    if not isinstance(doc, dict) or doc.get("kind") != "event_log" or \
            not isinstance(doc.get("rank"), int) or not isinstance(doc.get("records"), list) or \
            any(not isinstance(r, list) or len(r) not in (11, 12, 13) for r in doc["records"]) or \
            not isinstance(doc.get("sites", {}), dict) or \
            any(not isinstance(k, str) or not _SITE_KEY.match(k) or not isinstance(v, str)
                for k, v in doc.get("sites", {}).items()):
        return "%s: not a line of an event log (mpi_event_log.schema.json)" % where
    return None


def _lines(path, notes):
    """(line number, document) of one rank's log, each line checked as it is read; its
    torn last line (only a rank killed while it appended leaves one) said in notes."""
    torn, lines = [], 0
    try:
        for n, doc in iter_json_lines(path, _no_constant, torn):
            why = _line_fault("%s: line %d" % (path, n), doc)
            if why:
                raise EventLogError(why)
            lines += 1
            yield n, doc
    except OSError as e:
        raise EventLogError("%s: cannot read: %s" % (path, e.strerror))
    except InputRefused as e:
        raise EventLogError(str(e))
    except BrokenLine as e:
        raise EventLogError("%s: %s" % (path, e))
    except UnicodeDecodeError as e:
        raise EventLogError("%s: not UTF-8: %s" % (path, e))
    if torn and notes is not None:
        notes.append("%s: line %d: %s" % (path, torn[0][0], torn[0][1]))
    elif not lines and notes is not None:
        # The wrapper creates the file at its first append, which it writes whole: an
        # empty one was cut (a full disk, a rank killed in between) and holds no record.
        notes.append("%s: empty (no line; a log holds one at least)" % path)


def _time_fault(doc):
    """The first record of a line that ends before it starts, or at a time no clock since
    boot reaches (past a century: a writer's -1, plausible.py): "$.records[k][3]: ...", or
    None."""
    for k, rec in enumerate(doc["records"]):
        for i in (2, 3):
            if isinstance(rec[i], int) and rec[i] > MAX_NS:
                return ("$.records[%d][%d]: t%d %d ns (%.4g years of CLOCK_MONOTONIC): a time "
                        "past a century" % (k, i, i - 2, rec[i], rec[i] / (365 * 86400 * 1e9)))
        if isinstance(rec[2], int) and isinstance(rec[3], int) and rec[3] < rec[2]:
            return ("$.records[%d][3]: t1 %d ns, before the record's t0 %d ns "
                    "($.records[%d][2]): a call that ends before it starts" % (k, rec[3], rec[2], k))
    return None


def line_faults(path):
    """papi_report --check of one log: the first record of a line whose times cannot be
    (_time_fault), "FILE: line N: ...", or None."""
    try:
        for n, doc in _lines(path, None):
            why = _time_fault(doc)
            if why:
                return "%s: line %d: %s" % (path, n, why)
    except EventLogError as e:
        return str(e)
    return None


def _check_line(where, line, rank, nranks):
    """What the schema cannot say of a line: its rank is its file's (papi_mpi_rank<N>),
    below its nranks, which every line of the run gives alike; each record ends at or
    after its start."""
    if line["rank"] != rank:
        return "%s: $.rank: %d, but the file is rank %d's log" % (where, line["rank"], rank)
    if line["rank"] >= line["nranks"]:
        return "%s: $.rank: %d, not a rank of the %d ($.nranks)" % (where, line["rank"], line["nranks"])
    if nranks is not None and line["nranks"] != nranks[0]:
        return "%s: $.nranks: %d, but %s says %d" % (where, line["nranks"], nranks[1], nranks[0])
    if line["time_fault"]:
        return "%s: %s" % (where, line["time_fault"])
    return None


_KEPT = ("run_id", "rank", "nranks", "reason", "offset_ns", "dropped", "first")


def scan(directory, notes=None):
    """{rank: {"reason", "offset_ns", "dropped", "nranks", "run_id", "path", "spans",
    "count", "sites"}} of the newest run's lines, in the order of the files' names (spans:
    each line's (first index, records, line number), in file order; count: the records
    kept; sites: {site: its name} the lines give, "FILE:LINE", at most MAX_SITE_NAMES);
    a torn last line left out and said in notes (a list, one line each)."""
    lines, paths = [], sorted(glob.glob(os.path.join(directory, PATTERN)))
    progress = Progress("checking the event logs", len(paths), "files")
    for path in paths:
        progress.step()
        m = re.search(r"papi_mpi_rank(\d+)\.events\.jsonl$", path)
        if not m:
            continue
        for n, doc in _lines(path, notes):
            line = {k: doc.get(k) for k in _KEPT}
            line.update(path=path, n=n, file_rank=int(m.group(1)), records=len(doc["records"]),
                        time_fault=_time_fault(doc), sites=doc.get("sites") or {})
            lines.append(line)
    progress.done()
    if not lines:
        raise EventLogError("%s: no event log (papi_mpi_rank*.events.jsonl)%s" % (
            directory, " with a line: %s empty" % ", ".join(paths) if paths else ""))
    runs = {}
    for d in lines:
        runs.setdefault(d["run_id"], []).append(d["path"])
    newest = mpi_rows.newest_run(runs)
    ranks, nranks = {}, None
    for d in lines:
        if d["run_id"] != newest:
            continue
        where = "%s: line %d" % (d["path"], d["n"])
        why = _check_line(where, d, d["file_rank"], nranks)
        if why:
            raise EventLogError(why)
        nranks = nranks or (d["nranks"], where)
        r = ranks.setdefault(d["rank"], {"reason": None, "offset_ns": 0, "dropped": 0,
                                         "nranks": d["nranks"], "run_id": newest,
                                         "path": d["path"], "spans": [], "sites": {}})
        r["spans"].append((d["first"], d["records"], d["n"]))
        for key, name in d["sites"].items():
            if len(r["sites"]) < MAX_SITE_NAMES:
                r["sites"].setdefault(int(key, 16), name)
        r["offset_ns"] = d["offset_ns"]
        r["dropped"] = max(r["dropped"], d["dropped"])
        if d["reason"] != "checkpoint" or r["reason"] is None:
            r["reason"] = d["reason"]
    for r in ranks.values():
        r["count"] = _count(r["spans"])
    return ranks


def _count(spans):
    """The records kept: indices 0 up to the first that no line holds."""
    end = 0
    for first, n, _line in sorted(spans):
        if first > end:
            break
        end = max(end, first + n)
    return end


def _in_order(spans):
    """Whether the lines hold each index once, in order (every log but one whose checkpoint
    and exit path appended at once): its records are then read in one pass."""
    end = 0
    for first, n, _line in spans:
        if first < end:
            return False
        end = first + n
    return True


def records(r):
    """The records (lists, as the log has them) of a rank scan() gave, in index order,
    read again from its file; EventLogError when the file changed meanwhile."""
    want = {line: first for first, _n, line in r["spans"]}
    count, got = r["count"], 0
    if _in_order(r["spans"]):
        for n, doc in _lines(r["path"], None):
            first = want.get(n)
            if first is None or doc.get("run_id") != r["run_id"] or first >= count:
                continue
            for rec in doc["records"][:count - first]:
                yield rec
                got += 1
    else:  # lines that overlap: by index, the later line's copy taken
        byindex = {}
        for n, doc in _lines(r["path"], None):
            first = want.get(n)
            if first is not None and doc.get("run_id") == r["run_id"]:
                for k, rec in enumerate(doc["records"]):
                    if first + k < count:
                        byindex[first + k] = rec
        for i in range(count):
            if i in byindex:
                yield byindex[i]
                got += 1
    if got != count:
        raise EventLogError("%s: changed while it was read (%d records, then %d)"
                            % (r["path"], count, got))
