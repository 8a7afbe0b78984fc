"""papi_report --merge-trace OUT DIR: a job that died before MPI_Finalize (no
papi_mpi_report.json) still has each rank's event log up to its last checkpoint or its
exit path, in DIR/papi_mpi_rank<N>.events.jsonl (schema/mpi_event_log.schema.json, written
by mpi-wrappers/event_log/event_log_file.c). This module reads them, computes the wait states the
wrapper computes at MPI_Finalize (wait_states.c: the same rules) from what was logged, and
makes one Chrome trace-event JSON document of them: a track per rank and thread (the
record's thread slot: MPI_THREAD_MULTIPLE programs), the MPI calls and regions as slices
with their waits, PAPI_INTERVAL's samples as counter tracks (each event's count since
MPI_Init), and in otherData the waits per rank and the ranks that did not finish, with
why. Plain Python, no pandas."""
import glob
import json
import math
import os
import re

from . import mpi_rows, mpi_rules, schema_check
from .input_file import BrokenLine, InputRefused, json_lines

# Record kinds (event_log.h) and flags.
CALL, SEND, RECV, COLL, WAIT, REGION_ENTER, REGION_EXIT, COUNTER = range(1, 9)
#: The log keeps a named metric (a double) as an integer in millionths, its name saying so;
#: the trace takes the number itself.
METRIC_SUFFIX = " (millionths)"
EVF_SYNC, EVF_WORLD, EVF_ROOT, EVF_GROUP, EVF_IDLE, EVF_POLL = 1, 2, 4, 8, 16, 64
ANY_TAG = -1  # MPICH's and Open MPI's MPI_ANY_TAG
RENDEZVOUS_BYTES = 64 * 1024  # wait_states.h: PMPI_RENDEZVOUS_BYTES
KINDS = mpi_rules.REPORT_KEYS  # mpi-wrappers/wait_kinds.list, the report's order
# What a collective's wait kind waits for, as wait_states.c indexes it.
ALL, ROOT, NONROOT = range(3)
ARRIVALS = {"all": ALL, "root": ROOT, "nonroot": NONROOT}


class EventLogError(Exception):
    """No event log in a directory, or one that cannot be read."""


def has_logs(path):
    return os.path.isdir(path) and bool(glob.glob(os.path.join(path, "papi_mpi_rank*.events.jsonl")))


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
            any(not isinstance(r, list) or len(r) not in (11, 12, 13) for r in doc["records"]):
        return "%s: not a line of an event log (mpi_event_log.schema.json)" % where
    return None


def _lines_of(path, notes):
    """[(line number, document)] of one rank's log, each line checked; its torn last line
    (the writer appends whole lines: only a rank killed while it appended leaves one) said
    in notes and left out."""
    try:
        lines, torn = json_lines(path, _no_constant)
    except OSError as e:
        raise EventLogError("%s: cannot read: %s" % (path, e.strerror))
    except InputRefused as e:
        raise EventLogError(str(e))
    except BrokenLine as e:
        raise EventLogError("%s: %s" % (path, e))
    except UnicodeDecodeError as e:
        raise EventLogError("%s: not UTF-8: %s" % (path, e))
    if torn:
        notes.append("%s: line %d: %s" % (path, torn[0], torn[1]))
    for n, doc in lines:
        why = _line_fault("%s: line %d" % (path, n), doc)
        if why:
            raise EventLogError(why)
    return lines


def _check_line(where, doc, rank, nranks):
    """What the schema cannot say of a line: its rank is its file's (papi_mpi_rank<N>),
    below its nranks, which every line of the run gives alike; each record ends at or
    after its start."""
    if doc["rank"] != rank:
        return "%s: $.rank: %d, but the file is rank %d's log" % (where, doc["rank"], rank)
    if doc["rank"] >= doc["nranks"]:
        return "%s: $.rank: %d, not a rank of the %d ($.nranks)" % (where, doc["rank"], doc["nranks"])
    if nranks is not None and doc["nranks"] != nranks[0]:
        return "%s: $.nranks: %d, but %s says %d" % (where, doc["nranks"], nranks[1], nranks[0])
    for k, rec in enumerate(doc["records"]):
        if isinstance(rec[2], int) and isinstance(rec[3], int) and rec[3] < rec[2]:
            return ("%s: $.records[%d][3]: t1 %d ns, before the record's t0 %d ns "
                    "($.records[%d][2]): a call that ends before it starts" % (where, k, rec[3], rec[2], k))
    return None


def load(directory, notes=None):
    """{rank: {"records": [...], "reason", "offset_ns", "dropped", "nranks", "run_id"}} of the
    newest run's lines; a torn last line, from a rank killed while it appended, left out
    and said in notes (a list, one line each)."""
    notes = [] if notes is None else notes
    lines = []
    for path in sorted(glob.glob(os.path.join(directory, "papi_mpi_rank*.events.jsonl"))):
        m = re.search(r"papi_mpi_rank(\d+)\.events\.jsonl$", path)
        if m:
            lines += [(path, n, int(m.group(1)), doc) for n, doc in _lines_of(path, notes)]
    if not lines:
        raise EventLogError("%s: no event log (papi_mpi_rank*.events.jsonl)" % directory)
    newest = max((d.get("run_id") for _p, _n, _r, d in lines), key=mpi_rows.run_time)
    ranks, nranks = {}, None
    for path, n, rank, d in lines:
        if d.get("run_id") != newest:
            continue
        why = _check_line("%s: line %d" % (path, n), d, rank, nranks)
        if why:
            raise EventLogError(why)
        nranks = nranks or (d["nranks"], "%s: line %d" % (path, n))
        r = ranks.setdefault(d["rank"], {"byindex": {}, "reason": None, "offset_ns": 0,
                                         "dropped": 0, "nranks": d["nranks"], "run_id": newest})
        for k, rec in enumerate(d["records"]):
            r["byindex"][d["first"] + k] = rec
        r["offset_ns"] = d["offset_ns"]
        r["dropped"] = max(r["dropped"], d["dropped"])
        if d["reason"] != "checkpoint" or r["reason"] is None:
            r["reason"] = d["reason"]
    for r in ranks.values():
        idx = sorted(r.pop("byindex").items())
        recs = []
        for i, rec in idx:  # the records in order, up to the first gap
            if i != len(recs):
                break
            kind, name, t0, t1, peer, tag, nbytes, req, flags, site, group = rec[:11]
            recs.append({"kind": kind, "name": name, "t0": t0 - r["offset_ns"],
                         "t1": t1 - r["offset_ns"], "peer": peer, "tag": tag, "bytes": nbytes,
                         "req": req, "flags": flags, "site": site, "group": group,
                         # the thread's slot (an older log has none: one thread)
                         "thread": rec[11] if len(rec) > 11 else 0,
                         # the calls it stands for: a fold's polls (an older log: one)
                         "calls": rec[12] if len(rec) > 12 else 1,
                         "wait": 0.0, "wkind": None, "waiter": None})
        r["records"] = recs
    return ranks


def _link_requests(recs):
    """Each nonblocking record's Wait: the latest I-record with that request before it."""
    open_req = {}
    for i, e in enumerate(recs):
        if not e["req"] or e["kind"] not in (SEND, RECV, COLL, WAIT):
            continue
        if e["kind"] != WAIT:
            open_req[e["req"]] = i
        elif e["req"] in open_req:
            m = recs[open_req.pop(e["req"])]
            m["waiter"] = i
            if m["kind"] == RECV and m["flags"] & EVF_WORLD:
                if m["peer"] < 0 and e["peer"] >= 0:
                    m["peer"] = e["peer"]
                if m["tag"] == ANY_TAG and e["tag"] >= 0:
                    m["tag"] = e["tag"]


def _blocker(recs, i):
    return recs[i]["waiter"] if recs[i]["req"] else i


def _add_wait(recs, b, t, kind):
    if b is None:
        return
    e = recs[b]
    w = min(t, e["t1"]) - e["t0"]
    if w > e["wait"]:
        e["wait"], e["wkind"] = w, kind


def _p2p(ranks, stats):
    """The k-th send of (sender, tag, world) to a rank with its k-th receive of the same."""
    sends = {}  # (dest, src, tag, world) -> [send records in order]
    for src, r in ranks.items():
        for i, e in enumerate(r["records"]):
            if e["kind"] == SEND and e["peer"] >= 0:
                sends.setdefault((e["peer"], src, e["tag"], bool(e["flags"] & EVF_WORLD)),
                                 []).append((src, i))
    taken = {}
    for dst, r in ranks.items():
        recs = r["records"]
        for i, e in enumerate(recs):
            if e["kind"] != RECV:
                continue
            key = (dst, e["peer"], e["tag"], bool(e["flags"] & EVF_WORLD))
            k = taken.get(key, 0)
            lst = sends.get(key, [])
            if e["peer"] < 0 or e["tag"] < 0 or k >= len(lst):
                stats["p2p_unmatched"] += 1
                continue
            taken[key] = k + 1
            src, si = lst[k]
            srecs = ranks[src]["records"]
            s = srecs[si]
            stats["p2p_matched"] += 1
            _add_wait(recs, _blocker(recs, i), s["t0"], 0)
            if (s["flags"] & EVF_SYNC) or s["bytes"] >= RENDEZVOUS_BYTES:
                _add_wait(srecs, _blocker(srecs, si), e["t0"], 1)


def _coll_class(name):
    """(wait kind's index, arrival) of a collective (mpi_calls.list's wait= column), or None."""
    kind = mpi_rules.COLL_WAITS.get(name)
    if kind is None:
        return None
    return mpi_rules.WAIT_KINDS.index(kind), ARRIVALS[mpi_rules.WAITS_FOR[kind]]


def _coll_key(e):
    """A collective's identity across ranks: (0, number) on world-congruent communicators,
    (group key, number in the group) on others."""
    return (e["group"] if e["flags"] & EVF_GROUP else 0, e["tag"])


def _collectives(ranks, nranks, stats):
    """Per collective, the last arrival (all, root, non-root) over the ranks; only the
    collectives every member logged (a rank's log that ends before one leaves its arrival
    unknown): nranks of them on world-congruent communicators, as many as the most any
    collective of that group had (its size) on others."""
    arr, size = {}, {}
    for r in ranks.values():
        for e in r["records"]:
            if e["kind"] == COLL:
                a = arr.setdefault(_coll_key(e), [0, -math.inf, -math.inf, -math.inf])
                a[0] += 1
                if e["flags"] & EVF_IDLE:  # a member that moves nothing: no arrival
                    continue
                a[1] = max(a[1], e["t0"])
                w = 2 if e["flags"] & EVF_ROOT else 3
                a[w] = max(a[w], e["t0"])
    for (g, _), a in arr.items():
        size[g] = max(size.get(g, 0), a[0])
    for r in ranks.values():
        recs = r["records"]
        for i, e in enumerate(recs):
            if e["kind"] != COLL:
                continue
            k = _coll_key(e)
            a = arr[k]
            if a[0] < (size[k[0]] if k[0] else nranks):
                stats["coll_unmatched"] += 1
                continue
            stats["coll_matched"] += 1
            cls = _coll_class(e["name"])
            if not cls or e["flags"] & EVF_IDLE:
                continue
            kind, arrival = cls
            if (arrival == ROOT and e["flags"] & EVF_ROOT) or \
                    (arrival == NONROOT and not e["flags"] & EVF_ROOT):
                continue
            t = a[1 + arrival]
            if math.isfinite(t):
                _add_wait(recs, _blocker(recs, i), t, kind)


def wait_states(ranks):
    """The waits per rank ({"rank", "records", "<kind>_s"...}) and the matching counts."""
    nranks = max([r["nranks"] for r in ranks.values()] + [max(ranks) + 1])
    stats = {"p2p_matched": 0, "p2p_unmatched": 0, "coll_matched": 0, "coll_unmatched": 0}
    for r in ranks.values():
        _link_requests(r["records"])
    _p2p(ranks, stats)
    _collectives(ranks, nranks, stats)
    out = []
    for rank in sorted(ranks):
        row = {"rank": rank, "records": len(ranks[rank]["records"]),
               "dropped": ranks[rank]["dropped"]}
        row.update({k: 0.0 for k in KINDS})
        for e in ranks[rank]["records"]:
            if e["wait"] > 0:
                row[KINDS[e["wkind"]]] += e["wait"] * 1e-9
        out.append(row)
    return out, stats, nranks


NO_LOG = "no event log (killed before its first checkpoint)"


def unfinished(ranks, nranks, rows=None):
    """The ranks that did not reach MPI_Finalize, with what ended their log; a rank without
    a log that left a row (rows: mpi_rows.Found.rows) is said by its row. Ranks that left
    neither are one entry per run of them ("rank" to "last_rank"): the work is the files',
    whatever nranks the logs claim."""
    rows = rows or {}
    out, prev = [], -1
    end = max([nranks] + [k + 1 for k in rows])
    for rank in sorted(set(ranks) | set(rows)) + [end]:
        if rank > prev + 1:  # prev+1 .. rank-1 left nothing
            out.append({"rank": prev + 1, "exit_reason": NO_LOG})
            if rank - 1 > prev + 1:
                out[-1]["last_rank"] = rank - 1
        prev = rank
        if rank == end:
            break
        r = ranks.get(rank)
        if r is None:
            _kind, name, row = rows[rank]
            why = "no event log; its row %s says %s" % (name, row.get("exit_reason") or "nothing")
        else:
            why = "killed after its last checkpoint (no exit path ran)" if r["reason"] == "checkpoint" \
                else r["reason"]
        out.append({"rank": rank, "exit_reason": why})
    return out


def unfinished_line(g):
    """papi_report's line for an entry of unfinished()."""
    if "last_rank" in g:
        return "papi_report: ranks %d-%d did not finish: %s" % (g["rank"], g["last_rank"], g["exit_reason"])
    return "papi_report: rank %d did not finish: %s" % (g["rank"], g["exit_reason"])


def trace(directory, notes=None):
    """(otherData, number of events, events) of the Chrome trace-event document of the
    event logs in directory (notes: load's)."""
    ranks = load(directory, notes)
    waits, stats, nranks = wait_states(ranks)
    times = [e["t0"] for r in ranks.values() for e in r["records"]]
    base = max(0, int(min(times))) if times else 0
    gone = unfinished(ranks, nranks)
    why_of = {g["rank"]: g["exit_reason"] for g in gone}

    def us(t):
        return max(0.0, round((t - base) / 1000.0, 3))
    events = []
    for rank in sorted(ranks):
        why = why_of[rank]
        events.append({"ph": "M", "pid": rank, "tid": 0, "name": "process_name",
                       "args": {"name": "rank %d (did not finish: %s)" % (rank, why)}})
        events.append({"ph": "M", "pid": rank, "tid": 0, "name": "process_sort_index",
                       "args": {"sort_index": rank}})
        # a track per thread slot: 0 the thread of MPI_Init, the others by first MPI call
        for th in sorted({e["thread"] for e in ranks[rank]["records"]}):
            events.append({"ph": "M", "pid": rank, "tid": th, "name": "thread_name",
                           "args": {"name": "thread %d" % th if th else "main thread"}})
        for e in ranks[rank]["records"]:
            tid = e["thread"]
            if e["kind"] == COUNTER:  # a PAPI_INTERVAL sample: the count since MPI_Init
                name, value = e["name"], e["bytes"]
                if name.endswith(METRIC_SUFFIX):  # a region's metric, logged in millionths
                    name, value = name[:-len(METRIC_SUFFIX)], value * 1e-6
                events.append({"ph": "C", "pid": rank, "tid": 0, "name": name,
                               "cat": "counter", "ts": us(e["t0"]),
                               "args": {"value": value}})
                continue
            if e["kind"] in (REGION_ENTER, REGION_EXIT):
                events.append({"ph": "B" if e["kind"] == REGION_ENTER else "E", "pid": rank,
                               "tid": tid, "name": e["name"] or "region", "cat": "region",
                               "ts": us(e["t0"])})
                continue
            b = {"ph": "B", "pid": rank, "tid": tid, "name": e["name"], "cat": "mpi",
                 "ts": us(e["t0"])}
            if e["wait"] > 0:
                b["args"] = {KINDS[e["wkind"]]: round(e["wait"] * 1e-9, 9)}
            if e["flags"] & EVF_POLL:  # folded polls: the count the in-process trace gives
                b.setdefault("args", {})["calls"] = e["calls"]
            events.append(b)
            events.append({"ph": "E", "pid": rank, "tid": tid, "name": e["name"], "cat": "mpi",
                           "ts": us(e["t1"])})
    other = {"format": "papi-compat trace", "version": 1, "base_ns": base, "ranks": len(ranks),
             "dropped": sum(r["dropped"] for r in ranks.values()),
             "run_id": next(iter(ranks.values()))["run_id"] or "",
             "creator": "papi_report --merge-trace (event logs of a run without "
                        "papi_mpi_report.json)",
             "wait_states": {"ranks": waits, "matched": stats},
             "unfinished": gone}
    return other, len(events), iter(events)


def has_rows(path):
    """Per-rank rows of a job that did not finish (papi_mpi_rank<N>.partial/checkpoint.json)."""
    return mpi_rows.has_rows(path)


def _rows_text(found):
    """The table of the rows (mpi_rows.read: the newest run's, each rank's that wins) and a
    line per row of an earlier run left out."""
    out = []
    if found.rows:
        out.append("rows (the ranks' own, papi_mpi_rank<N>.*.json, run %s):" % found.run_id)
        out.append("%5s %10s %10s  %s" % ("rank", "wall_s", "mpi_s", "exit_reason"))
        for rank in sorted(found.rows):
            kind, name, r = found.rows[rank]
            why = r.get("exit_reason") or "-"
            if kind == "checkpoint.prev":
                why += " (from %s)" % name
            out.append("%5d %10.6f %10.6f  %s" % (rank, float(r.get("wall_s") or 0),
                                                  float(r.get("mpi_s") or 0), why))
    for name in found.ignored:
        out.append("papi_report: %s: an earlier run's row (this run is %s): left out"
                   % (os.path.join(found.directory, name), found.run_id))
    return out


def summary(directory):
    """(text, malformed): the text `papi_report DIR` prints for a job that left event logs
    or rows but no papi_mpi_report.json (the wait states per rank the logs give, how the
    requests matched, and the ranks that did not finish: the same figures --merge-trace
    puts in its trace's otherData; each rank's own row), and one line per row left out
    because it is not JSON or breaks its schema ("FILE: what is wrong")."""
    found = mpi_rows.read(directory, report=False)
    why = "no event log"
    try:
        ranks = load(directory, found.malformed) if has_logs(directory) else None
    except EventLogError as e:
        if not found.rows:
            raise
        ranks, why = None, "event logs that cannot be used"
        found.malformed.append(str(e))  # said on stderr; the rows shown
    if ranks is None:  # rows only: no wait states without the event logs
        return "\n".join(["papi_report: %s holds no papi_mpi_report.json (the job did not "
                          "reach MPI_Finalize) and %s (no wait states): what its rows hold"
                          % (directory, why)] + _rows_text(found)) + "\n", found.malformed
    waits, stats, nranks = wait_states(ranks)
    run_id = next(iter(ranks.values()))["run_id"] or "?"
    out = ["papi_report: %s holds no papi_mpi_report.json (the job did not reach MPI_Finalize):"
           " what its event logs hold (run %s, %d of %d ranks logged)"
           % (directory, run_id, len(ranks), nranks),
           "%5s %8s %8s" % ("rank", "records", "dropped") + "".join(" %15s" % k for k in KINDS)]
    for w in waits:
        out.append("%5d %8d %8d" % (w["rank"], w["records"], w["dropped"]) +
                   "".join(" %15.6f" % w[k] for k in KINDS))
    out.append("matched: point-to-point %d (unmatched %d), collectives %d (unmatched %d)"
               % (stats["p2p_matched"], stats["p2p_unmatched"], stats["coll_matched"],
                  stats["coll_unmatched"]))
    out += _rows_text(found)
    out += [unfinished_line(g) for g in unfinished(ranks, nranks, found.rows)]
    out.append("papi_report: the timeline of these logs: papi_report --merge-trace OUT.json %s"
               % directory)
    return "\n".join(out) + "\n", found.malformed
